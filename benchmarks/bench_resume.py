"""Resume demonstration: kill -9 a run at about half its play shards, resume, compare bytes.

    python benchmarks/bench_resume.py [--config configs/quick.yaml] [--at 0.5] [--reference DIR]

Runs ``wordle-lab run --config X`` into a fresh directory, SIGKILLs the driver when
``--at`` of the play stage's shards are finished (its Beam workers die with it),
then runs the same command with ``--resume`` and prints: shards finished at the
kill, shards reused, the resume's wall time, the uninterrupted run's wall time
(a clean run into a second directory, unless ``--reference`` names one already made,
e.g. /work/baseline/quick), and a byte-for-byte comparison of every .avro and .csv.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sides import code_root

ROOT = code_root(__file__)  # the checkout measured (harness.py --compare: each side)


def _cmd(config: str, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "wordle_core", "run", "--config", config, "--output", str(out),
            "--no-progress", *extra]


def _play_shards(out: Path) -> int:
    return len(list(out.glob(".staging-*/_shards/play/shard-*.pkl")))


def _files(out: Path) -> list[str]:
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*")
                  if p.suffix in (".avro", ".csv") and not p.relative_to(out).parts[0].startswith("."))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", default="configs/quick.yaml")
    ap.add_argument("--at", type=float, default=0.5, help="fraction of play shards done at the kill")
    ap.add_argument("--reference", help="an uninterrupted run's output (default: make one)")
    ap.add_argument("--shards", type=int, default=32,
                    help="play shards of the config (quick.yaml: 16 openers x 2 modes = 32)")
    args = ap.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    work = Path(tempfile.mkdtemp(prefix="bench-resume-"))
    ref = Path(args.reference) if args.reference else work / "clean"
    clean_s = None
    if not args.reference:
        t0 = time.perf_counter()
        subprocess.run(_cmd(args.config, ref), cwd=ROOT, env=env, check=True, capture_output=True)
        clean_s = time.perf_counter() - t0
    out = work / "killed"
    proc = subprocess.Popen(_cmd(args.config, out), cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    total = args.shards
    t0 = time.perf_counter()
    while proc.poll() is None and _play_shards(out) < args.at * total:
        time.sleep(0.05)
    killed_after = time.perf_counter() - t0
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    at_kill = _play_shards(out)
    t0 = time.perf_counter()
    res = subprocess.run(_cmd(args.config, out, "--resume"), cwd=ROOT, env=env, capture_output=True,
                         text=True)
    resume_s = time.perf_counter() - t0
    if res.returncode:
        print(res.stderr[-2000:])
        return 1
    reused = [x.strip() for x in res.stderr.splitlines() if "reused" in x]
    names = _files(ref)
    same = [n for n in names if (out / n).exists() and filecmp.cmp(ref / n, out / n, shallow=False)]
    print(f"config: {args.config}; killed with SIGKILL after {killed_after:.1f} s, "
          f"{at_kill} of {total} play shards finished")
    for line in reused:
        print(f"resume: {line}")
    clean = f"; uninterrupted run: {clean_s:.1f} s" if clean_s else ""
    print(f"resume wall time: {resume_s:.1f} s{clean}")
    diff = sorted(set(names) - set(same))
    print(f"byte-identical to the uninterrupted run: {len(same)} of {len(names)} .avro/.csv files "
          f"({'all' if not diff else 'DIFFERENT: ' + ', '.join(diff)})")
    print(f"(outputs under {work})")
    return 0 if len(same) == len(names) else 1


if __name__ == "__main__":
    raise SystemExit(main())
