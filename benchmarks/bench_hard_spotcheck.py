"""Spot-check exact hard-mode verdicts with an independent, slower method.

Independent of :mod:`wordle_core.search.hard` (no shared search code, no monotone memo, no
numba kernel): positions are the engine's :class:`~wordle_core.game.state.GameState`
(legality from :mod:`wordle_core.game.rules`, candidates filtered by ``apply``), the AND-OR
recursion is written out plainly with an exact-position memo, and the only
shortcuts are the two obviously sound ones (a set no larger than the guesses left
is won by guessing candidates in turn; with two guesses left, a win needs a guess
that splits the set into singletons). A feasible verdict from the fast search is
also confirmed by replaying its witness tree game by game.

    PYTHONPATH=. python benchmarks/bench_hard_spotcheck.py --lexicon nyt \
        --from outputs/hard/nyt_sample600.jsonl --n 20
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from wordle_core.game.feedback import all_green
from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.kernels.buckets import bucket_stats, split_by_pattern
from wordle_core.search.hard import hard_verdict


class Timeout(Exception):  # noqa: N818
    pass


def reference_feasible(lex: Lexicon, opener: int, deadline: float) -> bool:
    memo: dict = {}
    green = all_green(lex.length)

    def node(st: GameState, k: int) -> bool:
        n = st.n_candidates
        if n == 1:
            return k >= 1
        if k <= 1:
            return False
        if n <= k:
            return True
        key = (st.key(), k)
        if key in memo:
            return memo[key]
        if time.monotonic() > deadline:
            raise Timeout
        rows = st.legal_rows
        stats = bucket_stats(st.matrix, rows, st.candidates, lex.n_patterns)
        if k == 2:
            res = bool((stats.largest == 1).any())
        else:
            order = np.lexsort((rows, stats.sum_sq, stats.largest))
            res = any(wins(st, int(rows[i]), k) for i in order if stats.largest[i] < n
                      or lex.guess_is_answer[rows[i]])
        memo[key] = res
        return res

    def wins(st: GameState, g: int, k: int) -> bool:
        parts = split_by_pattern(st.matrix, g, st.candidates)
        for pat in sorted(parts, key=lambda p: -len(parts[p])):
            if pat != green and not node(st.apply(g, pat), k - 1):
                return False
        return True

    return wins(GameState.new(lex, hard=True), opener, lex.max_guesses)


def replay(lex: Lexicon, tree: dict) -> int:
    root = GameState.new(lex, hard=True)
    worst = 0
    for a in range(len(lex.answers)):
        st, nd, depth = root, tree, 0
        while not st.solved:
            depth += 1
            st = st.play(lex.guess_id(nd["guess"]), a)
            if not st.solved:
                nd = nd["next"][st.history_words()[-1][1]]
        worst = max(worst, depth)
    return worst


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lexicon", default="nyt")
    ap.add_argument("--from", dest="src", required=True, help="JSON lines from bench_hard_openers")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=float, default=300.0, help="seconds per reference check")
    args = ap.parse_args(argv)
    lex = load_lexicon(args.lexicon)
    pattern_matrix(lex)
    with open(args.src) as fh:
        recs = [json.loads(s) for s in fh]
    rng = np.random.default_rng(args.seed)
    inf = [r for r in recs if r["verdict"] == "infeasible"]
    fea = [r for r in recs if r["verdict"] == "feasible"]
    k_inf = min(len(inf), args.n // 2)
    k_fea = min(len(fea), args.n - k_inf)
    pick = list(rng.choice(inf, k_inf, replace=False)) + list(rng.choice(fea, k_fea, replace=False))
    agree = disagree = timeouts = 0
    for r in pick:
        row = lex.guess_id(r["opener"])
        t0 = time.perf_counter()
        try:
            ref = reference_feasible(lex, row, time.monotonic() + args.limit)
            ref_v = "feasible" if ref else "infeasible"
        except Timeout:
            ref_v = "timeout"
        ref_s = time.perf_counter() - t0
        extra = ""
        if r["verdict"] == "feasible":
            res = hard_verdict(lex, row, witness=True)
            extra = f"witness replayed: every game <= {replay(lex, res['tree'])} guesses"
        if ref_v == "timeout":
            timeouts += 1
        elif ref_v == r["verdict"]:
            agree += 1
        else:
            disagree += 1
        print(f"{r['opener'].upper():<6} fast {r['verdict']:<10} {r['seconds']:>7.2f} s | reference "
              f"{ref_v:<10} {ref_s:>7.1f} s  {extra}", flush=True)
    print(f"{args.lexicon}: {agree} agree, {disagree} disagree, {timeouts} reference timeouts "
          f"(of {len(pick)})")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
