"""A position in words, replayed without numpy: :class:`WordPosition`, what ``wordle-lab
candidates`` prints; and the history types every position shares (:class:`Turn`,
:data:`History`, :func:`history_pairs`).

:class:`WordPosition` checks a history exactly as :class:`~wordle_core.api.position.Position`
does (one replay, :func:`wordle_core.game.history.replay`) and answers the same
``candidates``, ``history``, ``is_solved`` and ``to_dict()`` (:func:`position_dict` builds
both), scoring the candidates word by word with the engine's colouring rule instead of
loading the pattern matrix: a fraction of the start-up time for one history.
``tests/test_startup.py`` compares the two on many histories of both mainstream games.

    >>> WordPosition("salet:bybgb,borna:ybyby").candidates
    ('amber',)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from wordle_core.api.feedback import Feedback, LexiconLike, as_lexicon
from wordle_core.errors import FeedbackError
from wordle_core.game.history import WordState, parse_history
from wordle_core.game.lexicon import DEFAULT_LEXICON, Lexicon


class Turn(NamedTuple):
    """One played guess and the feedback it got."""

    guess: str
    feedback: Feedback

    def to_dict(self) -> dict[str, str]:
        """``{"guess": ..., "feedback": ...}``.

        >>> Turn("salet", Feedback("bybgb")).to_dict()
        {'guess': 'salet', 'feedback': 'bybgb'}
        """
        return {"guess": self.guess, "feedback": str(self.feedback)}


History = str | Sequence[tuple[str, str]]
"""``[("salet", "bybgb"), ...]`` or the CLI's ``"salet:bybgb,crony:bbbbb"``."""


def history_pairs(history: History) -> list[tuple[str, str]]:
    """``[(guess, feedback), ...]`` of a history given as pairs or as ``"w:fb,w:fb"``.

    >>> history_pairs("salet:bybgb,borna:ybyby")
    [('salet', 'bybgb'), ('borna', 'ybyby')]
    """
    if isinstance(history, str):
        return list(parse_history(history))
    out: list[tuple[str, str]] = []
    for item in history:
        if not (isinstance(item, tuple | list) and len(item) == 2):
            raise FeedbackError(f"history item {item!r} must be a (guess, feedback) pair")
        out.append((str(item[0]), item[1]))
    return out


def position_dict(lexicon: Lexicon, hard: bool, history: Sequence[Turn], candidates: Sequence[str],
                  solved: bool) -> dict[str, object]:
    """A position's JSON-ready summary (snake_case keys): ``Position.to_dict()`` and
    ``WordPosition.to_dict()``, what ``wordle-lab candidates --json`` prints."""
    return {
        "lexicon": lexicon.name, "hard": hard,
        "history": [t.to_dict() for t in history],
        "remaining": len(candidates), "candidates": list(candidates), "solved": solved,
    }


class WordPosition:
    """The candidates after a history, computed on the word lists (no numpy).

    The same checks and errors as :class:`~wordle_core.api.position.Position`: an unknown
    word, bad feedback, a hard-mode violation or a history no answer fits raises a
    :class:`~wordle_core.errors.WordleError` subclass with one clear line.

    >>> WordPosition("salet:bybgb", lexicon="wordle").remaining
    7
    >>> WordPosition("salet:bybgb,crane:bbbbb", hard=True)
    Traceback (most recent call last):
    ...
    wordle_core.errors.HardModeViolation: hard mode: 'crane' is not allowed: 4th letter must be E
    """

    def __init__(self, history: History = (), *, lexicon: LexiconLike = DEFAULT_LEXICON,
                 hard: bool = False) -> None:
        lex = as_lexicon(lexicon)
        self._state = WordState.from_history(lex, [(w, str(f)) for w, f in history_pairs(history)], hard)

    @property
    def lexicon(self) -> Lexicon:
        """The game's word lists."""
        return self._state.lexicon

    @property
    def hard(self) -> bool:
        """Hard mode: revealed hints must be used in every later guess."""
        return self._state.hard

    @property
    def history(self) -> tuple[Turn, ...]:
        """The guesses played so far with their feedback."""
        lex = self.lexicon
        return tuple(Turn(lex.guesses[g], Feedback.from_code(p, lex.length)) for g, p in self._state.history)

    @property
    def candidates(self) -> tuple[str, ...]:
        """The answers still possible, alphabetical."""
        return self._state.candidates

    @property
    def remaining(self) -> int:
        """How many answers are still possible."""
        return len(self._state.candidates)

    @property
    def is_solved(self) -> bool:
        """The last guess was all green."""
        return self._state.solved

    def to_dict(self) -> dict[str, object]:
        """JSON-ready summary, the keys and values of ``Position.to_dict()``.

        >>> WordPosition("salet:bybgb,borna:ybyby").to_dict()["candidates"]
        ['amber']
        """
        return position_dict(self.lexicon, self.hard, self.history, self.candidates, self.is_solved)
