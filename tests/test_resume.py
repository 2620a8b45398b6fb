"""Runs that are killed: one generation per output, --resume, interrupts as one line.

The reference is an uninterrupted run of the same config: a resumed run must give
byte-identical tables and report CSVs. Kills are real signals to a real
``wordle-lab`` process (SIGKILL, SIGTERM, SIGINT) on the small built-in mini-nerdle
lexicon, except the every-boundary test, which stops an in-process run at each step.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipelines import analysis as pcli
from wordle_core.cli import main
from wordle_core.tables import avro

ROOT = Path(__file__).resolve().parents[1]
BASE = ["--lexicon", "mini-nerdle", "--openers", "all", "--strategies", "entropy",
        "--modes", "normal,hard", "--no-progress"]
CMD = [sys.executable, "-m", "wordle_core", "pipeline", "games"]
N_SHARDS = 206  # 206 openers x 2 modes = 412 items, cut into shards of 2
LOCAL = ["--runner=DirectRunner", "--direct_running_mode=multi_processing", "--direct_num_workers=2"]
IN_MEMORY = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]


def _published(out: Path) -> dict[str, bytes]:
    """Every published table file and report CSV (what compare_quick compares)."""
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.suffix in (".avro", ".csv") and not any(s.startswith(".") for s in p.relative_to(out).parts)}


def _start(out: Path, *extra: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([*CMD, *BASE, "--output", str(out), *LOCAL,
                             *extra], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def _shards(out: Path, skip: set[str] = frozenset()) -> int:
    return len([p for p in out.glob(".staging-*/_shards/play/shard-*.pkl") if p.parts[-4] not in skip])


def _wait_for_shards(proc: subprocess.Popen, out: Path, n: int, timeout: float = 120,
                     skip: set[str] = frozenset()) -> int:
    """Wait until the run ``proc`` (not an earlier one: ``skip`` its stagings) finished ``n`` shards."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        if proc.poll() is not None:
            pytest.fail(f"the run ended before it was killed: {proc.stderr.read()[-500:]}")
        done = _shards(out, skip)
        if done >= n:
            return done
        time.sleep(0.05)
    proc.kill()
    pytest.fail("no shards appeared in time")


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """The reference: an uninterrupted run."""
    out = tmp_path_factory.mktemp("clean")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([*CMD, *BASE, "--output", str(out), *LOCAL],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    return out


def test_sigkill_then_resume_is_byte_identical(clean, tmp_path):
    out = tmp_path / "out"
    proc = _start(out)
    at_kill = _wait_for_shards(proc, out, N_SHARDS // 2)
    workers = _workers_of(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    time.sleep(0.5)
    assert workers and not [w for w in workers if _alive(w)]  # PR_SET_PDEATHSIG: no orphans
    assert not (out / "opener_summaries").exists()  # nothing published
    kept = _shards(out)
    assert kept >= at_kill
    res = subprocess.run([*CMD, *BASE, "--output", str(out), *LOCAL,
                          "--resume"], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-800:]
    line = next(x for x in res.stderr.splitlines() + res.stdout.splitlines() if "reused" in x)
    reused = int(line.split("reused ", 1)[1].split()[0])
    assert reused == kept and f"of {N_SHARDS} finished shards" in line
    assert _published(out) == _published(clean)
    assert not list(out.glob(".staging-*"))


def test_sigterm_and_sigint_are_one_line_and_keep_the_old_result(clean, tmp_path):
    import shutil

    out = tmp_path / "out"
    shutil.copytree(clean, out)
    before = _published(out)
    for sig, code in ((signal.SIGTERM, 143), (signal.SIGINT, 130)):
        earlier = {p.name for p in out.glob(".staging-*")}  # the SIGTERM'd run's, removed by this one
        proc = _start(out, "--worst-games", "2")  # another config: would replace the tables
        _wait_for_shards(proc, out, 5, skip=earlier)
        workers = _workers_of(proc.pid)
        for _ in range(30):  # the DirectRunner's worker processes, started by the driver
            if workers:
                break
            time.sleep(0.1)
            workers = _workers_of(proc.pid)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == code, err[-800:]
        lines = [x for x in err.splitlines() if x.startswith("wordle-lab: ")]
        assert lines[-1].startswith("wordle-lab: interrupted") and "--resume" in lines[-1], err
        assert "Traceback" not in err and "Exception in thread" not in err
        assert _published(out) == before  # the earlier complete result is untouched
        assert _shards(out) >= 5  # finished shards survive for --resume
        time.sleep(0.5)
        assert not [w for w in workers if _alive(w)]  # they stopped with their driver
    # resuming with a changed config is refused with one line
    res = subprocess.run([*CMD, *BASE, "--worst-games", "3",
                          "--output", str(out), *LOCAL, "--resume"], cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True)
    assert res.returncode == 2
    err = [x for x in res.stderr.splitlines() if x.startswith("wordle-lab")]
    assert len(err) == 1 and "cannot --resume" in err[0] and "another config" in err[0]
    assert _published(out) == before


def test_a_worker_killed_on_its_own_stops_the_run_with_one_line_and_resume_finishes(clean, tmp_path):
    """A worker process that dies while the driver runs on (the kernel's OOM killer, a
    crash) would leave Beam waiting for it for ever: the run stops instead, with one line
    that says so, exit 1, no traceback and no worker left; the finished shards are kept
    and ``--resume`` completes the same tables as an uninterrupted run."""
    out = tmp_path / "out"
    proc = _start(out)
    _wait_for_shards(proc, out, 5)
    workers = []
    for _ in range(50):
        workers = _workers_of(proc.pid)
        if workers:
            break
        time.sleep(0.1)
    assert workers
    os.kill(workers[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=120)  # (before: no end at all)
    assert proc.returncode == 1, err[-800:]
    lines = [x for x in err.splitlines() if x.startswith("wordle-lab: ")]
    assert "a worker process was killed by SIGKILL" in lines[-1] and "--resume" in lines[-1], err
    assert "Traceback" not in err and "Exception in thread" not in err
    time.sleep(0.5)
    assert not [w for w in workers if _alive(w)]
    assert _shards(out) >= 5
    res = subprocess.run([*CMD, *BASE, "--output", str(out), *LOCAL, "--resume"], cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-800:]
    assert _published(out) == _published(clean)


def _workers_of(pid: int) -> list[int]:
    """Beam SDK worker processes whose parent is ``pid``."""
    found = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
                cmd = (d / "cmdline").read_bytes()
            except (OSError, ValueError, IndexError):
                continue
            if ppid == pid and (b"sdk_worker_main" in cmd or b"pipelines.orchestration.worker" in cmd):
                found.append(int(d.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


STEPS = ["after opener_scores", "after play", "after report", "committed", "published hard_verdicts",
         "published opener_summaries", "published report", "generation"]


class _Died(BaseException):
    """Stands for SIGKILL in-process (no handler of ours catches a BaseException)."""


def _run_args(tmp: Path, out: Path) -> list[str]:
    (tmp / "c.yaml").write_text("outputs: [opener_scores, opener_summaries, hard_verdicts, report]\n")
    return ["run", "--config", str(tmp / "c.yaml"), "--lexicon", "mini-nerdle", "--openers",
            "top:3:entropy", "--modes", "normal,hard", "--no-progress", "--output", str(out), *IN_MEMORY]


@pytest.fixture(scope="module")
def old_output(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("old")
    out = tmp / "out"
    assert main([*_run_args(tmp, out), "--strategies", "entropy"]) == 0
    return out


@pytest.mark.parametrize("step", STEPS)
def test_killed_at_every_stage_boundary_no_mixed_generation(old_output, tmp_path, monkeypatch, step):
    """Old generation, or refused with one line: a reader never gets new tables beside an old report."""
    import shutil

    out = tmp_path / "out"
    shutil.copytree(old_output, out)
    args = _run_args(tmp_path, out)
    outputs: list[str] = []
    old = _published(out)
    old_gen = json.loads((out / avro.GENERATION).read_text())["generation"]

    def die():
        raise _Died(step)

    monkeypatch.setattr(pcli, "_die", die)
    monkeypatch.setenv("WORDLE_LAB_KILL_AT", step)
    with pytest.raises(_Died):
        main([*args, *outputs, "--strategies", "minimax"])
    monkeypatch.delenv("WORDLE_LAB_KILL_AT")
    states = []
    for entry in ("opener_scores", "opener_summaries", "hard_verdicts", "report"):
        try:
            states.append(avro.verify_dir(out / entry).generation)
        except avro.TableError as exc:
            assert "\n" not in str(exc)
            states.append("refused")
    readable = {s for s in states if s != "refused"}
    assert len(readable) <= 1  # never a readable new table beside a readable old report (or back)
    if step in STEPS[:4]:  # before the first move: the old generation, whole
        assert states == [old_gen] * 4 and _published(out) == old
    elif step != "generation":  # mid-publish: the new entries are refused until rolled forward
        assert "refused" in states
    # the next run finishes (or redoes) the job; the output is one consistent generation
    assert main([*args, *outputs, "--strategies", "minimax", "--resume"]) == 0
    gens = {avro.verify_dir(out / e).generation for e in ("opener_scores", "opener_summaries",
                                                         "hard_verdicts", "report")}
    assert len(gens) == 1 and gens != {old_gen}
    assert {r["strategy"] for r in avro.read_records(out, "opener_summaries")} == {"minimax"}
