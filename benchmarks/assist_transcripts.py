"""Scripted ``assist`` games: a program plays the human, through a pipe, reading each prompt.

For each answer it starts ``wordle-lab assist``, waits for the prompt, reads the guess
the assistant proposed ("Try WORD" / "It must be WORD"), types the colours the real game
would show for it (computed with :func:`wordle_core.game.feedback.score`), and repeats until
the assistant reports the solve. One game also types a malformed line first. Prints
every transcript (stdout and stderr interleaved, as a terminal would show them).

Run: PYTHONPATH=. .venv/bin/python benchmarks/assist_transcripts.py [--answers cigar,abuzz,vivid]
     [--lexicon NAME] [--strategy NAME]     (no --lexicon: assist's default, today's game)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

from sides import code_root

from wordle_core.game.feedback import score

ROOT = code_root(__file__)  # the checkout measured (harness.py --compare: each side)
PROPOSAL = re.compile(r"(?:Try|It must be) (\S+?)[.\s]")


def read_until_prompt(proc: subprocess.Popen) -> str:
    buf = b""
    while not buf.endswith(b"> ") and proc.poll() is None:
        ch = os.read(proc.stdout.fileno(), 1)
        if not ch:
            break
        buf += ch
    return buf.decode()


def play(answer: str, lexicon: str | None, strategy: str | None, typo: bool) -> tuple[str, bool]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    cmd = [sys.executable, "-c", "from wordle_core.cli import entry; entry()", "assist",
           *(["--lexicon", lexicon] if lexicon else []), *(["--strategy", strategy] if strategy else [])]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env)
    transcript = ""
    proposal = None
    sent_typo, real = not typo, False
    for _ in range(12):
        chunk = read_until_prompt(proc)
        transcript += chunk
        found = PROPOSAL.findall(chunk)
        if found:
            proposal = found[-1].lower()
        if proc.poll() is not None or not chunk.endswith("> ") or (real and "error:" in chunk):
            break  # finished, or refused the real game's colours: the game is lost
        real = sent_typo
        line = score(proposal, answer) if real else "bbqgb"
        sent_typo = True
        proc.stdin.write((line + "\n").encode())
        proc.stdin.flush()
    proc.stdin.close()
    transcript += proc.stdout.read().decode()
    proc.wait(timeout=60)
    return transcript, "Solved in" in transcript and proc.returncode == 0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--answers", default="cigar,abuzz,vivid")  # ABUZZ: a 2023 answer only
    ap.add_argument("--lexicon", help="the game (default: assist's own default, today's)")
    ap.add_argument("--strategy")
    args = ap.parse_args()
    ok = True
    for i, ans in enumerate(args.answers.split(",")):
        text, solved = play(ans.strip(), args.lexicon, args.strategy, typo=(i == 0))
        print(f"===== answer {ans.upper()} ({'solved' if solved else 'NOT SOLVED'}) =====")
        print(text.rstrip())
        ok &= solved
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
