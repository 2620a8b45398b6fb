"""What stops the full fan-out from reaching 15 minutes, and what a numba kernel buys.

The full fan-out spends ~90 % of its time choosing guesses: at each of the ~300
non-trivial positions of an opener's tree, the greedy strategies score all 12,972
guesses over the remaining candidates (:func:`wordle_core.kernels.partition.stats_from_block`:
a numpy gather of the guess x candidate block, then a sort or a bincount). This
script times that path against a prototype numba kernel that counts buckets per
guess in a 243-slot array (touching only the candidates' patterns), builds whole
``entropy`` trees with both, and checks that they choose the same guesses.

The prototype lives here, not in the engine: it is the evidence for moving such a
kernel into ``wordle_core.kernels.partition`` (engine code), not a second strategy.

Usage: python benchmarks/bench_pipeline_kernel.py [--openers 6]
"""

from __future__ import annotations

import argparse
import sys
import time

import numba
import numpy as np

from wordle_core.game.lexicon import load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.strategies import get_strategy
from wordle_core.strategies.base import Strategy, candidate_mask


@numba.njit(cache=True, nogil=True)
def _sum_xlogx(mat_t: np.ndarray, cands: np.ndarray, xlogx: np.ndarray, n_patterns: int) -> np.ndarray:
    """Sum of s*log2(s) over each guess's buckets; ``mat_t`` is answers x guesses.

    Guesses go in chunks whose count table (chunk x patterns, int16) stays in cache;
    each candidate's row of ``mat_t`` is contiguous, so a node reads n rows of
    12,972 bytes instead of scanning the whole guess x answer matrix.
    """
    n_g = mat_t.shape[1]
    out = np.zeros(n_g)
    chunk = 256
    counts = np.zeros((chunk, n_patterns), np.int16)
    for lo in range(0, n_g, chunk):
        hi = min(lo + chunk, n_g)
        for c in cands:
            row = mat_t[c]
            for g in range(lo, hi):
                counts[g - lo, row[g]] += 1
        for c in cands:  # sum each bucket once (at its first visit), then clear it
            row = mat_t[c]
            for g in range(lo, hi):
                k = counts[g - lo, row[g]]
                if k > 0:
                    out[g] += xlogx[k]
                    counts[g - lo, row[g]] = 0
    return out


class NumbaEntropy(Strategy):
    """`entropy`'s rule (same keys and tie-break), bucket counting in numba."""

    name = "entropy-numba-prototype"

    def __init__(self, mat_t: np.ndarray) -> None:
        super().__init__()
        self.mat_t = mat_t

    def _choose(self, state: GameState) -> int:
        n = state.n_candidates
        xlogx = np.zeros(n + 1)
        k = np.arange(1, n + 1, dtype=np.float64)
        xlogx[1:] = k * np.log2(k)
        sx = _sum_xlogx(self.mat_t, state.candidates, xlogx, state.lexicon.n_patterns)
        rows = state.legal_rows
        is_cand = candidate_mask(state, rows)
        ent = np.log2(n) - sx[rows] / n
        key = np.round(-(ent + is_cand / n), 9)
        tied = key == key.min()  # same rule as pick_lexicographic, without a full lexsort
        both = tied & is_cand
        return int(rows[int(np.argmax(both if both.any() else tied))])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openers", type=int, default=6)
    args = ap.parse_args()
    lex = load_lexicon("wordle")
    mat = np.ascontiguousarray(pattern_matrix(lex))
    rows = [int(i * len(lex.guesses) / args.openers) for i in range(args.openers)]
    mat_t = np.ascontiguousarray(mat.T)  # answers x guesses, 30 MB, built once
    NumbaEntropy(mat_t).choose(GameState.new(lex, False, mat).apply(lex.guess_id("salet"), 0))  # compile
    t_np = t_nb = 0.0
    same = 0
    for r in rows:
        c0 = time.process_time()
        a = Tree.build(get_strategy("entropy"), GameState.new(lex, False, mat), r)
        t_np += time.process_time() - c0
        c0 = time.process_time()
        b = Tree.build(NumbaEntropy(mat_t), GameState.new(lex, False, mat), r)
        t_nb += time.process_time() - c0
        same += int(a.guess == b.guess and np.array_equal(a.lengths(), b.lengths()))
    games = len(rows) * len(lex.answers)
    print(f"{len(rows)} openers, entropy, normal mode; CPU time (process_time), machine shared")
    print(f"  numpy path (engine today): {t_np / len(rows):.3f} s per tree, {games / t_np:,.0f} games/CPU-s")
    print(f"  numba prototype:           {t_nb / len(rows):.3f} s per tree, {games / t_nb:,.0f} games/CPU-s "
          f"({t_np / t_nb:.1f}x)")
    print(f"  identical trees: {same}/{len(rows)}")
    need = 2 * len(lex.guesses) * len(lex.answers) / (15 * 60) / 2
    print(f"  configs/full.yaml in 15 min on 2 cores needs {need:,.0f} games/CPU-s (both modes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
