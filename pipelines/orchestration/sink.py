"""One Avro sink that is correct on every runner we use.

Beam 2.77's ``WriteToAvro`` writes empty files on the Dask runner, and Dask runs only
the last of several independent sinks, so the pipelines never use it. Instead every
table goes through this single transform:

``(table, record)`` pairs -> key by (table, shard) -> ``GroupByKey`` -> one ``DoFn``
call per shard sorts its records and writes them with fastavro through Beam's
``FileSystems`` (local disk, GCS, S3 alike), to a temporary name first and then
renamed. What crosses the ``GroupByKey`` is each record's sort key and its Avro
encoding, not the record itself: a shard's records all reach one worker at once, and
as Python dicts the 19,395 summaries of one ``configs/full.yaml`` shard take about
95 MiB (workers writing that run's tables peaked at 1.06 GiB); encoded they take
6 MiB, and the writer decodes them one at a time as it writes. Shards are chosen by
a stable hash of the record's sort key, and the Avro sync marker is derived from the
table name, so equal inputs give byte-identical files on every runner.

Shards are staged under ``<stage root>/<table>/`` (the run's generation staging area,
see :mod:`pipelines.orchestration.generation`), each with a ``.json`` sidecar (records, bytes,
sha256) from which the table's manifest is made when the generation is published.
Nothing is moved into the public output here: that is the generation's commit, after
every stage of the run succeeded, so no half-written table is ever visible.
"""

from __future__ import annotations

import hashlib
import io
import json
import zlib
from collections.abc import Iterable
from typing import Any

import apache_beam as beam
import fastavro
from apache_beam.io.filesystems import FileSystems

from ..schemas import SCHEMAS, sort_key
from .generation import write_bytes

CODEC = "deflate"


def shard_name(table: str, shard: int, num_shards: int) -> str:
    return f"{table}-{shard:05d}-of-{num_shards:05d}.avro"


def table_dir(output: str, table: str) -> str:
    return FileSystems.join(output, table)


def staging_dir(stage_root: str, table: str) -> str:
    return FileSystems.join(stage_root, table)


def shard_of(key: tuple, num_shards: int) -> int:
    """Stable shard of a record with sort ``key`` (crc32 of the key): the same on every machine."""
    if num_shards == 1:
        return 0
    text = "\x1f".join(str(v) for v in key)
    return zlib.crc32(text.encode()) % num_shards


def keyed_by_shard(table: str, record: dict[str, Any],
                   num_shards: int) -> tuple[tuple[str, int], tuple[tuple, bytes]]:
    """``((table, shard), (sort key, encoding))``: one record as it goes into the grouping."""
    encoded = encode_record(table, record)
    return (table, shard_of(encoded[0], num_shards)), encoded


def avro_bytes(table: str, records: Iterable[dict[str, Any]]) -> bytes:
    """A whole Avro file of ``records`` sorted by the table's key, deterministically."""
    return encoded_avro_bytes(table, [encode_record(table, r) for r in records])


def encode_record(table: str, record: dict[str, Any]) -> tuple[tuple, bytes]:
    """``(sort key, the record's Avro encoding)``: the compact form a record is grouped in."""
    buf = io.BytesIO()
    fastavro.schemaless_writer(buf, SCHEMAS[table], record)
    return sort_key(table, record), buf.getvalue()


def encoded_avro_bytes(table: str, encoded: Iterable[tuple[tuple, bytes]]) -> bytes:
    """The Avro file of :func:`encode_record` pairs, sorted by key; byte for byte the file
    of the records themselves (each is decoded just before it is written)."""
    schema = SCHEMAS[table]
    ordered = sorted(encoded, key=lambda kv: kv[0])
    records = (fastavro.schemaless_reader(io.BytesIO(data), schema) for _, data in ordered)
    buf = io.BytesIO()
    marker = hashlib.md5(f"wordle-lab:{table}".encode()).digest()
    fastavro.writer(buf, schema, records, codec=CODEC, sync_marker=marker)
    return buf.getvalue()


def sidecar(data: bytes, records: int) -> bytes:
    """What the manifest will say about a shard file (computed where the bytes are)."""
    return json.dumps({"records": records, "bytes": len(data),
                       "sha256": hashlib.sha256(data).hexdigest()}).encode()


class _WriteShard(beam.DoFn):
    def __init__(self, stage_root: str, num_shards: int) -> None:
        self.stage_root, self.num_shards = stage_root, num_shards

    def setup(self) -> None:
        # Every record has been grouped by now: the worker's play caches are only memory.
        from ..transforms import release_play_caches

        release_play_caches()

    def process(self, element: tuple[tuple[str, int], Any]):
        (table, shard), items = element
        encoded = [kv for kv in items if kv is not None]
        path = FileSystems.join(staging_dir(self.stage_root, table),
                                shard_name(table, shard, self.num_shards))
        data = encoded_avro_bytes(table, encoded)
        write_bytes(path, data)
        write_bytes(path + ".json", sidecar(data, len(encoded)))
        yield path


class WriteTables(beam.PTransform):
    """Write ``(table, record)`` pairs as ``num_shards`` Avro files per table (staged).

    Every table in ``tables`` gets all its shard files, empty ones included, so a
    reader never has to guess whether a shard is missing or empty.
    """

    def __init__(self, stage_root: str, tables: list[str], num_shards: int = 1) -> None:
        super().__init__()
        unknown = set(tables) - set(SCHEMAS)
        if unknown:
            raise ValueError(f"unknown tables {sorted(unknown)}")
        self.stage_root, self.tables, self.num_shards = stage_root, list(tables), num_shards

    def expand(self, pcoll):
        n = self.num_shards
        keyed = pcoll | "KeyByShard" >> beam.Map(lambda tr: keyed_by_shard(tr[0], tr[1], n))
        markers = pcoll.pipeline | "EveryShard" >> beam.Create(
            [((t, s), None) for t in self.tables for s in range(n)])
        return (
            (keyed, markers)
            | "WithEmptyShards" >> beam.Flatten()
            | "GroupShards" >> beam.GroupByKey()
            | "WriteShards" >> beam.ParDo(_WriteShard(self.stage_root, n))
        )


def read_table(output: str, table: str) -> list[dict[str, Any]]:
    """Every record of a published table (manifest-listed, verified), on any filesystem."""
    from wordle_core.tables import avro

    return avro.read_records(output, table)
