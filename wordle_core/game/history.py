"""Histories in words, replayed without numpy: parsing, checks, candidates and hints.

A history is ``[(word, feedback), ...]`` (``salet:bybgb,crane:bbbbb`` on the command
line). :func:`replay` is the one way a history is checked and played, whatever the
state it is played on: every feedback is parsed first, nothing may follow a solved
guess, then each word is looked up and applied in turn (an unknown word, a hard-mode
violation or a feedback no answer fits stops it with one line).
:class:`~wordle_core.game.state.GameState` replays on the pattern matrix (numpy);
:class:`WordState` replays on the word lists, scoring each candidate with the colouring
rule of :mod:`wordle_core.game.feedback`, which is all ``wordle-lab candidates`` needs
and starts in a fraction of the time (``tests/test_startup.py`` checks both give the
same candidates and errors). The hints for a history or word that another built-in game
accepts (:func:`history_hint`, :func:`word_hint`) are word-level too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, Self, TypeVar

from wordle_core.errors import InconsistentHistoryError, WordleError
from wordle_core.game.feedback import (
    all_green,
    digits_to_int,
    parse_feedback,
    pattern_to_str,
    score_digits,
)
from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.game.rules import HardConstraints


def parse_history(text: str) -> list[tuple[str, str]]:
    """Parse ``salet:bybgb,crane:bbbbb`` into ``[("salet", "bybgb"), ...]``."""
    from wordle_core.errors import FeedbackError

    pairs = []
    for item in (s.strip() for s in text.split(",")):
        if not item:
            continue
        if ":" not in item:
            raise FeedbackError(f"history item {item!r} must look like WORD:FEEDBACK")
        word, fb = item.rsplit(":", 1)
        pairs.append((word.strip(), fb.strip()))
    return pairs


def history_codes(lexicon: Lexicon, history: list[tuple[str, str]]) -> list[int]:
    """Every feedback's pattern code, checked: each parses, and none follows a solved guess."""
    codes = [parse_feedback(fb, lexicon.length) for _, fb in history]
    solved_at = next((i for i, c in enumerate(codes[:-1]) if c == all_green(lexicon.length)), None)
    if solved_at is not None:
        word, fb = history[solved_at]
        nxt = history[solved_at + 1]
        raise InconsistentHistoryError(
            f"the game was already solved by {word}:{fb} (guess {solved_at + 1}); "
            f"nothing can follow it, but {nxt[0]}:{nxt[1]} does"
        )
    return codes


def no_answer_fits(lexicon: Lexicon, guess_row: int, pattern: int) -> InconsistentHistoryError:
    """The error of a feedback that leaves no candidate."""
    word = lexicon.guesses[guess_row]
    fb = pattern_to_str(pattern, lexicon.length)
    return InconsistentHistoryError(f"no {lexicon.name} answer fits {word}:{fb} after the earlier feedback")


class Replayable(Protocol):
    """A state a history can be played on: ``apply`` a guess row and its pattern code."""

    def apply(self, guess_row: int, pattern: int) -> Self: ...


S = TypeVar("S", bound=Replayable)


def replay(start: Callable[[], S], lexicon: Lexicon, history: list[tuple[str, str]]) -> S:
    """The state after ``history``, played from ``start()`` (called once the feedback is checked)."""
    codes = history_codes(lexicon, history)
    state = start()
    for (word, _), code in zip(history, codes, strict=True):
        state = state.apply(lexicon.guess_id(word), code)
    return state


def feedback_code(guess: str, answer: str) -> int:
    """The pattern code ``guess`` shows against ``answer`` (the pattern matrix's cell)."""
    return digits_to_int(score_digits(guess, answer))


def answers_showing(answers: tuple[str, ...], guess: str, pattern: int) -> tuple[str, ...]:
    """The answers of ``answers`` against which ``guess`` shows ``pattern`` (order kept):
    one feedback's filter, on words."""
    return tuple(a for a in answers if feedback_code(guess, a) == pattern)


@dataclass(frozen=True)
class WordState:
    """A game position on the word lists, no numpy: the candidate answers (words, in
    the answer list's order), the history of (guess row, pattern) pairs, the mode and
    the hard-mode obligations; what :class:`~wordle_core.game.state.GameState` holds as
    arrays."""

    lexicon: Lexicon
    candidates: tuple[str, ...]
    history: tuple[tuple[int, int], ...] = ()
    hard: bool = False
    constraints: HardConstraints = field(default_factory=HardConstraints)

    @classmethod
    def from_history(cls, lexicon: Lexicon, history: list[tuple[str, str]], hard: bool = False) -> WordState:
        """Replay ``[(word, feedback), ...]``; checks words, feedback and hard-mode legality."""
        return replay(lambda: cls(lexicon, lexicon.answers, (), hard), lexicon, history)

    @property
    def solved(self) -> bool:
        """The last guess was all green."""
        return bool(self.history) and self.history[-1][1] == all_green(self.lexicon.length)

    def apply(self, guess_row: int, pattern: int) -> WordState:
        """The state after ``guess_row`` showed ``pattern`` (raises as ``GameState.apply`` does)."""
        lex = self.lexicon
        if self.hard:
            self.constraints.check(lex, guess_row)
        guess = lex.guesses[guess_row]
        left = answers_showing(self.candidates, guess, pattern)
        if not left:
            raise no_answer_fits(lex, guess_row, pattern)
        cons = self.constraints.add_symbols(lex.symbols(guess), pattern) if self.hard else self.constraints
        return WordState(lex, left, (*self.history, (guess_row, pattern)), self.hard, cons)


# --- the same history in another built-in game -------------------------------------------
OTHER_GAMES = ("nyt2023", "wordle", "nyt", "nyt14855")
"""The built-in word games a history or word that does not fit the chosen game is looked
for in, in this order (the ``-all`` variants accept almost any history; Primel and Nerdle
use other symbols)."""


def answers_fitting(lexicon: Lexicon, history: list[tuple[str, str]]) -> int | None:
    """How many of ``lexicon``'s answers fit ``[(word, feedback), ...]`` (normal-mode rule).

    None when a word is not one of its guesses or a feedback does not parse for its length.
    """
    steps = []
    for word, fb in history:
        guess = word.strip().lower()
        if guess not in lexicon.guess_index:
            return None
        try:
            steps.append((guess, parse_feedback(fb, lexicon.length)))
        except WordleError:
            return None
    left = lexicon.answers
    for guess, code in steps:
        left = answers_showing(left, guess, code)
    return len(left)


def games_fitting(history: list[tuple[str, str]], besides: str) -> list[tuple[str, int]]:
    """``(game, answers that fit)`` for every game of :data:`OTHER_GAMES` but ``besides``
    where ``history`` fits at least one answer, in that order.

    >>> games_fitting([("salet", "bybgb"), ("brine", "bbgby")], besides="wordle")
    [('nyt2023', 1)]
    """
    out = []
    for name in OTHER_GAMES:
        if name != besides:
            n = answers_fitting(load_lexicon(name), history)
            if n:
                out.append((name, n))
    return out


def games_with_word(word: str, besides: str, *, as_answer: bool = False) -> list[str]:
    """The games of :data:`OTHER_GAMES` but ``besides`` that accept ``word`` as a guess
    (``as_answer``: that may have it as the answer).

    >>> games_with_word("adieu", besides="wordle", as_answer=True)
    ['nyt2023']
    """
    w = word.strip().lower()
    out = []
    for name in OTHER_GAMES:
        lex = load_lexicon(name)
        if name != besides and w in (lex.answer_index if as_answer else lex.guess_index):
            out.append(name)
    return out


def history_hint(lexicon: Lexicon, history: list[tuple[str, str]]) -> str | None:
    """One line for a history no answer of ``lexicon`` fits, naming the games it fits, or
    None when it fits none of them.

    >>> from wordle_core.game.lexicon import load_lexicon
    >>> history_hint(load_lexicon("wordle"), [("salet", "bybgb"), ("brine", "bbgby")])
    'no answer of wordle fits this history; it fits nyt2023 (1 answer): try --lexicon nyt2023'
    """
    games = games_fitting(history, besides=lexicon.name)
    if not games:
        return None
    fits = ", ".join(f"{name} ({n:,} answer{'s' if n != 1 else ''})" for name, n in games)
    return f"no answer of {lexicon.name} fits this history; it fits {fits}: try --lexicon {games[0][0]}"


def word_hint(lexicon: Lexicon, word: str, *, as_answer: bool = False) -> str | None:
    """One line for a word ``lexicon`` does not accept (``as_answer``: never has as the
    answer), naming the games that do, or None when none does.

    >>> from wordle_core.game.lexicon import load_lexicon
    >>> word_hint(load_lexicon("wordle"), "adieu", as_answer=True)
    "'adieu' is never an answer in wordle; it is one in nyt2023: try --lexicon nyt2023"
    """
    games = games_with_word(word, besides=lexicon.name, as_answer=as_answer)
    if not games:
        return None
    w = word.strip().lower()
    if as_answer:
        return (f"{w!r} is never an answer in {lexicon.name}; it is one in {', '.join(games)}: "
                f"try --lexicon {games[0]}")
    return (f"{w!r} is not an allowed guess in {lexicon.name}; {', '.join(games)} "
            f"allow{'s' if len(games) == 1 else ''} it: try --lexicon {games[0]}")
