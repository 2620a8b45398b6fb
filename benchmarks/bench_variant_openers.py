"""Best openers for Primel and Nerdle (or any lexicon), found with the engine.

Two stages, the same as the scores + games pipelines:

1. score every allowed first guess against all answers (entropy, expected size, largest
   bucket; one compiled pass);
2. for the union of the top ``--top`` openers by each score, play every answer with the
   strategy (a whole decision tree per opener) and rank by mean guesses, then worst game,
   then alphabetical.

Each tree is the greedy measures' compiled walk (:func:`wordle_core.kernels.greedy.greedy_tree`),
which reads Nerdle's 17,723 x 17,723 matrix row by row (no second, transposed copy).

Run: PYTHONPATH=. .venv/bin/python benchmarks/bench_variant_openers.py --lexicon primel
     [--strategy entropy] [--top 10] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from tqdm import tqdm

from wordle_core import load_lexicon
from wordle_core.files import atomic_write_text
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.kernels.buckets import bucket_stats
from wordle_core.strategies import get_strategy


def first_guess_scores(lex, mat):
    cands = np.arange(len(lex.answers))
    return bucket_stats(mat, None, cands, lex.n_patterns)


def shortlist(lex, stats, top: int) -> list[int]:
    idx = np.arange(len(lex.guesses))
    picks: list[int] = []
    for key in (-np.round(stats.entropy, 9), stats.sum_sq, stats.largest):
        order = np.lexsort((idx, key))
        picks.extend(int(i) for i in order[:top])
    return sorted(set(picks))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lexicon", default="primel")
    ap.add_argument("--strategy", default="entropy")
    ap.add_argument("--top", type=int, default=10, help="openers taken from each score's ranking")
    ap.add_argument("--json", help="write the table here as well")
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    t0 = time.perf_counter()
    mat = pattern_matrix(lex)
    print(f"{lex.name}: {len(lex.answers):,} answers, {len(lex.guesses):,} guesses, "
          f"matrix ready in {time.perf_counter() - t0:.1f} s", flush=True)
    t = time.perf_counter()
    stats = first_guess_scores(lex, mat)
    print(f"first-guess scores of all {len(lex.guesses):,} guesses: {time.perf_counter() - t:.2f} s")
    rows = shortlist(lex, stats, args.top)
    strat = get_strategy(args.strategy)
    root = GameState.new(lex, False, mat)
    results = []
    for r in tqdm(rows, desc=f"{lex.name} trees", unit="opener", file=sys.stderr):
        t = time.perf_counter()
        tree = Tree.build(strat, root, r, timed=False)
        lengths = tree.lengths()
        results.append({
            "opener": lex.guesses[r], "mean": float(lengths.mean()), "max": int(lengths.max()),
            "failures": int((lengths > lex.max_guesses).sum()), "games": len(lengths),
            "entropy_bits": round(float(stats.entropy[r]), 4),
            "expected_remaining": round(float(stats.expected_size[r]), 3),
            "largest_bucket": int(stats.largest[r]), "seconds": round(time.perf_counter() - t, 2),
        })
    results.sort(key=lambda d: (round(d["mean"], 9), d["max"], d["opener"]))
    print(f"strategy {args.strategy}, {len(results)} openers played to the end "
          f"(top {args.top} by entropy, expected size and largest bucket):")
    print(f"  {'opener':<10} {'mean':>7} {'max':>4} {'fail':>5} {'bits':>7} {'exp.left':>9} {'largest':>8}")
    for d in results:
        print(f"  {d['opener']:<10} {d['mean']:>7.4f} {d['max']:>4} {d['failures']:>5} "
              f"{d['entropy_bits']:>7.3f} {d['expected_remaining']:>9.2f} {d['largest_bucket']:>8}")
    best = results[0]
    print(f"best opener for {lex.name}: {best['opener']}  mean {best['mean']:.4f}  max {best['max']}  "
          f"failures {best['failures']} of {best['games']:,}  (total {time.perf_counter() - t0:.0f} s)")
    if args.json:
        atomic_write_text(args.json, json.dumps({"lexicon": lex.name, "strategy": args.strategy,
                                                 "results": results}, indent=1))


if __name__ == "__main__":
    main()
