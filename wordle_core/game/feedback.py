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

Integer codes of a whole lexicon live in the pattern matrix, whose dtype follows
``3**length`` (:func:`pattern_dtype`): uint8 up to 5 positions, uint16 up to 10, uint32
up to 20, uint64 up to :data:`MAX_LENGTH` = 40; :func:`check_fits` refuses a matrix that
cannot fit in memory before anything is allocated.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from typing import TYPE_CHECKING

from wordle_core.errors import FeedbackError, MatrixTooLargeError, WrongLengthError

if TYPE_CHECKING:
    import numpy as np

MAX_LENGTH = 40
"""Longest word: ``3**40 - 1`` is the largest pattern code that fits in 64 bits."""

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


def pattern_dtype(length: int) -> type[np.unsignedinteger]:
    """The smallest unsigned dtype holding every code ``0 .. 3**length - 1``."""
    import numpy as np  # imported here: the scoring rule above is numpy-free (quick start-up)

    n = 3**length
    for dt in (np.uint8, np.uint16, np.uint32, np.uint64):
        if n - 1 <= np.iinfo(dt).max:
            return dt
    raise MatrixTooLargeError(
        f"words of {length} characters have 3^{length} feedback patterns, more than 64 bits "
        f"can code; the limit is {MAX_LENGTH} characters"
    )


def matrix_bytes(n_guesses: int, n_answers: int, length: int) -> int:
    """Bytes of a pattern matrix of this shape (before it is allocated)."""
    import numpy as np

    return n_guesses * n_answers * np.dtype(pattern_dtype(length)).itemsize


def available_memory() -> int:
    """Bytes this process may still allocate: ``MemAvailable`` (Linux), else physical RAM."""
    with contextlib.suppress(OSError, ValueError), open("/proc/meminfo", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - non-POSIX
        return 1 << 62


def check_fits(n_guesses: int, n_answers: int, length: int, *, available: int | None = None) -> int:
    """The matrix's size in bytes, or :class:`MatrixTooLargeError` if it cannot fit in memory."""
    need = matrix_bytes(n_guesses, n_answers, length)
    have = available_memory() if available is None else available
    if need > have:
        raise MatrixTooLargeError(
            f"the pattern matrix of {n_guesses:,} guesses x {n_answers:,} answers needs "
            f"{human_size(need)}, more than the {human_size(have)} of memory available; "
            "use a smaller word list"
        )
    return need


def human_size(n: float) -> str:
    """``28.6 MiB``-style size (binary units)."""
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n} bytes"  # pragma: no cover
