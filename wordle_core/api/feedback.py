"""Feedback as a value: :class:`Feedback` and :func:`score`.

A :class:`Feedback` is the row of colours Wordle shows for one guess. It reads as
the ``gybbb`` string (``str(fb)``), as emoji squares (``fb.emoji``), as the engine's
base-3 integer code (``int(fb)``) and compares equal to its string form, so
``score("speed", "abide") == "bbyby"`` holds. The colouring rule is the engine's
(:mod:`wordle_core.game.feedback`); nothing is re-implemented here.
"""

from __future__ import annotations

from dataclasses import dataclass

from wordle_core.errors import FeedbackError
from wordle_core.game.feedback import (
    all_green,
    digits_to_int,
    int_to_digits,
    parse_feedback,
    pattern_to_emoji,
    pattern_to_str,
    score_digits,
)
from wordle_core.game.lexicon import Lexicon, load_lexicon

LexiconLike = str | Lexicon
"""A built-in lexicon's name (``"wordle"``, ``"nyt"``, ...) or a :class:`Lexicon`."""


def as_lexicon(lexicon: LexiconLike) -> Lexicon:
    """The :class:`Lexicon` for a name or a lexicon (unknown names raise ``UnknownLexiconError``).

    >>> as_lexicon("wordle").name, len(as_lexicon("wordle").answers)
    ('wordle', 2315)
    """
    return lexicon if isinstance(lexicon, Lexicon) else load_lexicon(lexicon)


@dataclass(frozen=True, eq=False)
class Feedback:
    """The colours of one guess: ``code`` is the base-3 integer (``b=0, y=1, g=2``).

    >>> fb = Feedback.parse("bybgb")
    >>> fb, str(fb), int(fb), fb.emoji
    (Feedback('bybgb'), 'bybgb', 33, '⬛🟨⬛🟩⬛')
    >>> fb == "bybgb", fb.is_win, fb.digits
    (True, False, (0, 1, 0, 2, 0))
    >>> Feedback.parse("🟩🟩🟩🟩🟩").is_win
    True
    """

    code: int
    length: int = 5

    def __post_init__(self) -> None:
        if self.length < 1:
            raise FeedbackError(f"feedback length must be at least 1, not {self.length}")
        int_to_digits(self.code, self.length)  # raises FeedbackError when out of range

    # --- constructors -------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, length: int = 5) -> Feedback:
        """Read ``gybbb`` (``b``/``x``/``.``/``_`` for gray, any case) or emoji squares.

        Bad input raises :class:`~wordle_core.errors.FeedbackError` (or its sibling
        :class:`~wordle_core.errors.WrongLengthError`) with one line saying what is wrong.

        >>> Feedback.parse("GY.._")
        Feedback('gybbb')
        >>> Feedback.parse("gyq")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        wordle_core.errors.FeedbackError: bad feedback 'gyq': use g (green), y (yellow), b (gray) or ...
        """
        return cls(parse_feedback(text, length), length)

    @classmethod
    def from_digits(cls, digits: list[int] | tuple[int, ...]) -> Feedback:
        """From per-position colours (0 gray, 1 yellow, 2 green).

        >>> Feedback.from_digits([2, 2, 0, 0, 1])
        Feedback('ggbby')
        """
        bad = [d for d in digits if d not in (0, 1, 2)]
        if bad:
            raise FeedbackError(f"colour digits must be 0, 1 or 2, not {bad[0]!r}")
        return cls(digits_to_int(list(digits)), len(digits))

    # --- forms --------------------------------------------------------------------------
    @property
    def digits(self) -> tuple[int, ...]:
        """Per-position colours: 0 gray, 1 yellow, 2 green."""
        return tuple(int_to_digits(self.code, self.length))

    @property
    def emoji(self) -> str:
        """Emoji squares as Wordle's share text shows them (⬛ 🟨 🟩)."""
        return pattern_to_emoji(self.code, self.length)

    @property
    def is_win(self) -> bool:
        """All green: the guess was the answer."""
        return self.code == all_green(self.length)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form.

        >>> Feedback.parse("bybgb").to_dict()
        {'feedback': 'bybgb', 'code': 33, 'emoji': '⬛🟨⬛🟩⬛'}
        """
        return {"feedback": str(self), "code": self.code, "emoji": self.emoji}

    def __str__(self) -> str:
        return pattern_to_str(self.code, self.length)

    def __int__(self) -> int:
        return self.code

    def __repr__(self) -> str:
        return f"Feedback({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Feedback):
            return (self.code, self.length) == (other.code, other.length)
        if isinstance(other, str):
            return str(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))  # equal to its string, so it hashes like it


def score(guess: str, answer: str, *, lexicon: LexiconLike | None = None) -> Feedback:
    """The feedback Wordle shows for ``guess`` when the answer is ``answer``.

    Repeated letters follow the real rule (greens first, then yellows left to right
    while the answer has unmatched copies). Words are compared case-insensitively.
    With ``lexicon``, both words must be allowed guesses of that game, else
    :class:`~wordle_core.errors.UnknownWordError` (or ``WrongLengthError``).

    >>> score("speed", "abide")
    Feedback('bbyby')
    >>> score("speed", "abide").emoji
    '⬛⬛🟨⬛🟨'
    >>> score("SALET", "crane") == "bybyb", int(score("crane", "crane"))
    (True, 242)
    >>> score("speed", "abxde", lexicon="wordle")
    Traceback (most recent call last):
    ...
    wordle_core.errors.UnknownWordError: 'abxde' is not an allowed guess in wordle
    """
    if lexicon is not None:
        lex = as_lexicon(lexicon)
        guess, answer = lex.normalise(guess), lex.normalise(answer)
    else:
        guess, answer = guess.lower(), answer.lower()
    digits = score_digits(guess, answer)
    return Feedback(digits_to_int(digits), len(digits))
