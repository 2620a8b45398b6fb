"""The restricted case: guesses only from the possible answers. Proves the best opener.

Every answer word is a candidate opener. Each gets a cheap two-level lower bound;
then openers are searched in order of that bound, each only far enough to show it
is no better than the best so far, until the next bound exceeds the best total.

Run: .venv/bin/python benchmarks/bench_exact_answers.py [--lexicon wordle] [--json FILE]
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from wordle_core import load_lexicon
from wordle_core.search.exact import ExactSolver, prove_best_opener


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--json", help="write the result as JSON here")
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    solver = ExactSolver(lex, pool="answers")
    rows = np.sort(lex.answer_rows)
    res = prove_best_opener(solver, rows, progress=True)
    d = res.as_dict()
    print(f"{lex.name}, guesses from the {len(rows):,} answers only: best opener(s) "
          f"{', '.join(w.upper() for w in res.best)} = {res.total:,} ({res.total / len(lex.answers):.4f})"
          f"; {res.evaluated} of {res.openers} openers searched, the rest excluded by the bound; "
          f"{res.seconds:.1f} s wall, {res.cpu_seconds:.1f} s CPU")
    top = list(d["values"].items())[:10]
    print("exact totals found on the way:", ", ".join(f"{w} {v}" for w, v in top))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(d, fh, indent=1)


if __name__ == "__main__":
    main()
