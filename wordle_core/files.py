"""Small I/O helpers: every output is written to a temporary name, then renamed."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from wordle_core.errors import WordleError


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


def read_text(path: AnyPath, what: str, error: type[Exception]) -> str:
    """A UTF-8 file's text (a local path or a URL, see :func:`location`), or ``error`` with
    one clear line naming ``what`` it was."""
    p = location(path)
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


# --- locations on any filesystem -----------------------------------------------------------------
#
# Tables, trees and reports may live on a local disk or in an object store (``gs://bucket/...``).
# The engine reads them through :func:`location`, which gives a ``pathlib.Path`` for a local path
# and a :class:`UrlPath` (the same small part of ``Path``'s interface) for a URL. The engine knows
# no object store itself: whoever can reach one registers a :class:`Backend` for its scheme
# (``pipelines`` registers Apache Beam's ``FileSystems`` for ``gs://``, ``s3://`` ...).


class StorageError(OSError):
    """A URL whose scheme no backend serves, or an object store that refused a request."""


class Backend:
    """What an object store must offer :class:`UrlPath`: whole objects, listed by prefix.

    Every method takes full URLs (``gs://bucket/a/b``). ``read`` raises
    ``FileNotFoundError`` for a missing object; ``write`` makes one whole object (readers
    see it complete or not at all); ``listing`` returns the URLs of every object whose name
    starts with ``prefix`` (recursively).
    """

    def read(self, url: str) -> bytes:
        raise NotImplementedError

    def write(self, url: str, data: bytes) -> None:
        raise NotImplementedError

    def exists(self, url: str) -> bool:
        raise NotImplementedError

    def listing(self, prefix: str) -> list[str]:
        raise NotImplementedError

    def delete(self, urls: list[str]) -> None:
        raise NotImplementedError


_BACKENDS: dict[str, Backend] = {}
_FACTORIES: dict[str, Callable[[], Backend]] = {}


def register_backend(scheme: str, backend: Backend | Callable[[], Backend]) -> None:
    """Serve ``scheme://`` URLs with ``backend`` (or a factory called on first use)."""
    if isinstance(backend, Backend):
        _BACKENDS[scheme] = backend
    else:
        _FACTORIES[scheme] = backend
        _BACKENDS.pop(scheme, None)


def is_url(path: object) -> bool:
    """Is ``path`` a URL (``scheme://...``) rather than a local path?"""
    return isinstance(path, (str, UrlPath)) and "://" in str(path)


def backend_for(url: str) -> Backend:
    scheme = url.split("://", 1)[0]
    if scheme not in _BACKENDS and scheme in _FACTORIES:
        _BACKENDS[scheme] = _FACTORIES[scheme]()
    if scheme not in _BACKENDS:
        raise StorageError(f"no filesystem for {scheme}:// paths ({url!r}) in this process")
    return _BACKENDS[scheme]


# Cloud Storage bucket names: 3-63 characters (222 with dots), lowercase letters, digits,
# '-', '_' and '.', beginning and ending with a letter or a digit
_GCS_BUCKET = re.compile(r"[a-z0-9](?:[a-z0-9._-]{1,220})[a-z0-9]")


class BadLocationError(WordleError):
    """An output or input location that cannot be one (a bucket name Cloud Storage refuses)."""


def check_bucket(url: str) -> None:
    """A ``gs://`` URL whose bucket name Cloud Storage would refuse is a one-line error now,
    not a client that retries for minutes (``gs://BUCKET/...`` copied from the docs).

    >>> check_bucket("gs://my-bucket/wordle")
    >>> try:
    ...     check_bucket("gs://BUCKET/wordle")
    ... except BadLocationError as e:
    ...     print(str(e)[:60])
    gs://BUCKET/wordle: 'BUCKET' is not a Cloud Storage bucket n
    """
    scheme, _, rest = url.partition("://")
    if scheme != "gs":
        return
    bucket = rest.split("/", 1)[0]
    if not _GCS_BUCKET.fullmatch(bucket) or ("." not in bucket and len(bucket) > 63):
        raise BadLocationError(f"{url}: {bucket!r} is not a Cloud Storage bucket name (3-63 lowercase "
                               "letters, digits, '-', '_' or '.'): put your bucket's name there")


class UrlPath:
    """An object-store location with the part of ``pathlib.Path`` the readers use.

    A "directory" is a prefix: it exists when some object's name starts with it and ``/``.
    A ``gs://`` URL must name a valid bucket (:func:`check_bucket`).
    """

    def __init__(self, url: str | UrlPath) -> None:
        text = str(url)
        scheme, _, rest = text.partition("://")
        rest = "/".join(p for p in rest.split("/") if p and p != ".")
        self._url = f"{scheme}://{rest}"
        if not isinstance(url, UrlPath):
            check_bucket(self._url)

    def __str__(self) -> str:
        return self._url

    def __repr__(self) -> str:
        return f"UrlPath({self._url!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UrlPath) and other._url == self._url

    def __hash__(self) -> int:
        return hash(self._url)

    def __lt__(self, other: UrlPath) -> bool:
        return self._url < str(other)

    def __truediv__(self, name: str | Path) -> UrlPath:
        return UrlPath(f"{self._url}/{name}")

    @property
    def _backend(self) -> Backend:
        return backend_for(self._url)

    @property
    def name(self) -> str:
        rest = self._url.split("://", 1)[1]
        return rest.rsplit("/", 1)[-1] if "/" in rest else ""

    @property
    def suffix(self) -> str:
        n = self.name
        i = n.rfind(".")
        return n[i:] if 0 < i < len(n) - 1 else ""

    @property
    def stem(self) -> str:
        n, s = self.name, self.suffix
        return n[: len(n) - len(s)] if s else n

    @property
    def parent(self) -> UrlPath:
        scheme, rest = self._url.split("://", 1)
        return UrlPath(f"{scheme}://{rest.rsplit('/', 1)[0]}") if "/" in rest else self

    def resolve(self) -> UrlPath:
        return self

    def expanduser(self) -> UrlPath:
        return self

    def _children(self) -> list[str]:
        prefix = self._url + "/"
        names = set()
        for url in self._backend.listing(prefix):
            rest = url[len(prefix):]
            if rest:
                names.add(rest.split("/", 1)[0])
        return sorted(names)

    def is_file(self) -> bool:
        return self._backend.exists(self._url)

    def is_dir(self) -> bool:
        return bool(self._backend.listing(self._url + "/"))

    def exists(self) -> bool:
        return self.is_file() or self.is_dir()

    def iterdir(self) -> list[UrlPath]:
        return [self / n for n in self._children()]

    def glob(self, pattern: str) -> list[UrlPath]:
        """Direct children whose name matches ``pattern`` (no ``/``, no ``**``)."""
        import fnmatch

        return [self / n for n in self._children() if fnmatch.fnmatchcase(n, pattern)]

    def read_bytes(self) -> bytes:
        return self._backend.read(self._url)

    def read_text(self, encoding: str = "utf-8") -> str:
        return self.read_bytes().decode(encoding)

    def write_bytes(self, data: bytes) -> int:
        self._backend.write(self._url, bytes(data))
        return len(data)

    def write_text(self, text: str, encoding: str = "utf-8") -> int:
        return self.write_bytes(text.encode(encoding))

    def mkdir(self, parents: bool = False, exist_ok: bool = False) -> None:
        """Nothing to do: an object store has no directories."""

    def unlink(self, missing_ok: bool = False) -> None:
        if self.is_file():
            self._backend.delete([self._url])
        elif not missing_ok:
            raise FileNotFoundError(self._url)

    def remove_tree(self) -> None:
        """Delete every object under this prefix (and the object of this name)."""
        urls = self._backend.listing(self._url + "/")
        if self.is_file():
            urls.append(self._url)
        if urls:
            self._backend.delete(urls)


Location = Path | UrlPath  # what location() gives
AnyPath = str | Path | UrlPath  # what location() takes


def location(path: AnyPath) -> Location:
    """``path`` as a ``pathlib.Path`` (local) or a :class:`UrlPath` (``scheme://...``)."""
    if isinstance(path, (Path, UrlPath)):
        return path
    return UrlPath(path) if "://" in str(path) else Path(path)


def write_whole(path: AnyPath, data: bytes, *, fsync: bool = False) -> None:
    """Write one whole file anywhere: locally to a temporary name then renamed, as an object
    in one request (an object store never shows a half-written object)."""
    loc = location(path)
    if isinstance(loc, UrlPath):
        loc.write_bytes(data)
    else:
        atomic_write_bytes(loc, data, fsync=fsync)
