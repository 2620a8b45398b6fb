"""The vector kernels (``wordle_core.kernels.buckets.vector``): each LLVM IR intrinsic
against its plain-numba twin, and the counts built on them against numpy.

``equal64`` and ``count_set_block`` exist twice, as LLVM IR (``*_ir``) and as plain numba
(``*_plain``), with one contract; ``WORDLE_LAB_PLAIN_KERNELS=1`` makes every kernel use
the twins. Both are called here side by side on random inputs of both pattern types,
and a child process with the switch set counts the same as numpy.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from tests.reference_buckets import distinct_counts_numpy
from wordle_core.kernels.buckets import vector
from wordle_core.kernels.buckets.vector import (
    SET_BLOCK,
    count_set_block_ir,
    count_set_block_plain,
    equal64_ir,
    equal64_plain,
)

ROOT = Path(__file__).resolve().parent.parent


@njit
def _equal64_both(a, b, off):
    return equal64_ir(a, b, off), equal64_plain(a, b, off)


@njit
def _count_set_block_both(mt, cands, g0, green, nb_ir, has_green_ir, nb_plain, has_green_plain):
    count_set_block_ir(mt, cands, g0, green, nb_ir, has_green_ir)
    count_set_block_plain(mt, cands, g0, green, nb_plain, has_green_plain)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_equal64_twins_agree(dtype: type) -> None:
    """Both versions of ``equal64`` set bit ``t`` exactly where the rows agree at
    ``off + t``, at every offset of rows that agree nowhere, everywhere and at random."""
    rng = np.random.default_rng(3)
    for width in (64, 65, 200):
        a = rng.integers(0, 3, width).astype(dtype)  # (agreements are common)
        for b in (a.copy(), (a + 1).astype(dtype), rng.integers(0, 3, width).astype(dtype)):
            for off in range(width - 63):
                ir, plain = _equal64_both(a, b, off)
                want = sum(1 << t for t in range(64) if a[off + t] == b[off + t])
                assert int(ir) == int(plain) == want, (width, off)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_count_set_block_twins_agree(dtype: type) -> None:
    """Both versions of ``count_set_block`` give the same counts and greens for every
    block of a random matrix (patterns up to 255, green among them), whatever the
    candidates' integer type, and write nothing outside their block."""
    rng = np.random.default_rng(11)
    width, green = 4 * SET_BLOCK, 242
    mt = rng.integers(0, 256, size=(300, width)).astype(dtype)
    mt[rng.integers(0, 300, 60), rng.integers(0, width, 60)] = green
    for n in (1, 2, 7, 64, 300):
        for kind in (np.int32, np.int64):
            cands = np.sort(rng.choice(300, n, replace=False)).astype(kind)
            ref_nb, ref_g = distinct_counts_numpy(mt, cands, np.arange(width), green)
            for g0 in range(0, width, SET_BLOCK):
                outs = [np.full(width, -1, np.int64), np.zeros(width, np.bool_),
                        np.full(width, -1, np.int64), np.zeros(width, np.bool_)]
                _count_set_block_both(mt, cands, g0, green, *outs)
                block = slice(g0, g0 + SET_BLOCK)
                for nb, has_green in (outs[:2], outs[2:]):
                    assert np.array_equal(nb[block], ref_nb[block]), (n, g0)
                    assert np.array_equal(has_green[block], ref_g[block]), (n, g0)
                    outside = np.ones(width, bool)
                    outside[block] = False
                    assert (nb[outside] == -1).all() and not has_green[outside].any()


def test_the_switch_is_off_by_default() -> None:
    """Without ``WORDLE_LAB_PLAIN_KERNELS`` (the test run's environment), the kernels call
    the IR versions and cache their compiled code."""
    assert os.environ.get("WORDLE_LAB_PLAIN_KERNELS", "0") != "1"
    assert not vector.PLAIN_KERNELS and vector.CACHE
    assert vector.equal64 is equal64_ir and vector.count_set_block is count_set_block_ir


_CHILD = """
import numpy as np
from tests.reference_buckets import distinct_counts_numpy
from wordle_core.kernels.buckets import count_columns, pair_cache, pair_counts, vector
assert vector.PLAIN_KERNELS and not vector.CACHE
assert vector.equal64 is vector.equal64_plain and vector.count_set_block is vector.count_set_block_plain
rng = np.random.default_rng(5)
width, green = 100, 242
mt = rng.integers(0, 243, size=(200, width)).astype(np.uint8)
rows = np.arange(width, dtype=np.int32)
for n in (2, 20, 70):
    cands = np.sort(rng.choice(200, n, replace=False)).astype(np.int32)
    got = count_columns(mt, cands, rows, True, green, 243)
    want = distinct_counts_numpy(mt, cands, rows, green)
    assert all(np.array_equal(x, y) for x, y in zip(got, want)), n
mt = rng.integers(0, 3, size=(70, width)).astype(np.uint8)  # (pairs collide often)
arow = rng.integers(0, width, size=70).astype(np.int32)
mt[np.arange(70), arow] = 3  # (green: only an answer's own column)
cache = pair_cache(70, width, slots=500)
for n in (2, 17, 32):
    cands = np.sort(rng.choice(70, n, replace=False)).astype(np.int32)
    got = pair_counts(mt, cands, arow, 3, cache)
    want = distinct_counts_numpy(mt, cands, rows, 3)
    assert all(np.array_equal(x, y) for x, y in zip(got, want)), n
print("plain twins ok")
"""


def test_the_switch_selects_the_twins_in_every_kernel() -> None:
    """``WORDLE_LAB_PLAIN_KERNELS=1`` in a fresh process: the vector-lane counts and the
    pair rows run on the twins, uncached, and count what numpy counts."""
    env = {**os.environ, "WORDLE_LAB_PLAIN_KERNELS": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", _CHILD], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "plain twins ok"


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("width", [1, 31, 32, 33, 64, 100])
def test_bucket_counts_in_vector_lanes_match_numpy(width: int, dtype: type) -> None:
    """Columns in order are counted 32 at a time in vector lanes (a 256-bit pattern set
    per guess), the last ``width % 32`` gathered: over random matrices of every kind of
    width (less than one block, whole blocks, a tail) and both pattern types, with
    candidates given as int32, int64 and a strided view, the counts and greens agree
    with a sort-based numpy count, for a prefix of the columns too."""
    from wordle_core.kernels import buckets as kn

    rng = np.random.default_rng(width)
    green = 242
    mt = rng.integers(0, 243, size=(300, width)).astype(dtype)
    mt[rng.integers(0, 300, 40), rng.integers(0, width, 40)] = green
    rows = np.arange(width, dtype=np.int32)
    for n in (1, 2, 5, 40, 64, 65, 150):
        for kind in ("int32", "int64", "strided"):
            pool = rng.choice(300, 2 * n, replace=False)
            if kind == "strided":
                cands = np.sort(pool).astype(np.int32)[::2]
            else:
                cands = np.sort(pool[:n]).astype(kind)
            for k in (width, min(width, 32), max(width - 1, 1)):
                nb, has_green = kn.count_columns(mt, cands, rows[:k], True, green, 243)
                ref_nb, ref_g = distinct_counts_numpy(mt, cands, rows[:k], green)
                assert np.array_equal(nb, ref_nb) and np.array_equal(has_green, ref_g), (n, kind, k)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("width", [1, 63, 64, 65, 128, 200])
def test_pair_counts_match_numpy_for_every_row_width(width: int, dtype: type) -> None:
    """A pair's collision bitset compares 64 guesses' patterns at once and the last
    word's guesses one by one: over random matrices of ``width`` guess columns (a whole
    number of words or not, fewer than one word; both pattern types), ``pair_counts`` and
    the extremes agree with a sort-based numpy count, and no bit past the last guess is
    set in any row."""
    from wordle_core.kernels import buckets as kn

    rng = np.random.default_rng(width)
    n_answers = 70
    mt = rng.integers(0, 3, size=(n_answers, width)).astype(dtype)  # (collisions are common)
    arow = rng.integers(0, width, size=n_answers).astype(np.int32)
    green = 3  # (only an answer's own column shows it all green)
    mt[np.arange(n_answers), arow] = green
    rows = np.arange(width)
    cache = kn.pair_cache(n_answers, width, slots=5000)
    for n in (2, 17, 64):
        cands = np.sort(rng.choice(n_answers, n, replace=False)).astype(np.int32)
        nb, has_green = kn.pair_counts(mt, cands, arow, green, cache)
        ref_nb, ref_g = distinct_counts_numpy(mt, cands, rows, green)
        assert np.array_equal(nb, ref_nb) and np.array_equal(has_green, ref_g), (width, n)
        most, most_green, _ = kn.pair_count_extremes(mt, cands, arow, green, cache, width)
        assert most == ref_nb.max() and most_green == (ref_nb + ref_g).max(), (width, n)
    made = int(cache[3][0])
    bits = np.unpackbits(cache[0][:made].view(np.uint8), axis=1, bitorder="little")
    assert made > 0 and not bits[:, width:].any()
    for s in rng.choice(made, 20):  # each row made is its pair's collisions, guess by guess
        a = np.flatnonzero(cache[1] == s)
        b = int(np.searchsorted(np.cumsum(np.arange(n_answers)), a[0], side="right"))
        lo = int(a[0]) - b * (b - 1) // 2
        assert np.array_equal(bits[s, :width].astype(bool), mt[lo] == mt[b]), (width, s)
