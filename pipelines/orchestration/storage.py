"""Apache Beam's ``FileSystems`` as the engine's object-store backend (``gs://``, ``s3://`` ...).

The engine reads tables, trees and reports through :func:`wordle_core.files.location`, which
knows no object store; :mod:`pipelines` registers this backend for the URL schemes Beam
serves, so every reader (``read_table``, ``rank --report``, ``simulate --tree``, ``report
--input``) and every writer of the pipelines (shards, tables, manifests, generations, the
report) goes through the same ``FileSystems`` calls on every filesystem.

Object stores have no rename: a whole object is written in one request, so a reader sees
it complete or not at all (:func:`wordle_core.files.write_whole`); the generation protocol
(:mod:`pipelines.orchestration.generation`) publishes a run's objects only after all of them exist.
"""

from __future__ import annotations

from wordle_core.files import Backend, StorageError

SCHEMES = ("gs", "s3", "hdfs", "azfs")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:240]


class BeamBackend(Backend):
    """Whole objects through ``apache_beam.io.filesystems.FileSystems``."""

    def __init__(self) -> None:
        from apache_beam.io.filesystem import CompressionTypes
        from apache_beam.io.filesystems import FileSystems

        self.fs, self.raw = FileSystems, CompressionTypes.UNCOMPRESSED

    def read(self, url: str) -> bytes:
        try:
            with self.fs.open(url, compression_type=self.raw) as fh:
                return fh.read()
        except Exception as exc:
            if not self.exists(url):
                raise FileNotFoundError(f"{url} does not exist") from None
            raise StorageError(f"cannot read {url}: {_first_line(exc)}") from None

    def write(self, url: str, data: bytes) -> None:
        try:
            with self.fs.create(url, mime_type="application/octet-stream",
                                compression_type=self.raw) as fh:
                fh.write(data)
        except Exception as exc:
            raise StorageError(f"cannot write {url}: {_first_line(exc)}") from None

    def exists(self, url: str) -> bool:
        try:
            return bool(self.fs.exists(url))
        except Exception as exc:
            raise StorageError(f"cannot reach {url}: {_first_line(exc)}") from None

    def listing(self, prefix: str) -> list[str]:
        try:
            found = self.fs.match([prefix + "**"])[0].metadata_list
        except Exception as exc:
            if "No files found" in str(exc) or "not found" in str(exc).lower():
                return []
            raise StorageError(f"cannot list {prefix}: {_first_line(exc)}") from None
        return sorted(m.path for m in found if m.path.startswith(prefix))

    def delete(self, urls: list[str]) -> None:
        if not urls:
            return
        try:
            self.fs.delete(list(urls))
        except Exception as exc:
            raise StorageError(f"cannot delete {urls[0]}: {_first_line(exc)}") from None


def anonymous_under_emulator() -> None:
    """With ``$STORAGE_EMULATOR_HOST`` set (a local GCS emulator, see
    ``docs/how-to/cloud-storage.md``), Beam's GCS client connects anonymously at once.

    Otherwise Beam looks for Google credentials first, retrying for about 20 s in every
    process that touches ``gs://`` (the driver and each worker), and logs a warning with a
    traceback each time. The emulator needs no credentials; a real bucket is unaffected
    (the variable is not set there). Beam 2.77 has no option for this: its credentials
    cache (``apache_beam.internal.gcp.auth._Credentials``) is set to "none found".
    """
    import os

    if not os.environ.get("STORAGE_EMULATOR_HOST"):
        return
    try:
        from apache_beam.internal.gcp import auth
    except ImportError:  # Beam without its GCP extra: no gs:// at all
        return
    creds = getattr(auth, "_Credentials", None)
    if creds is not None and hasattr(creds, "_credentials_init"):
        creds._credentials, creds._credentials_init = None, True


def register() -> None:
    """Serve every scheme of :data:`SCHEMES` with one :class:`BeamBackend` (made on first use)."""
    from wordle_core.files import register_backend

    made: list[BeamBackend] = []

    def factory() -> Backend:
        if not made:
            made.append(BeamBackend())
        return made[0]

    for scheme in SCHEMES:
        register_backend(scheme, factory)
