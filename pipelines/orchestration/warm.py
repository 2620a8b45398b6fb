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
skip it (:data:`WARM_MIN` work items) when the cache is warm. Remote workers (Dataflow, a
Dask cluster elsewhere) have their own disks; warming here would not reach them, so only
local runs warm. Each remote worker process pays the compile once, on its first elements:
for ``configs/default.yaml``'s strategies and modes about two CPU-minutes from a cold
cache (the same work as the warm-up; loading the cached code later takes seconds).

When the cache is cold (:func:`cache_is_cold`: no warm-up of the same stage has finished
since the kernels last changed) the warm-up is a step of its own, shown
before any stage's ETA: ``compiling kernels, once: N of M (entropy, hard mode)``, one
step per strategy and mode (and the hard-mode verdict), then the CPU seconds it took.
The child reports each step on its stdout (:func:`play_one`'s ``report``).
"""

from __future__ import annotations

import contextlib
import logging
import os
import pickle
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
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


def kernel_cache_dirs() -> tuple[Path, Path]:
    """The two directories numba caches the engine's kernels in: ``wordle_core/kernels``'
    modules' and the ``wordle_core/kernels/buckets`` package's."""
    import hashlib

    import wordle_core

    kernels = os.path.abspath(os.path.join(os.path.dirname(wordle_core.__file__), "kernels"))
    dirs = []
    for d in (kernels, os.path.join(kernels, "buckets")):
        env = os.environ.get("NUMBA_CACHE_DIR")
        dirs.append(Path(env) / f"{os.path.basename(d)}_{hashlib.sha1(d.encode()).hexdigest()}"
                    if env else Path(d) / "__pycache__")
    return dirs[0], dirs[1]


def warm_key(fn: Any) -> str:
    """What a warm-up of ``fn`` (a :class:`pipelines.transforms.PlayOpenerFn`) compiles
    depends on: its steps (:func:`warm_steps`), the type of the game's pattern matrix (its
    word length), the kernels' sources (each file's size and time: numba compiles again
    when they change), numba's and Python's versions. A hash of them."""
    import hashlib

    import numba
    import numpy as np

    from wordle_core.game.feedback import pattern_dtype
    from wordle_core.game.lexicon import BUILTIN_SIZES

    spec = fn.spec
    length = len(spec.answers[0]) if spec.answers else BUILTIN_SIZES[spec.name].length
    parts = [warm_steps(fn), np.dtype(pattern_dtype(length)).name, kernel_sources(), numba.__version__,
             sys.version, os.environ.get("WORDLE_LAB_PLAIN_KERNELS", "")]
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:20]


def kernel_sources() -> list[tuple[str, int, int]]:
    """Each kernel source file (``wordle_core/kernels/**/*.py``): name, time (ns), size."""
    import wordle_core

    kernels = Path(wordle_core.__file__).parent / "kernels"
    return [(str(p.relative_to(kernels)), p.stat().st_mtime_ns, p.stat().st_size)
            for p in sorted(kernels.rglob("*.py"))]


STAMP_PREFIX = "wordle-lab-warm-"  # + warm_key: a warm-up of that kind finished here


def cache_is_cold(fn: Any, directories: tuple[Path, Path] | None = None) -> bool:
    """True when the kernels a warm-up of ``fn`` compiles may not all be cached: no warm-up
    of the same kind (:func:`warm_key`) has finished since the kernels last changed, or a
    kernel directory holds no compiled code (a fresh checkout, ``make clean-kernels``, a
    new worker). Reads file names only."""
    kernels, buckets = kernel_cache_dirs() if directories is None else directories
    try:
        names, bucket_names = os.listdir(kernels), os.listdir(buckets)
    except OSError:
        return True
    compiled = [n for n in names if n.endswith(".nbi")] and [n for n in bucket_names if n.endswith(".nbi")]
    return not compiled or STAMP_PREFIX + warm_key(fn) not in names


def mark_warm(fn: Any, directories: tuple[Path, Path] | None = None) -> None:
    """Record that a warm-up of ``fn`` finished (:func:`cache_is_cold` then says so);
    best effort: an unwritable cache only means the next run warms again."""
    kernels = (kernel_cache_dirs() if directories is None else directories)[0]
    with contextlib.suppress(OSError):
        (kernels / (STAMP_PREFIX + warm_key(fn))).write_bytes(b"")


def warm_steps(fn: Any) -> list[tuple[bool, str | None]]:
    """The warm-up's steps, in order: (hard, strategy), strategy None = the hard-mode verdict."""
    from pipelines.transforms import VERDICT_TABLES, play_elements

    steps: list[tuple[bool, str | None]] = []
    for _, hard in play_elements([0], fn.modes, sorted(fn.tables)):
        if hard and fn.tables & VERDICT_TABLES:
            steps.append((True, None))
        steps += [(hard, s) for s in fn.strategies]
    return steps


def step_label(hard: bool, strategy: str | None) -> str:
    return "hard-mode verdict" if strategy is None else f"{strategy}, {'hard' if hard else 'normal'} mode"


def play_one(fn: Any, report: Callable[[int, int, str], None] | None = None) -> None:
    """In this process: play ``fn``'s work for :func:`warm_opener`, every mode it plays and
    hard mode when it proves verdicts (a :class:`pipelines.transforms.PlayOpenerFn`), one
    step per strategy and mode (:func:`warm_steps`); the records are dropped. ``report(n,
    m, label)`` is called before step n of m."""
    from pipelines.transforms import VERDICT_TABLES

    fn.progress_dir = None  # the driver's progress counts the workers' items only
    steps = warm_steps(fn)
    strategies, tables = list(fn.strategies), set(fn.tables)
    fn.setup()
    row = warm_opener(fn.lex, fn.matrix)
    for n, (hard, strategy) in enumerate(steps, 1):
        if report is not None:
            report(n, len(steps), step_label(hard, strategy))
        fn.strategies = [] if strategy is None else [strategy]
        fn.tables = tables if strategy is None else (tables - VERDICT_TABLES) or {"opener_summaries"}
        for _ in fn.process((row, hard)):
            pass
    fn.strategies, fn.tables = strategies, tables


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def compile_first(fn: Any, timeout: float = 900.0,
                  show: Callable[[str, bool], None] | None = None) -> float | None:
    """Run :func:`play_one` in a child process (this process keeps none of its memory) and
    wait for it. Returns the seconds it took, or None when it failed (logged; the run goes
    on and its workers compile for themselves). A Ctrl-C or SIGTERM while it runs stops the
    child with the run (it is killed), and the child prints nothing but its steps.

    ``show(text, final)``: each step's line, ``compiling kernels, once: N of M (label)``,
    and a last one with the seconds and CPU seconds it took (``final`` True).
    """
    payload = pickle.dumps(fn)  # the driver's copy: not set up, so only its options travel
    t0, cpu0 = time.perf_counter(), _children_cpu()
    try:
        child = subprocess.Popen([sys.executable, "-m", "pipelines.orchestration.warm"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL)
    except OSError as exc:
        log.info("compiling the kernels before the workers start failed (%s); "
                 "the workers compile them", exc)
        return None
    timer = threading.Timer(timeout, child.kill)
    timer.start()
    assert child.stdin is not None and child.stdout is not None  # both are pipes
    try:
        child.stdin.write(payload)
        child.stdin.close()
        for raw in child.stdout:
            n, m, label = raw.decode(errors="replace").rstrip("\n").split(" ", 2)
            if show is not None:
                show(f"compiling kernels, once: {n} of {m} ({label})", False)
        code = child.wait()
    except BaseException:
        child.kill()
        child.wait()
        raise
    finally:
        timer.cancel()
    seconds = time.perf_counter() - t0
    if code != 0:
        log.info("compiling the kernels before the workers start exited with %d; "
                 "the workers compile them", code)
        return None
    mark_warm(fn)
    if show is not None:
        show(f"compiled kernels in {seconds:.0f} s ({_children_cpu() - cpu0:.0f} CPU-s), "
             "cached for the next runs", True)
    return seconds


def _main() -> int:
    fn = pickle.loads(sys.stdin.buffer.read())

    def report(n: int, m: int, label: str) -> None:
        sys.stdout.write(f"{n} {m} {label}\n")
        sys.stdout.flush()

    try:
        play_one(fn, report)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(_main())
