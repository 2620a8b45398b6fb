"""Feedback: Wordle's duplicate-letter rule, encodings and parsing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reference import reference_score
from wordle_core import score
from wordle_core.errors import FeedbackError, WrongLengthError
from wordle_core.game.feedback import (
    all_green,
    digits_to_int,
    int_to_digits,
    parse_feedback,
    pattern_to_emoji,
    pattern_to_str,
)
from wordle_core.game.matrix import _LOADED, compute_patterns, load_cached, pattern_dtype, pattern_matrix

# Hand-checked cases, most of them repeated-letter traps.
CASES = [
    ("speed", "abide", "bbyby"),  # second E gray: the answer has one E
    ("speed", "erase", "ybyyb"),  # the E's: one yellow per unmatched answer copy
    ("eerie", "there", "ybybg"),  # green E takes its copy; one E left for the first E
    ("llama", "hello", "yybbb"),  # two L's yellow: answer has two L's
    ("lolly", "hello", "byggb"),  # both answer L's are green: the first L is gray
    ("abbey", "kebab", "yygyb"),
    ("babes", "abbey", "yyggb"),
    ("geese", "those", "bbbgg"),  # only one E free, and it is green at the end
    ("emcee", "beret", "ybbgb"),  # third E gray: both answer E's used
    ("crane", "crane", "ggggg"),
    ("sassy", "assay", "yygbg"),
    ("mamma", "magma", "ggbgg"),
]


@pytest.mark.parametrize(("guess", "answer", "expected"), CASES)
def test_known_duplicate_letter_cases(guess: str, answer: str, expected: str) -> None:
    assert score(guess, answer) == expected
    assert reference_score(guess, answer) == expected


@settings(max_examples=3000, deadline=None)
@given(st.text("abce", min_size=5, max_size=5), st.text("abce", min_size=5, max_size=5))
def test_score_agrees_with_reference_on_repeated_letters(guess: str, answer: str) -> None:
    # A 4-letter alphabet forces repeated letters in almost every pair.
    assert score(guess, answer) == reference_score(guess, answer)


def test_exhaustive_small_alphabet_matrix_matches_reference() -> None:
    """Every pair over a 3-letter alphabet (3^5 words): the matrix and score agree."""
    import itertools

    words = ["".join(p) for p in itertools.product("abc", repeat=5)]
    codes = np.array([[ord(c) - 97 for c in w] for w in words], dtype=np.uint8)
    mat = compute_patterns(codes, codes)
    disagreements = sum(
        pattern_to_str(int(mat[i, j]), 5) != reference_score(g, a)
        for i, g in enumerate(words) for j, a in enumerate(words)
    )
    assert disagreements == 0


def test_matrix_matches_score_on_small_lexicon(small_lex) -> None:
    mat = pattern_matrix(small_lex)
    assert mat.dtype == np.uint8 and mat.shape == (len(small_lex.guesses), len(small_lex.answers))
    rng = np.random.default_rng(0)
    for g in rng.integers(len(small_lex.guesses), size=200):
        for a in range(len(small_lex.answers)):
            expect = reference_score(small_lex.guesses[g], small_lex.answers[a])
            assert pattern_to_str(int(mat[g, a]), 5) == expect


def test_matrix_cache_round_trip(small_lex, tmp_path) -> None:
    a = pattern_matrix(small_lex, directory=tmp_path)
    files = list(tmp_path.glob("patterns-v2-*.wlm"))
    assert len(files) == 1 and not list(tmp_path.glob("*.tmp"))
    _LOADED.clear()
    loaded = load_cached(files[0], small_lex, full=True)
    assert np.array_equal(loaded, a)


@pytest.mark.parametrize(("length", "dtype"), [(5, np.uint8), (6, np.uint16), (10, np.uint16),
                                               (11, np.uint32), (20, np.uint32), (21, np.uint64),
                                               (40, np.uint64)])
def test_pattern_dtype_follows_3_to_the_length(length, dtype) -> None:
    codes = np.zeros((2, length), dtype=np.uint8)
    assert pattern_dtype(length) is dtype and compute_patterns(codes, codes).dtype == dtype
    assert int(compute_patterns(codes, codes)[0, 0]) == 3**length - 1  # all green, no overflow


def test_encodings_round_trip() -> None:
    for code in range(243):
        assert digits_to_int(int_to_digits(code, 5)) == code
        assert parse_feedback(pattern_to_str(code, 5), 5) == code
        assert parse_feedback(pattern_to_emoji(code, 5), 5) == code
    assert all_green(5) == 242 and parse_feedback("ggggg", 5) == 242
    assert parse_feedback("gybbb", 5) == int("21000", 3)  # first position most significant


def test_parse_accepts_variants() -> None:
    assert parse_feedback("GYBBB", 5) == parse_feedback("gy...", 5) == parse_feedback("gyxxx", 5)
    assert parse_feedback("🟩🟨⬜⬜⬛", 5) == parse_feedback("gybbb", 5)


@pytest.mark.parametrize("bad", ["", "gyqbb", "hello", "gg gg z"])
def test_parse_rejects_garbage(bad: str) -> None:
    with pytest.raises(FeedbackError):
        parse_feedback(bad, 5)


def test_parse_rejects_wrong_length() -> None:
    with pytest.raises(WrongLengthError):
        parse_feedback("gyb", 5)
    with pytest.raises(WrongLengthError):
        score("abc", "abcd")
