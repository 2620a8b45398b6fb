"""Fan-out throughput of the blocked bucket kernel against the kernel before it, in one run.

The fan-out (every answer from every opener) spends its time choosing guesses: at each
position every allowed guess is scored over the candidates. This script builds whole
trees for an evenly spaced sample of openers (easy and hard ones) with

* **old**: the engine's path before the blocked kernel, rebuilt here as the baseline: the row
  kernel (one guess row of the guesses x answers matrix at a time, threads for big
  blocks, as ``fastsplit`` had it), the perfect-candidate check as a sort of the
  n x n block, the tie rule by ``np.lexsort``;
* **new**: the engine today, as the fan-out pipeline runs it: the whole tree in one
  compiled walk (:func:`wordle_core.kernels.greedy.greedy_tree`: transposed matrix,
  blocked counts table, perfect-split early exits, guesses ruled out by their bucket
  count before the full statistics, no Python per position);

checks that both build identical trees, and prints games/s for both (normal and hard
mode) and their ratio, the new side's games/s with ``--workers`` trees built at once
(threads: the compiled walk releases the GIL), its bucket updates per CPU-second, this
machine's streaming bound for the bytes it reads (a numpy sum over as many bytes of the
transposed matrix) and how close it comes to it, the extrapolated time of all
12,972 x 2,315 = 30.0 M games per mode, and peak memory.

Both sides run in this one process, one after the other per opener (old, new, old,
...), so a busy machine slows both alike: quote the ratio. ``--threads`` limits the
old side's kernel threads (default: numba's, i.e. the cores); the new side runs one
thread per tree.

Usage: python benchmarks/bench_fanout.py [--openers 20] [--strategy S] [--modes normal,hard] [--workers 2]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from concurrent.futures import ThreadPoolExecutor

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


# --- the old kernel (the ``fastsplit`` loops before the blocked kernel, verbatim in effect) ----------------
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


def old_keys(name: str, st: BucketStats, is_cand: np.ndarray) -> list[np.ndarray]:
    """The measures' keys (minimised in order) as the numpy path computed them."""
    if name == "entropy":
        return [np.round(-(st.entropy + is_cand / st.n), 9)]
    if name == "expected-size":
        return [st.sum_sq, st.largest]
    if name == "minimax":
        return [st.largest, st.sum_sq]
    return [-st.buckets, st.sum_sq]


def old_choose(strategy: greedy.PartitionStrategy, state: GameState) -> int:
    """``PartitionStrategy._choose`` before the blocked kernel."""
    if state.n_candidates <= 64:  # the old PERFECT_CHECK_MAX
        rows = state.candidate_rows
        block = np.sort(np.asarray(state.matrix[rows][:, state.candidates]), axis=1)
        hit = np.flatnonzero((block[:, 1:] != block[:, :-1]).all(axis=1))
        if hit.size:
            return int(rows[hit[0]])
    rows = greedy.guess_pool(state, str(strategy.options.get("pool", "all")))
    stats = old_stats(state.matrix, rows, state.candidates, state.lexicon.n_patterns)
    is_cand = candidate_mask(state, rows)
    keys = old_keys(strategy.name, stats, is_cand)
    return int(rows[np.lexsort([np.arange(len(is_cand)), ~is_cand, *keys[::-1]])[0]])


class OldKernel:
    """Wraps a fresh registry strategy; its choices go through the old path."""

    def __init__(self, name: str) -> None:
        self.inner = get_strategy(name)
        self.inner._choose = lambda state: old_choose(self.inner, state)  # type: ignore[method-assign]
        self.name = name

    def choose(self, state: GameState) -> int:
        return self.inner.choose(state)


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


def new_tree(name: str, lex, mat, hard: bool, r: int) -> Tree:
    return Tree.build(get_strategy(name), GameState.new(lex, hard, mat), r, timed=False)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openers", type=int, default=20)
    ap.add_argument("--strategy", default="entropy",
                    choices=["entropy", "expected-size", "minimax", "partitions"])
    ap.add_argument("--modes", default="normal,hard")
    ap.add_argument("--threads", type=int, default=None, help="kernel threads of the old side")
    ap.add_argument("--workers", type=int, default=2,
                    help="trees built at once in the parallel run of the new side (default 2: the cores)")
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
    new_tree(args.strategy, lex, mat, False, lex.guess_id("qajaq"))
    new_tree(args.strategy, lex, mat, True, lex.guess_id("qajaq"))
    per_byte = streaming_seconds_per_byte(mt)
    print(f"{args.openers} openers (every {len(lex.guesses) // args.openers}th guess), {args.strategy}, "
          f"old side {buckets.threads()} kernel thread(s), numba {numba.__version__}; machine shared: "
          "wall clock and CPU time (all threads) both shown")
    for mode in args.modes.split(","):
        hard = mode == "hard"
        t_old = t_new = c_old = c_new = 0.0
        same = 0
        cells0 = greedy.cells_read()
        for r in rows:
            t, c = time.perf_counter(), time.process_time()
            a = Tree.build(OldKernel(args.strategy), GameState.new(lex, hard, mat), r)
            t_old += time.perf_counter() - t
            c_old += time.process_time() - c
            t, c = time.perf_counter(), time.process_time()
            b = new_tree(args.strategy, lex, mat, hard, r)
            t_new += time.perf_counter() - t
            c_new += time.process_time() - c
            same += int(a.guess == b.guess and a.parent == b.parent and a.pattern_in == b.pattern_in
                        and np.array_equal(a.solved_at, b.solved_at))
        cells1 = greedy.cells_read()
        full, counted = cells1[0] - cells0[0], cells1[1] - cells0[1]
        # the new side again, ``workers`` trees at a time (the compiled walk releases the GIL)
        t = time.perf_counter()
        with ThreadPoolExecutor(args.workers) as pool:
            list(pool.map(new_tree, [args.strategy] * len(rows), [lex] * len(rows), [mat] * len(rows),
                          [hard] * len(rows), rows))
        t_par = time.perf_counter() - t
        games = len(rows) * n_a
        g_old, g_new, g_par = games / t_old, games / t_new, games / t_par
        target = 60_000 if hard else 40_000
        print(f"\n{mode} mode: {games:,} games, identical trees {same}/{len(rows)}")
        print(f"  old kernel: {g_old:>9,.0f} games/s wall, {games / c_old:>9,.0f} games/CPU-s   "
              f"({t_old / len(rows) * 1000:6.1f} ms per tree)")
        print(f"  new kernel: {g_new:>9,.0f} games/s wall, {games / c_new:>9,.0f} games/CPU-s   "
              f"({t_new / len(rows) * 1000:6.1f} ms per tree; compiled walk, one tree at a time)")
        print(f"  ratio new/old: {g_new / g_old:.2f}x wall, {c_old / c_new:.2f}x CPU")
        print(f"  new kernel, {args.workers} trees at a time: {g_par:>9,.0f} games/s wall   "
              f"[target >= {target:,} games/s on 2 cores]")
        bytes_read = (full + counted) * mt.itemsize  # one pattern read per bucket update
        bound = bytes_read * per_byte
        print(f"  bucket updates of the new side: {full:,} full statistics + {counted:,} counts = "
              f"{(full + counted) / c_new / 1e9:.2f} G updates per CPU-s of tree building")
        print(f"  streaming bound for those {bytes_read / 1e9:.2f} GB (numpy sum at "
              f"{1 / per_byte / 1e9:.1f} GB/s): {bound:.3f} s; the new trees take "
              f"{c_new / bound:.1f}x that in CPU time")
        print(f"  30.0 M games ({len(lex.guesses):,} x {n_a:,}): old {all_games / g_old / 60:.1f} min, "
              f"new {all_games / g_new / 60:.1f} min one tree at a time, "
              f"{all_games / g_par / 60:.1f} min with {args.workers} at a time")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of this process (both kernels, matrix + transposed copy): {peak:,.0f} MB "
          "[target <= 600 MB per worker]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
