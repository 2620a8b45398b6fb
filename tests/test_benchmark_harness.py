"""The benchmark harness (``benchmarks/harness.py``): every case names a script that
exists, every script of ``benchmarks/`` is a case (or the sides library), the list
prints them all, and a wrong name is one line on stderr."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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


def test_a_side_is_measured_in_its_own_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--compare`` runs a case once per side: the case's script must measure that side.
    A script whose children run ``python -c`` or ``-m`` takes the side from the harness
    (:data:`sides.SIDE_ROOT`), not from where the script lies: ``cold-compile`` once
    measured the new tree on both sides that way."""
    import sides

    monkeypatch.delenv(sides.SIDE_ROOT, raising=False)
    assert sides.code_root(str(BENCH / "bench_cold_compile.py")) == BENCH.parent
    monkeypatch.setenv(sides.SIDE_ROOT, str(tmp_path))
    assert sides.code_root(str(BENCH / "bench_cold_compile.py")) == tmp_path
    seen = []
    monkeypatch.setattr(harness.subprocess, "run", lambda cmd, **kw: seen.append(kw) or
                        subprocess.CompletedProcess(cmd, 0, stdout=""))
    assert harness.run_case("cold-compile", [], tmp_path) == 0
    assert [(kw["cwd"], kw["env"][sides.SIDE_ROOT], kw["env"]["PYTHONPATH"]) for kw in seen] == [
        (str(tmp_path),) * 3, (str(BENCH.parent),) * 3]
    for script in ("bench_cold_compile.py", "bench_suggest.py", "assist_transcripts.py", "bench_full.py",
                   "bench_resume.py"):
        assert "ROOT = code_root(__file__)" in (BENCH / script).read_text(encoding="utf-8"), script
