"""Fan-out throughput of the blocked bucket kernel against the kernel before it, in one run.

The fan-out (every answer from every opener) spends its time choosing guesses: at each
position every allowed guess is scored over the candidates. This script builds whole
trees for an evenly spaced sample of openers (easy and hard ones) with

* **old**: the engine's path before the blocked kernel, rebuilt here as the baseline: the row
  kernel (one guess row of the guesses x answers matrix at a time, threads for big
  blocks, as ``fastsplit`` had it), the perfect-candidate check as a sort of the
  n x n block, the tie rule by ``np.lexsort``;
* **new**: the engine today (:mod:`wordle_core.kernels.buckets`: transposed matrix,
  blocked counts table, perfect-split early exit over the pool, tie rule by narrowing,
  guesses ruled out by their bucket count before the full statistics);

checks that both build identical trees, and prints games/s for both (normal and hard
mode) and their ratio, bucket updates per second inside the kernel, this machine's
streaming bound for the bytes the kernel reads (a numpy sum over as many bytes of the
transposed matrix) and how close the kernel comes to it, the extrapolated time of all
12,972 x 2,315 = 30.0 M games per mode, and peak memory.

Both sides run in this one process, one after the other per opener (old, new, old,
...), so a busy machine slows both alike: quote the ratio. ``--threads`` limits the
kernel threads of both (default: numba's, i.e. the cores).

Usage: python benchmarks/bench_fanout.py [--openers 20] [--strategy entropy] [--modes normal,hard]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

import numba
import numpy as np
from numba import njit, prange

from wordle_core.game.lexicon import load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.kernels import buckets
from wordle_core.kernels.buckets import BucketStats, xlogx_table
from wordle_core.strategies import get_strategy, greedy
from wordle_core.strategies.base import candidate_mask


# --- the old kernel (the pre-issue-11 ``fastsplit`` loops, verbatim in effect) ----------------
@njit(cache=True, nogil=True)
def _old_rows(mat, rows, cands, xlogx, lo, hi, counts, nb_out, big_out, sq_out, xl_out, worst_out):
    n = cands.shape[0]
    n_pat = counts.shape[0]
    for i in range(lo, hi):
        r = rows[i]
        for j in range(n):
            counts[mat[r, cands[j]]] += 1
        nb = 0
        big = 0
        big_pat = n_pat
        sq = 0.0
        xl = 0.0
        for j in range(n):
            p = mat[r, cands[j]]
            c = counts[p]
            if c > 0:
                nb += 1
                sq += c * c
                xl += xlogx[c]
                if c > big or (c == big and p < big_pat):
                    big = c
                    big_pat = p
                counts[p] = 0
        nb_out[i] = nb
        big_out[i] = big
        sq_out[i] = sq
        xl_out[i] = xl
        worst_out[i] = big_pat


@njit(parallel=True, cache=True, nogil=True)
def _old_parallel(mat, rows, cands, n_pat, xlogx, nb, big, sq, xl, worst):
    n_rows = rows.shape[0]
    n_chunks = min(n_rows, 64)
    for chunk in prange(n_chunks):
        counts = np.zeros(n_pat, np.int32)
        lo = chunk * n_rows // n_chunks
        hi = (chunk + 1) * n_rows // n_chunks
        _old_rows(mat, rows, cands, xlogx, lo, hi, counts, nb, big, sq, xl, worst)


def old_stats(matrix, rows, cands, n_patterns) -> BucketStats:
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    cands = np.ascontiguousarray(cands, dtype=np.int64)
    n_g = rows.shape[0]
    out = [np.zeros(n_g, np.int64), np.zeros(n_g, np.int64), np.zeros(n_g), np.zeros(n_g),
           np.zeros(n_g, np.int64)]
    mat = np.asarray(matrix)
    xlogx = xlogx_table(int(cands.shape[0]))
    if n_g * cands.shape[0] >= 1_000_000 and buckets.threads() > 1:
        _old_parallel(mat, rows, cands, n_patterns, xlogx, *out)
    else:
        _old_rows(mat, rows, cands, xlogx, 0, n_g, np.zeros(n_patterns, np.int32), *out)
    return BucketStats(int(cands.shape[0]), *out)


def old_choose(strategy: greedy.PartitionStrategy, state: GameState) -> int:
    """The pre-issue-11 ``PartitionStrategy._choose``."""
    if state.n_candidates <= greedy.PERFECT_CHECK_MAX:
        rows = state.candidate_rows
        block = np.sort(np.asarray(state.matrix[rows][:, state.candidates]), axis=1)
        hit = np.flatnonzero((block[:, 1:] != block[:, :-1]).all(axis=1))
        if hit.size:
            return int(rows[hit[0]])
    rows = greedy.guess_pool(state, str(strategy.options.get("pool", "all")))
    stats = old_stats(state.matrix, rows, state.candidates, state.lexicon.n_patterns)
    is_cand = candidate_mask(state, rows)
    keys = strategy.keys(stats, is_cand)
    return int(rows[np.lexsort([np.arange(len(is_cand)), ~is_cand, *keys[::-1]])[0]])


class OldKernel:
    """Wraps a fresh registry strategy; its choices go through the old path."""

    def __init__(self, name: str) -> None:
        self.inner = get_strategy(name)
        self.inner._choose = lambda state: old_choose(self.inner, state)  # type: ignore[method-assign]
        self.name = name

    def choose(self, state: GameState) -> int:
        return self.inner.choose(state)


# --- counting what the new kernel does -----------------------------------------------------
class Meter:
    """Wraps the strategies' kernels (``bucket_stats`` and the cheaper ``guess_counts`` that
    rules guesses out first), as the strategies see them: cells counted, time summed."""

    def __init__(self) -> None:
        self.cells = 0
        self.seconds = 0.0
        self.cpu = 0.0
        self.real = {"bucket_stats": greedy.bucket_stats, "guess_counts": greedy.guess_counts}

    def wrap(self, name: str):
        real = self.real[name]

        def metered(matrix, rows, cands, n_patterns):
            t, c = time.perf_counter(), time.process_time()
            out = real(matrix, rows, cands, n_patterns)
            self.seconds += time.perf_counter() - t
            self.cpu += time.process_time() - c
            self.cells += (matrix.shape[0] if rows is None else len(rows)) * len(cands)
            return out

        return metered

    def install(self) -> None:
        for name in self.real:
            setattr(greedy, name, self.wrap(name))

    def remove(self) -> None:
        for name, fn in self.real.items():
            setattr(greedy, name, fn)


def streaming_seconds_per_byte(mt: np.ndarray, repeat: int = 7) -> float:
    """Best time per byte of a numpy sum over the transposed matrix's bytes (as uint64 words)."""
    words = mt.reshape(-1)[: mt.size - mt.size % 8].view(np.uint64)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        words.sum()
        best = min(best, time.perf_counter() - t)
    return best / words.nbytes


def sample_rows(n_guesses: int, k: int) -> list[int]:
    step = n_guesses / k
    return [int(i * step + step / 2) for i in range(k)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openers", type=int, default=20)
    ap.add_argument("--strategy", default="entropy",
                    choices=["entropy", "expected-size", "minimax", "partitions"])
    ap.add_argument("--modes", default="normal,hard")
    ap.add_argument("--threads", type=int, default=None)
    args = ap.parse_args()
    if args.threads:
        buckets.set_threads(args.threads)
    lex = load_lexicon("wordle")
    mat = pattern_matrix(lex)
    mt = buckets.transposed(mat)
    rows = sample_rows(len(lex.guesses), args.openers)
    n_a = len(lex.answers)
    all_games = len(lex.guesses) * n_a
    # compile both paths
    warm = GameState.new(lex, False, mat).apply(lex.guess_id("salet"), 0)
    OldKernel(args.strategy).choose(warm)
    get_strategy(args.strategy).choose(warm)
    per_byte = streaming_seconds_per_byte(mt)
    print(f"{args.openers} openers (every {len(lex.guesses) // args.openers}th guess), {args.strategy}, "
          f"{buckets.threads()} kernel thread(s), numba {numba.__version__}; machine shared: "
          "wall clock and CPU time (all threads) both shown")
    for mode in args.modes.split(","):
        hard = mode == "hard"
        t_old = t_new = c_old = c_new = 0.0
        same = 0
        meter = Meter()
        meter.install()
        try:
            for r in rows:
                t, c = time.perf_counter(), time.process_time()
                a = Tree.build(OldKernel(args.strategy), GameState.new(lex, hard, mat), r)
                t_old += time.perf_counter() - t
                c_old += time.process_time() - c
                t, c = time.perf_counter(), time.process_time()
                b = Tree.build(get_strategy(args.strategy), GameState.new(lex, hard, mat), r)
                t_new += time.perf_counter() - t
                c_new += time.process_time() - c
                same += int(a.guess == b.guess and a.parent == b.parent and a.pattern_in == b.pattern_in
                            and np.array_equal(a.solved_at, b.solved_at))
        finally:
            meter.remove()
        games = len(rows) * n_a
        g_old, g_new = games / t_old, games / t_new
        target = 60_000 if hard else 40_000
        print(f"\n{mode} mode: {games:,} games, identical trees {same}/{len(rows)}")
        print(f"  old kernel: {g_old:>9,.0f} games/s wall, {games / c_old:>9,.0f} games/CPU-s   "
              f"({t_old / len(rows) * 1000:6.1f} ms per tree)")
        print(f"  new kernel: {g_new:>9,.0f} games/s wall, {games / c_new:>9,.0f} games/CPU-s   "
              f"({t_new / len(rows) * 1000:6.1f} ms per tree)")
        print(f"  ratio new/old: {g_new / g_old:.2f}x wall, {c_old / c_new:.2f}x CPU   "
              f"[target >= {target:,} games/s on 2 cores]")
        if meter.seconds > 0:
            ups = meter.cells / meter.seconds
            bytes_read = meter.cells * mt.itemsize  # one pattern read per bucket update
            bound = bytes_read * per_byte
            print(f"  inside the new kernel: {meter.cells:,} bucket updates in {meter.seconds:.2f} s wall = "
                  f"{ups / 1e9:.2f} G updates/s; {meter.cpu:.2f} CPU-s = {meter.cells / meter.cpu / 1e9:.2f} "
                  f"G updates/CPU-s ({meter.seconds / t_new:.0%} of the tree time)")
            print(f"  streaming bound for those {bytes_read / 1e9:.2f} GB (numpy sum at "
                  f"{1 / per_byte / 1e9:.1f} GB/s): {bound:.3f} s; the kernel takes "
                  f"{meter.seconds / bound:.1f}x that wall, {meter.cpu / bound:.1f}x in CPU time")
        cores = 2 * games / c_new  # two single-threaded workers, each at the CPU rate
        print(f"  30.0 M games ({len(lex.guesses):,} x {n_a:,}) at the new rate: "
              f"{all_games / g_new / 60:.1f} min wall (old: {all_games / g_old / 60:.1f} min); "
              f"{all_games / cores / 60:.1f} min on 2 idle cores at the CPU rate ({cores:,.0f} games/s)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of this process (both kernels, matrix + transposed copy): {peak:,.0f} MB "
          "[target <= 600 MB per worker]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
