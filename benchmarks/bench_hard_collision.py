"""The hard-mode runs of "Winning Wordle's Hard Mode", replayed with our collision breaker.

For every (strategy, opener) the article reports, builds the hard-mode decision tree
on the ``wordle`` lexicon (2,315 answers, 12,972 guesses), and prints: games lost
(over 6 guesses), mean, max, the worst game with its feedback (article notation:
``M`` green, ``o`` yellow, ``_`` gray), and the build time, next to the article's
figures, and the opener's exact hard-mode verdict (can *any* strategy win every game?).
Also prints the openers each variant chooses by itself.

    PYTHONPATH=. python benchmarks/bench_hard_collision.py [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from wordle_core.game.feedback import int_to_digits
from wordle_core.game.lexicon import load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.search.hard import hard_verdict
from wordle_core.strategies import get_strategy

# (variant, strategy, options, opener, article: losses, mean, max, worst answer)
ARTICLE = [
    ("fallback", "partitions", {}, "trace", 8, 3.6104, 8, "hover"),
    ("attempt 1 (filter)", "collision-filter", {}, "trace", None, None, None, "hatch"),
    ("attempt 1 (filter)", "collision-filter", {}, "perms", 7, 3.7322, 12, "golly"),
    ("attempt 3", "collision-breaker-3", {}, "sowth", 2, 3.8648, 7, "boxer"),
    ("attempt 3", "collision-breaker-3", {}, "worth", 1, 3.8475, 7, "foyer"),
    ("attempt 3", "collision-breaker-3", {}, "wroth", 1, 3.8233, 7, "cover"),
    ("attempt 3", "collision-breaker-3", {}, "frith", 2, 3.8194, 7, "joker"),
    ("attempt 3", "collision-breaker-3", {}, "forth", 2, 3.8039, 7, "waver"),
    ("attempt 3", "collision-breaker-3", {}, "froth", 1, 3.7905, 7, "match"),
    ("attempt 3", "collision-breaker-3", {}, "rowth", 0, 3.8575, 6, "booby"),
    ("attempt 4", "collision-breaker", {}, "clots", 0, 3.8389, 6, "stove"),
    ("attempt 4", "collision-breaker", {}, "colts", 0, 3.8212, 6, "favor"),
    ("offset 2", "collision-breaker", {"offset": 2}, "arose", "lost badly", None, None, None),
    ("offset 2", "collision-breaker", {"offset": 2}, "alter", "lost badly", None, None, None),
]


def article_marks(lex, guess: int, pattern: int) -> str:
    return "".join("_oM"[d] for d in int_to_digits(pattern, lex.length))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", help="also write the rows as JSON")
    args = ap.parse_args(argv)
    lex = load_lexicon("wordle")
    mat = pattern_matrix(lex)
    root = GameState.new(lex, hard=True, matrix=mat)
    strategies: dict[tuple, object] = {}
    rows = []
    print("openers each variant picks by itself (first guess, hard mode, wordle):")
    for name, opts in [("partitions", {}), ("collision-breaker-3", {}), ("collision-breaker", {}),
                       ("collision-breaker", {"offset": 2})]:
        s = get_strategy(name, **opts)
        strategies[(name, tuple(sorted(opts.items())))] = s
        t0 = time.perf_counter()
        print(f"  {name} {opts or ''}: {lex.guesses[s.choose(root)].upper()} "
              f"({time.perf_counter() - t0:.1f} s)", flush=True)
    print()
    hdr = (f"{'variant':<19}{'opener':<7}| {'article: lost mean max worst':<34}| "
           f"{'project: lost mean max worst':<34}| s   | exact verdict")
    print(hdr)
    print("-" * len(hdr))
    for variant, name, opts, opener, a_lost, a_mean, a_max, a_worst in ARTICLE:
        key = (name, tuple(sorted(opts.items())))
        strat = strategies.setdefault(key, get_strategy(name, **opts))
        t0 = time.perf_counter()
        tree = Tree.build(strat, root, opener)
        secs = time.perf_counter() - t0
        lengths = tree.lengths()
        worst = tree.longest_games(1)[0]
        path = tree.path(worst)
        lost = int((lengths > 6).sum())
        art = (f"{a_lost!s:<4} {a_mean if a_mean else '':<6} {a_max if a_max else '':<3} "
               f"{(a_worst or '').upper():<6}")
        proj = f"{lost:<4} {lengths.mean():.4f} {int(lengths.max()):<3} {lex.answers[worst].upper():<6}"
        exact = hard_verdict(lex, lex.guess_id(opener), mat)["verdict"]
        print(f"{variant:<19}{opener.upper():<7}| {art:<34}| {proj:<34}| {secs:<4.0f}| {exact}", flush=True)
        print("    worst: " + " ".join(f"{lex.guesses[g].upper()}:{article_marks(lex, g, p)}"
                                      for g, p in path), flush=True)
        rows.append({
            "variant": variant, "strategy": name, "options": opts, "opener": opener,
            "article": {"lost": a_lost, "mean": a_mean, "max": a_max, "worst": a_worst},
            "project": {"lost": lost, "mean": round(float(lengths.mean()), 4),
                        "max": int(lengths.max()), "worst": lex.answers[worst],
                        "worst_path": [lex.guesses[g] for g, _ in path],
                        "histogram": {int(k): int(v) for k, v in
                                      zip(*np.unique(lengths, return_counts=True), strict=True)}},
            "seconds": round(secs, 1),
            "exact_verdict": exact,
        })
    if args.json:
        from pathlib import Path

        from wordle_core.files import atomic_write_text

        atomic_write_text(Path(args.json), json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
