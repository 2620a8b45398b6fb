"""Exact optimum per opener, normal and hard mode, with the time of each proof.

"none" in the total column: proven that no strategy wins every game within 6 guesses.

Targets: SALET 7,920 normal / 8,122 hard on ``wordle``, proven, within
15 s / 25 s on this machine (a reference C++ program takes ~1-2 s). Each opener gets a
fresh solver (empty memo), so every time is a whole proof on its own. The JIT is
warmed up on a tiny set first (compiled code is cached on disk after the first run).

Run: .venv/bin/python benchmarks/bench_exact.py [--openers salet,trace,...] [--modes normal,hard]
     [--guesses all|answers] [--default] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from wordle_core import load_lexicon
from wordle_core.analysis.simulate import simulate
from wordle_core.search.exact import INF, ExactSolver, optimal_for_opener

OPENERS = "salet,trace,crate,slate,crane,carte,parse,roate,raise,soare,adieu"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--openers", default=OPENERS)
    ap.add_argument("--modes", default="normal,hard")
    ap.add_argument("--guesses", default="all", choices=["all", "answers"])
    ap.add_argument("--default", action="store_true",
                    help="also build the `default` and greedy `entropy` trees for comparison")
    ap.add_argument("--json", help="write the rows as JSON here")
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    warm = ExactSolver(lex)
    warm.value(np.arange(6, dtype=np.int32), warm.pool_rows(), 4)
    rows = []
    print(f"{'opener':<8} {'mode':<6} {'total':>6} {'mean':>7} {'max':>3} {'seconds':>8} "
          f"{'cpu_s':>6} {'nodes':>8}" + ("  default  entropy" if args.default else ""), flush=True)
    for mode in args.modes.split(","):
        hard = mode == "hard"
        for op in args.openers.split(","):
            res, _tree = optimal_for_opener(lex, op, hard=hard, pool=args.guesses, with_tree=True)
            row = res.as_dict()
            total = str(res.total) if res.total < INF else "none"
            line = (f"{op:<8} {mode:<6} {total:>6} {res.mean:>7.4f} {res.max_guesses:>3} "
                    f"{res.seconds:>8.2f} {res.cpu_seconds:>6.2f} {res.stats['nodes']:>8}")
            if args.default:
                for name in ("default", "entropy"):
                    t = time.perf_counter()
                    rep, _ = simulate(lex, name, op, hard)
                    row[name] = {"total": rep["totalGuesses"], "max": rep["maxGuesses"],
                                 "failures": rep["failures"],
                                 "seconds": round(time.perf_counter() - t, 2)}
                    line += f"  {rep['totalGuesses']:>5}/{rep['maxGuesses']}"
            rows.append(row)
            print(line, flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
