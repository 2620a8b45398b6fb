"""What the pipelines share on the workers: the lexicon and matrix per process, and playing
every answer from an opener (:class:`PlayOpenerFn`, :class:`PlayOpeners`).

Each pipeline module holds its own named composites (:class:`pipelines.scores.ScoreOpeners`,
:class:`pipelines.games.OpenerSummaries`, :class:`pipelines.hard.HardVerdicts`,
:class:`pipelines.trees.DecisionTrees`, ...); the play ones are :class:`PlayOpeners`
asked for their tables, which the main job (:mod:`pipelines.analysis`) also runs with
several tables in one pass. Shape (after Apache Beam's complete/game examples):
``Create(shards of work) -> Reshuffle -> ParDo(work per shard)``
(:func:`pipelines.orchestration.shards.sharded`), whose output is ``(table, record)``
pairs that :class:`pipelines.orchestration.sink.WriteTables` writes; sharding and
``--resume`` are an option of that graph (``resume=``), and the graph a test builds is
the one a run builds. One output PCollection per
transform (no tagged outputs: Beam 2.77's Dask runner sends every element to every
tagged output).

Workers hold the lexicon and the pattern matrix once per *process* (a module-level
cache filled in ``DoFn.setup``), because Dask calls ``setup`` once per partition: the
matrix is memory-mapped from the local cache, or read once through ``FileSystems``
when ``matrix_path`` names a remote file (e.g. ``gs://...`` on Dataflow). Lexicons
travel as names (built-ins) or as their word lists, never as local file paths.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import apache_beam as beam
import numpy as np
from apache_beam.metrics import Metrics

from wordle_core.game.lexicon import BUILTINS, Lexicon, load_lexicon
from wordle_core.game.matrix import pattern_matrix, read_matrix

from . import records
from .orchestration.shards import NOT_KEPT, Resume, Work, cut, sharded

NAMESPACE = "wordle-lab"
# Memo entries a worker keeps (all strategies) before clearing them, per mode. A memo is a
# numba dict whose table doubles when full: 2**18 slots (9 MiB) hold up to 174,762
# entries, 2**19 (18 MiB) 349,525, 2**20 (36 MiB) 699,050; while it doubles it holds both.
# A tree adds up to about 60,000 entries before the bound is checked again, so each bound
# stays in its table. Normal mode, where a worker holds least, keeps 640,000 in 2**20
# slots (1.02x faster than 280,000 over every opener, worker peak 448 -> 484 MiB); hard
# mode, where the verdicts' caches come on top, 110,000 in 2**18 (25 MiB less at the
# peak, 1.02x its CPU). Measured: docs/notes/pipelines.md, "Measured here".
MEMO_LIMITS = {"normal": 640_000, "hard": 110_000}
PLAY_ORDER = "letters"  # how play items are ordered, hence cut into shards (see play_order)
TREE_TABLES = frozenset({"opener_summaries", "games", "trees", "hard_verdicts"})  # built from trees
VERDICT_TABLES = frozenset({"hard_verdicts", "hard_exact"})  # carry the opener's exact verdict


@dataclass(frozen=True)
class LexiconSpec:
    """A lexicon as workers rebuild it: a built-in name, or the word lists themselves."""

    name: str
    answers: tuple[str, ...] = ()
    guesses: tuple[str, ...] = ()
    max_guesses: int = 6

    @classmethod
    def of(cls, lex: Lexicon) -> LexiconSpec:
        if lex.name in BUILTINS and load_lexicon(lex.name).fingerprint == lex.fingerprint:
            return cls(lex.name)
        return cls(lex.name, lex.answers, lex.guesses, lex.max_guesses)

    def load(self) -> Lexicon:
        if not self.answers:
            return load_lexicon(self.name)
        return Lexicon.build(self.name, self.answers, self.guesses, self.max_guesses)


_PROCESS: dict[Any, Any] = {}  # per worker process: lexicons and matrices


def worker_lexicon(spec: LexiconSpec) -> Lexicon:
    key = ("lex", spec)
    if key not in _PROCESS:
        _PROCESS[key] = spec.load()
    return _PROCESS[key]


def worker_threads() -> None:
    """Workers run one per core, so the engine's kernels use one thread each.

    Threaded kernels in every worker would put two threads on each core; their
    spin-waits then take CPU from the other workers (measured: half the CPU gain lost).
    """
    from wordle_core.kernels.buckets import set_threads

    set_threads(1)


def worker_matrix(lex: Lexicon, matrix_path: str | None) -> np.ndarray:
    """The pattern matrix, once per process: mmap a local file, else read via FileSystems."""
    key = ("matrix", lex.fingerprint, matrix_path)
    if key in _PROCESS:
        return _PROCESS[key]
    mat = None
    if matrix_path:  # checked by the driver; a bad file here is the worker's error
        if os.path.exists(matrix_path):
            mat = read_matrix(matrix_path, lex, where=f"--matrix-path {matrix_path}")
        else:
            from apache_beam.io.filesystems import FileSystems

            if FileSystems.exists(matrix_path):
                side = None
                if FileSystems.exists(matrix_path + ".sha256"):
                    with FileSystems.open(matrix_path + ".sha256", compression_type="uncompressed") as fh:
                        side = fh.read().decode("ascii", "replace")
                with FileSystems.open(matrix_path, compression_type="uncompressed") as fh:
                    mat = read_matrix(fh.read(), lex, where=f"--matrix-path {matrix_path}",
                                      sidecar=side)
    if mat is None:
        mat = pattern_matrix(lex)  # local cache (built on a miss)
    _PROCESS[key] = mat
    return mat


class WorkerProgress:
    """Best-effort progress for local runs: a per-process count file the driver sums."""

    def __init__(self, directory: str | None) -> None:
        self.path = (os.path.join(directory, f"{os.getpid()}-{uuid.uuid4().hex[:8]}.count")
                     if directory and os.path.isdir(directory) else None)
        self.done = 0

    def add(self, n: int = 1) -> None:
        self.done += n
        if self.path:
            try:  # whole number or the previous one: the driver never reads a half-written file
                tmp = self.path + ".tmp"
                with open(tmp, "w") as fh:
                    fh.write(str(self.done))
                os.replace(tmp, self.path)
            except OSError:
                self.path = None


def release_play_caches() -> int:
    """Give back what playing held in this worker process: every strategy's memo and the
    hard-mode verdicts' solver (memo and kernel caches). Returns the memo entries dropped.

    Called when a worker starts writing tables (:class:`pipelines.orchestration.sink.WriteTables`):
    its input is grouped first, a barrier after every play element, so by then these
    caches are only memory on top of the records being written (the strategies' memos up
    to :data:`MEMO_LIMITS` entries, the verdict solver's memo and kernel caches up to about
    55 MiB; 64 MiB were given back after 300 hard-mode openers, when they could hold
    more). Lexicons and matrices stay. Caches only save time: a later play in the same
    process builds them again, with the same results.
    """
    import gc

    from wordle_core.search.hard import forget_solvers

    dropped = 0
    for key in [k for k in _PROCESS if k[0] == "strategies"]:
        for strat in _PROCESS.pop(key).values():
            dropped += strat.memo_size()
            strat.reset()
    forget_solvers()
    gc.collect()
    return dropped


# --- playing every answer from an opener -----------------------------------------------------

TREE_CPU, TREE_COUNT = "tree_cpu_us", "trees"  # counters per strategy and mode: see below


def tree_cpu_counter(strategy: str, mode: str) -> str:
    """Name of the counter of CPU microseconds spent building ``strategy``'s trees in
    ``mode`` (the building thread's CPU time: the kernels run on it, one thread per
    worker); :func:`tree_count_counter` counts those trees."""
    return f"{TREE_CPU}:{strategy}:{mode}"


def tree_count_counter(strategy: str, mode: str) -> str:
    """Name of the counter of ``strategy``'s trees built in ``mode`` (see :func:`tree_cpu_counter`)."""
    return f"{TREE_COUNT}:{strategy}:{mode}"


class PlayOpenerFn(Work):
    """One element = (opener row, hard): build each strategy's tree, emit the asked-for tables.

    Tables: ``opener_summaries`` and ``games`` for the modes in ``modes``; ``trees``;
    ``hard_verdicts`` (hard elements only, with the opener's exact verdict computed
    once and shared by every strategy's record); ``hard_exact`` (hard elements only: the
    exact verdict alone; no tree is built when it is the only table).
    """

    def __init__(self, spec: LexiconSpec, strategies: list[str], modes: list[str], tables: list[str],
                 worst_games: int = 5, exact_node_budget: int | None = None,
                 matrix_path: str | None = None, progress_dir: str | None = None,
                 exact_implied: tuple[str, tuple[str, ...]] | None = None) -> None:
        self.spec, self.strategies, self.modes, self.tables = spec, list(strategies), list(modes), set(tables)
        self.worst_games, self.exact_node_budget = worst_games, exact_node_budget
        self.exact_implied = exact_implied  # (lexicon, openers it proves feasible): see records
        self.matrix_path, self.progress_dir = matrix_path, progress_dir
        self.openers = Metrics.counter(NAMESPACE, "openers_done")  # (opener, mode) items
        self.trees = Metrics.counter(NAMESPACE, "trees_built")
        self.games = Metrics.counter(NAMESPACE, "games_played")
        self.failures = Metrics.counter(NAMESPACE, "games_failed")
        self.seconds = Metrics.distribution(NAMESPACE, "tree_ms")
        # CPU of each strategy's trees, per mode (the job's summary line: CPU-ms per tree)
        self.tree_cpu = {(s, m): (Metrics.counter(NAMESPACE, tree_cpu_counter(s, m)),
                                  Metrics.counter(NAMESPACE, tree_count_counter(s, m)))
                         for s in self.strategies for m in ("normal", "hard")}

    def setup(self) -> None:
        from wordle_core.strategies import get_strategy

        worker_threads()
        self.lex = worker_lexicon(self.spec)
        self.matrix = worker_matrix(self.lex, self.matrix_path)
        key = ("strategies", self.spec, tuple(self.strategies))
        if key not in _PROCESS:  # one instance per process: openers share the memo
            _PROCESS[key] = {(s, h): get_strategy(s) for s in self.strategies for h in (False, True)}
        self.strats = _PROCESS[key]
        self.playing: bool | None = None  # the mode of the last element (hard), see _switch
        self.progress = WorkerProgress(self.progress_dir)
        self.implied = None if self.exact_implied is None else \
            (self.exact_implied[0], frozenset(self.exact_implied[1]))

    def process(self, element: tuple[int, bool]):
        from wordle_core.game.state import GameState
        from wordle_core.game.tree import Tree

        row, hard = int(element[0]), bool(element[1])
        self._switch(hard)
        mode = records.mode_name(hard)
        want_mode = mode in self.modes
        exact = None
        if hard and self.tables & VERDICT_TABLES:
            # The verdict first: what its proof leaves in the feasibility memo lets
            # `default` skip wider searches at positions it proved lost (same trees).
            exact = self._exact(row)
        if exact is not None and "hard_exact" in self.tables:
            yield ("hard_exact", records.exact_record(self.lex, row, exact))
        for name in self.strategies if self.tables & TREE_TABLES else ():
            strat = self.strats[(name, hard)]
            self._bound_memos()
            t0, c0 = time.perf_counter(), time.thread_time_ns()
            tree = Tree.build(strat, GameState.new(self.lex, hard, self.matrix), row, timed=False)
            self.seconds.update(int((time.perf_counter() - t0) * 1000))
            cpu, count = self.tree_cpu[(name, mode)]
            cpu.inc((time.thread_time_ns() - c0) // 1000)
            count.inc()
            lengths = tree.lengths()
            self.trees.inc()
            self.games.inc(len(lengths))
            self.failures.inc(int((lengths > self.lex.max_guesses).sum()))
            if want_mode and "opener_summaries" in self.tables:
                yield ("opener_summaries", records.summary_record(tree, self.worst_games))
            if want_mode and "games" in self.tables:
                for rec in records.game_records(tree):
                    yield ("games", rec)
            if want_mode and "trees" in self.tables:
                yield ("trees", records.tree_record(tree))
            if exact is not None and "hard_verdicts" in self.tables:
                yield ("hard_verdicts", records.verdict_record(tree, exact))
        self.openers.inc()
        self.progress.add(1)

    def _switch(self, hard: bool) -> None:
        """This worker keeps the caches of the mode it plays now only.

        Work items come one mode after the other (:func:`play_elements`), so all but at
        most one shard are of one mode, and a worker changes mode a few times per run.
        When it does, the other mode's strategies are replaced by fresh instances: their
        memos and search caches go (for `default` in normal mode, the answer-pair cache,
        about 19 MB, which hard mode never reads), and leaving hard mode also forgets the
        verdicts' solver (its memo and kernel caches, up to about 55 MiB). Caches only
        save time: the trees and verdicts are the same.
        """
        if self.playing is not None and self.playing != hard:
            from wordle_core.search.hard import forget_solvers
            from wordle_core.strategies import get_strategy

            for name in self.strategies:
                self.strats[(name, self.playing)] = get_strategy(name)
            if self.playing:
                forget_solvers()
        self.playing = hard

    def _bound_memos(self) -> None:
        """Every strategy's memo in this worker together stays near the bound of the mode
        it plays (:data:`MEMO_LIMITS`).

        Counted over all strategies and both modes (the mode a worker left holds nothing
        once :meth:`_switch` has replaced its strategies). A memo is a cache: clearing it
        never changes a tree.
        """
        limit = MEMO_LIMITS[records.mode_name(bool(self.playing))]
        if sum(s.memo_size() for s in self.strats.values()) > limit:
            for s in self.strats.values():
                s.reset()

    def _exact(self, row: int) -> records.Record:
        """The opener's exact hard-mode verdict (computed once per opener)."""
        return records.exact_hard_verdict(self.lex, row, self.matrix, self.exact_node_budget,
                                          self.implied)


def play_order(rows: list[int], words: Sequence[str]) -> list[int]:
    """``rows`` with the openers made of the same letters next to each other: by the
    word's letters sorted (``SALET``, ``SLATE``, ``STEAL`` ... all ``AELST``), then by row.

    A worker plays its shard's openers one after the other with one memo per strategy,
    and openers of the same letters meet the same positions (the same answers are left
    after, say, every letter grey), so each tree finds more of its searches already in
    the memo. The trees do not depend on the order; their time does. Part of the config
    hash (:data:`PLAY_ORDER`): shards are slices of this order, and a resume never mixes
    shards cut from another one.

    >>> play_order([0, 1, 2, 3], ["slate", "crane", "least", "nacre"])
    [1, 3, 0, 2]
    """
    return sorted(rows, key=lambda r: ("".join(sorted(words[r])), r))


def play_elements(rows: list[int], modes: list[str], tables: list[str],
                  words: Sequence[str] | None = None) -> list[tuple[int, bool]]:
    """(opener row, hard) work items: the modes the per-mode tables need, plus hard for
    verdicts; normal mode first, each mode's openers in :func:`play_order` of ``words``
    (the lexicon's guesses), or by row without them."""
    per_mode = any(t in tables for t in ("opener_summaries", "games", "trees"))
    hards = {m == "hard" for m in modes} if per_mode else set()
    if VERDICT_TABLES & set(tables):
        hards.add(True)
    order = sorted(rows) if words is None else play_order(rows, words)
    return [(r, h) for h in sorted(hards) for r in order]


class PlayOpeners(beam.PTransform):
    """Every answer from every opener, per strategy and mode: the (opener, mode) items cut
    into shards -> Reshuffle -> :class:`PlayOpenerFn` per shard
    (:func:`~pipelines.orchestration.shards.sharded`; with a ``resume`` store each finished shard is
    kept, and reused by ``--resume``). This ``expand`` is the graph every run builds."""

    def __init__(self, spec: LexiconSpec, rows: list[int], strategies: list[str], modes: list[str],
                 tables: list[str], worst_games: int = 5, exact_node_budget: int | None = None,
                 matrix_path: str | None = None, progress_dir: str | None = None,
                 exact_implied: tuple[str, tuple[str, ...]] | None = None,
                 resume: Resume = NOT_KEPT) -> None:
        super().__init__()
        self.elements = play_elements(rows, modes, tables, spec.load().guesses)
        self.shards = cut(self.elements)
        self.fn = PlayOpenerFn(spec, strategies, modes, tables, worst_games, exact_node_budget,
                               matrix_path, progress_dir, exact_implied)
        self.resume = resume

    def expand(self, pbegin):
        return sharded(pbegin, self.shards, self.fn, self.resume)
