"""Small I/O helpers: every output is written to a temporary name, then renamed."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path


def atomic_write_bytes(path: str | Path, data: bytes, *, fsync: bool = False) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one."""
    atomic_write_parts(path, [data], fsync=fsync)


def atomic_write_parts(
    path: str | Path,
    parts: Iterable[bytes | memoryview],
    *,
    fsync: bool = False,
    check: Callable[[Path], None] | None = None,
) -> None:
    """Write ``parts`` one after the other to a temporary name, then rename it to ``path``.

    ``fsync`` flushes the file (and, after the rename, its directory) to disk, so a crash
    cannot leave a renamed but empty or partial file. ``check(tmp_path)`` runs on the
    complete temporary file before the rename; if it raises, nothing is published.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are ordinary files
        with os.fdopen(fd, "wb") as fh:
            for part in parts:
                fh.write(part)
            if fsync:
                fh.flush()
                os.fsync(fh.fileno())
        if check is not None:
            check(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if fsync:
        _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass  # some filesystems refuse fsync on a directory
    finally:
        os.close(dfd)


def read_text(path: str | Path, what: str, error: type[Exception]) -> str:
    """A UTF-8 file's text, or ``error`` with one clear line naming ``what`` it was."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{what} {str(p)!r} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read {what} {str(p)!r}: {exc}") from None


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
