"""Greedy strategies with and without ruling guesses out by bucket count, in one run.

The compiled choice (:func:`wordle_core.kernels.greedy.choose`) bounds each guess's
first key from its number of buckets (a cheap kernel) and scores in full only the
guesses that can still be chosen; ``PartitionStrategy.rule_out`` switches that off.
This script builds the same seeded sample of whole trees both ways (the compiled walk,
as the fan-out runs it) in one process, alternating the order per opener (so a warm
cache favours neither side), checks that every tree is identical, and prints CPU ms
per tree and the ratio.

Run::

    python benchmarks/bench_rule_out.py                               # entropy, normal
    python benchmarks/bench_rule_out.py --strategy partitions --modes normal,hard
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from wordle_core.game.lexicon import load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.kernels import buckets
from wordle_core.strategies import get_strategy, greedy


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="entropy",
                    choices=["entropy", "expected-size", "minimax", "partitions"])
    ap.add_argument("--modes", default="normal")
    ap.add_argument("--openers", type=int, default=8)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    buckets.set_threads(1)
    lex = load_lexicon("wordle")
    mat = pattern_matrix(lex)
    sides = {"all scored": False, "ruled out": True}
    rows = np.random.default_rng(args.seed).permutation(len(lex.guesses))[:args.openers]
    ok = True
    try:
        for mode in args.modes.split(","):
            hard = mode == "hard"
            for fn in sides.values():  # compile every path before timing
                greedy.PartitionStrategy.rule_out = fn
                Tree.build(get_strategy(args.strategy), GameState.new(lex, hard, mat), lex.guess_id("salet"),
                           timed=False)
            cpu = dict.fromkeys(sides, 0.0)
            same = 0
            for k, r in enumerate(rows):
                shapes = {}
                for name in (list(sides) if k % 2 else list(sides)[::-1]):
                    greedy.PartitionStrategy.rule_out = sides[name]
                    c0 = time.process_time()
                    t = Tree.build(get_strategy(args.strategy), GameState.new(lex, hard, mat), int(r),
                                   timed=False)
                    cpu[name] += time.process_time() - c0
                    shapes[name] = (t.guess, t.parent, t.pattern_in)
                same += int(shapes["all scored"] == shapes["ruled out"])
            n = len(rows)
            print(f"{args.strategy} {mode}: all scored {cpu['all scored'] / n * 1000:.0f} CPU-ms per tree, "
                  f"ruled out {cpu['ruled out'] / n * 1000:.0f}; ratio "
                  f"{cpu['all scored'] / cpu['ruled out']:.2f}x; identical trees {same}/{n}", flush=True)
            ok = ok and same == n
    finally:
        greedy.PartitionStrategy.rule_out = True
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
