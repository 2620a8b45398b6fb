"""Game rules: candidate filtering and hard-mode legality.

Hard mode follows what the NYT game enforces ("Winning Wordle's Hard Mode", "Clarifying the rules"):

* a green letter must stay green: the next guess has that letter in that position;
* a yellow letter must be used again, anywhere (it may even stay in the same spot);
* gray letters may be reused.

Repeated letters count: a guess that revealed two E's (green or yellow) obliges every
later guess to contain at least two E's. A :class:`HardConstraints` value holds the
union of those obligations over the whole history and checks every guess at once,
vectorised over the guess list. Its Python view (:meth:`HardConstraints.add_symbols`,
:meth:`HardConstraints.violation`) needs no numpy, so the word-level replay of
:mod:`wordle_core.game.history` (``wordle-lab candidates``) checks the same rule without
loading it; numpy is imported by the array views.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from wordle_core.errors import HardModeViolation
from wordle_core.game.feedback import GREEN, YELLOW, int_to_digits
from wordle_core.game.lexicon import Lexicon

if TYPE_CHECKING:
    import numpy as np

_ORDINAL = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th"]


@cache
def letter_counts(lexicon: Lexicon) -> np.ndarray:
    """(n_guesses, alphabet) uint8: how often each symbol occurs in each guess."""
    import numpy as np

    codes = lexicon.guess_codes
    counts = np.zeros((codes.shape[0], len(lexicon.alphabet)), dtype=np.uint8)
    rows = np.arange(codes.shape[0])
    for pos in range(codes.shape[1]):
        np.add.at(counts, (rows, codes[:, pos]), 1)
    return counts


@dataclass(frozen=True)
class HardConstraints:
    """The NYT hard-mode rule, the one type every part of the engine uses.

    ``greens`` holds (position, symbol) pairs, ``min_counts`` (symbol, n) pairs: the
    union of the obligations over the whole history. Both are sorted tuples, so equal
    obligations compare and hash equal; the value is part of a hard-mode position's
    identity (two histories with the same candidates but different obligations allow
    different guesses).

    Two views of the same rule:

    * Python: :meth:`add` (the obligations after one more feedback), :meth:`violation`
      (why one guess is illegal, per guess) and :meth:`legal_mask` (vectorised numpy);
    * compiled: :meth:`arrays` gives ``greens[pos]`` (symbol or -1) and ``need[sym]``
      for the kernels of :mod:`wordle_core.kernels.hard` (``is_legal``,
      ``obligations_after``, ``hard_filter``), which the exact search, the hard-mode
      search and :meth:`legal_rows` run. ``tests/test_rules.py`` checks on random
      histories that both views allow exactly the same guesses.
    """

    greens: tuple[tuple[int, int], ...] = ()
    min_counts: tuple[tuple[int, int], ...] = ()

    # --- construction -----------------------------------------------------------------
    @classmethod
    def from_arrays(cls, greens: np.ndarray, need: np.ndarray) -> HardConstraints:
        """The value of the kernels' form (``greens[pos]`` symbol or -1, ``need[sym]``)."""
        return cls(tuple((int(p), int(s)) for p, s in enumerate(greens.tolist()) if s >= 0),
                   tuple((int(s), int(n)) for s, n in enumerate(need.tolist()) if n > 0))

    @classmethod
    def from_history(cls, codes: np.ndarray, history: tuple[tuple[int, int], ...]) -> HardConstraints:
        """The obligations after ``history`` of (guess row, pattern) (``codes``: guess codes)."""
        cons = cls()
        for g, p in history:
            cons = cons.add(codes[g], p)
        return cons

    def add(self, guess_codes: np.ndarray, pattern: int) -> HardConstraints:
        """The obligations after also seeing ``pattern`` for a guess (its row of symbol codes)."""
        return self.add_symbols(guess_codes.tolist(), pattern)

    def add_symbols(self, symbols: Sequence[int], pattern: int) -> HardConstraints:
        """The obligations after also seeing ``pattern`` for a guess given as alphabet
        positions (:meth:`~wordle_core.game.lexicon.Lexicon.symbols`)."""
        digits = int_to_digits(pattern, len(symbols))
        greens = dict(self.greens)
        need = dict(self.min_counts)
        shown: dict[int, int] = {}
        for pos, (sym, d) in enumerate(zip(symbols, digits, strict=True)):
            if d == GREEN:
                greens[pos] = sym
            if d in (GREEN, YELLOW):
                shown[sym] = shown.get(sym, 0) + 1
        for sym, n in shown.items():
            need[sym] = max(need.get(sym, 0), n)
        return HardConstraints(tuple(sorted(greens.items())), tuple(sorted(need.items())))

    # --- comparison -------------------------------------------------------------------
    @property
    def empty(self) -> bool:
        """No obligation yet: every guess is legal."""
        return not (self.greens or self.min_counts)

    def looser_or_equal(self, other: HardConstraints) -> bool:
        """Every guess legal under ``other`` is legal under ``self`` (obligations subset)."""
        if self.greens and not set(self.greens) <= set(other.greens):
            return False
        if self.min_counts:
            theirs = dict(other.min_counts)
            return all(theirs.get(sym, 0) >= n for sym, n in self.min_counts)
        return True

    # --- the compiled view -------------------------------------------------------------
    def arrays(self, length: int, n_symbols: int) -> tuple[np.ndarray, np.ndarray]:
        """(``greens`` int8 length ``length``: symbol or -1; ``need`` uint8 per symbol)."""
        import numpy as np

        greens = np.full(length, -1, np.int8)
        for pos, sym in self.greens:
            greens[pos] = sym
        need = np.zeros(n_symbols, np.uint8)
        for sym, n in self.min_counts:
            need[sym] = n
        return greens, need

    def legal_rows(self, lexicon: Lexicon, rows: np.ndarray | None = None) -> np.ndarray:
        """The rows of ``rows`` (default every guess) allowed now, by the compiled kernel."""
        import numpy as np

        from wordle_core.kernels.hard import legal_subset  # numba: loaded when first needed

        if rows is None:
            rows = np.arange(len(lexicon.guesses), dtype=np.int32)
        greens, need = self.arrays(lexicon.length, len(lexicon.alphabet))
        return legal_subset(np.ascontiguousarray(rows, dtype=np.int32),
                            np.ascontiguousarray(lexicon.guess_codes), letter_counts(lexicon),
                            greens, need)

    # --- the Python view ----------------------------------------------------------------
    def legal_mask(self, lexicon: Lexicon) -> np.ndarray:
        """Boolean per guess row: allowed in hard mode under these obligations."""
        import numpy as np

        ok = np.ones(len(lexicon.guesses), dtype=bool)
        codes = lexicon.guess_codes
        for pos, sym in self.greens:
            ok &= codes[:, pos] == sym
        if self.min_counts:
            counts = letter_counts(lexicon)
            for sym, n in self.min_counts:
                ok &= counts[:, sym] >= n
        return ok

    def violation(self, lexicon: Lexicon, guess_row: int) -> str | None:
        """Why ``guess_row`` is illegal (one sentence), or None if it is legal."""
        codes = lexicon.symbols(lexicon.guesses[guess_row])
        alpha = lexicon.alphabet
        for pos, sym in self.greens:
            if codes[pos] != sym:
                where = _ORDINAL[pos] if pos < len(_ORDINAL) else f"{pos + 1}th"
                return f"{where} letter must be {alpha[sym].upper()}"
        for sym, n in self.min_counts:
            have = codes.count(sym)
            if have < n:
                times = "" if n == 1 else f" {n} times"
                return f"guess must contain {alpha[sym].upper()}{times}"
        return None

    def check(self, lexicon: Lexicon, guess_row: int) -> None:
        """Raise :class:`HardModeViolation` (one sentence) for an illegal guess."""
        why = self.violation(lexicon, guess_row)
        if why:
            word = lexicon.guesses[guess_row]
            raise HardModeViolation(f"hard mode: {word!r} is not allowed: {why}")


def filter_candidates(
    matrix: np.ndarray, candidates: np.ndarray, guess_row: int, pattern: int
) -> np.ndarray:
    """The answers among ``candidates`` that would have shown ``pattern`` for the guess."""
    return candidates[matrix[guess_row, candidates] == pattern]
