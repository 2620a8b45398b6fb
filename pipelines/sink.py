"""One Avro sink that is correct on every runner we use.

Beam 2.77's ``WriteToAvro`` writes empty files on the Dask runner, and Dask runs only
the last of several independent sinks, so the pipelines never use it. Instead every
table goes through this single transform:

``(table, record)`` pairs -> key by (table, shard) -> ``GroupByKey`` -> one ``DoFn``
call per shard sorts its records and writes them with fastavro through Beam's
``FileSystems`` (local disk, GCS, S3 alike), to a temporary name first and then
renamed. Shards are chosen by a stable hash of the record's sort key, and the Avro
sync marker is derived from the table name, so equal inputs give byte-identical
files on every runner.

Shards are staged under ``<output>/<table>/.staging-<run id>/`` and only moved into
place by :func:`publish` after the pipeline succeeded; :func:`discard` removes the
staging area of a failed run, so no half-written table is ever left behind.
"""

from __future__ import annotations

import hashlib
import io
import zlib
from typing import Any

import apache_beam as beam
import fastavro
from apache_beam.io.filesystems import FileSystems

from .schemas import SCHEMAS, sort_key

CODEC = "deflate"


def shard_name(table: str, shard: int, num_shards: int) -> str:
    return f"{table}-{shard:05d}-of-{num_shards:05d}.avro"


def table_dir(output: str, table: str) -> str:
    return FileSystems.join(output, table)


def staging_dir(output: str, table: str, run_id: str) -> str:
    return FileSystems.join(output, table, f".staging-{run_id}")


def shard_of(table: str, record: dict[str, Any], num_shards: int) -> int:
    """Stable shard of a record (crc32 of its sort key): the same on every machine."""
    if num_shards == 1:
        return 0
    key = "\x1f".join(str(v) for v in sort_key(table, record))
    return zlib.crc32(key.encode()) % num_shards


def avro_bytes(table: str, records: list[dict[str, Any]]) -> bytes:
    """A whole Avro file of ``records`` sorted by the table's key, deterministically."""
    ordered = sorted(records, key=lambda r: sort_key(table, r))
    buf = io.BytesIO()
    marker = hashlib.md5(f"wordle-lab:{table}".encode()).digest()
    fastavro.writer(buf, SCHEMAS[table], ordered, codec=CODEC, sync_marker=marker)
    return buf.getvalue()


def write_file(path: str, data: bytes) -> None:
    """Write through FileSystems to ``path``: temporary name first, then rename."""
    tmp = f"{path}.tmp"
    with FileSystems.create(tmp) as fh:
        fh.write(data)
    if FileSystems.exists(path):
        FileSystems.delete([path])
    FileSystems.rename([tmp], [path])


class _WriteShard(beam.DoFn):
    def __init__(self, output: str, run_id: str, num_shards: int) -> None:
        self.output, self.run_id, self.num_shards = output, run_id, num_shards

    def process(self, element: tuple[tuple[str, int], Any]):
        (table, shard), records = element
        recs = [r for r in records if r is not None]
        path = FileSystems.join(staging_dir(self.output, table, self.run_id),
                                shard_name(table, shard, self.num_shards))
        write_file(path, avro_bytes(table, recs))
        yield path


class WriteTables(beam.PTransform):
    """Write ``(table, record)`` pairs as ``num_shards`` Avro files per table (staged).

    Every table in ``tables`` gets all its shard files, empty ones included, so a
    reader never has to guess whether a shard is missing or empty.
    """

    def __init__(self, output: str, tables: list[str], run_id: str, num_shards: int = 1) -> None:
        super().__init__()
        unknown = set(tables) - set(SCHEMAS)
        if unknown:
            raise ValueError(f"unknown tables {sorted(unknown)}")
        self.output, self.tables, self.run_id, self.num_shards = output, list(tables), run_id, num_shards

    def expand(self, pcoll):
        n = self.num_shards
        keyed = pcoll | "KeyByShard" >> beam.Map(lambda tr: ((tr[0], shard_of(tr[0], tr[1], n)), tr[1]))
        markers = pcoll.pipeline | "EveryShard" >> beam.Create(
            [((t, s), None) for t in self.tables for s in range(n)])
        return (
            (keyed, markers)
            | "WithEmptyShards" >> beam.Flatten()
            | "GroupShards" >> beam.GroupByKey()
            | "WriteShards" >> beam.ParDo(_WriteShard(self.output, self.run_id, n))
        )


def _match(pattern: str) -> list[str]:
    return [m.path for m in FileSystems.match([pattern])[0].metadata_list]


def publish(output: str, tables: list[str], run_id: str) -> list[str]:
    """Move a successful run's staged shards into place, replacing the table's old files."""
    written = []
    for table in tables:
        stage = staging_dir(output, table, run_id)
        staged = sorted(_match(FileSystems.join(stage, "*.avro")))
        old = _match(FileSystems.join(table_dir(output, table), f"{table}-*-of-*.avro"))
        if old:
            FileSystems.delete(old)
        finals = [FileSystems.join(table_dir(output, table), p.rsplit("/", 1)[-1]) for p in staged]
        if staged:
            FileSystems.rename(staged, finals)
        FileSystems.delete([stage])
        written.extend(finals)
    return written


def discard(output: str, tables: list[str], run_id: str) -> None:
    """Remove a failed run's staging areas (the previous tables stay as they were)."""
    for table in tables:
        stage = staging_dir(output, table, run_id)
        if FileSystems.exists(stage):
            FileSystems.delete([stage])


def read_table(output: str, table: str) -> list[dict[str, Any]]:
    """Every record of a table directory (all shards, in shard order) via FileSystems."""
    pattern = FileSystems.join(table_dir(output, table), f"{table}-*-of-*.avro")
    paths = sorted(m.path for m in FileSystems.match([pattern])[0].metadata_list)
    out: list[dict[str, Any]] = []
    for p in paths:
        with FileSystems.open(p, compression_type="uncompressed") as fh:
            out.extend(fastavro.reader(io.BytesIO(fh.read())))
    return out
