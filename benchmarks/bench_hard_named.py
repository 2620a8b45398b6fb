"""Exact hard-mode verdicts of the issue's named openers, each timed on a cold memo.

Prints verdict, seconds and nodes per opener (first one includes loading the numba
kernels from their cache), then replays every feasible opener's witness tree game by
game with the engine's hard-mode rules and prints its mean and worst game.

    PYTHONPATH=. python benchmarks/bench_hard_named.py [--lexicon nyt]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from wordle_core.game.lexicon import load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.search.hard import FEASIBLE, hard_verdict, solver_for

NAMED = ["salet", "crane", "crate", "slate", "trace", "raise", "arose", "soare"]


def replay(lex, tree: dict) -> np.ndarray:
    root = GameState.new(lex, hard=True)
    out = np.zeros(len(lex.answers), dtype=np.int32)
    for a in range(len(lex.answers)):
        st, nd = root, tree
        while not st.solved:
            st = st.play(lex.guess_id(nd["guess"]), a)  # raises on an illegal guess
            if not st.solved:
                nd = nd["next"][st.history_words()[-1][1]]
        out[a] = st.turn
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lexicon", default="nyt")
    ap.add_argument("openers", nargs="*", default=NAMED)
    args = ap.parse_args(argv)
    lex = load_lexicon(args.lexicon)
    pattern_matrix(lex)
    print(f"{'opener':<8}{'verdict':<12}{'seconds':>9}{'nodes':>9}   witness (replayed)")
    for w in args.openers:
        solver_for(lex).memo.clear()  # cold: no work shared with the previous opener
        t0 = time.perf_counter()
        res = hard_verdict(lex, lex.guess_id(w), witness=True)
        total = time.perf_counter() - t0
        extra = ""
        if res["verdict"] == FEASIBLE:
            lengths = replay(lex, res["tree"])
            extra = f"games {len(lengths)}, lost {(lengths > 6).sum()}, mean {lengths.mean():.4f}, " \
                    f"max {lengths.max()}  (with witness: {total:.2f} s)"
        line = f"{w.upper():<8}{res['verdict']:<12}{res['seconds']:>9.3f}{res['nodes']:>9}   {extra}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
