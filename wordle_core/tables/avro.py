"""The one reader (and manifest writer) of published Avro tables.

A *published* table is a directory ``<output>/<table>/`` holding its shard files
(``<table>-00000-of-00004.avro`` ...) and, written last, ``_manifest.json``::

    {"format": "wordle-lab-table", "version": 1, "table": "trees",
     "schema": "org.wordlelab.v1.DecisionTree", "generation": "3f9c0a1b2c4d",
     "config_hash": "...", "lexicon_fingerprint": "...", "records": 32,
     "files": [{"name": "trees-00000-of-00001.avro", "records": 32,
                "bytes": 81234, "sha256": "..."}]}

Rules every reader here follows (and therefore every command built on
:func:`read_records`: ``tree``, ``play --tree``, the report, ``read_table``):

* exactly the files the manifest lists are read, in its order; anything else in the
  directory (a stray copy, ``.staging-*`` of a killed run, a ``.tmp``) is ignored;
* each listed file's size and sha256 are checked before it is decoded, its writer
  schema must be this table's record type, and the record counts must match, so a
  flipped byte, a truncated or swapped file, a foreign-schema file or a file of
  another table is one :class:`TableError` line (the CLI exits 2), never wrong data
  and never a ``KeyError``;
* a directory without a manifest is not a published table (an unfinished run, or a
  table written by hand) and is refused the same way;
* when the table sits in an output directory with ``_generation.json`` (written by
  the pipelines when they publish), the table's generation must be the one that file
  names for it: a run killed while publishing leaves an output that is refused until
  the next run completes (or ``--resume`` finishes) the publication.

A single ``.avro`` file can be named too: it is verified against its directory's
manifest when there is one (a file the manifest does not list is refused), otherwise (a
file made by hand) only its schema is checked.
No Beam import: plain fastavro and hashlib, so the solver starts fast.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from wordle_core.errors import WordleError
from wordle_core.files import AnyPath, Location, location

MANIFEST = "_manifest.json"
GENERATION = "_generation.json"
FORMAT = "wordle-lab-table"
VERSION = 1

# table -> full name of its Avro record type (pipelines/schemas.py; a test keeps them equal)
RECORD_TYPES: dict[str, str] = {
    "opener_scores": "org.wordlelab.v1.OpenerScore",
    "opener_summaries": "org.wordlelab.v1.OpenerSummary",
    "games": "org.wordlelab.v1.GameRecord",
    "hard_verdicts": "org.wordlelab.v1.HardVerdict",
    "hard_exact": "org.wordlelab.v1.HardExact",
    "trees": "org.wordlelab.v1.DecisionTree",
    "optimal": "org.wordlelab.v1.OptimalValue",
}


class TableError(WordleError):
    """A table that is missing, unpublished, corrupt, foreign or does not match."""


@dataclass(frozen=True)
class FileEntry:
    name: str
    records: int
    bytes: int
    sha256: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "records": self.records, "bytes": self.bytes, "sha256": self.sha256}


@dataclass(frozen=True)
class Manifest:
    """What a published table (or report) directory holds; see the module doc."""

    table: str
    generation: str
    files: tuple[FileEntry, ...]
    config_hash: str = ""
    lexicon_fingerprint: str = ""

    @property
    def records(self) -> int:
        return sum(f.records for f in self.files)

    def to_json(self) -> str:
        return json.dumps({
            "format": FORMAT, "version": VERSION, "table": self.table,
            "schema": RECORD_TYPES.get(self.table, ""), "generation": self.generation,
            "config_hash": self.config_hash, "lexicon_fingerprint": self.lexicon_fingerprint,
            "records": self.records, "files": [f.to_dict() for f in self.files],
        }, indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str, where: str) -> Manifest:
        try:
            raw = json.loads(text)
            if raw.get("format") != FORMAT or raw.get("version") != VERSION:
                raise ValueError("not a wordle-lab table manifest")
            files = tuple(FileEntry(str(f["name"]), int(f["records"]), int(f["bytes"]), str(f["sha256"]))
                          for f in raw["files"])
            for f in files:
                if "/" in f.name or "\\" in f.name or f.name.startswith("."):
                    raise ValueError(f"file name {f.name!r} outside the table directory")
            return cls(str(raw["table"]), str(raw["generation"]), files,
                       str(raw.get("config_hash", "")), str(raw.get("lexicon_fingerprint", "")))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise TableError(f"manifest {where!r} is corrupt ({exc})") from None


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_entry(name: str, data: bytes, records: int) -> FileEntry:
    return FileEntry(name, int(records), len(data), sha256(data))


# --- reading ---------------------------------------------------------------------------

def _read_bytes(path: Location) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise TableError(f"table file {str(path)!r} is listed in its manifest but missing") from None
    except OSError as exc:
        raise TableError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None


def read_manifest(table_dir: AnyPath, table: str | None = None) -> Manifest:
    """The manifest of a published directory; ``table`` (if given) must be the one it names."""
    d = location(table_dir)
    mpath = d / MANIFEST
    if not mpath.is_file():
        if not d.is_dir():
            raise TableError(f"no {table or 'table'} table at {str(d)!r}")
        raise TableError(f"{str(d)!r} has no {MANIFEST}: not a published table (an unfinished or "
                         "older run, or files copied by hand); run the pipeline again")
    try:
        text = mpath.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise TableError(f"cannot read {str(mpath)!r}: {exc}") from None
    man = Manifest.from_json(text, str(mpath))
    if table is not None and man.table != table:
        raise TableError(f"{str(d)!r} holds the {man.table!r} table, not {table!r}")
    return man


def decode(data: bytes, table: str, where: str) -> list[dict[str, Any]]:
    """Records of one Avro file's bytes, which must be written with ``table``'s schema."""
    import fastavro

    try:
        reader = fastavro.reader(io.BytesIO(data))
        schema = reader.writer_schema
        name = schema.get("name", "") if isinstance(schema, dict) else ""
        want = RECORD_TYPES.get(table)
        if want is not None and name != want:
            kind = next((t for t, n in RECORD_TYPES.items() if n == name), None)
            what = f"the {kind!r} table" if kind else f"a foreign schema ({name or type(schema).__name__})"
            raise TableError(f"{where!r} holds {what}, not {table!r}")
        return cast("list[dict[str, Any]]", list(reader))
    except TableError:
        raise
    except Exception as exc:
        first = str(exc).splitlines()[0] if str(exc) else "corrupt"
        raise TableError(f"{where!r} is not a readable Avro file ({type(exc).__name__}: {first})") from None


def _record_digest(record: dict[str, Any]) -> str:
    body = {k: v for k, v in record.items() if k != "sha256"}
    return sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode())


def sealed_record(record: dict[str, Any]) -> bytes:
    """``_generation.json``'s bytes for ``record``, with the sha256 of its content in it."""
    body = {k: v for k, v in record.items() if k != "sha256"}
    return json.dumps({**body, "sha256": _record_digest(body)}, indent=1, sort_keys=True).encode()


def read_generation_record(gpath: Location) -> dict[str, Any]:
    """The verified content of ``_generation.json`` (:class:`TableError` if it is damaged or
    edited: its own sha256, when it has one, must match)."""
    try:
        record = json.loads(gpath.read_text(encoding="utf-8"))
        if not isinstance(record, dict) or not isinstance(record["entries"], dict):
            raise ValueError("not a generation record")
        ok = "sha256" not in record or record["sha256"] == _record_digest(record)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise TableError(f"{str(gpath)!r} is corrupt; run the pipeline again") from None
    if not ok:
        raise TableError(f"{str(gpath)!r} was changed after it was written (its sha256 does not "
                         "match); run the pipeline again")
    return record


def check_generation(output_dir: AnyPath, entry: str, generation: str) -> None:
    """Refuse an entry whose generation is not the one ``<output>/_generation.json`` names."""
    gpath = location(output_dir) / GENERATION
    if not gpath.is_file():
        return
    record = read_generation_record(gpath)
    try:
        want = record["entries"].get(entry)
        sealed = record.get("manifests", {}).get(entry)
    except (ValueError, KeyError, TypeError, AttributeError):
        raise TableError(f"{str(gpath)!r} is corrupt; run the pipeline again") from None
    if want is not None and want != generation:
        raise TableError(f"{str(location(output_dir) / entry)!r} is generation {generation} but "
                         f"{str(output_dir)!r} names {want}: a run was stopped while publishing; "
                         "run it again (with --resume) to finish")
    if want is not None and sealed is not None:
        mpath = location(output_dir) / entry / MANIFEST
        try:
            ok = sha256(mpath.read_bytes()) == sealed
        except OSError:
            ok = False
        if not ok:
            raise TableError(f"{str(mpath)!r} is not the manifest {GENERATION} recorded (it was "
                             "changed after it was published); run the pipeline again")


def check_one_generation(output_dir: AnyPath, tables: Iterable[str]) -> None:
    """Refuse ``tables`` under ``output_dir`` that were not published together.

    Tables of more than one generation are read together only when the output's
    ``_generation.json`` names each of them (separate ``wordle-lab pipeline ...`` runs
    into one output) and they were computed on the same word lists; without that
    record, one generation only (a table copied in from another run is refused).
    """
    out = location(output_dir)
    mans = {t: read_manifest(table_dir(out, t), t) for t in tables}
    gens = {m.generation for m in mans.values()}
    if len(gens) <= 1:
        return
    listing = ", ".join(f"{t} {m.generation}" for t, m in sorted(mans.items()))
    gpath = out / GENERATION
    if not gpath.is_file():
        raise TableError(f"the tables under {str(out)!r} come from different runs ({listing}) and "
                         f"no {GENERATION} says they belong together; run the pipeline again")
    named = read_generation_record(gpath)["entries"]
    unnamed = [t for t, m in mans.items() if named.get(t) != m.generation]
    if unnamed:
        raise TableError(f"{str(out / unnamed[0])!r} is not the table {GENERATION} names "
                         f"({listing}); run the pipeline again")
    prints = {m.lexicon_fingerprint for m in mans.values()}
    if len(prints) > 1:
        raise TableError(f"the tables under {str(out)!r} were computed on different word lists "
                         f"({listing}); run them again with one lexicon")


def table_dir(path: AnyPath, table: str) -> Location:
    """``path`` itself when it is the table's directory, else ``path/<table>``."""
    p = location(path)
    if (p / MANIFEST).is_file() and not (p / table / MANIFEST).is_file():
        return p
    if (p / table).is_dir():
        return p / table
    if p.name == table or any(p.glob(f"{table}-*-of-*.avro")):
        return p
    return p / table


def verified_files(path: AnyPath, table: str) -> list[tuple[Location, bytes, int]]:
    """(path, verified bytes, expected records) of every file the table's manifest lists."""
    d = table_dir(path, table)
    man = read_manifest(d, table)
    check_generation(d.parent, table, man.generation)
    out = []
    for f in man.files:
        fp = d / f.name
        data = _read_bytes(fp)
        if len(data) != f.bytes or sha256(data) != f.sha256:
            raise TableError(f"{str(fp)!r} does not match its manifest (size or sha256 differ): "
                             "the file was changed after it was published; run the pipeline again")
        out.append((fp, data, f.records))
    return out


def table_files(path: AnyPath, table: str) -> list[Location]:
    """The files of a published table, verified; empty when there is no table at ``path``.

    A directory that exists but is not a valid published table raises :class:`TableError`.
    """
    p = location(path)
    if p.is_file():
        return [p]
    d = table_dir(p, table)
    if not d.is_dir():
        return []
    return [fp for fp, _, _ in verified_files(d, table)]


def read_file_records(path: AnyPath, table: str) -> list[dict[str, Any]]:
    """Records of one named ``.avro`` file, verified against its directory's manifest if any."""
    p = location(path)
    if (p.parent / MANIFEST).is_file():
        man = read_manifest(p.parent)
        entry = next((f for f in man.files if f.name == p.name), None)
        if entry is None:
            raise TableError(f"{str(p)!r} is not listed in its directory's {MANIFEST} (a stray "
                             "copy, not part of the published table)")
        if entry is not None:
            if man.table != table:
                raise TableError(f"{str(p)!r} belongs to the {man.table!r} table, not {table!r}")
            for fp, data, n in verified_files(p.parent, table):
                if fp.name == p.name:
                    recs = decode(data, table, str(fp))
                    _check_count(fp, recs, n)
                    return recs
    return decode(_read_bytes(p), table, str(p))


def _check_count(fp: Location, recs: list, n: int) -> None:
    if len(recs) != n:
        raise TableError(f"{str(fp)!r} holds {len(recs)} records, its manifest says {n}")


def read_records(path: AnyPath, table: str) -> list[dict[str, Any]]:
    """Every record of ``table``, verified, in manifest (shard) order.

    ``path``: an output directory holding ``<table>/``, the table directory itself,
    or one ``.avro`` file. Raises :class:`TableError` (one line) when there is no
    published table there or anything about it does not check out.
    """
    p = location(path)
    if p.is_file():
        return read_file_records(p, table)
    out: list[dict[str, Any]] = []
    for fp, data, n in verified_files(p, table):
        recs = decode(data, table, str(fp))
        _check_count(fp, recs, n)
        out.extend(recs)
    return out


def has_table(path: AnyPath, table: str) -> bool:
    """Is there something at ``path`` that claims to be ``table`` (manifest or shard files)?"""
    p = location(path)
    if p.is_file():
        return True
    d = table_dir(p, table)
    return (d / MANIFEST).is_file() or (d.is_dir() and any(d.glob(f"{table}-*-of-*.avro")))


def verify_dir(path: AnyPath) -> Manifest:
    """Check every file a published directory's manifest lists (tables and the report)."""
    d = location(path)
    man = read_manifest(d)
    check_generation(d.parent, d.name, man.generation)
    for f in man.files:
        data = _read_bytes(d / f.name)
        if len(data) != f.bytes or sha256(data) != f.sha256:
            raise TableError(f"{str(d / f.name)!r} does not match its manifest (size or sha256 differ)")
        if man.table in RECORD_TYPES:
            _check_count(d / f.name, decode(data, man.table, str(d / f.name)), f.records)
    return man


# --- writing (used by the pipelines' publish step and by tests) --------------------------------

def manifest_of(table: str, files: Iterable[FileEntry], generation: str, *, config_hash: str = "",
                lexicon_fingerprint: str = "") -> Manifest:
    return Manifest(table, generation, tuple(sorted(files, key=lambda f: f.name)), config_hash,
                    lexicon_fingerprint)


def write_table(table_dir_: AnyPath, table: str, files: dict[str, tuple[bytes, int]],
                generation: str = "manual", *, config_hash: str = "", lexicon_fingerprint: str = "",
                write: Callable[[Any, bytes], None] | None = None) -> Manifest:
    """Write ``{name: (bytes, records)}`` into a table directory, then its manifest (last)."""
    from wordle_core.files import write_whole

    put = write or write_whole
    d = location(table_dir_)
    d.mkdir(parents=True, exist_ok=True)
    (d / MANIFEST).unlink(missing_ok=True)
    for name, (data, _) in sorted(files.items()):
        put(d / name, data)
    man = manifest_of(table, [file_entry(n, b, r) for n, (b, r) in files.items()], generation,
                      config_hash=config_hash, lexicon_fingerprint=lexicon_fingerprint)
    put(d / MANIFEST, man.to_json().encode())
    return man


def write_avro_and_csv(avro_path: str | Path, csv_path: str | Path, schema: dict[str, Any],
                       fields: list[str], rows: list[dict[str, Any]],
                       metadata: dict[str, str] | None = None) -> None:
    """One small table as Avro (deflate, ``metadata`` in its header) and as CSV (``fields``
    in that order), each written to a temporary name and renamed: the form of the
    tables the package ships and of ``optimal --rank``. Deterministic: the same rows and
    metadata give the same bytes. Written into the package's data directory (shipping a
    table), the data manifest is rewritten too (:mod:`wordle_core.shipped`)."""
    import csv

    import fastavro

    from wordle_core.files import atomic_write_bytes, atomic_write_text

    buf = io.BytesIO()
    # a fixed sync marker (the schema's name) instead of a random one: same rows and
    # metadata, same bytes
    marker = hashlib.md5(f"wordle-lab:{schema.get('name', '')}".encode()).digest()
    fastavro.writer(buf, schema, rows, codec="deflate", metadata=metadata or {}, sync_marker=marker)
    atomic_write_bytes(Path(avro_path), buf.getvalue())
    text = io.StringIO()
    w = csv.DictWriter(text, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    atomic_write_text(Path(csv_path), text.getvalue())
    from wordle_core.shipped import covers, write_manifest

    if covers(Path(avro_path).parent) or covers(Path(csv_path).parent):
        write_manifest()  # shipped into the package (--ship, --rank --output): list it


def read_with_metadata(data: bytes, where: str = "the Avro file",
                       ) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(records, ``wordle_lab.*`` metadata) of one small Avro file's bytes, such as a table
    :func:`write_avro_and_csv` wrote; a truncated or damaged file is a :class:`TableError`
    naming ``where``."""
    import fastavro

    try:
        reader = fastavro.reader(io.BytesIO(data))
        meta = {k: v.decode() if isinstance(v, bytes) else str(v)
                for k, v in reader.metadata.items() if k.startswith("wordle_lab.")}
        return cast("list[dict[str, Any]]", list(reader)), meta
    except Exception as exc:
        first = str(exc).splitlines()[0] if str(exc) else "truncated or corrupt"
        raise TableError(f"{where!r} is not a readable Avro file ({type(exc).__name__}: {first})") from None


def shipped_bytes(path: str) -> bytes | None:
    """The bytes of a table shipped under ``wordle_core/data/`` (``path`` relative to it),
    or None when the package has none there. Checked against the package's data manifest
    (:mod:`wordle_core.shipped`): an edited file is a one-line error, never believed."""
    from wordle_core.shipped import data_bytes

    return data_bytes(path)
