"""The guess x answer pattern matrix: every feedback precomputed once, cached on disk.

Every strategy, tree and pipeline reads feedback from this matrix instead of scoring
words, which turns the inner loops into numpy gathers and ``bincount``s. It is built
vectorised (no per-pair Python loop), stored in a cache directory keyed by the
lexicon's content hash, and memory-mapped on load so that many worker processes share
one copy in the page cache.

``M[g, a]`` is the base-3 pattern code (see :mod:`wordle_core.game.feedback`) of guess row
``g`` against answer column ``a``. Its dtype follows ``3**length``: uint8 up to length 5,
uint16 up to 10, uint32 up to 20, uint64 up to 40 (``feedback.MAX_LENGTH``); longer words
cannot be coded in 64 bits and such lexicons are refused when they are built.

The cache file (format :data:`FORMAT_VERSION`, ``patterns-v2-<fingerprint>.wlm``) is
never trusted blindly. A 4,096-byte text header names the format, the lexicon
fingerprint, dtype, shape and a CRC-32 and SHA-256 of the payload, and ends with a CRC-32
of the header itself; the raw matrix follows. Every load checks the header, the file
size and the payload's CRC-32 (a CRC detects *every* error burst of up to 32 bits, so
every single changed byte, for certain; about 8 ms for Wordle's 30 MB, see
``benchmarks/bench_matrix.py``). The SHA-256 is checked when the file is written (read
back before it is renamed into place) and by ``wordle-lab cache info --verify``; it is
not recomputed on every load because it costs about 2.5x the CRC. A file that fails any
check is rebuilt, with one note through the ``wordle_core.cache`` logger (the CLI shows
it on stderr). Files are written to a temporary name, fsynced, then renamed.

The cache is bounded: after each write the least-recently-used matrices (a load
touches the file's mtime) are removed until the directory is under
:func:`cache_limit` bytes (``$WORDLE_LAB_CACHE_LIMIT``, default 2 GiB; ``0`` turns
caching off). A matrix bigger than the limit is kept in memory only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordle_core.errors import MatrixTooLargeError, WordleError
from wordle_core.files import atomic_write_parts
from wordle_core.game.feedback import (
    available_memory,
    check_fits,
    human_size,
    matrix_bytes,
    pattern_dtype,
)
from wordle_core.game.lexicon import Lexicon

_CHUNK_CELLS = 4_000_000  # guess x answer cells per vectorised block (~memory bound)
_LOADED: dict[tuple[str, str], np.ndarray] = {}

FORMAT_VERSION = 2
MAGIC = b"WORDLE-LAB PATTERN MATRIX"
HEADER_SIZE = 4096
SUFFIX = ".wlm"
PREFIX = f"patterns-v{FORMAT_VERSION}-"
DEFAULT_CACHE_LIMIT = 2 * 2**30
_CRC_CHUNK = 1 << 24

log = logging.getLogger("wordle_core.cache")

__all__ = [
    "FORMAT_VERSION",
    "MatrixCacheError",
    "MatrixTooLargeError",
    "available_memory",
    "cache_dir",
    "cache_entries",
    "cache_limit",
    "check_fits",
    "clear_cache",
    "compute_patterns",
    "human_size",
    "matrix_bytes",
    "matrix_path",
    "pattern_dtype",
    "pattern_matrix",
    "read_matrix",
    "save_matrix",
]


class MatrixCacheError(WordleError):
    """A cache file that fails its checks (wrong format, lexicon, size or checksum)."""


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
            digit = green[i].astype(dtype) * dtype(2) + yellow.astype(dtype)
            code += digit * dtype(weights[i])
        out[lo : lo + step] = code
    return out


# --- the cache directory ------------------------------------------------------------


def cache_dir() -> Path:
    """Where matrices are cached: ``$WORDLE_LAB_CACHE`` or ``~/.cache/wordle-lab``."""
    env = os.environ.get("WORDLE_LAB_CACHE")
    base = Path(env) if env else Path.home() / ".cache" / "wordle-lab"
    return base


def cache_limit() -> int:
    """The cache's size limit in bytes: ``$WORDLE_LAB_CACHE_LIMIT`` (``500M``, ``2G``, bytes)."""
    raw = os.environ.get("WORDLE_LAB_CACHE_LIMIT", "").strip()
    if not raw:
        return DEFAULT_CACHE_LIMIT
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)i?[bB]?", raw)
    if not m:
        raise WordleError(
            f"WORDLE_LAB_CACHE_LIMIT={raw!r} is not a size (e.g. 500M, 2G, or bytes; 0 = no cache)"
        )
    scale = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}[m.group(2).lower()]
    return int(float(m.group(1)) * scale)


def matrix_path(lexicon: Lexicon, directory: Path | None = None) -> Path:
    """The cache file of ``lexicon``'s matrix (the name carries the format version)."""
    return (directory or cache_dir()) / f"{PREFIX}{lexicon.fingerprint}{SUFFIX}"


@dataclass(frozen=True)
class CacheEntry:
    """One file of the cache directory, as ``wordle-lab cache info`` lists it."""

    path: Path
    size: int
    last_used: float
    kind: str  # "matrix" (this format), "legacy" (older .npy format), "temp" (unfinished write)
    lexicon: str = ""
    shape: tuple[int, ...] = ()
    dtype: str = ""
    problem: str = ""  # why the file fails its checks ("" = fine)


def cache_entries(directory: Path | str | None = None, *, verify: bool = False) -> list[CacheEntry]:
    """Every wordle-lab file in the cache directory, most recently used first.

    Each matrix gets the checks of a load (header, size, CRC-32); ``verify`` adds SHA-256.
    """
    d = Path(directory) if directory else cache_dir()
    out: list[CacheEntry] = []
    if not d.is_dir():
        return out
    for p in d.iterdir():
        try:
            st = p.stat()
        except OSError:
            continue
        if not p.is_file():
            continue
        if p.name.startswith(PREFIX) and p.name.endswith(SUFFIX):
            try:
                head = _read_header(p)
                problem = ""
                _verify_payload(p, head, full=verify)
            except MatrixCacheError as exc:
                head, problem = {}, str(exc)
            out.append(CacheEntry(p, st.st_size, st.st_mtime, "matrix", str(head.get("lexicon", "")),
                                  tuple(head.get("shape", ())), str(head.get("dtype", "")), problem))
        elif re.fullmatch(r"patterns-[0-9a-f]{16}\.npy", p.name):
            out.append(CacheEntry(p, st.st_size, st.st_mtime, "legacy"))
        elif p.name.startswith(".patterns-") and p.name.endswith(".tmp"):
            out.append(CacheEntry(p, st.st_size, st.st_mtime, "temp"))
    return sorted(out, key=lambda e: (-e.last_used, e.path.name))


def clear_cache(directory: Path | str | None = None, *, legacy: bool = True,
                stale_seconds: float = 3600.0) -> list[CacheEntry]:
    """Remove the cache's matrices (and older-format files when ``legacy``); returns them.

    Temporary files of writes still in progress (younger than ``stale_seconds``) are kept.
    """
    removed = []
    now = time.time()
    for e in cache_entries(directory):
        if e.kind == "legacy" and not legacy:
            continue
        if e.kind == "temp" and now - e.last_used < stale_seconds:
            continue
        with contextlib.suppress(FileNotFoundError):
            e.path.unlink()
            removed.append(e)
    _LOADED.clear()
    return removed


def _evict(directory: Path, keep: Path, limit: int) -> None:
    """Least-recently-used eviction of this format's matrices until under ``limit`` bytes."""
    entries = [e for e in cache_entries(directory) if e.kind == "matrix"]
    total = sum(e.size for e in entries)
    for e in sorted(entries, key=lambda e: (e.last_used, e.path.name)):
        if total <= limit:
            break
        if e.path == keep:
            continue
        with contextlib.suppress(FileNotFoundError):
            e.path.unlink()
            total -= e.size


# --- the file format ----------------------------------------------------------------


def _crc32(data) -> int:
    view = memoryview(data).cast("B")
    crc = 0
    for lo in range(0, len(view), _CRC_CHUNK):
        crc = zlib.crc32(view[lo : lo + _CRC_CHUNK], crc)
    return crc


def _header_bytes(mat: np.ndarray, fingerprint: str, lexicon: str) -> bytes:
    payload = np.ascontiguousarray(mat).data.cast("B")
    meta = {
        "format": FORMAT_VERSION,
        "fingerprint": fingerprint,
        "lexicon": lexicon,
        "dtype": np.dtype(mat.dtype).str,
        "shape": list(mat.shape),
        "payload_bytes": len(payload),
        "crc32": f"{_crc32(payload):08x}",
        "sha256": hashlib.sha256(payload).hexdigest(),
    }
    body = MAGIC + b"\n" + json.dumps(meta, sort_keys=True).encode("utf-8") + b"\n"
    if len(body) > HEADER_SIZE - 9:
        raise MatrixCacheError("matrix header too long (lexicon name?)")
    body = body.ljust(HEADER_SIZE - 9, b" ")
    return body + f"{zlib.crc32(body):08x}".encode("ascii") + b"\n"


def _parse_header(head: bytes, where: str) -> dict:
    if len(head) < HEADER_SIZE:
        raise MatrixCacheError(f"{where}: truncated ({len(head)} bytes)")
    body, crc = head[: HEADER_SIZE - 9], head[HEADER_SIZE - 9 :]
    if not body.startswith(MAGIC + b"\n"):
        raise MatrixCacheError(f"{where}: not a wordle-lab matrix file")
    if crc != f"{zlib.crc32(body):08x}".encode("ascii") + b"\n":
        raise MatrixCacheError(f"{where}: header checksum mismatch")
    try:
        meta = json.loads(body[len(MAGIC) + 1 :].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise MatrixCacheError(f"{where}: unreadable header") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT_VERSION:
        raise MatrixCacheError(f"{where}: format {meta.get('format')!r}, expected {FORMAT_VERSION}")
    return meta


def _read_header(path: Path) -> dict:
    try:
        with open(path, "rb") as fh:
            head = fh.read(HEADER_SIZE)
    except OSError as exc:
        raise MatrixCacheError(f"{path.name}: unreadable ({exc.strerror or exc})") from None
    return _parse_header(head, path.name)


def _expect(meta: dict, where: str, lexicon: Lexicon | None, size: int) -> tuple[np.dtype, tuple[int, int]]:
    shape = tuple(meta.get("shape") or ())
    dtype = np.dtype(meta.get("dtype", "V"))
    if lexicon is not None:
        want_shape = (len(lexicon.guesses), len(lexicon.answers))
        want_dtype = np.dtype(pattern_dtype(lexicon.length))
        if meta.get("fingerprint") != lexicon.fingerprint:
            raise MatrixCacheError(f"{where}: built for another lexicon ({meta.get('fingerprint')})")
        if shape != want_shape or dtype != want_dtype:
            raise MatrixCacheError(f"{where}: {dtype} {shape}, expected {want_dtype} {want_shape}")
    if len(shape) != 2 or dtype.kind != "u":
        raise MatrixCacheError(f"{where}: bad dtype/shape {dtype} {shape}")
    payload = shape[0] * shape[1] * dtype.itemsize
    if meta.get("payload_bytes") != payload or size != HEADER_SIZE + payload:
        raise MatrixCacheError(f"{where}: {size} bytes, expected {HEADER_SIZE + payload}")
    return dtype, shape


def _verify_payload(path: Path, meta: dict, *, full: bool = False, mat: np.ndarray | None = None) -> None:
    if mat is None:
        dtype, shape = _expect(meta, path.name, None, path.stat().st_size)
        mat = np.memmap(path, dtype=dtype, mode="r", offset=HEADER_SIZE, shape=shape)
    if f"{_crc32(mat):08x}" != meta.get("crc32"):
        raise MatrixCacheError(f"{path.name}: payload checksum (CRC-32) mismatch")
    if full and hashlib.sha256(np.ascontiguousarray(mat).data.cast("B")).hexdigest() != meta.get(
        "sha256"
    ):
        raise MatrixCacheError(f"{path.name}: payload checksum (SHA-256) mismatch")


def load_cached(path: Path, lexicon: Lexicon, *, full: bool = False) -> np.ndarray:
    """The verified, memory-mapped matrix of ``lexicon`` in ``path``, or :class:`MatrixCacheError`."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise MatrixCacheError(f"{path.name}: unreadable ({exc.strerror or exc})") from None
    meta = _read_header(path)
    dtype, shape = _expect(meta, path.name, lexicon, size)
    try:
        mat = np.memmap(path, dtype=dtype, mode="r", offset=HEADER_SIZE, shape=shape)
    except (OSError, ValueError) as exc:
        raise MatrixCacheError(f"{path.name}: cannot map ({exc})") from None
    _verify_payload(path, meta, full=full, mat=mat)
    return mat


def save_matrix(mat: np.ndarray, path: Path, lexicon: Lexicon | None = None, *,
                fingerprint: str | None = None, name: str = "") -> None:
    """Write ``mat`` in the checksummed cache format: temporary name, fsync, verify, rename."""
    fp = fingerprint or (lexicon.fingerprint if lexicon is not None else "")
    name = name or (lexicon.name if lexicon is not None else "")
    mat = np.ascontiguousarray(mat)
    header = _header_bytes(mat, fp, name)
    meta = _parse_header(header, path.name)

    def check(tmp: Path) -> None:  # read the written bytes back before they are published
        _expect(meta, path.name, None, tmp.stat().st_size)
        _verify_payload(tmp, meta, full=True)

    atomic_write_parts(Path(path), [header, mat.data.cast("B")], fsync=True, check=check)


def read_matrix(data: bytes | str | Path, lexicon: Lexicon, where: str = "matrix") -> np.ndarray:
    """A matrix given by the user (``--matrix-path``): this cache format or a plain ``.npy``.

    The cache format is verified as on load; a plain ``.npy`` (no checksum) must have the
    lexicon's dtype and shape and is spot-checked against 16 recomputed rows. Anything
    else is :class:`MatrixCacheError` naming ``where``.
    """
    import io

    if isinstance(data, (str, Path)):
        p = Path(data)
        with open(p, "rb") as fh:
            start = fh.read(len(MAGIC))
        if start == MAGIC:
            try:
                return load_cached(p, lexicon)
            except MatrixCacheError as exc:
                raise MatrixCacheError(f"{where}: {exc}") from None
        try:
            mat = np.load(p, mmap_mode="r", allow_pickle=False)
        except (OSError, ValueError, EOFError) as exc:
            raise MatrixCacheError(f"{where}: not a pattern matrix ({exc})") from None
    else:
        if data[: len(MAGIC)] == MAGIC:
            meta = _parse_header(data[:HEADER_SIZE], where)
            dtype, shape = _expect(meta, where, lexicon, len(data))
            mat = np.frombuffer(data, dtype=dtype, offset=HEADER_SIZE).reshape(shape)
            if f"{_crc32(mat):08x}" != meta.get("crc32"):
                raise MatrixCacheError(f"{where}: payload checksum (CRC-32) mismatch")
            return mat
        try:
            mat = np.load(io.BytesIO(data), allow_pickle=False)
        except (OSError, ValueError, EOFError) as exc:
            raise MatrixCacheError(f"{where}: not a pattern matrix ({exc})") from None
    want = (len(lexicon.guesses), len(lexicon.answers))
    if mat.shape != want or mat.dtype != np.dtype(pattern_dtype(lexicon.length)):
        raise MatrixCacheError(f"{where}: {mat.dtype} {mat.shape}, expected "
                               f"{np.dtype(pattern_dtype(lexicon.length))} {want} for {lexicon.name}")
    rows = np.unique(np.random.default_rng(0).integers(0, want[0], size=16))
    if not np.array_equal(np.asarray(mat[rows]), compute_patterns(lexicon.guess_codes[rows],
                                                                  lexicon.answer_codes)):
        raise MatrixCacheError(f"{where}: its patterns are not {lexicon.name}'s")
    return mat


# --- the one entry point ------------------------------------------------------------


def pattern_matrix(
    lexicon: Lexicon, *, cache: bool = True, directory: Path | str | None = None
) -> np.ndarray:
    """The lexicon's full matrix (n_guesses x n_answers), memory-mapped from the cache.

    Loaded once per process (workers reuse it across elements). A cache miss, or a file
    that fails its checks (then one note is logged), builds it and writes it atomically.
    The size is checked against available memory before anything is allocated.
    """
    key = (lexicon.fingerprint, str(directory))
    if key in _LOADED:
        return _LOADED[key]
    n_g, n_a = len(lexicon.guesses), len(lexicon.answers)
    limit = cache_limit() if cache else 0
    path = matrix_path(lexicon, Path(directory) if directory else None)
    if limit and path.exists():
        try:
            mat = load_cached(path, lexicon)
            with contextlib.suppress(OSError):
                os.utime(path)  # "last used", for the LRU eviction
            _LOADED[key] = mat
            return mat
        except MatrixCacheError as exc:
            log.warning("the cached pattern matrix %s failed its check (%s); rebuilding it",
                        path, str(exc).split(": ", 1)[-1])
    size = check_fits(n_g, n_a, lexicon.length, available=available_memory())
    mat = compute_patterns(lexicon.guess_codes, lexicon.answer_codes)
    if limit and HEADER_SIZE + size <= limit:
        try:
            save_matrix(mat, path, lexicon)
            _evict(path.parent, path, limit)
            mat = load_cached(path, lexicon)
        except (OSError, MatrixCacheError) as exc:  # read-only or full disk: keep it in memory
            log.warning("cannot cache the pattern matrix in %s (%s); using it from memory",
                        path.parent, getattr(exc, "strerror", None) or exc)
    _LOADED[key] = mat
    return mat


