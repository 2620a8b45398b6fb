"""Bucket counts of small sets, the exact search's hot loop in normal mode: old vs new.

*old* is :func:`~wordle_core.kernels.buckets.count_buckets`, which the search used for
every small set before (pairwise byte compares up to 32 answers, a pattern bitset per
guess above). *new* is :func:`~wordle_core.kernels.buckets.pair_counts`: the ORs of the
answer pairs' collision bitsets, kept in a cache. The sets are the ones the search
meets: the buckets of random second guesses inside the buckets of an opener, from 3 to
64 answers. Both sides count every guess of every set (the same numbers: checked), in
one process, each timed over the sets of a size class; the new side first with a cold
cache (the class's pairs made as they come, in a cache of 65,536 rows kept from class
to class), then again, warm (pairs of a class beyond the cache's rows are made again).

Printed per size class: µs per set for each side and their ratio, and the pairs made.

Run::

    python benchmarks/bench_small_counts.py                    # nyt, opener LIKER
    python benchmarks/bench_small_counts.py --opener salet --sets 1000
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np


def real_sets(mt: np.ndarray, opener: int, n_sets: int, seed: int) -> list[np.ndarray]:
    """Buckets (3..64 answers) of random second guesses inside the opener's buckets."""
    rng = np.random.default_rng(seed)
    first = mt[:, opener]
    sets: list[np.ndarray] = []
    while len(sets) < n_sets:
        parent = np.flatnonzero(first == first[rng.integers(len(first))]).astype(np.int32)
        second = mt[parent, int(rng.integers(mt.shape[1]))]
        for p in np.unique(second):
            s = parent[second == p]
            if 3 <= len(s) <= 64:
                sets.append(np.ascontiguousarray(s))
    return sets[:n_sets]


def main(argv: list[str] | None = None) -> int:
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.kernels.buckets import (
        PAIR_SLOTS,
        count_buckets,
        pair_cache,
        pair_counts,
        transposed,
    )

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lexicon", default="nyt")
    ap.add_argument("--opener", default="liker")
    ap.add_argument("--sets", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    lex = load_lexicon(args.lexicon)
    mt = transposed(pattern_matrix(lex))
    green = lex.n_patterns - 1
    arow = np.ascontiguousarray(lex.answer_rows, dtype=np.int32)
    rows = np.arange(len(lex.guesses), dtype=np.int32)
    sets = real_sets(mt, lex.guess_id(args.opener), args.sets, args.seed)
    for slots in (64, PAIR_SLOTS):  # compile both (the slot map's two integer types)
        pair_counts(mt, sets[0], arow, green, pair_cache(len(lex.answers), len(lex.guesses), slots))
    count_buckets(mt, sets[0], rows, green, lex.n_patterns)

    classes = [(3, 16), (17, 32), (33, 64)]
    print(f"{args.lexicon}: {len(sets)} sets under {args.opener.upper()} "
          f"(buckets of random second guesses), {len(lex.guesses):,} guesses each")
    print(f"{'answers':>8} {'sets':>5} {'old us':>8} {'cold us':>8} {'warm us':>8} "
          f"{'old/warm':>8} {'old/cold':>8}")
    cache = pair_cache(len(lex.answers), len(lex.guesses), PAIR_SLOTS)
    check = pair_cache(len(lex.answers), len(lex.guesses), 64)  # (for the comparison only)
    made_before = 0
    for lo, hi in classes:
        group = [s for s in sets if lo <= len(s) <= hi]
        if not group:
            continue
        for s in group:
            a = count_buckets(mt, s, rows, green, lex.n_patterns)
            b = pair_counts(mt, s, arow, green, check)
            if not (np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])):
                print(f"counts differ on a set of {len(s)}", file=sys.stderr)
                return 1
        t = time.process_time()
        for s in group:
            count_buckets(mt, s, rows, green, lex.n_patterns)
        old = (time.process_time() - t) / len(group) * 1e6
        t = time.process_time()
        for s in group:
            pair_counts(mt, s, arow, green, cache)
        cold = (time.process_time() - t) / len(group) * 1e6
        made = int(cache[3][0]) - made_before
        made_before = int(cache[3][0])
        t = time.process_time()
        for s in group:
            pair_counts(mt, s, arow, green, cache)
        warm = (time.process_time() - t) / len(group) * 1e6
        print(f"{lo:>3}-{hi:<4} {len(group):>5} {old:>8.1f} {cold:>8.1f} {warm:>8.1f} "
              f"{old / warm:>7.2f}x {old / cold:>7.2f}x   ({made:,} pairs made)")
    print("counts identical on every set")
    return 0


if __name__ == "__main__":
    sys.exit(main())
