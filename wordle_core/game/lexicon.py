"""Lexicons: which words a game accepts as guesses and which can be answers.

A :class:`Lexicon` is the whole definition of a game for the engine: the sorted guess
list (every answer is also a guess), the sorted answer list, the word length, the
alphabet and the guess limit. Everything else (patterns, strategies, trees) only
ever sees integer indices into these lists, so the engine does not care whether the
words are English, primes or equations.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from wordle_core.errors import LexiconFileError, UnknownLexiconError, UnknownWordError, WrongLengthError
from wordle_core.files import read_text
from wordle_core.game.feedback import MAX_LENGTH, check_fits
from wordle_core.shipped import data_text

if TYPE_CHECKING:  # numpy is imported by the array views only: word lookups start quickly
    import numpy as np

MAX_SYMBOLS = 255
"""Most distinct characters: words are coded as uint8 alphabet positions (255 = "none")."""


@dataclass(frozen=True, eq=False)
class Lexicon:
    """A game's word lists. ``guesses`` and ``answers`` are sorted and unique."""

    name: str
    guesses: tuple[str, ...]
    answers: tuple[str, ...]
    max_guesses: int = 6
    description: str = field(default="", compare=False)

    @classmethod
    def build(
        cls,
        name: str,
        answers: list[str] | tuple[str, ...],
        guesses: list[str] | tuple[str, ...] | None = None,
        max_guesses: int = 6,
        description: str = "",
    ) -> Lexicon:
        """Validate and normalise word lists: one length, sorted, answers ⊂ guesses."""
        ans = sorted(set(answers))
        gss = sorted(set(guesses or ()) | set(ans))
        if not ans:
            raise LexiconFileError(f"lexicon {name!r} has no answers")
        lengths = {len(w) for w in gss}
        if len(lengths) != 1:
            by_len = {n: next(w for w in gss if len(w) == n) for n in sorted(lengths)}
            raise LexiconFileError(
                f"lexicon {name!r} mixes word lengths {sorted(lengths)} (e.g. {by_len})"
            )
        joined = "".join(gss)  # one C-speed check of every word; the slow scan names the culprit
        bad = None
        if not joined.isprintable() or len(joined.split()) != 1:
            bad = next((w for w in gss if not w.isprintable() or any(c.isspace() for c in w)), None)
        if bad is not None:
            raise LexiconFileError(f"lexicon {name!r} has an unusable word {bad!r}")
        length = lengths.pop()
        if length > MAX_LENGTH:
            raise LexiconFileError(
                f"lexicon {name!r} has words of {length} characters; feedback codes need 3^{length} "
                f"values, more than 64 bits hold: the limit is {MAX_LENGTH} characters"
            )
        n_symbols = len(set("".join(gss)))
        if n_symbols > MAX_SYMBOLS:
            raise LexiconFileError(
                f"lexicon {name!r} uses {n_symbols} distinct characters; the limit is {MAX_SYMBOLS}"
            )
        return cls(name, tuple(gss), tuple(ans), max_guesses, description)

    @classmethod
    def from_files(cls, answers: str | Path, guesses: str | Path | None = None) -> Lexicon:
        """A custom lexicon from one-word-per-line files (blank lines and ``#`` ignored).

        A UTF-8 byte-order mark and CRLF line ends are accepted.
        """
        ans = _read_words(answers)
        gss = _read_words(guesses) if guesses else None
        # a list too big for memory is refused by arithmetic, before sorting millions of words
        n_a = len(set(ans))
        n_g = len(set(ans).union(gss or ())) if gss else n_a
        length = max(map(len, (gss or ans)[:1000]))
        if length <= MAX_LENGTH:
            check_fits(n_g, n_a, length)
        name = f"custom:{Path(answers).name}" + (f"+{Path(guesses).name}" if guesses else "")
        return cls.build(name, ans, gss)

    # --- derived facts -----------------------------------------------------------
    @cached_property
    def length(self) -> int:
        return len(self.guesses[0])

    @cached_property
    def alphabet(self) -> str:
        return "".join(sorted(set("".join(self.guesses))))

    @cached_property
    def symbol_index(self) -> dict[str, int]:
        """Each character's position in :attr:`alphabet` (the codes :attr:`guess_codes` holds)."""
        return {c: i for i, c in enumerate(self.alphabet)}

    def symbols(self, word: str) -> list[int]:
        """A word as alphabet positions: its row of :attr:`guess_codes`, without numpy."""
        index = self.symbol_index
        return [index[c] for c in word]

    @cached_property
    def n_patterns(self) -> int:
        return 3**self.length

    @cached_property
    def guess_index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.guesses)}

    @cached_property
    def answer_index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.answers)}

    @cached_property
    def answer_rows(self) -> np.ndarray:
        """Guess-list index of every answer (int32), to read answers' rows of a matrix."""
        import numpy as np

        return np.array([self.guess_index[w] for w in self.answers], dtype=np.int32)

    @cached_property
    def guess_is_answer(self) -> np.ndarray:
        """Boolean per guess: may this guess be the answer?"""
        import numpy as np

        mask = np.zeros(len(self.guesses), dtype=bool)
        mask[self.answer_rows] = True
        return mask

    @cached_property
    def guess_codes(self) -> np.ndarray:
        """Guesses as a (n_guesses, length) uint8 array of alphabet positions."""
        return encode_words(self.guesses, self.alphabet)

    @cached_property
    def answer_codes(self) -> np.ndarray:
        return self.guess_codes[self.answer_rows]

    @cached_property
    def fingerprint(self) -> str:
        """Content hash of both lists: the key of every cache derived from them."""
        h = hashlib.sha256()
        h.update("\n".join(self.guesses).encode())
        h.update(b"\0")
        h.update("\n".join(self.answers).encode())
        return h.hexdigest()[:16]

    # --- lookups -------------------------------------------------------------------
    def normalise(self, word: str) -> str:
        """Case-fold and check a user's word; raises a clear error if it is not allowed."""
        w = word.strip()
        if w.lower() in self.guess_index:
            w = w.lower()
        if len(w) != self.length:
            raise WrongLengthError(
                f"{word!r} has {len(w)} characters; {self.name} words have {self.length}"
            )
        if w not in self.guess_index:
            raise UnknownWordError(f"{word!r} is not an allowed guess in {self.name}", w.lower())
        return w

    def guess_id(self, word: str) -> int:
        return self.guess_index[self.normalise(word)]

    def answer_id(self, word: str) -> int:
        w = self.normalise(word)
        if w not in self.answer_index:
            raise UnknownWordError(f"{word!r} is a valid guess but never an answer in {self.name}", w,
                                   as_answer=True)
        return self.answer_index[w]

    def info(self) -> dict[str, object]:
        return {
            "name": self.name,
            "length": self.length,
            "answers": len(self.answers),
            "guesses": len(self.guesses),
        }


def encode_words(words: tuple[str, ...] | list[str], alphabet: str) -> np.ndarray:
    """Words as a uint8 matrix of alphabet positions (one row per word)."""
    import numpy as np

    lut = np.full(0x110000 if any(ord(c) > 255 for c in alphabet) else 256, 255, np.uint8)
    for i, c in enumerate(alphabet):
        lut[ord(c)] = i
    flat = np.frombuffer("".join(words).encode("utf-32-le"), dtype=np.uint32)
    codes = lut[flat].reshape(len(words), -1)
    return codes


def _read_words(path: str | Path) -> list[str]:
    p = Path(path)
    text = read_text(p, "word list", LexiconFileError).removeprefix("\ufeff")  # UTF-8 BOM
    words = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            words.append(line.lower())
    if not words:
        raise LexiconFileError(f"word list {str(p)!r} is empty")
    return words


def _data(name: str) -> list[str]:
    return data_text(name).split()  # checked against the package's data manifest


def _wordle() -> Lexicon:
    return Lexicon.build(
        "wordle", _data("wordle-answers-2315.txt"), _data("wordle-allowed-12972.txt"),
        description="original Wordle of 2021: 2,315 answers, 12,972 guesses",
    )


def _nyt() -> Lexicon:
    return Lexicon.build(
        "nyt", _data("nyt-answers-2309.txt"), _data("wordle-allowed-12972.txt"),
        description="NYT edit of 2022-03-16: 2,309 answers, 12,972 guesses",
    )


def _nyt14855() -> Lexicon:
    return Lexicon.build(
        "nyt14855", _data("wordle-answers-2315.txt"), _data("nyt-allowed-14855.txt"),
        description="2,315 answers against the NYT's 14,855 accepted guesses",
    )


def _nyt2023() -> Lexicon:
    return Lexicon.build(
        "nyt2023", _data("nyt-answers-3158-2023.txt"), _data("nyt-allowed-14855.txt"),
        description="today's NYT game (the default): WordleBot's 3,158 answers of 2023-07, 14,855 guesses",
    )


def _wordle_all() -> Lexicon:
    words = _data("wordle-allowed-12972.txt")
    return Lexicon.build("wordle-all", words, words,
                         description="every one of the 12,972 guesses may be the answer")


def _nyt14855_all() -> Lexicon:
    words = _data("nyt-allowed-14855.txt")
    return Lexicon.build("nyt14855-all", words, words,
                         description="every one of the 14,855 NYT guesses may be the answer")


def _primel() -> Lexicon:
    from wordle_core.game.generators import primes_with_digits  # numpy: the generated games only

    primes = primes_with_digits(5)
    return Lexicon.build("primel", primes, primes, description="Primel: five-digit primes")


def _nerdle() -> Lexicon:
    from wordle_core.game.generators import nerdle_equations

    eqs = nerdle_equations(8)
    return Lexicon.build("nerdle", eqs, eqs, description="classic Nerdle: 8-character equations")


def _mini_nerdle() -> Lexicon:
    from wordle_core.game.generators import nerdle_equations

    eqs = nerdle_equations(6)
    return Lexicon.build("mini-nerdle", eqs, eqs, description="Mini Nerdle: 6-character equations")


BUILTINS = {
    "wordle": _wordle,
    "nyt": _nyt,
    "nyt14855": _nyt14855,
    "nyt2023": _nyt2023,
    "wordle-all": _wordle_all,
    "nyt14855-all": _nyt14855_all,
    "primel": _primel,
    "nerdle": _nerdle,
    "mini-nerdle": _mini_nerdle,
}
DEFAULT_LEXICON = "nyt2023"
"""The game every command and API function plays unless told otherwise: today's NYT game."""


class BuiltinSize(NamedTuple):
    """A built-in game's size, as :meth:`Lexicon.info` reports it once the game is built."""

    length: int
    answers: int
    guesses: int


BUILTIN_SIZES: dict[str, BuiltinSize] = {
    "wordle": BuiltinSize(5, 2_315, 12_972),
    "nyt": BuiltinSize(5, 2_309, 12_972),
    "nyt14855": BuiltinSize(5, 2_315, 14_855),
    "nyt2023": BuiltinSize(5, 3_158, 14_855),
    "wordle-all": BuiltinSize(5, 12_972, 12_972),
    "nyt14855-all": BuiltinSize(5, 14_855, 14_855),
    "primel": BuiltinSize(5, 8_363, 8_363),
    "nerdle": BuiltinSize(8, 17_723, 17_723),
    "mini-nerdle": BuiltinSize(6, 206, 206),
}
"""Every built-in game's size without building it (``wordle-lab lexicons`` and
:func:`wordle_core.api.lexicons` list these: building Nerdle means generating its
equations). The shipped lists are checked against the data manifest and the generators
are deterministic, so the sizes are fixed; ``tests/test_lexicon.py`` builds each game and
compares."""


@cache
def load_lexicon(name: str = DEFAULT_LEXICON) -> Lexicon:
    """A built-in lexicon by name (cached: each is built once per process)."""
    try:
        factory = BUILTINS[name]
    except KeyError:
        raise UnknownLexiconError(
            f"unknown lexicon {name!r}; choose one of {', '.join(BUILTINS)} "
            "or give --answers FILE [--guesses FILE]"
        ) from None
    return factory()


def resolve_lexicon(
    name: str | None = None, answers: str | None = None, guesses: str | None = None
) -> Lexicon:
    """The lexicon a command asked for: custom files win over a name."""
    if answers:
        return Lexicon.from_files(answers, guesses)
    if guesses:
        raise LexiconFileError("--guesses needs --answers as well")
    return load_lexicon(name or DEFAULT_LEXICON)
