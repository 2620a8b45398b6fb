"""The avg-eliminated family of "Wordle Solver KT" on `nyt14855-all` (every guess may be the answer).

"Wordle Solver KT" (Kotlin, Balanced, opener LARES) reports 91.5% solved within 6 and 5.256 ms
per game. This prints ours for Simple / TestAllScored / TestAllFull / Balanced.

Run: .venv/bin/python benchmarks/bench_eliminated.py [--lexicon nyt14855-all] [--opener lares]
"""

from __future__ import annotations

import argparse
import time

from wordle_core.analysis.simulate import simulate
from wordle_core.engine import load_lexicon, pattern_matrix

FAMILY = ["simple", "test-all-scored", "test-all-full", "balanced"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lexicon", default="nyt14855-all")
    ap.add_argument("--opener", default="lares")
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    t = time.perf_counter()
    mat = pattern_matrix(lex)
    print(f"{lex.name}: {len(lex.answers):,} answers; matrix ready in {time.perf_counter() - t:.1f} s")
    print("Wordle Solver KT (Balanced, LARES): 91.5% within 6, 5.256 ms/game")
    for name in FAMILY:
        t = time.perf_counter()
        rep, _ = simulate(lex, name, args.opener, False, mat)
        print(f"{name:<16} within 6: {100 * rep['solvedWithinLimit']:.2f}%  mean {rep['meanGuesses']:.4f}  "
              f"max {rep['maxGuesses']}  {rep['averageTime']:.3f} ms/game  "
              f"(all {rep['totalCount']:,} games in {time.perf_counter() - t:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
