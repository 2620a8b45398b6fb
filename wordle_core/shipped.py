"""The data shipped in the package (``wordle_core/data/``), verified before it is used.

``wordle_core/data/MANIFEST.sha256`` lists the sha256 of every file under
``wordle_core/data/`` in ``sha256sum`` form (``<hex>  <path>``, paths relative to that
directory, sorted), so ``cd wordle_core/data && sha256sum -c MANIFEST.sha256`` checks an
installation by hand too.

:func:`data_bytes` is the one way the engine reads a shipped file (word lists, exact
totals, hard-mode verdicts, proven rankings): the manifest is read once per process, the
first time any shipped file is used, and each file is checked once, when it is first read
(then cached): a light command that loads nothing shipped pays nothing. A file whose bytes
differ from the manifest, or that the manifest does not list, is a
:class:`ShippedDataError` (one line; exit 2 on the command line), never data that is
believed.

Shipping a table (``wordle-lab pipeline hard --ship DIR``, ``python -m pipelines.optimal
--ship DIR``, ``wordle-lab optimal --rank K --output DIR`` with ``DIR`` under
``wordle_core/data/``) rewrites the manifest by itself. After adding or editing a file here
by hand, regenerate it with one command::

    make data-manifest          # rewrite MANIFEST.sha256
    make data-manifest-check    # list what differs; exit 1 if anything does

(``tests/test_shipped_data.py`` fails while the manifest is stale.)
"""

from __future__ import annotations

import hashlib
import sys
import threading
from pathlib import Path

from wordle_core.errors import WordleError

MANIFEST_NAME = "MANIFEST.sha256"
_SKIP_DIRS = {"__pycache__"}

_lock = threading.Lock()
_manifest: dict[str, str] | None = None
_checked: dict[str, bytes] = {}


class ShippedDataError(WordleError):
    """A file shipped in the package that does not match the package's manifest."""


def data_root() -> Path:
    """The package's data directory (``wordle_core/data``)."""
    return Path(__file__).resolve().parent / "data"


def _rel(path: str) -> str:
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        raise ShippedDataError(f"{path!r} is not a path inside the package data")
    return "/".join(parts)


def parse_manifest(text: str) -> dict[str, str]:
    """``{relative path: sha256}`` of a manifest's text; ValueError on a malformed line."""
    out: dict[str, str] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        digest, sep, name = line.partition("  ")
        if not sep or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest) \
                or not name or name in out:
            raise ValueError(f"line {n} is not '<sha256>  <path>'")
        out[name] = digest
    return out


def _load_manifest(root: Path) -> dict[str, str]:
    global _manifest
    if _manifest is None:
        mpath = root / MANIFEST_NAME
        try:
            text = mpath.read_text(encoding="ascii")
            _manifest = parse_manifest(text)
        except FileNotFoundError:
            raise ShippedDataError(f"the package's data manifest {str(mpath)!r} is missing: the "
                                   "installation is damaged; reinstall wordle-lab") from None
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise ShippedDataError(f"the package's data manifest {str(mpath)!r} is corrupt ({exc}); "
                                   "reinstall wordle-lab") from None
    return _manifest


def data_bytes(path: str) -> bytes | None:
    """The verified bytes of the shipped file ``path`` (relative to ``wordle_core/data``),
    or None when the package has no such file.

    Raises :class:`ShippedDataError` when the file exists but is not the one the manifest
    names (edited, truncated, replaced) or is not listed at all.
    """
    name = _rel(path)
    with _lock:
        if name in _checked:
            return _checked[name]
        root = data_root()
        fp = root / name
        try:
            data = fp.read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        except OSError as exc:
            raise ShippedDataError(f"cannot read the shipped file {str(fp)!r}: "
                                   f"{exc.strerror or exc}") from None
        want = _load_manifest(root).get(name)
        if want is None:
            raise ShippedDataError(f"the shipped file {str(fp)!r} is not listed in {MANIFEST_NAME}; "
                                   "if you added it, run: make data-manifest")
        if hashlib.sha256(data).hexdigest() != want:
            raise ShippedDataError(f"the shipped file {str(fp)!r} does not match {MANIFEST_NAME} "
                                   "(it was changed after the package was built); reinstall "
                                   "wordle-lab, or if you changed it on purpose run: "
                                   "make data-manifest")
        _checked[name] = data
        return data


def data_text(path: str) -> str:
    """:func:`data_bytes` as UTF-8 text; a missing file is a :class:`ShippedDataError`."""
    data = data_bytes(path)
    if data is None:
        raise ShippedDataError(f"the package has no data file {path!r}: the installation is "
                               "damaged; reinstall wordle-lab")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ShippedDataError(f"the shipped file {path!r} is not UTF-8 text ({exc})") from None


def forget() -> None:
    """Drop what this process has read and checked (tests; after :func:`write_manifest`)."""
    global _manifest
    with _lock:
        _manifest = None
        _checked.clear()


def data_files(root: Path | None = None) -> list[str]:
    """Every file under the data directory the manifest must cover, relative, sorted."""
    root = root or data_root()
    out = []
    for p in root.rglob("*"):
        rel = p.relative_to(root)
        if not p.is_file() or rel.name == MANIFEST_NAME or _SKIP_DIRS & set(rel.parts) \
                or any(part.startswith(".") for part in rel.parts):
            continue
        out.append(rel.as_posix())
    return sorted(out)


def manifest_text(root: Path | None = None) -> str:
    """The manifest the files under ``root`` (default: the package's data) should have."""
    root = root or data_root()
    lines = [f"{hashlib.sha256((root / n).read_bytes()).hexdigest()}  {n}\n" for n in data_files(root)]
    return "".join(lines)


def stale(root: Path | None = None) -> list[str]:
    """What differs between the manifest and the files: one line each; empty when current."""
    root = root or data_root()
    try:
        have = parse_manifest((root / MANIFEST_NAME).read_text(encoding="ascii"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return [f"{MANIFEST_NAME}: unreadable ({exc})"]
    want = parse_manifest(manifest_text(root))
    out = [f"{n}: not listed" for n in sorted(set(want) - set(have))]
    out += [f"{n}: listed but missing" for n in sorted(set(have) - set(want))]
    out += [f"{n}: sha256 differs" for n in sorted(set(want) & set(have)) if want[n] != have[n]]
    return out


def write_manifest(root: Path | None = None) -> Path:
    """Rewrite ``MANIFEST.sha256`` from the files under ``root`` (default: the package data)."""
    from wordle_core.files import atomic_write_bytes

    root = root or data_root()
    path = root / MANIFEST_NAME
    atomic_write_bytes(path, manifest_text(root).encode("ascii"))
    forget()
    return path


def covers(directory: str | Path) -> bool:
    """Is ``directory`` inside the package's data directory (so shipping there must
    update the manifest)?"""
    try:
        Path(directory).resolve().relative_to(data_root())
    except ValueError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    """``make data-manifest`` (no argument: rewrite) and ``make data-manifest-check``."""
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--check"]):
        sys.stderr.write("usage: make data-manifest | make data-manifest-check\n")
        return 2
    if args == ["--check"]:
        problems = stale()
        for line in problems:
            print(line)
        print(f"{MANIFEST_NAME}: {'stale' if problems else 'current'} ({len(data_files())} files)")
        return 1 if problems else 0
    try:
        path = write_manifest()
    except OSError as exc:
        sys.stderr.write(f"data-manifest: error: {exc.strerror or exc}: {exc.filename or ''}\n")
        return 1
    print(f"wrote {path} ({len(data_files())} files)")
    return 0
