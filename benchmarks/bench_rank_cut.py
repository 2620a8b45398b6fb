"""Cut-off proofs of ``optimal --rank``: the two-level bucket bounds vs ``2m - 1``, one run.

After the ``k`` best openers are known, ``rank_openers`` only needs each other opener
proven worse than the ``k``-th total: ``opener_value(row, beta=kth + 1)``. While the
buckets of the opener are searched one by one, the buckets not searched yet stand in
with a lower bound; the sooner the sum reaches ``beta``, the sooner the proof stops.
*old* stands in with ``2m - 1`` per bucket, *new* with the two-level bound
(``kernels/exact.py::bucket_bounds``). Both sides prove the same openers, alternately,
each with a fresh solver (empty memo), and must agree that every opener is ``>= beta``
or give the same exact total.

The sample: a seeded random choice of the openers whose two-level bound is ``<= beta - 1``
(the ones ``--rank`` has to search), the bound computed here. Printed: CPU-s per opener
(mean, median, max) per side and the ratio of the means.

Run::

    python benchmarks/bench_rank_cut.py                       # wordle, beta 8017, 12 openers
    python benchmarks/bench_rank_cut.py --lexicon nyt --beta 8000 --sample 20
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--beta", type=int, default=8017,
                    help="the cut: the k-th total + 1 (wordle normal, k = 100: 8,017)")
    ap.add_argument("--sample", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pool", type=int, default=3000,
                    help="openers (most first-guess buckets first) whose bound is computed")
    args = ap.parse_args(argv)

    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.search.exact import ExactSolver

    lex = load_lexicon(args.lexicon)
    solver = ExactSolver(lex)
    rows, _ = solver.opener_order()
    rows = rows[:args.pool]
    t0 = time.process_time()
    lb2 = solver.opener_bounds(rows)
    print(f"{lex.name}: two-level bounds of {len(rows):,} openers in "
          f"{time.process_time() - t0:.1f} CPU-s (JIT included)")
    cand = rows[lb2 < args.beta]
    rng = np.random.default_rng(args.seed)
    pick = rng.choice(cand, min(args.sample, len(cand)), replace=False)
    print(f"{len(cand):,} of them have a bound below beta = {args.beta:,}; proving {len(pick)}")
    warm = ExactSolver(lex)  # compile outside the timings
    warm.opener_value(int(pick[0]), beta=args.beta, two_level=True)
    warm.opener_value(int(pick[0]), beta=args.beta, two_level=False)
    secs: dict[str, list[float]] = {"old": [], "new": []}
    for r in pick:
        got = {}
        for side in ("old", "new"):
            s = ExactSolver(lex)
            c = time.process_time()
            got[side] = s.opener_value(int(r), beta=args.beta, two_level=side == "new")
            secs[side].append(time.process_time() - c)
        same = got["old"] == got["new"] or min(got.values()) >= args.beta
        if not same:
            print(f"MISMATCH {lex.guesses[int(r)]}: {got}")
            return 1
        print(f"  {lex.guesses[int(r)]:<6} {'>= beta' if got['new'] >= args.beta else got['new']:>8}"
              f"  old {secs['old'][-1]:6.2f} s  new {secs['new'][-1]:6.2f} s")
    for side in ("old", "new"):
        x = secs[side]
        print(f"{side}: CPU-s per opener mean {statistics.mean(x):.3f}, median "
              f"{statistics.median(x):.3f}, max {max(x):.3f}")
    print(f"ratio old/new (means): {statistics.mean(secs['old']) / statistics.mean(secs['new']):.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
