"""The guess x answer pattern matrix: every feedback precomputed once.

Every strategy, tree and pipeline reads feedback from this matrix instead of scoring
words, which turns the inner loops into numpy gathers and ``bincount``s. It is built
vectorised (no per-pair Python loop), stored as ``.npy`` in a cache directory keyed by
the lexicon's content hash, and memory-mapped on load so that many worker processes
share one copy in the page cache.

``M[g, a]`` is the base-3 pattern code (see :mod:`wordle_core.game.feedback`) of guess row
``g`` against answer column ``a``; dtype uint8 when ``3**length <= 256`` else uint16.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np

from wordle_core.files import atomic_write_bytes
from wordle_core.game.lexicon import Lexicon

_CHUNK_CELLS = 4_000_000  # guess x answer cells per vectorised block (~memory bound)
_LOADED: dict[tuple[str, str], np.ndarray] = {}


def pattern_dtype(length: int) -> type[np.unsignedinteger]:
    return np.uint8 if 3**length <= 256 else np.uint16


def compute_patterns(guess_codes: np.ndarray, answer_codes: np.ndarray) -> np.ndarray:
    """Pattern codes of every guess row against every answer row, vectorised.

    Wordle's rule per position ``i``: green if letters match; otherwise yellow when the
    answer's count of that letter outside green positions exceeds the number of
    earlier non-green positions of the guess holding the same letter (yellows are
    handed out left to right while unmatched copies remain).
    """
    n_g, length = guess_codes.shape
    n_a = answer_codes.shape[0]
    dtype = pattern_dtype(length)
    out = np.empty((n_g, n_a), dtype=dtype)
    weights = [3 ** (length - 1 - i) for i in range(length)]
    step = max(1, _CHUNK_CELLS // max(n_a, 1))
    ans = answer_codes
    for lo in range(0, n_g, step):
        g = guess_codes[lo : lo + step]
        green = [g[:, None, k] == ans[None, :, k] for k in range(length)]
        not_green = [~x for x in green]
        code = np.zeros((g.shape[0], n_a), dtype=dtype)
        for i in range(length):
            gi = g[:, None, i]
            available = np.zeros(code.shape, dtype=np.uint8)
            for k in range(length):
                available += (gi == ans[None, :, k]) & not_green[k]
            earlier = np.zeros(code.shape, dtype=np.uint8)
            for j in range(i):
                same = (g[:, j] == g[:, i])[:, None]
                earlier += same & not_green[j]
            yellow = not_green[i] & (available > earlier)
            digit = green[i].astype(dtype) * 2 + yellow.astype(dtype)
            code += digit * dtype(weights[i])
        out[lo : lo + step] = code
    return out


def cache_dir() -> Path:
    """Where matrices are cached: ``$WORDLE_LAB_CACHE`` or ``~/.cache/wordle-lab``."""
    env = os.environ.get("WORDLE_LAB_CACHE")
    base = Path(env) if env else Path.home() / ".cache" / "wordle-lab"
    return base


def matrix_path(lexicon: Lexicon, directory: Path | None = None) -> Path:
    return (directory or cache_dir()) / f"patterns-{lexicon.fingerprint}.npy"


def pattern_matrix(
    lexicon: Lexicon, *, cache: bool = True, directory: Path | str | None = None
) -> np.ndarray:
    """The lexicon's full matrix (n_guesses x n_answers), memory-mapped from the cache.

    Loaded once per process (workers reuse it across elements). A cache miss builds
    it and writes it atomically (temporary name, then rename), so a crash never
    leaves a truncated matrix behind for another process to read.
    """
    key = (lexicon.fingerprint, str(directory))
    if key in _LOADED:
        return _LOADED[key]
    if not cache:
        mat = compute_patterns(lexicon.guess_codes, lexicon.answer_codes)
        _LOADED[key] = mat
        return mat
    path = matrix_path(lexicon, Path(directory) if directory else None)
    if path.exists():
        try:
            mat = np.load(path, mmap_mode="r")
            if mat.shape == (len(lexicon.guesses), len(lexicon.answers)):
                _LOADED[key] = mat
                return mat
        except (OSError, ValueError):
            pass  # unreadable cache entry: rebuild it below
    mat = compute_patterns(lexicon.guess_codes, lexicon.answer_codes)
    try:
        save_matrix(mat, path)
        mat = np.load(path, mmap_mode="r")
    except OSError:
        pass  # read-only cache location: keep the in-memory matrix
    _LOADED[key] = mat
    return mat


def save_matrix(mat: np.ndarray, path: Path) -> None:
    """Write ``mat`` as .npy atomically (temporary name, then rename)."""
    buf = io.BytesIO()
    np.save(buf, mat)
    atomic_write_bytes(path, buf.getvalue())
