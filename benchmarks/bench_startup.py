"""Start-up: whole-process CPU seconds of the quick commands, old vs new (target <= 0.2 CPU-s).

Each command runs as the ``wordle-lab`` console script does (a fresh interpreter that
imports :func:`wordle_core.cli.entry` and calls it), ``--runs`` times in a row; its CPU
time (user + system, the interpreter's start included) is read from
``resource.getrusage(RUSAGE_CHILDREN)`` before and after. The best of ``--repeat``
rounds is printed per command: CPU time, not wall time, because the machine is shared.
With ``--old DIR`` the old checkout and this tree take turns command by command, so both
meet the same load, and both must print the same bytes (the script exits 1 if not).

Usage: python benchmarks/bench_startup.py [--old DIR] [--repeat 5] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS: tuple[tuple[str, ...], ...] = (
    ("strategies",),
    ("candidates", "--history", "salet:bybgb"),
    ("candidates", "--history", "salet:bybgb,brine:bbgby"),
    ("candidates", "--history", "salet:bybgb", "--lexicon", "wordle"),
    ("candidates", "--history", "salet:bybgb,brine:bbgby", "--lexicon", "wordle"),
    ("score", "salet", "crane"),
    ("lexicons",),
    ("--help",),
    ("--version",),
)
ENTRY = "import sys; from wordle_core.cli import entry; sys.exit(entry())"
TARGET = 0.2


def run_once(root: str, argv: tuple[str, ...]) -> tuple[float, bytes]:
    """CPU seconds of one run of ``wordle-lab ARGV`` with ``root`` on PYTHONPATH, and its output."""
    env = dict(os.environ, PYTHONPATH=root)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-c", ENTRY, *argv], env=env, cwd=root,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, proc.stdout


def measure(sides: list[tuple[str, str]], argv: tuple[str, ...], repeat: int,
            runs: int) -> tuple[dict[str, float], dict[str, bytes]]:
    """Best-of-``repeat`` mean CPU-s over ``runs`` runs per side (sides take turns), and outputs."""
    best = {name: float("inf") for name, _ in sides}
    outs: dict[str, bytes] = {}
    for _ in range(repeat):
        for name, root in sides:
            cpus = []
            for _ in range(runs):
                cpu, outs[name] = run_once(root, argv)
                cpus.append(cpu)
            best[name] = min(best[name], sum(cpus) / runs)
    return best, outs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="root of an older checkout to compare against")
    ap.add_argument("--repeat", type=int, default=5, help="rounds; the best is kept (default 5)")
    ap.add_argument("--runs", type=int, default=3, help="runs per round, averaged (default 3)")
    args = ap.parse_args()
    sides = ([("old", args.old)] if args.old else []) + [("new", str(ROOT))]
    print(f"{'command':<70}" + "".join(f"{name + ' CPU-s':>12}" for name, _ in sides)
          + f"   target <= {TARGET}")
    rc = 0
    for argv in COMMANDS:
        best, outs = measure(sides, argv, args.repeat, args.runs)
        same = len(set(outs.values())) == 1
        rc = rc or (0 if same else 1)
        print(f"{'wordle-lab ' + ' '.join(argv):<70}"
              + "".join(f"{best[name]:>12.3f}" for name, _ in sides)
              + ("" if same else "   OUTPUT DIFFERS"))
    return rc


if __name__ == "__main__":
    sys.exit(main())
