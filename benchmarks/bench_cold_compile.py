"""Compile CPU of a job's kernels from a cold numba cache, without touching your cache.

Runs, in a child process whose ``NUMBA_CACHE_DIR`` is a fresh temporary directory, what a
local run's warm-up does for a config's play stage (``pipelines.orchestration.warm.play_one``: one cheap
opener, every strategy and mode, the hard-mode verdict) plus the scores stage's kernel, and
prints the child's CPU seconds, wall seconds and peak memory. This is the cost a fresh
checkout, a CI run or a remote worker pays once.

    python benchmarks/bench_cold_compile.py [--config configs/default.yaml]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

from sides import code_root

ROOT = code_root(__file__)  # the checkout measured (harness.py --compare: each side)

CHILD = """
import sys
import numpy as np
from pipelines import transforms
from pipelines.orchestration import stages
from pipelines.orchestration import warm
from pipelines.config import build_config
from wordle_core.game.matrix import pattern_matrix
from wordle_core.search.openers import compute_opener_scores

cfg = build_config(sys.argv[1])
lex = stages.lexicon_of(cfg)
tables = [t for t in stages.PLAY_TABLES if t in cfg.outputs]
_, play = stages.play_composite(cfg, tables)(transforms.LexiconSpec.of(lex), [],
                                           **stages.play_options(cfg, tables, None))
assert warm.cache_is_cold(play.fn), "the kernel cache is not empty"
warm.play_one(play.fn, lambda n, m, label: print(f"  step {n} of {m}: {label}", flush=True))
compute_opener_scores(lex, pattern_matrix(lex), np.arange(600))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="configs/default.yaml")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="wordle-lab-numba-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", CHILD, args.config], cwd=ROOT, env=env, check=False)
        wall = time.perf_counter() - t0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        print(f"failed: exit {done.returncode}", file=sys.stderr)
        return 1
    print(f"{args.config}: cold compile {ru.ru_utime + ru.ru_stime:.1f} CPU-s, {wall:.1f} s wall, "
          f"peak {ru.ru_maxrss / 1024:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
