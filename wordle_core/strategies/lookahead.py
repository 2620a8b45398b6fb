"""The ``default`` strategy: a width-limited look-ahead search for the fewest total guesses.

Greedy scores (entropy, expected size, ...) look one guess ahead; "Wordle Solver" (2022) measured
them at ~3.43 and noted that the exact optimum (3.421 from SALET) was far too slow to
use. This strategy runs the exact search of :mod:`wordle_core.search.exact` but expands only
the ``width`` best guesses by a partition heuristic at each node (plus any guess whose
lower bound is reached outright), memoised by candidate set and guesses left. It is
depth-aware, which matters in hard mode: a line that cannot finish within the guess
limit is worth nothing. From SALET on ``wordle`` it finds the optimal 7,920 in normal
mode in well under a second.

A choice is a pure function of the position (candidates, hard-mode obligations and
guesses left): each width has its own memo, and a width-limited value does not depend
on what was searched before, so trees are deterministic whatever order openers are
built in. If the search at ``width`` finds no way to win every remaining game within
the limit (this happens in hard mode), it is repeated 4x and 16x wider; if that fails
too, the strategy minimises the total without the limit (the game may then be lost).
The wider searches are skipped at a position already known to be lost (:func:`known_lost`:
the exact feasibility search's rules and memo, which the hard-mode verdicts computed in
the same process fill), since no width can win it there: the same choice, sooner.
A wider plan's first guess keeps a win within reach: its children are winnable at the
wider width, which the children's own escalation will find.

Options: ``width`` (default 16), ``pool`` (``all`` or ``answers``), ``memo_limit``
(positions each compiled search memo keeps, default 500,000: a long run over many
openers would otherwise grow it without bound). :meth:`Lookahead.reset` forgets every
memoised choice and empties the compiled memos; choices do not change (see above).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from wordle_core.errors import WordleError
from wordle_core.game.state import GameState
from wordle_core.game.tree import TreeArrays
from wordle_core.strategies.base import Strategy, register

if TYPE_CHECKING:
    from wordle_core.search.exact import ExactSolver

DEFAULT_WIDTH = 16
DEFAULT_MEMO_LIMIT = 500_000
_NO_LIMIT = 64  # "guesses left" used once a win within the real limit is impossible


@register
class Lookahead(Strategy):
    name = "default"
    summary = "look-ahead search for the fewest total guesses (top guesses by partition heuristic)"
    source = "this project: width-limited exact search with Selby-style bounds"
    depth_sensitive = True
    memo_limit = DEFAULT_MEMO_LIMIT

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.width = int(self.options.get("width", DEFAULT_WIDTH))
        self.pool = str(options.get("pool", "all"))
        self._solvers: dict[tuple[int, int, bool, int], ExactSolver] = {}

    def solver(self, state: GameState, width: int) -> ExactSolver:
        """The search for this lexicon/matrix/mode/width (kept: its memo serves every position)."""
        from wordle_core.search.exact import ExactSolver

        key = (id(state.lexicon), id(state.matrix), state.hard, width)
        s = self._solvers.get(key)
        if s is None:
            s = ExactSolver(state.lexicon, hard=state.hard, pool=self.pool, exact=False,
                            width=width, matrix=state.matrix, memo_limit=self.memo_limit)
            self._solvers[key] = s
        return s

    def reset(self) -> None:
        """Forget every memoised choice and empty the compiled search memos."""
        super().reset()
        for s in self._solvers.values():
            s.reset()

    def memo_size(self) -> int:
        """Positions held now: memoised choices plus the compiled memos' entries."""
        return super().memo_size() + sum(s.memo_size for s in self._solvers.values())

    def tree_arrays(self, state: GameState, opener_row: int) -> TreeArrays | None:
        """Every game from ``opener_row`` in one compiled walk of the width-limited search
        (:meth:`~wordle_core.search.exact.ExactSolver.tree_arrays`), which
        :meth:`~wordle_core.game.tree.Tree.build` uses when it does not time decisions:
        the same nodes in the same order as choosing position by position. None (play
        position by position) where a position has no win within its guesses left at
        ``width``: the wider searches of :meth:`choose` are not in the walk.
        """
        return self.solver(state, self.width).tree_arrays(state, int(opener_row))

    def _choose(self, state: GameState) -> int:
        cands = np.ascontiguousarray(state.candidates, dtype=np.int32)
        d = state.guesses_left
        limited = self.solver(state, self.width)
        legal = limited.pool_rows(state.legal_rows if state.hard else None)
        cons = limited.obligations(state)
        if d >= 1:
            try:
                return limited.best_guess(cands, legal, d, cons)[1]
            except WordleError:
                pass
            if not (state.hard and known_lost(state, cands)):
                for w in (4 * self.width, 16 * self.width):
                    try:
                        return self.solver(state, w).best_guess(cands, legal, d, cons)[1]
                    except WordleError:
                        continue
        return limited.best_guess(cands, legal, _NO_LIMIT, cons)[1]


def known_lost(state: GameState, cands: np.ndarray) -> bool:
    """Is this hard-mode position already known to be lost (no strategy wins every game
    in the guesses left)? Asked of the process's feasibility search
    (:meth:`~wordle_core.search.hard.HardSolver.recall`: its exact rules and the memo that
    hard-mode verdicts fill), without searching. A lost position has no win at any width,
    so the wider searches are skipped: the choice is the same, found sooner."""
    from wordle_core.search.hard import INFEASIBLE, solver_for

    solver = solver_for(state.lexicon, state.matrix)
    return solver.recall(cands, state.constraints, state.guesses_left) == INFEASIBLE
