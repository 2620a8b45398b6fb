"""Hostile tests of the pattern-matrix cache: nothing wrong is ever trusted.

Every byte of a cache file is covered: an exhaustive single-bit flip at every offset of
a small file, and a hypothesis property (any offset, any non-zero XOR mask) on a larger
one. Each corrupt file must be refused by the verified load and, through
``pattern_matrix``, rebuilt with one note, giving the same matrix as a fresh build.
Also: truncated, empty, extended, foreign-lexicon and old-format files, atomic +
fsynced writes, a full disk, the LRU size limit and ``wordle-lab cache``.
"""

from __future__ import annotations

import errno
import logging
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordle_core.cli import main
from wordle_core.game import matrix as mx
from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.game.matrix import (
    HEADER_SIZE,
    MatrixCacheError,
    MatrixTooLargeError,
    load_cached,
    matrix_path,
    pattern_matrix,
)


class _Notes(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def clear(self) -> None:
        self.records.clear()


@pytest.fixture
def notes():
    """The cache's notes (logger ``wordle_core.cache``), whatever the CLI did to logging before."""
    h = _Notes()
    log = logging.getLogger("wordle_core.cache")
    log.addHandler(h)
    try:
        yield h
    finally:
        log.removeHandler(h)


@pytest.fixture(scope="module")
def tiny() -> Lexicon:
    full = load_lexicon("wordle")
    return Lexicon.build("tiny", list(full.answers[::100][:20]), list(full.guesses[::400][:30]))


@pytest.fixture(scope="module")
def tiny_file(tiny, tmp_path_factory) -> tuple[Path, bytes, np.ndarray]:
    d = tmp_path_factory.mktemp("tinycache")
    mx._LOADED.clear()
    mat = np.asarray(pattern_matrix(tiny, directory=d)).copy()
    p = matrix_path(tiny, d)
    return p, p.read_bytes(), mat


def _flipped(src: bytes, offset: int, mask: int) -> bytes:
    b = bytearray(src)
    b[offset] ^= mask
    return bytes(b)


def test_every_single_bit_flip_at_every_offset_is_detected(tiny, tiny_file, tmp_path) -> None:
    path, good, _ = tiny_file
    target = tmp_path / path.name
    target.write_bytes(good)
    detected = 0
    with open(target, "r+b") as fh:  # flip in place, check, flip back (no truncation per case)
        for offset in range(len(good)):
            fh.seek(offset)
            fh.write(bytes([good[offset] ^ (1 << (offset % 8))]))
            fh.flush()
            with pytest.raises(MatrixCacheError):
                load_cached(target, tiny)
            detected += 1
            fh.seek(offset)
            fh.write(good[offset : offset + 1])
            fh.flush()
    assert detected == len(good) == HEADER_SIZE + len(tiny.guesses) * len(tiny.answers)
    assert np.array_equal(load_cached(target, tiny, full=True), tiny_file[2])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_byte_flip_is_detected_and_rebuilt(small_lex, tmp_path_factory, data, notes) -> None:
    d = tmp_path_factory.mktemp("flip")
    mx._LOADED.clear()
    good_mat = np.asarray(pattern_matrix(small_lex, directory=d)).copy()
    p = matrix_path(small_lex, d)
    good = p.read_bytes()
    offset = data.draw(st.integers(0, len(good) - 1), label="offset")
    mask = data.draw(st.integers(1, 255), label="xor mask")
    p.write_bytes(_flipped(good, offset, mask))
    with pytest.raises(MatrixCacheError):
        load_cached(p, small_lex)
    mx._LOADED.clear()
    notes.clear()
    again = pattern_matrix(small_lex, directory=d)
    assert np.array_equal(np.asarray(again), good_mat)
    assert len(notes.records) == 1 and "rebuilding" in notes.records[0].getMessage()
    assert p.read_bytes() == good  # rebuilt file is byte-identical to the first one
    shutil.rmtree(d)


@pytest.mark.parametrize("damage", ["empty", "truncated", "header-only", "extended", "float64-npy",
                                    "garbage", "other-lexicon"])
def test_damaged_files_are_rebuilt_with_one_note(tiny, tiny_file, tmp_path, damage, notes) -> None:
    path, good, mat = tiny_file
    target = tmp_path / path.name
    body = {
        "empty": b"",
        "truncated": good[:-7],
        "header-only": good[:HEADER_SIZE],
        "extended": good + b"\0",
        "garbage": b"\x93NUMPY" + bytes(range(256)) * 20,
    }
    if damage == "float64-npy":
        np.save(target.with_suffix(".npy"), np.asarray(mat, dtype=np.float64))
        target.with_suffix(".npy").rename(target)
    elif damage == "other-lexicon":
        other = Lexicon.build("other", list(tiny.answers[:-1]), list(tiny.guesses))
        mx._LOADED.clear()
        pattern_matrix(other, directory=tmp_path / "o")
        shutil.copy(matrix_path(other, tmp_path / "o"), target)
    else:
        target.write_bytes(body[damage])
    with pytest.raises(MatrixCacheError):
        load_cached(target, tiny)
    mx._LOADED.clear()
    again = pattern_matrix(tiny, directory=tmp_path)
    assert np.array_equal(np.asarray(again), mat)
    assert len(notes.records) == 1
    assert target.read_bytes() == good


def test_legacy_npy_of_another_checkout_is_never_read(tiny, tmp_path) -> None:
    """Older checkouts share ~/.cache/wordle-lab: their patterns-<fp>.npy is not this format."""
    legacy = tmp_path / f"patterns-{tiny.fingerprint}.npy"
    np.save(legacy, np.zeros((len(tiny.guesses), len(tiny.answers)), np.uint8))
    mx._LOADED.clear()
    mat = pattern_matrix(tiny, directory=tmp_path)
    assert int(np.asarray(mat).max()) == 242 and legacy.exists()  # untouched, not used
    assert np.load(legacy).max() == 0


def test_write_is_atomic_fsynced_and_leaves_no_temp(tiny, tmp_path, monkeypatch) -> None:
    import wordle_core.files as files

    synced = []
    real = files.os.fsync
    monkeypatch.setattr(files.os, "fsync", lambda fd: synced.append(fd) or real(fd))
    mx._LOADED.clear()
    pattern_matrix(tiny, directory=tmp_path)
    assert len(synced) >= 2  # the file and its directory
    assert sorted(p.name for p in tmp_path.iterdir()) == [matrix_path(tiny, tmp_path).name]


def test_disk_full_keeps_the_matrix_in_memory_with_a_note(tiny, tiny_file, tmp_path, monkeypatch,
                                                          notes) -> None:
    import wordle_core.files as files

    real_fdopen = files.os.fdopen

    class Full:
        def __init__(self, fd, mode):
            self.fh = real_fdopen(fd, mode)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, _data):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fdopen", Full)
    mx._LOADED.clear()
    mat = pattern_matrix(tiny, directory=tmp_path)
    assert np.array_equal(np.asarray(mat), tiny_file[2])
    assert list(tmp_path.iterdir()) == []  # no partial file, no temp file
    assert len(notes.records) == 1 and "No space left" in notes.records[0].getMessage()


def test_lru_limit_evicts_least_recently_used(small_lex, tiny, tmp_path, monkeypatch) -> None:
    full = load_lexicon("wordle")
    third = Lexicon.build("third", list(full.answers[1::90][:25]), list(full.guesses[3::300][:40]))
    sizes = {lx.name: HEADER_SIZE + len(lx.guesses) * len(lx.answers) for lx in (small_lex, tiny, third)}
    # room for small + one tiny matrix, not all three
    monkeypatch.setenv("WORDLE_LAB_CACHE_LIMIT", str(sizes["small"] + max(sizes["tiny"], sizes["third"])))
    mx._LOADED.clear()
    pattern_matrix(tiny, directory=tmp_path)
    pattern_matrix(small_lex, directory=tmp_path)
    mx._LOADED.clear()
    import os
    import time

    old = time.time() - 100
    os.utime(matrix_path(tiny, tmp_path), (old, old))
    os.utime(matrix_path(small_lex, tmp_path), (old + 10, old + 10))
    pattern_matrix(small_lex, directory=tmp_path)  # a load touches: small is now most recent
    pattern_matrix(third, directory=tmp_path)  # over the limit: evicts tiny (least recent)
    names = {p.name for p in tmp_path.iterdir()}
    assert names == {matrix_path(small_lex, tmp_path).name, matrix_path(third, tmp_path).name}
    assert sum(p.stat().st_size for p in tmp_path.iterdir()) <= mx.cache_limit()


def test_matrix_over_the_limit_or_limit_zero_is_not_cached(tiny, tiny_file, tmp_path, monkeypatch) -> None:
    for limit in ("0", "100"):
        monkeypatch.setenv("WORDLE_LAB_CACHE_LIMIT", limit)
        mx._LOADED.clear()
        assert np.array_equal(np.asarray(pattern_matrix(tiny, directory=tmp_path)), tiny_file[2])
        assert list(tmp_path.iterdir()) == []
    monkeypatch.setenv("WORDLE_LAB_CACHE_LIMIT", "lots")
    mx._LOADED.clear()
    assert main(["cache", "info"]) == 2


def test_too_big_for_memory_is_refused_before_allocating(tiny, monkeypatch) -> None:
    monkeypatch.setattr(mx, "available_memory", lambda: 100)
    mx._LOADED.clear()
    with pytest.raises(MatrixTooLargeError, match=r"needs 1,000 bytes, more than the 100 bytes"):
        pattern_matrix(tiny, cache=False)
    # a 50 MB list (8.3 M words) is refused by arithmetic alone, long before any allocation
    with pytest.raises(MatrixTooLargeError, match=r"8,300,000 guesses x 8,300,000 answers needs 62.7 TiB"):
        mx.check_fits(8_300_000, 8_300_000, 5, available=2**40)


def test_the_issue_case_a_flip_cannot_change_candidates(wordle, tmp_path, monkeypatch, capsys) -> None:
    """Issue 14: one flipped byte removed ABBEY from `candidates --history salet:bybgb`.

    `candidates` now reads no matrix at all (it replays the history on the word lists);
    `suggest`, which does, gives the same answer after the flip, with one warning line."""
    monkeypatch.setenv("WORDLE_LAB_CACHE", str(tmp_path))
    mx._LOADED.clear()
    assert main(["candidates", "--lexicon", "wordle", "--history", "salet:bybgb", "--json"]) == 0
    assert "abbey" in capsys.readouterr().out
    p = matrix_path(wordle, tmp_path)
    assert not p.exists()
    command = ["suggest", "--lexicon", "wordle", "--history", "salet:bybgb", "--json"]
    assert main(command) == 0
    before = capsys.readouterr().out
    row, col = wordle.guess_index["salet"], wordle.answer_index["abbey"]
    with open(p, "r+b") as fh:
        fh.seek(HEADER_SIZE + row * len(wordle.answers) + col)
        fh.write(b"\x00")
    mx._LOADED.clear()
    assert main(command) == 0
    out = capsys.readouterr()
    assert out.out == before
    assert out.err.count("\n") == 1 and "failed its check" in out.err


def test_cache_info_and_clear(tiny, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("WORDLE_LAB_CACHE", str(tmp_path))
    mx._LOADED.clear()
    pattern_matrix(tiny)
    np.save(tmp_path / f"patterns-{'0' * 16}.npy", np.zeros(3))
    assert main(["cache", "info", "--verify"]) == 0
    out = capsys.readouterr().out
    assert str(tmp_path) in out and "verified" in out and "older format" in out and "limit: 2.0 GiB" in out
    p = matrix_path(tiny, tmp_path)
    data = bytearray(p.read_bytes())
    data[-1] ^= 0xFF
    p.write_bytes(bytes(data))
    assert main(["cache", "info"]) == 1  # a bad file is reported, exit 1
    assert "BAD: payload checksum" in capsys.readouterr().out
    assert main(["cache", "clear", "--keep-legacy"]) == 0
    assert [q.name for q in tmp_path.iterdir()] == [f"patterns-{'0' * 16}.npy"]
    assert main(["cache", "clear"]) == 0
    assert "removed 1 file(s)" in capsys.readouterr().out and list(tmp_path.iterdir()) == []
