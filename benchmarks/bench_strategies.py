"""Every registered strategy from one opener, normal and hard mode: mean, max, failures, time.

Run: .venv/bin/python benchmarks/bench_strategies.py [--lexicon wordle] [--opener salet]
"""

from __future__ import annotations

import argparse
import time

from wordle_core.analysis.simulate import simulate
from wordle_core.engine import load_lexicon, pattern_matrix
from wordle_core.strategies import list_strategies


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--opener", default="salet")
    ap.add_argument("--strategies", nargs="*")
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    mat = pattern_matrix(lex)
    names = args.strategies or [s["name"] for s in list_strategies()]
    print(f"{lex.name}, opener {args.opener.upper()}, {len(lex.answers):,} answers")
    print(f"{'strategy':<18}{'mode':<8}{'total':>7}{'mean':>8}{'max':>5}{'fail':>6}"
          f"{'ms/game':>9}{'tree s':>8}")
    for name in names:
        for hard in (False, True):
            t = time.perf_counter()
            rep, _ = simulate(lex, name, args.opener, hard, mat)
            print(f"{name:<18}{'hard' if hard else 'normal':<8}{rep['totalGuesses']:>7}"
                  f"{rep['meanGuesses']:>8.4f}{rep['maxGuesses']:>5}{rep['failures']:>6}"
                  f"{rep['averageTime']:>9.3f}{time.perf_counter() - t:>8.2f}", flush=True)


if __name__ == "__main__":
    main()
