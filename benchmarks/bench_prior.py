"""The frequency prior's effect on ``nyt14855-all`` (the setting of "Wordle Solver KT"), counted two ways.

Run: ``PYTHONPATH=. python benchmarks/bench_prior.py [--lexicon nyt14855-all]
[--openers own,lares] [--strategy entropy]``.

For each opener (``own`` = the strategy's own choice on the empty board; ``lares`` =
"Wordle Solver KT"'s opener) it solves all 14,855 answers with the uniform prior (plain
entropy) and with the frequency prior, and prints the share solved within 6
unweighted (every answer once, "Wordle Solver KT"'s 91.5% count) and weighted by frequency.
"""

from __future__ import annotations

import argparse
import json

from wordle_core.game.lexicon import load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.strategies.prior import prior_effect


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lexicon", default="nyt14855-all")
    ap.add_argument("--openers", default="own,lares")
    ap.add_argument("--strategy", default="entropy", choices=("entropy", "expected-size"))
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    mat = pattern_matrix(lex)
    out = []
    print(f"{lex.name}: {len(lex.answers):,} answers, limit {lex.max_guesses}; "
          "Wordle Solver KT reports 91.5% within 6")
    print(f"{'solver prior':<10} {'opener':<7} {'mean':>7} {'mean (freq-weighted)':>21} {'max':>4} "
          f"{'<=6 unweighted':>15} {'<=6 freq-weighted':>18} {'s':>6}")
    for op in args.openers.split(","):
        rep = prior_effect(lex, args.strategy, None if op == "own" else op, False, mat, progress=True)
        out.append(rep)
        for r in rep["runs"]:
            print(f"{r['prior']:<10} {r['opener'].upper():<7} {r['mean_guesses']:>7.4f} "
                  f"{r['mean_guesses_weighted']:>21.4f} {r['max_guesses']:>4} "
                  f"{100 * r['solved_unweighted']:>14.2f}% {100 * r['solved_weighted']:>17.3f}% "
                  f"{r['seconds']:>6.1f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
