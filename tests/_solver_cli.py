"""Run the ``wordle-lab`` CLI from this worktree in a subprocess (stdin as a pipe)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cli(*args: str, input_text: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-c", "from wordle_core.cli import entry; entry()", *args],
        input=input_text, capture_output=True, text=True, timeout=timeout, env=env,
    )


def write_lexicon(lex, directory: Path) -> list[str]:
    """The lexicon as custom word-list files; returns the CLI flags that load it."""
    ans, gss = directory / "answers.txt", directory / "guesses.txt"
    ans.write_text("\n".join(lex.answers) + "\n")
    gss.write_text("\n".join(lex.guesses) + "\n")
    return ["--answers", str(ans), "--guesses", str(gss)]


def run_main(args: list[str], capsys, stdin_text: str = "") -> tuple[int, str, str]:
    """The CLI's ``main`` in this process (fast path for error-message tests)."""
    import io

    from wordle_core.cli import main

    old = sys.stdin
    sys.stdin = io.StringIO(stdin_text)
    try:
        code = main(args)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    finally:
        sys.stdin = old
    out = capsys.readouterr()
    return code, out.out, out.err
