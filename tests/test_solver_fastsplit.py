"""The compiled split kernel against the numpy kernel and a brute-force count."""

from __future__ import annotations

import numpy as np
import pytest

from wordle_core.game.feedback import score
from wordle_core.game.matrix import pattern_matrix
from wordle_core.kernels.buckets import split_stats
from wordle_core.kernels.partition import partition_stats_numpy


@pytest.mark.parametrize("size", [1, 2, 5, 47, 48, 120, 300])
def test_matches_numpy_kernel(small_lex, size):
    mat = pattern_matrix(small_lex)
    rng = np.random.default_rng(size)
    cands = np.sort(rng.choice(len(small_lex.answers), size, replace=False))
    rows = np.sort(rng.choice(len(small_lex.guesses), 200, replace=False))
    fast = split_stats(mat, rows, cands, small_lex.n_patterns)
    ref = partition_stats_numpy(mat, rows, cands, small_lex.n_patterns)
    assert np.array_equal(fast.buckets, ref.buckets)
    assert np.array_equal(fast.largest, ref.largest)
    assert np.array_equal(fast.sum_sq, ref.sum_sq)
    assert np.allclose(fast.entropy, ref.entropy, atol=1e-9)
    # worst = the largest group's pattern, lowest code among ties (np.argmax rule)
    for i, r in enumerate(rows[:40]):
        counts = np.bincount(mat[r, cands], minlength=small_lex.n_patterns)
        assert fast.worst[i] == int(np.argmax(counts))
        assert counts[fast.worst[i]] == fast.largest[i]


def test_brute_force_counts(small_lex):
    """Bucket counts from scoring words with the reference rule, not the matrix."""
    mat = pattern_matrix(small_lex)
    cands = np.arange(0, 60)
    rows = np.array([small_lex.guess_index[w] for w in small_lex.guesses[:15]])
    fast = split_stats(mat, rows, cands, small_lex.n_patterns)
    for i, r in enumerate(rows):
        groups: dict[str, int] = {}
        for a in cands:
            fb = score(small_lex.guesses[r], small_lex.answers[a])
            groups[fb] = groups.get(fb, 0) + 1
        assert fast.buckets[i] == len(groups)
        assert fast.largest[i] == max(groups.values())


def test_default_rows_is_every_guess(small_lex):
    mat = pattern_matrix(small_lex)
    s = split_stats(mat, None, np.arange(10), small_lex.n_patterns)
    assert len(s.buckets) == len(small_lex.guesses)


@pytest.mark.parametrize("size", [2, 4, 8, 15])
def test_first_perfect_split_matches_full_stats(small_lex, size):
    from wordle_core.kernels.buckets import first_perfect_split

    mat = pattern_matrix(small_lex)
    rng = np.random.default_rng(size)
    for _ in range(5):
        cands = np.sort(rng.choice(len(small_lex.answers), size, replace=False))
        rows = rng.permutation(len(small_lex.guesses))
        stats = split_stats(mat, rows, cands, small_lex.n_patterns)
        perfect = np.flatnonzero(stats.largest == 1)
        expected = int(perfect[0]) if perfect.size else -1
        assert first_perfect_split(mat, rows, cands, small_lex.n_patterns) == expected
