"""configs/full.yaml on a random slice of openers, extrapolated to all 12,972.

    nice -n 19 python benchmarks/bench_full.py --openers 40 [--seed 0] [--workers 2]

Runs the play stage of ``configs/full.yaml`` (``default``, ``entropy``, ``minimax`` x
normal and hard, plus the exact hard-mode verdict as the config asks for it) for
``--openers`` openers drawn at random (seeded) from the lexicon's guesses, on the
local DirectRunner with ``--workers`` processes, and prints: wall time, CPU seconds
of the whole process tree (driver + workers), the peak resident memory (VmHWM) of the
driver and of each worker process and each worker's peak private memory (resident memory
less the pages it shares with the others: libraries, the memory-mapped matrix), sampled
from /proc while the run lasts; CPU per opener, and the extrapolation to every opener:
CPU-hours, and the wall time on an idle machine with ``--workers`` cores (CPU / workers;
an upper bound on the speed, since it assumes perfect parallelism). The opener scores and
the report are not in the slice (seconds, not minutes, at full size).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from sides import code_root

ROOT = code_root(__file__)  # the checkout measured (harness.py --compare: each side)


def _children(pid: int) -> list[int]:
    """Direct children of ``pid``, started by any of its threads (Linux /proc; empty elsewhere)."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return out


def _hwm_kib(pid: int) -> int:
    """Peak resident memory of ``pid`` so far (VmHWM, KiB), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _private_kib(pid: int) -> int:
    """Memory of ``pid`` no other process shares (Private_Clean + Private_Dirty, KiB), 0 when gone.

    Resident memory (VmHWM) also counts the shared libraries and the memory-mapped
    pattern matrix, pages every worker and the driver map once for all (about 140 to
    180 MiB here); this is what one more worker process costs.
    """
    total = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith(("Private_Clean:", "Private_Dirty:")):
                    total += int(line.split()[1])
    except OSError:
        pass
    return total


WARMERS: set[int] = set()  # pids of pipelines.orchestration.warm processes seen by watch_peaks


def _is_warmer(pid: int) -> bool:
    """Is ``pid`` the child that compiles the kernels before the workers start?"""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"pipelines.orchestration.warm" in f.read()
    except OSError:
        return False


def watch_peaks(proc: subprocess.Popen, every: float = 0.5) -> tuple[dict[int, int], dict[int, int]]:
    """Wait for ``proc``; meanwhile sample the peak memory of it and of every descendant.

    Returns ({pid: peak resident KiB}, {pid: peak private KiB}): each process's own
    high-water mark (VmHWM), as last seen before it exited, and the largest sample of
    its private memory (sampled every ``every`` seconds, so a process living less than
    that may be missed; the pipeline's workers live for a whole stage).
    """
    peaks: dict[int, int] = {}
    private: dict[int, int] = {}
    while proc.poll() is None:
        todo = [proc.pid]
        while todo:
            pid = todo.pop()
            hwm = _hwm_kib(pid)
            if hwm:
                if pid not in peaks and _is_warmer(pid):
                    WARMERS.add(pid)
                peaks[pid] = max(peaks.get(pid, 0), hwm)
                private[pid] = max(private.get(pid, 0), _private_kib(pid))
            todo.extend(_children(pid))
        time.sleep(every)
    return peaks, private


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--openers", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--config", default="configs/full.yaml")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from pipelines.config import build_config
    from wordle_core.game.lexicon import load_lexicon

    cfg = yaml.safe_load((ROOT / args.config).read_text())
    lex = load_lexicon(cfg.get("lexicon", "wordle"))
    words = sorted(random.Random(args.seed).sample(list(lex.guesses), args.openers))
    cfg.update(openers=words, outputs=["opener_summaries", "hard_verdicts"], shards=1)
    cfg.pop("score_openers", None)
    work = Path(tempfile.mkdtemp(prefix="bench-full-"))
    (work / "slice.yaml").write_text(yaml.safe_dump(cfg))
    cmd = [sys.executable, "-m", "wordle_core", "run", "--config", str(work / "slice.yaml"),
           "--output", str(work / "out"), "--no-progress", "--runner=DirectRunner",
           "--direct_running_mode=multi_processing", f"--direct_num_workers={args.workers}"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(work / "stderr.txt", "w+") as err:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                                stdout=subprocess.DEVNULL, stderr=err, text=True)
        peaks, private = watch_peaks(proc)
        err.seek(0)
        stderr = err.read()
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(work, ignore_errors=True)
    if proc.returncode:
        print(stderr[-2000:])
        return 1
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    per = cpu / len(words)
    n = len(lex.guesses)
    games = len(words) * len(lex.answers) * len(cfg["strategies"]) * len(cfg["modes"])
    budget = build_config(ROOT / args.config).exact_node_budget  # the pipelines' own reading
    how = "not asked for" if budget is None else "complete search" if budget == 0 else f"budget {budget}"
    print(f"slice: {len(words)} random openers (seed {args.seed}) x {', '.join(cfg['strategies'])} x "
          f"{', '.join(cfg['modes'])} + exact hard verdicts ({how})")
    for line in stderr.splitlines():
        if "time per stage" in line or "trees" in line:
            print("  " + line.strip())
    driver = peaks.pop(proc.pid, 0)
    warm = {pid: peaks.pop(pid) for pid in WARMERS if pid in peaks}  # the kernels' warm-up
    for pid in warm:
        private.pop(pid, None)
    workers = sorted(peaks.values(), reverse=True)
    print(f"wall {wall:.1f} s; CPU {cpu:.1f} s (driver + workers); {games:,} games")
    print(f"peak memory (VmHWM): driver {driver / 1024:.0f} MiB; {len(workers)} worker processes, "
          f"largest {workers[0] / 1024 if workers else 0:.0f} MiB"
          + (f", the others {', '.join(f'{w / 1024:.0f}' for w in workers[1:])} MiB" if workers[1:] else "")
          + f"; largest process of the tree (rusage) {after.ru_maxrss / 1024:.0f} MiB")
    if warm:
        print("the kernels' warm-up process (pipelines.orchestration.warm, gone before the workers start): "
              + ", ".join(f"{w / 1024:.0f}" for w in warm.values()) + " MiB")
    private.pop(proc.pid, None)
    mine = sorted(private.values(), reverse=True)
    print("peak private memory (not shared with the other processes): workers "
          + ", ".join(f"{w / 1024:.0f}" for w in mine) + " MiB")
    print(f"per opener: {per:.2f} CPU-s -> all {n:,} openers: {per * n / 3600:.2f} CPU-hours, "
          f"~{per * n / args.workers / 60:.0f} min wall on {args.workers} idle cores "
          f"({games / cpu:,.0f} games per CPU-second)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
