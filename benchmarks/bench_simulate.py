"""Wall time of `wordle-lab simulate` (entropy from SALET, 2,315 answers, normal mode).

Target: <= 5 s including start-up. Runs the real CLI in a subprocess, once with a
warm matrix cache (the normal case) and once with an empty cache (first run ever).

Run: .venv/bin/python benchmarks/bench_simulate.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time

CMD = [sys.executable, "-m", "wordle_core", "simulate", "--strategy", "entropy", "--opener", "salet",
       "--json"]


def timed(env: dict[str, str]) -> tuple[float, dict]:
    t = time.perf_counter()
    out = subprocess.run(CMD, capture_output=True, text=True, env=env, check=True).stdout
    return time.perf_counter() - t, json.loads(out)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "WORDLE_LAB_CACHE": tmp}
        cold, rep = timed(env)
        warm = min(timed(env)[0] for _ in range(3))
    print(f"simulate entropy from SALET: {rep['totalCount']} games, mean {rep['meanGuesses']:.4f}, "
          f"max {rep['maxGuesses']}, failures {rep['failures']}")
    print(f"wall time incl. start-up: warm cache {warm:.2f} s (best of 3), empty cache {cold:.2f} s "
          "[target <= 5 s]")
    print(f"tree build {rep['buildSeconds']:.2f} s; per-game solve time {rep['averageTime']:.3f} ms mean")


if __name__ == "__main__":
    main()
