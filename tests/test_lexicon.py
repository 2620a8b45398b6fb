"""Lexicons: built-in sizes, generated games checked independently, custom files."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest

from wordle_core.errors import LexiconFileError, UnknownLexiconError, UnknownWordError, WrongLengthError
from wordle_core.game.lexicon import BUILTIN_SIZES, BUILTINS, Lexicon, load_lexicon

SIZES = {
    "wordle": (2315, 12972),
    "nyt": (2309, 12972),
    "nyt14855": (2315, 14855),
    "nyt2023": (3158, 14855),
    "wordle-all": (12972, 12972),
    "nyt14855-all": (14855, 14855),
    "primel": (8363, 8363),
    "nerdle": (17723, 17723),
    "mini-nerdle": (206, 206),
}


@pytest.mark.parametrize("name", list(BUILTINS))
def test_builtin_sizes(name: str) -> None:
    lex = load_lexicon(name)
    assert (len(lex.answers), len(lex.guesses)) == SIZES[name]
    assert BUILTIN_SIZES[name] == (lex.length, len(lex.answers), len(lex.guesses))  # listed unbuilt
    assert set(lex.answers) <= set(lex.guesses)
    assert list(lex.guesses) == sorted(lex.guesses)


def test_every_builtin_has_a_listed_size() -> None:
    assert list(BUILTIN_SIZES) == list(BUILTINS)


def test_nyt_answers_are_wordle_less_six() -> None:
    gone = set(load_lexicon("wordle").answers) - set(load_lexicon("nyt").answers)
    assert gone == {"agora", "fibre", "lynch", "pupal", "slave", "wench"}


def test_nyt2023_is_the_shipped_list_with_the_nyt_guesses() -> None:
    import hashlib
    from importlib import resources

    raw = resources.files("wordle_core.data").joinpath("nyt-answers-3158-2023.txt").read_bytes()
    assert hashlib.sha256(raw).hexdigest() == (
        "3e443482b78dee0f6f8de4f74dbb67537db781524279b1d40ca3353c592b03ce")  # SOURCES.md
    lex = load_lexicon("nyt2023")
    assert lex.guesses == load_lexicon("nyt14855").guesses
    assert len(set(lex.answers) & set(load_lexicon("wordle").answers)) == 2302


def test_primel_by_trial_division() -> None:
    def prime(n: int) -> bool:
        return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))

    expected = [str(n) for n in range(10000, 100000) if prime(n)]
    assert list(load_lexicon("primel").answers) == expected


_OPERAND = r"[1-9][0-9]*"
_LHS = re.compile(rf"^{_OPERAND}([-+*/]{_OPERAND})+$")


def _valid_equation(text: str) -> bool:
    """Independent check by parsing with Python's evaluator over exact fractions."""
    lhs, eq, rhs = text.partition("=")
    if not eq or "=" in rhs or not _LHS.match(lhs) or not re.fullmatch(r"0|[1-9][0-9]*", rhs):
        return False
    expr = re.sub(r"[0-9]+", lambda m: f"Fraction({m.group()})", lhs)
    try:
        value = eval(expr, {"Fraction": Fraction})
    except ZeroDivisionError:
        return False
    return value == int(rhs)


def test_nerdle_equations_are_all_valid() -> None:
    eqs = load_lexicon("nerdle").answers
    assert all(len(e) == 8 for e in eqs)
    assert all(_valid_equation(e) for e in eqs)


def test_mini_nerdle_matches_brute_force() -> None:
    """Every 6-character string over Nerdle's symbols with one '=' (brute force)."""
    symbols = "0123456789+-*/"
    found = set()
    for lhs_len in range(3, 5):
        for lhs in itertools.product(symbols, repeat=lhs_len):
            text_lhs = "".join(lhs)
            if not _LHS.match(text_lhs):
                continue
            rhs_len = 5 - lhs_len
            for rhs in itertools.product("0123456789", repeat=rhs_len):
                cand = f"{text_lhs}={''.join(rhs)}"
                if _valid_equation(cand):
                    found.add(cand)
    assert sorted(found) == list(load_lexicon("mini-nerdle").answers)
    assert len(found) == 206


def test_custom_files(tmp_path) -> None:
    a = tmp_path / "a.txt"
    g = tmp_path / "g.txt"
    a.write_text("# answers\nCRANE\nslate\n\n")
    g.write_text("trace\n")
    lex = Lexicon.from_files(a, g)
    assert lex.answers == ("crane", "slate") and lex.guesses == ("crane", "slate", "trace")


def test_custom_errors(tmp_path) -> None:
    mixed = tmp_path / "m.txt"
    mixed.write_text("crane\nslates\n")
    with pytest.raises(LexiconFileError, match="mixes word lengths"):
        Lexicon.from_files(mixed)
    empty = tmp_path / "e.txt"
    empty.write_text("\n# nothing\n")
    with pytest.raises(LexiconFileError, match="empty"):
        Lexicon.from_files(empty)
    with pytest.raises(LexiconFileError, match="does not exist"):
        Lexicon.from_files(tmp_path / "missing.txt")
    with pytest.raises(UnknownLexiconError):
        load_lexicon("scrabble")


def test_word_lookup_errors(wordle) -> None:
    assert wordle.guess_id("SALET") == wordle.guess_index["salet"]
    with pytest.raises(WrongLengthError):
        wordle.guess_id("sale")
    with pytest.raises(UnknownWordError):
        wordle.guess_id("qqqqq")
    with pytest.raises(UnknownWordError, match="never an answer"):
        wordle.answer_id("salet")
