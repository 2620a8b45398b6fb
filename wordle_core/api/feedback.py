"""Feedback as a value: :class:`Feedback` and :func:`score`.

A :class:`Feedback` is the row of colours Wordle shows for one guess: the ``gybbb``
string itself (a ``str`` subclass, so ``score("speed", "abide") == "bbyby"`` holds),
with the emoji squares (``fb.emoji``) and the engine's base-3 integer code
(``int(fb)``) as other forms. The colouring rule is the engine's
(:mod:`wordle_core.game.feedback`); nothing is re-implemented here.
"""

from __future__ import annotations

from wordle_core.errors import FeedbackError
from wordle_core.game.feedback import (
    all_green,
    digits_to_int,
    digits_to_str,
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


class Feedback(str):
    """The colours of one guess: a ``gybbb`` string (``g`` green, ``y`` yellow, ``b`` gray).

    A ``str`` subclass, so it prints, compares, hashes and serialises as that string
    and works wherever the engine takes feedback text; it adds the other forms:
    ``.emoji``, ``.code`` / ``int()`` (the engine's base-3 integer, first position
    most significant, ``b=0, y=1, g=2``), ``.digits`` and ``.is_win``.

    >>> fb = Feedback("bybgb")
    >>> fb, str(fb), int(fb), fb.emoji
    (Feedback('bybgb'), 'bybgb', 33, '⬛🟨⬛🟩⬛')
    >>> fb == "bybgb", fb.is_win, fb.digits
    (True, False, (0, 1, 0, 2, 0))
    >>> Feedback.parse("🟩🟩🟩🟩🟩").is_win, Feedback.from_code(242)
    (True, Feedback('ggggg'))
    """

    __slots__ = ()

    def __new__(cls, text: str) -> Feedback:
        if not text or any(c not in "byg" for c in text):
            raise FeedbackError(f"bad feedback {text!r}: Feedback() takes g/y/b letters; "
                                "Feedback.parse() also reads other forms and emoji")
        return super().__new__(cls, text)

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
        return cls.from_code(parse_feedback(text, length), length)

    @classmethod
    def from_code(cls, code: int, length: int = 5) -> Feedback:
        """From the engine's integer pattern code (as the pattern matrix stores it).

        >>> Feedback.from_code(33)
        Feedback('bybgb')
        """
        return cls(pattern_to_str(int(code), length))  # FeedbackError when out of range

    @classmethod
    def from_digits(cls, digits: list[int] | tuple[int, ...]) -> Feedback:
        """From per-position colours (0 gray, 1 yellow, 2 green).

        >>> Feedback.from_digits([2, 2, 0, 0, 1])
        Feedback('ggbby')
        """
        bad = [d for d in digits if d not in (0, 1, 2)]
        if bad:
            raise FeedbackError(f"colour digits must be 0, 1 or 2, not {bad[0]!r}")
        return cls(digits_to_str(list(digits)))

    # --- forms --------------------------------------------------------------------------
    @property
    def digits(self) -> tuple[int, ...]:
        """Per-position colours: 0 gray, 1 yellow, 2 green."""
        return tuple("byg".index(c) for c in self)

    @property
    def code(self) -> int:
        """The engine's base-3 pattern code (``int(fb)`` is the same)."""
        return digits_to_int(list(self.digits))

    @property
    def emoji(self) -> str:
        """Emoji squares as Wordle's share text shows them (⬛ 🟨 🟩)."""
        return pattern_to_emoji(self.code, len(self))

    @property
    def is_win(self) -> bool:
        """All green: the guess was the answer."""
        return self.code == all_green(len(self))

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form.

        >>> Feedback("bybgb").to_dict()
        {'feedback': 'bybgb', 'code': 33, 'emoji': '⬛🟨⬛🟩⬛'}
        """
        return {"feedback": str(self), "code": self.code, "emoji": self.emoji}

    def __int__(self) -> int:
        return self.code

    def __repr__(self) -> str:
        return f"Feedback({str(self)!r})"


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
    return Feedback(digits_to_str(score_digits(guess, answer)))
