"""Multi-board figures: mean guesses and failure rate over 1,000 seeded games, N = 2, 4, 8.

Run: ``PYTHONPATH=. python benchmarks/bench_multiboard.py [--games 1000] [--seed 0]``.
Also times the per-board scoring kernel (numba, weights 1) against the engine's numpy
bucket kernel on the same candidate sets, the baseline in the same run.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from tests.reference_buckets import bucket_stats_numpy
from wordle_core.analysis.multiboard import simulate_multi
from wordle_core.game.lexicon import load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.kernels.buckets import weighted_stats


def kernel_speed(lex, mat) -> None:
    rng = np.random.default_rng(0)
    rows = np.arange(len(lex.guesses))
    weighted_stats(mat, rows, np.arange(3), np.ones(3), lex.n_patterns)  # compile
    for n in (10, 100, 1000):
        sets = [np.sort(rng.choice(len(lex.answers), n, replace=False)) for _ in range(20)]
        t0 = time.perf_counter()
        for c in sets:
            bucket_stats_numpy(mat, None, c, lex.n_patterns)
        t_np = (time.perf_counter() - t0) / len(sets)
        t0 = time.perf_counter()
        for c in sets:
            weighted_stats(mat, rows, c, np.ones(n), lex.n_patterns)
        t_nb = (time.perf_counter() - t0) / len(sets)
        print(f"kernel n={n:>5}: numpy bincount {1000 * t_np:7.2f} ms   numba {1000 * t_nb:7.2f} ms   "
              f"x{t_np / t_nb:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--boards", default="1,2,4,8")
    ap.add_argument("--json", metavar="FILE", help="also write the reports as JSON")
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    mat = pattern_matrix(lex)
    kernel_speed(lex, mat)
    reports = []
    print(f"{'boards':>6} {'limit':>5} {'mean':>8} {'max':>4} {'fail':>6} {'fail %':>7} {'s':>7} "
          f"{'ms/game':>8}")
    for n in (int(x) for x in args.boards.split(",")):
        r = simulate_multi(lex, n, args.games, args.seed, "salet", matrix=mat, progress=True)
        reports.append(r)
        print(f"{n:>6} {r['limit']:>5} {r['mean_guesses']:>8.4f} {r['max_guesses']:>4} {r['failures']:>6} "
              f"{100 * r['failure_rate']:>6.2f}% {r['seconds']:>7.1f} {r['ms_per_game']:>8.1f}   "
              f"{r['guess_distribution']}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(reports, fh, indent=1)


if __name__ == "__main__":
    main()
