"""Wordle feedback: the exact colouring rule and its encodings.

The colouring rule is the one real Wordle uses, and the one that naive solvers get
wrong with repeated letters: greens are marked first; then, left to right, a guess
letter is yellow only while the answer still has an unmatched copy of that letter.

Encodings:

* string: one character per position, ``g`` green, ``y`` yellow, ``b`` gray (black);
* integer: base 3 with ``b = 0, y = 1, g = 2``, the *first* position the most
  significant digit, so ``int("gybbb", 3)`` reads like the string and all-green is
  ``3**L - 1`` (242 for five letters);
* emoji: 🟩 🟨 ⬛ (⬜ is accepted on input, as the light theme shows it).
"""

from __future__ import annotations

from collections import Counter

from wordle_core.errors import FeedbackError, WrongLengthError

GRAY, YELLOW, GREEN = 0, 1, 2
_CHARS = "byg"
_EMOJI = ("\u2b1b", "\U0001f7e8", "\U0001f7e9")  # ⬛ 🟨 🟩
_EMOJI_IN = {
    "\u2b1b": GRAY,
    "\u2b1c": GRAY,  # ⬜ light theme
    "\U0001f7e8": YELLOW,
    "\U0001f7e9": GREEN,
    "\U0001f7e6": YELLOW,  # 🟦 high-contrast "present"
    "\U0001f7e7": GREEN,  # 🟧 high-contrast "correct"
}
_LETTER_IN = {"b": GRAY, "x": GRAY, ".": GRAY, "_": GRAY, "y": YELLOW, "g": GREEN}


def score_digits(guess: str, answer: str) -> list[int]:
    """Per-position colours (0 gray, 1 yellow, 2 green) of ``guess`` against ``answer``."""
    if len(guess) != len(answer):
        raise WrongLengthError(
            f"guess {guess!r} and answer {answer!r} have different lengths"
        )
    digits = [GRAY] * len(guess)
    unmatched: Counter[str] = Counter()
    for i, (g, a) in enumerate(zip(guess, answer, strict=True)):
        if g == a:
            digits[i] = GREEN
        else:
            unmatched[a] += 1
    for i, g in enumerate(guess):
        if digits[i] != GREEN and unmatched[g] > 0:
            digits[i] = YELLOW
            unmatched[g] -= 1
    return digits


def score(guess: str, answer: str) -> str:
    """The feedback string (``g``/``y``/``b`` per position) Wordle shows for ``guess``."""
    return digits_to_str(score_digits(guess, answer))


def digits_to_int(digits: list[int]) -> int:
    """Base-3 code of a colour list, first position most significant."""
    code = 0
    for d in digits:
        code = code * 3 + d
    return code


def int_to_digits(code: int, length: int) -> list[int]:
    """Inverse of :func:`digits_to_int` for a word of ``length`` positions."""
    if not 0 <= code < 3**length:
        raise FeedbackError(f"pattern code {code} out of range for length {length}")
    digits = [0] * length
    for i in range(length - 1, -1, -1):
        code, digits[i] = divmod(code, 3)
    return digits


def digits_to_str(digits: list[int]) -> str:
    return "".join(_CHARS[d] for d in digits)


def pattern_to_str(code: int, length: int) -> str:
    """``gybbb``-style string of a pattern code."""
    return digits_to_str(int_to_digits(code, length))


def pattern_to_emoji(code: int, length: int) -> str:
    """Emoji squares of a pattern code, as Wordle's share text shows them."""
    return "".join(_EMOJI[d] for d in int_to_digits(code, length))


def all_green(length: int) -> int:
    """The pattern code of a solved guess."""
    return 3**length - 1


def parse_feedback(text: str, length: int) -> int:
    """Parse ``gybbb`` (case-insensitive; ``b``/``x``/``.``/``_`` for gray) or emoji squares.

    Returns the pattern code. Anything else raises :class:`FeedbackError` with a message
    that says what was wrong, because a typo here would silently corrupt a live game.
    """
    raw = text.strip()
    if not raw:
        raise FeedbackError("empty feedback: expected e.g. 'gybbb' or emoji squares")
    chars = [c for c in raw if c not in "\ufe0f \t"]
    digits: list[int] = []
    if all(c in _EMOJI_IN for c in chars):
        digits = [_EMOJI_IN[c] for c in chars]
    else:
        for c in chars:
            d = _LETTER_IN.get(c.lower())
            if d is None:
                raise FeedbackError(
                    f"bad feedback {text!r}: use g (green), y (yellow), b (gray) "
                    "or the emoji squares"
                )
            digits.append(d)
    if len(digits) != length:
        raise WrongLengthError(
            f"feedback {text!r} has {len(digits)} colours, expected {length}"
        )
    return digits_to_int(digits)
