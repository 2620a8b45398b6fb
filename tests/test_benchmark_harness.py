"""The benchmark harness (``benchmarks/harness.py``): every case names a script that
exists, every script of ``benchmarks/`` is a case (or the sides library), the list
prints them all, and a wrong name is one line on stderr."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))

import harness  # noqa: E402


def test_every_case_is_a_script_and_every_script_a_case() -> None:
    scripts = {c.script for c in harness.CASES.values()}
    assert all((BENCH / s).is_file() for s in scripts)
    on_disk = {p.name for p in BENCH.glob("*.py")} - {"harness.py", "sides.py"}
    assert on_disk == scripts
    assert {c.kind for c in harness.CASES.values()} <= {"speed", "check", "published", "tool"}


def test_paired_cases_take_an_old_checkout() -> None:
    for name, case in harness.CASES.items():
        if case.pairs_old:
            assert '"--old"' in (BENCH / case.script).read_text(encoding="utf-8"), name


def test_list_and_an_unknown_case() -> None:
    run = [sys.executable, str(BENCH / "harness.py")]
    listed = subprocess.run([*run, "--list"], capture_output=True, text=True, check=True).stdout
    assert [line.split()[0] for line in listed.splitlines()] == list(harness.CASES)
    bad = subprocess.run([*run, "no-such-case"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == ["harness: unknown case 'no-such-case'; --list shows the cases"]
