"""The one bucket-statistics module against the numpy reference, brute force and itself.

Hundreds of random positions (candidate sets of every size class, every guess or a
random subset of rows, as hard mode gives) check that the blocked kernel, the row
kernel and the threaded kernel all give the numpy reference's numbers, and that the
kernels agree with each other bit for bit (the float sums are taken in one order), so
that no strategy's choice depends on which kernel ran.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.reference_buckets import bucket_stats_numpy
from wordle_core.game.feedback import score
from wordle_core.game.matrix import pattern_matrix
from wordle_core.kernels import buckets
from wordle_core.kernels.buckets import (
    bucket_counts,
    bucket_stats,
    first_perfect_split,
    split_by_pattern,
    split_codes,
    transposed,
)

FIELDS = ("buckets", "largest", "sum_sq", "sum_xlogx", "worst")


def _random_position(rng, lex, all_rows_share=0.5):
    n_a, n_g = len(lex.answers), len(lex.guesses)
    n = int(rng.choice([1, 2, 3, 5, 8, 13, 30, 47, 48, 100, 200, n_a]))
    cands = np.sort(rng.choice(n_a, min(n, n_a), replace=False))
    if rng.random() < all_rows_share:
        rows = None if rng.random() < 0.5 else np.arange(n_g)
    else:
        k = int(rng.integers(1, n_g))
        rows = rng.choice(n_g, k, replace=False)
        if rng.random() < 0.7:
            rows = np.sort(rows)  # legal rows are sorted; unsorted ones must work too
    return cands, rows


def _same(a, b) -> None:
    for f in FIELDS:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f


def _row_kernel(mat, rows, cands, n_pat):
    """The row kernel alone (the pre-blocking compiled kernel's loop order)."""
    rows = np.arange(mat.shape[0]) if rows is None else np.asarray(rows)
    old = buckets.stats.ROW_KERNEL_ROWS
    buckets.stats.ROW_KERNEL_ROWS = 1 << 62
    try:
        return bucket_stats(mat, rows, cands, n_pat)
    finally:
        buckets.stats.ROW_KERNEL_ROWS = old


def test_kernels_match_numpy_reference_on_random_positions(small_lex):
    mat = pattern_matrix(small_lex)
    P = small_lex.n_patterns
    rng = np.random.default_rng(2026)
    positions = 0
    for _ in range(300):
        cands, rows = _random_position(rng, small_lex)
        fast = bucket_stats(mat, rows, cands, P)
        ref = bucket_stats_numpy(mat, rows, cands, P)
        for f in ("buckets", "largest", "sum_sq", "worst"):
            assert np.array_equal(getattr(fast, f), getattr(ref, f)), f
        np.testing.assert_allclose(fast.entropy, ref.entropy, rtol=0, atol=1e-9)
        # the row kernel (loop order of the kernel before blocking): bit-identical
        _same(fast, _row_kernel(mat, rows, cands, P))
        positions += 1
    assert positions == 300


def test_threaded_and_serial_blocked_kernels_are_bit_identical(small_lex):
    mat = pattern_matrix(small_lex)
    P = small_lex.n_patterns
    rng = np.random.default_rng(7)
    old_cells = buckets.stats._PARALLEL_CELLS
    try:
        for _ in range(60):
            cands, rows = _random_position(rng, small_lex)
            buckets.set_threads(1)
            serial = bucket_stats(mat, rows, cands, P)
            buckets.set_threads(2)
            buckets.stats._PARALLEL_CELLS = 0  # force threads even for small blocks
            threaded = bucket_stats(mat, rows, cands, P)
            buckets.stats._PARALLEL_CELLS = old_cells
            _same(serial, threaded)
    finally:
        buckets.set_threads(None)
        buckets.stats._PARALLEL_CELLS = old_cells


def test_wide_counters_for_big_candidate_sets():
    """Candidate sets of 32,768+ need 32-bit counters: same numbers as the reference."""
    rng = np.random.default_rng(3)
    n_g, n_a, P = 40, 33_000, 3
    mat = rng.integers(0, P, size=(n_g, n_a), dtype=np.uint8)
    mat[:, :32_800] = 1  # one bucket larger than int16 can count
    cands = np.arange(n_a)
    fast = bucket_stats(mat, None, cands, P)
    ref = bucket_stats_numpy(mat, None, cands, P)
    assert np.array_equal(fast.largest, ref.largest) and fast.largest.max() > 32_767
    np.testing.assert_allclose(fast.entropy, ref.entropy, atol=1e-9)


def test_uint16_patterns(small_lex):
    """Longer words have uint16 pattern codes (more than 256 patterns)."""
    rng = np.random.default_rng(4)
    P = 3**7
    mat = rng.integers(0, P, size=(300, 500)).astype(np.uint16)
    cands = np.sort(rng.choice(500, 120, replace=False))
    fast = bucket_stats(mat, None, cands, P)
    ref = bucket_stats_numpy(mat, None, cands, P)
    for f in ("buckets", "largest", "sum_sq", "worst"):
        assert np.array_equal(getattr(fast, f), getattr(ref, f)), f


def test_brute_force_counts(small_lex):
    """Bucket counts from scoring words with the reference rule, not the matrix."""
    mat = pattern_matrix(small_lex)
    cands = np.arange(0, 60)
    rows = np.array([small_lex.guess_index[w] for w in small_lex.guesses[:40]])
    fast = bucket_stats(mat, rows, cands, small_lex.n_patterns)
    for i, r in enumerate(rows):
        groups: dict[str, int] = {}
        for a in cands:
            fb = score(small_lex.guesses[r], small_lex.answers[a])
            groups[fb] = groups.get(fb, 0) + 1
        assert fast.buckets[i] == len(groups)
        assert fast.largest[i] == max(groups.values())
        assert fast.sum_sq[i] == sum(v * v for v in groups.values())


def test_worst_is_the_largest_bucket_lowest_code(small_lex):
    mat = pattern_matrix(small_lex)
    rng = np.random.default_rng(5)
    cands = np.sort(rng.choice(len(small_lex.answers), 90, replace=False))
    rows = np.sort(rng.choice(len(small_lex.guesses), 200, replace=False))
    fast = bucket_stats(mat, rows, cands, small_lex.n_patterns)
    for i, r in enumerate(rows[:60]):
        counts = bucket_counts(mat, int(r), cands, small_lex.n_patterns)
        assert fast.worst[i] == int(np.argmax(counts))
        assert counts[fast.worst[i]] == fast.largest[i]


def test_default_rows_is_every_guess(small_lex):
    mat = pattern_matrix(small_lex)
    s = bucket_stats(mat, None, np.arange(10), small_lex.n_patterns)
    assert len(s.buckets) == len(small_lex.guesses)
    empty = bucket_stats(mat, None, np.arange(0), small_lex.n_patterns)
    assert empty.buckets.sum() == 0 and len(empty.buckets) == len(small_lex.guesses)


@pytest.mark.parametrize("size", [2, 4, 8, 15])
def test_first_perfect_split_matches_full_stats(small_lex, size):
    mat = pattern_matrix(small_lex)
    rng = np.random.default_rng(size)
    for _ in range(5):
        cands = np.sort(rng.choice(len(small_lex.answers), size, replace=False))
        rows = rng.permutation(len(small_lex.guesses))
        stats = bucket_stats(mat, rows, cands, small_lex.n_patterns)
        perfect = np.flatnonzero(stats.perfect)
        expected = int(perfect[0]) if perfect.size else -1
        assert first_perfect_split(mat, rows, cands, small_lex.n_patterns) == expected


def test_split_primitives_agree(small_lex):
    mat = pattern_matrix(small_lex)
    mt = transposed(mat)
    assert mt is transposed(mat) and mt.flags.c_contiguous and np.array_equal(mt, mat.T)
    rng = np.random.default_rng(6)
    for _ in range(20):
        cands = np.sort(rng.choice(len(small_lex.answers), 50, replace=False))
        g = int(rng.integers(len(small_lex.guesses)))
        groups = split_by_pattern(mat, g, cands)
        grouped, starts, sizes, pats = split_codes(mt[cands, g], cands, small_lex.n_patterns)
        assert list(pats) == list(groups)
        for s, k, p in zip(starts, sizes, pats, strict=True):
            assert np.array_equal(grouped[s : s + k], groups[int(p)])
        counts = bucket_counts(mat, g, cands, small_lex.n_patterns)
        assert {p: len(b) for p, b in groups.items()} == {int(p): int(c) for p, c in enumerate(counts) if c}


def test_row_is_perfect_primitive(small_lex):
    mat = pattern_matrix(small_lex)
    mt = transposed(mat)
    seen = np.zeros(small_lex.n_patterns, np.int64)
    stamp = np.zeros(1, np.int64)
    rng = np.random.default_rng(8)
    for _ in range(30):
        cands = np.sort(rng.choice(len(small_lex.answers), 6, replace=False))
        stats = bucket_stats(mat, None, cands, small_lex.n_patterns)
        for g in range(0, len(small_lex.guesses), 37):
            assert buckets.row_is_perfect(mt[:, g], cands, seen, stamp) == bool(stats.perfect[g])
            assert buckets.row_is_perfect(mat[g], cands, seen, stamp) == bool(stats.perfect[g])


def test_matrices_too_big_to_transpose_use_the_row_kernel(small_lex, monkeypatch):
    """Above the size limit no transposed copy is made; the numbers stay the same."""
    mat = np.array(pattern_matrix(small_lex))  # a fresh object: nothing cached for it
    P = small_lex.n_patterns
    rng = np.random.default_rng(10)
    cands = np.sort(rng.choice(len(small_lex.answers), 40, replace=False))
    expected = bucket_stats(np.array(mat), None, cands, P)
    perfect = first_perfect_split(np.array(mat), np.arange(len(small_lex.guesses)), cands[:5], P)
    monkeypatch.setattr(buckets.stats, "_TRANSPOSE_MAX_BYTES", 0)
    _same(bucket_stats(mat, None, cands, P), expected)
    assert first_perfect_split(mat, np.arange(len(small_lex.guesses)), cands[:5], P) == perfect
    assert not buckets.stats._has_transposed(mat)


def test_views_of_one_matrix_share_one_transposed_copy(small_lex, tmp_path):
    """The transposed copy is cached per memory, not per Python object: a memory map,
    an ``np.ascontiguousarray`` view of it (what the feasibility search keeps) and the
    exact search all read one copy, so a pipeline worker holds one, not two (30 MB each
    for wordle). A copy of the matrix elsewhere in memory gets its own."""
    from wordle_core.search.exact import transposed as exact_transposed
    from wordle_core.search.hard import HardSolver

    src = np.ascontiguousarray(pattern_matrix(small_lex))
    path = tmp_path / "m.bin"
    src.tofile(path)
    mapped = np.memmap(path, dtype=src.dtype, mode="r", shape=src.shape)
    view = np.ascontiguousarray(mapped)
    assert view is not mapped and not isinstance(view, np.memmap)
    mt = transposed(mapped)
    assert transposed(view) is mt
    assert HardSolver(small_lex, mapped).mt is mt
    assert exact_transposed(small_lex, mapped) is mt
    assert buckets.stats._has_transposed(view)
    other = np.array(mapped)  # same values, other memory
    assert transposed(other) is not mt and np.array_equal(transposed(other), mt)
    assert transposed(mapped[:, :5]) is not mt and np.array_equal(transposed(mapped[:, :5]), mt[:5])
