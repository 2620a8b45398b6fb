"""Compile the engine's kernels once, before a local run's workers start.

The engine's hot paths are numba kernels cached on disk (``cache=True``). In a fresh
checkout that cache is empty, and every worker of a local run used to compile the
kernels itself: about 80 s of CPU per worker, and about 200 MiB of compiler memory that
each worker kept to the end of the run.

So before a local play stage, one short-lived process plays the stage's own work for one
cheap opener (every strategy, every mode, the hard-mode verdict where the stage proves
it). That compiles every kernel the workers will call and writes them to the cache; the
process then exits and gives its memory back, and the workers load the compiled code.
On a 200-opener slice of ``configs/full.yaml`` from a fresh checkout (``python
benchmarks/bench_full.py --openers 200 --workers 2``), the play workers peaked at 774 and
756 MiB before this module and at 499 and 493 MiB with it; the warm-up process itself
peaked at 722 MiB and exited before they started.

Warming is an optimisation only: the same records come out without it, a failure is
logged and ignored, and a run with a warm cache spends a few seconds in it (about 5 s for
``configs/full.yaml``: loading the cached code and playing the one opener). Small stages
skip it (:data:`WARM_MIN` work items), since compiling in their workers costs the same
time and the memory is given back when they end. Remote workers (Dataflow, a Dask
cluster elsewhere) have their own disks; warming here would not reach them, so only
local runs warm.
"""

from __future__ import annotations

import logging
import pickle
import subprocess
import sys
import time
from typing import Any

log = logging.getLogger(__name__)

WARM_MIN = 200  # work items ((opener, mode) pairs) from which a local play stage warms first


def warm_opener(lex: Any, matrix: Any) -> int:
    """The opener the warm-up plays: the guess with the most feedback buckets over every
    answer (cheap in every strategy and mode: it leaves the smallest positions), the lowest
    row on ties.

    >>> from wordle_core.game.lexicon import load_lexicon
    >>> from wordle_core.game.matrix import pattern_matrix
    >>> lex = load_lexicon("wordle")
    >>> lex.guesses[warm_opener(lex, pattern_matrix(lex))]
    'trace'
    """
    import numpy as np

    from wordle_core.kernels.buckets import bucket_stats

    stats = bucket_stats(matrix, None, np.arange(len(lex.answers)), lex.n_patterns)
    return int(np.argmax(stats.buckets))


def play_one(fn: Any) -> None:
    """In this process: play ``fn``'s work for :func:`warm_opener`, every mode it plays and
    hard mode when it proves verdicts (a :class:`pipelines.transforms.PlayOpenerFn`); the
    records are dropped."""
    from pipelines.transforms import play_elements

    fn.progress_dir = None  # the driver's progress counts the workers' items only
    fn.setup()
    row = warm_opener(fn.lex, fn.matrix)
    for _, hard in play_elements([row], fn.modes, sorted(fn.tables)):
        for _ in fn.process((row, hard)):
            pass


def compile_first(fn: Any, timeout: float = 900.0) -> float | None:
    """Run :func:`play_one` in a child process (this process keeps none of its memory) and
    wait for it. Returns the seconds it took, or None when it failed (logged; the run goes
    on and its workers compile for themselves). A Ctrl-C or SIGTERM while it runs stops the
    child with the run (``subprocess.run`` kills it), and the child prints nothing."""
    payload = pickle.dumps(fn)  # the driver's copy: not set up, so only its options travel
    t0 = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "pipelines.orchestration.warm"], input=payload,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.info("compiling the kernels before the workers start failed (%s); "
                 "the workers compile them", exc)
        return None
    if done.returncode != 0:
        log.info("compiling the kernels before the workers start exited with %d; "
                 "the workers compile them", done.returncode)
        return None
    return time.perf_counter() - t0


def _main() -> int:
    fn = pickle.loads(sys.stdin.buffer.read())
    try:
        play_one(fn)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(_main())
