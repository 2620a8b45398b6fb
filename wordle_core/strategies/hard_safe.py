"""``hard-safe``: greedy entropy that never plays a hard-mode guess that can lose.

Greedy strategies lose hard-mode games because a locally informative guess can walk
into a trap (``?ATCH`` with too few guesses left). This strategy keeps the greedy
ranking but plays the best-ranked guess that the exact feasibility search
(:mod:`wordle_core.search.hard`) *proves* still wins every remaining game within the guesses
left. From an opener whose hard-mode verdict is ``feasible`` it therefore wins every
game by construction; from an infeasible opener it does the same wherever a win is
still possible and otherwise falls back to plain entropy.

In normal mode it is plain entropy (every game is winnable there from any sane
opener, and the proof search is about hard-mode legality).
"""

from __future__ import annotations

import numpy as np

from wordle_core.game.state import GameState
from wordle_core.strategies.base import Strategy, candidate_mask, register
from wordle_core.strategies.greedy import pick_lexicographic

_TRIES = 64  # best-ranked guesses proved before asking the search for any winning guess
_BUDGET = 400_000  # OR nodes per proof attempt


@register
class HardSafe(Strategy):
    name = "hard-safe"
    summary = "hard mode: best-entropy guess among those proved to still win every game"
    source = "this project (exact hard-mode feasibility search)"
    depth_sensitive = True

    def _choose(self, state: GameState) -> int:
        from wordle_core.kernels.buckets import bucket_stats
        from wordle_core.search.hard import solver_for

        rows = state.legal_rows
        lex = state.lexicon
        stats = bucket_stats(state.matrix, rows, state.candidates, lex.n_patterns)
        is_cand = candidate_mask(state, rows)
        ent = np.round(-(stats.entropy + is_cand / stats.n), 9)
        order = np.lexsort((np.arange(len(rows)), ~is_cand, ent))
        k = state.guesses_left
        if not state.hard or k < 1:
            return int(rows[order[0]])
        solver = solver_for(lex, state.matrix)
        cons = state.constraints
        cands = state.candidates
        for i in order[:_TRIES]:
            g = int(rows[i])
            if stats.largest[i] == stats.n and not is_cand[i]:
                continue
            if solver.guess_wins(cands, cons, k, g, legal=rows, budget=_BUDGET).feasible:
                return g
        res = solver.solve_position(cands, cons, k, legal=rows, budget=_BUDGET)
        return res.guess if res.feasible else int(rows[pick_lexicographic([ent], is_cand)])
