"""The ``default`` strategy: trees per second and totals, against greedy entropy.

Builds the ``default`` tree for the N best openers by entropy in normal and hard mode
with one strategy instance per mode (as a pipeline worker would: positions shared
between openers), and prints per-opener totals, max, failures and seconds, plus the
mean time per tree. Target (engine issue): ~1-3 s per tree, so that ~120 openers x 2
modes fit in a 10-minute job on 2 cores.

Run: .venv/bin/python benchmarks/bench_exact_default.py [--top 20] [--width 8] [--entropy]
"""

from __future__ import annotations

import argparse
import time

from wordle_core import load_lexicon
from wordle_core.game.tree import build_tree
from wordle_core.search.openers import top_openers
from wordle_core.strategies import get_strategy


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--width", type=int, default=None)
    ap.add_argument("--entropy", action="store_true", help="also build greedy entropy trees")
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    openers = top_openers(lex, args.top, by="entropy")
    opts = {} if args.width is None else {"width": args.width}
    for hard in (False, True):
        strat = get_strategy("default", **opts)
        ent = get_strategy("entropy")
        t_all, c_all = time.perf_counter(), time.process_time()
        wins = 0
        grand = 0
        for op in openers:
            t = time.perf_counter()
            lengths = build_tree(strat, lex, op, hard).lengths()
            secs = time.perf_counter() - t
            fails = int((lengths > lex.max_guesses).sum())
            wins += fails == 0
            grand += int(lengths.sum())
            line = (f"{'hard' if hard else 'normal':<6} {op:<6} default {int(lengths.sum()):>5} "
                    f"max {int(lengths.max())} fail {fails:>2} {secs:>6.2f} s")
            if args.entropy:
                e = build_tree(ent, lex, op, hard).lengths()
                line += f"   entropy {int(e.sum()):>5} max {int(e.max())} fail {int((e > 6).sum()):>2}"
            print(line, flush=True)
        wall, cpu = time.perf_counter() - t_all, time.process_time() - c_all
        print(f"{'hard' if hard else 'normal'}: {len(openers)} trees in {wall:.1f} s wall / {cpu:.1f} s CPU"
              f" = {wall / len(openers):.2f} s per tree; {wins} openers win every game; "
              f"sum of totals {grand:,}", flush=True)


if __name__ == "__main__":
    main()
