"""Several boards at once (Dordle 2, Quordle 4, Octordle 8), in words.

Every guess is played on every unsolved board; the game ends when all are solved.
:func:`multi_solve` plays one game, :func:`multi_simulate` many seeded ones, and a
:class:`MultiPosition` is a live game: its candidates per board and the next guess.
The strategy is ``multi-entropy`` (:mod:`wordle_core.analysis.multiboard`).

    >>> game = multi_solve(["night", "sight"], lexicon=_ight())
    >>> game.guesses, game.solved_at, game.solved
    (('salet', 'sight', 'flint', 'night'), (4, 2), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wordle_core.api.feedback import Feedback, LexiconLike, as_lexicon
from wordle_core.errors import WordleError
from wordle_core.game.lexicon import DEFAULT_LEXICON, Lexicon
from wordle_core.game.matrix import pattern_matrix

MULTI_STRATEGY = "multi-entropy"


def _ight() -> Lexicon:
    """The examples' game: seven -IGHT answers and three more guesses."""
    ight = ["fight", "light", "might", "night", "right", "sight", "tight"]
    return Lexicon.build("ight", ight, [*ight, "morts", "flint", "salet"])


@dataclass(frozen=True)
class MultiGameRecord:
    """One multi-board game: the ``answers`` (one per board), every guess, each board's
    feedback per guess (None once the board is solved), the guess that solved each board
    (``solved_at``, 1-based) and the guess ``limit`` (boards + 5 unless given)."""

    lexicon: str
    answers: tuple[str, ...]
    guesses: tuple[str, ...]
    feedback: tuple[tuple[Feedback | None, ...], ...]
    solved_at: tuple[int, ...]
    limit: int

    @property
    def length(self) -> int:
        """Guesses used: the one that solved the last board."""
        return max(self.solved_at)

    @property
    def solved(self) -> bool:
        """Every board solved within the limit."""
        return self.length <= self.limit

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (``guesses`` is the number of guesses; ``steps`` every guess with
        its feedback per board): what ``wordle-lab multi-solve --json`` prints."""
        return {"answers": list(self.answers), "guesses": self.length, "limit": self.limit,
                "solved": self.solved, "solved_at": list(self.solved_at),
                "steps": [{"guess": w, "feedback": [None if f is None else str(f) for f in fbs]}
                          for w, fbs in zip(self.guesses, self.feedback, strict=True)]}


def _limit(limit: int | None, boards: int) -> int:
    from wordle_core.analysis.multiboard import default_limit

    return default_limit(boards) if limit is None else limit


def multi_solve(answers: Sequence[str] = (), *, boards: int | None = None, seed: int = 0,
                opener: str | None = "salet", limit: int | None = None,
                lexicon: LexiconLike = DEFAULT_LEXICON) -> MultiGameRecord:
    """Play one multi-board game against ``answers`` (one per board), or against ``boards``
    answers drawn reproducibly from ``seed``.

    >>> multi_solve(boards=2, seed=3, lexicon=_ight()).answers
    ('fight', 'right')
    """
    from wordle_core.analysis.multiboard import MultiEntropy, play_game, seeded_answer_sets

    lex = as_lexicon(lexicon)
    if answers:
        if boards and boards != len(answers):
            raise WordleError(f"--boards {boards} but {len(answers)} answers given")
        ids = [lex.answer_id(a) for a in answers]
    elif boards:
        ids = [int(a) for a in seeded_answer_sets(lex, boards, 1, seed)[0]]
    else:
        raise WordleError("give the answers (one per board) or --boards N")
    first = lex.normalise(opener) if opener else None
    mat = pattern_matrix(lex)
    game = play_game(MultiEntropy(), lex, ids, first, mat)
    feedback = tuple(tuple(None if game.solved_turn[b] and game.solved_turn[b] < t
                           else Feedback.from_code(int(mat[g, a]), lex.length) for b, a in enumerate(ids))
                     for t, g in enumerate(game.guesses, 1))
    return MultiGameRecord(lexicon=lex.name, answers=tuple(lex.answers[a] for a in ids),
                           guesses=tuple(lex.guesses[g] for g in game.guesses), feedback=feedback,
                           solved_at=tuple(game.solved_turn), limit=_limit(limit, len(ids)))


@dataclass(frozen=True)
class MultiSimulation:
    """Seeded multi-board games played by ``multi-entropy`` (see :func:`multi_simulate`)."""

    lexicon: str
    boards: int
    strategy: str
    opener: str
    games: int
    seed: int
    limit: int
    mean_guesses: float
    max_guesses: int
    failures: int
    failure_rate: float
    guess_distribution: dict[str, int]
    worst_game: tuple[str, ...]
    seconds: float
    ms_per_game: float

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys): what ``wordle-lab multi-simulate --json`` prints."""
        return {"lexicon": self.lexicon, "boards": self.boards, "strategy": self.strategy,
                "opener": self.opener, "games": self.games, "seed": self.seed, "limit": self.limit,
                "mean_guesses": self.mean_guesses, "max_guesses": self.max_guesses,
                "failures": self.failures, "failure_rate": self.failure_rate,
                "guess_distribution": self.guess_distribution, "worst_game": list(self.worst_game),
                "seconds": self.seconds, "ms_per_game": self.ms_per_game}


def multi_simulate(boards: int, games: int = 1000, *, seed: int = 0, opener: str | None = "salet",
                   limit: int | None = None, lexicon: LexiconLike = DEFAULT_LEXICON,
                   progress: bool = False) -> MultiSimulation:
    """Play ``games`` seeded ``boards``-board games; mean guesses, failures over the limit.

    >>> sim = multi_simulate(2, 20, lexicon=_ight())
    >>> sim.games, sim.max_guesses, sim.failures, sum(sim.guess_distribution.values())
    (20, 5, 0, 20)
    """
    from wordle_core.analysis.multiboard import simulate_multi

    if games < 1:
        raise WordleError("--games must be at least 1")
    lex = as_lexicon(lexicon)
    r = simulate_multi(lex, boards, games, seed, opener, limit, matrix=pattern_matrix(lex), progress=progress)
    return MultiSimulation(**{**r, "worst_game": tuple(r["worst_game"])})


@dataclass(frozen=True)
class BoardStatus:
    """One board of a live multi-board game: ``candidates`` still possible (how many) and
    the first eight of them (``sample``)."""

    board: int
    solved: bool
    candidates: int
    sample: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys)."""
        return {"board": self.board, "solved": self.solved, "candidates": self.candidates,
                "sample": list(self.sample)}


@dataclass(frozen=True)
class MultiAdvice:
    """The next guess for a live multi-board game (None when every board is solved)."""

    next: str | None
    turn: int
    boards: tuple[BoardStatus, ...]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form: what ``wordle-lab multi-assist --json`` prints."""
        return {"next": self.next, "turn": self.turn, "boards": [b.to_dict() for b in self.boards]}


class MultiPosition:
    """A live multi-board game after some guesses: ``history`` is
    ``WORD:FB1/FB2/...,WORD:...`` (``-`` for a board solved earlier).

    >>> pos = MultiPosition("salet:bbbbg/bbbbg", boards=2, lexicon=_ight())
    >>> pos.advice().next, [b.candidates for b in pos.advice().boards]
    ('flint', [5, 5])
    >>> pos.play("flint", "bbyyg/gbybg").advice().to_dict()["boards"]  # doctest: +NORMALIZE_WHITESPACE
    [{'board': 1, 'solved': False, 'candidates': 1, 'sample': ['night']},
     {'board': 2, 'solved': False, 'candidates': 1, 'sample': ['fight']}]
    """

    def __init__(self, history: str = "", *, boards: int, lexicon: LexiconLike = DEFAULT_LEXICON) -> None:
        from wordle_core.analysis.multiboard import parse_multi_history, replay

        lex = as_lexicon(lexicon)
        hist = parse_multi_history(history, lex, boards)
        self._lex = lex
        self._state = replay(lex, boards, hist, pattern_matrix(lex))

    @property
    def boards(self) -> int:
        """How many boards the game has."""
        return int(self._state.boards)

    @property
    def turn(self) -> int:
        """Guesses played so far."""
        return int(self._state.turn)

    @property
    def solved(self) -> tuple[bool, ...]:
        """Per board: solved already."""
        return tuple(bool(s) for s in self._state.solved)

    @property
    def is_over(self) -> bool:
        """Every board solved."""
        return bool(self._state.done)

    def play(self, guess: str, feedback: str) -> MultiPosition:
        """The position after ``guess`` got ``feedback`` (``FB1/FB2/...``; a solved board's
        feedback is ignored and may be ``-``); this one is unchanged."""
        from wordle_core.analysis.multiboard import parse_multi_history

        ((word, pats),) = parse_multi_history(f"{guess}:{feedback}", self._lex, self.boards)
        state = self._state
        nxt = MultiPosition.__new__(MultiPosition)
        nxt._lex = self._lex
        nxt._state = state.apply(self._lex.guess_id(word),
                                 [None if state.solved[b] else p for b, p in enumerate(pats)])
        return nxt

    def next_guess(self, opener: str | None = None) -> str | None:
        """The multi-board strategy's guess (``opener`` on an empty board when given); None
        when every board is solved."""
        from wordle_core.analysis.multiboard import MultiEntropy

        if self.is_over:
            return None
        if self.turn == 0 and opener:
            return self._lex.normalise(opener)
        return self._lex.guesses[MultiEntropy().choose(self._state)]

    def advice(self, opener: str | None = None) -> MultiAdvice:
        """The next guess (:meth:`next_guess`) and every board's candidates."""
        lex = self._lex
        boards = tuple(BoardStatus(b + 1, bool(self._state.solved[b]), int(c.shape[0]),
                                   tuple(lex.answers[i] for i in c[:8]))
                       for b, c in enumerate(self._state.candidates))
        return MultiAdvice(self.next_guess(opener), self.turn + 1, boards)
