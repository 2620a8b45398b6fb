"""Resumable work: a stage's items cut into shards, each finished shard kept on disk.

Every stage's graph is :func:`sharded`: its items cut into shards, each shard one
element, the stage's :class:`Work` (a plain object yielding ``(table, record)`` pairs
per item, not a ``DoFn``) run by one ``DoFn`` over a shard at a time. Resuming is an
option of that graph (:class:`Resume`), which the named composites take
(:class:`pipelines.transforms.PlayOpeners`, :class:`~pipelines.transforms.ScoreOpeners`)::

    store = ShardStore(generation.shards_dir, "play")
    pairs = p | "PlayOpeners" >> PlayOpeners(..., resume=Resume(store, store.done()))
    pairs | WriteTables(...)

Each shard (a fixed, deterministic slice of the sorted items) is one element. A
worker computes all of a shard's pairs with the stage's work, writes them to
``<shards_dir>/<stage>/shard-00012.pkl`` (temporary name, then renamed: a shard file
is whole or absent) and then emits them. On a resumed run the driver lists the
finished shard files and the worker *reads* those back instead of recomputing
(a file that fails its checksum is recomputed), so the sink receives exactly the
same records and writes byte-identical tables. The directory holding the shards is
keyed by the config hash and lexicon fingerprint (see :mod:`pipelines.orchestration.generation`),
so shards of another config are never mixed in.

Used by ``wordle-lab run`` and ``wordle-lab pipeline ...`` (``pipelines.optimal`` still
keeps its own part files).
"""

from __future__ import annotations

import hashlib
import pickle
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems

MAGIC = b"wordle-lab-shard/1\n"
MAX_SHARDS = 256  # per stage: small enough to list quickly, big enough to lose little


def cut(items: Sequence[Any], n_shards: int | None = None) -> list[list[Any]]:
    """``items`` in order, cut into at most ``n_shards`` (default :data:`MAX_SHARDS`) slices.

    Deterministic in ``items`` alone, which is what lets a resumed run find its shards.
    """
    items = list(items)
    if not items:
        return []
    n = max(1, min(len(items), n_shards or MAX_SHARDS))
    size = -(-len(items) // n)
    return [items[i : i + size] for i in range(0, len(items), size)]


class ShardCorruptError(Exception):
    """A shard file that is not whole (it is recomputed)."""


class ShardStore:
    """Finished shards of one stage under ``root/<stage>/`` (any FileSystems path)."""

    def __init__(self, root: str, stage: str) -> None:
        self.root, self.stage = root, stage

    @property
    def directory(self) -> str:
        return FileSystems.join(self.root, self.stage)

    def path(self, shard: int) -> str:
        return FileSystems.join(self.directory, f"shard-{shard:05d}.pkl")

    def done(self) -> set[int]:
        """Shard numbers with a finished file (checked when read)."""
        pattern = FileSystems.join(self.directory, "shard-*.pkl")
        try:
            found = FileSystems.match([pattern])[0].metadata_list
        except Exception:
            return set()
        out = set()
        for m in found:
            name = m.path.rsplit("/", 1)[-1]
            try:
                out.add(int(name[len("shard-"):-len(".pkl")]))
            except ValueError:
                continue
        return out

    def write(self, shard: int, pairs: list[tuple[str, Any]]) -> None:
        payload = pickle.dumps(pairs, protocol=pickle.HIGHEST_PROTOCOL)
        data = MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
        path = self.path(shard)
        tmp = f"{path}.{uuid.uuid4().hex[:8]}.tmp"
        if "://" not in path:
            import os

            os.makedirs(self.directory, exist_ok=True)
            with open(tmp, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
            return
        with FileSystems.create(tmp) as fh:
            fh.write(data)
        FileSystems.rename([tmp], [path])

    def read(self, shard: int) -> list[tuple[str, Any]]:
        try:
            with FileSystems.open(self.path(shard), compression_type="uncompressed") as fh:
                data = fh.read()
        except Exception as exc:
            raise ShardCorruptError(str(exc)) from None
        if not data.startswith(MAGIC):
            raise ShardCorruptError("bad header")
        digest, _, payload = data[len(MAGIC):].partition(b"\n")
        if hashlib.sha256(payload).hexdigest().encode() != digest:
            raise ShardCorruptError("checksum")
        return pickle.loads(payload)


class Work:
    """What a stage does per item, as a plain object (not a ``DoFn``): ``setup()`` once per
    process, ``process(item)`` yielding ``(table, record)`` pairs, ``teardown()``.

    :func:`sharded` runs it inside its one ``DoFn``, over a shard of items at a time.
    """

    def setup(self) -> None:
        pass

    def process(self, item: Any):
        raise NotImplementedError

    def teardown(self) -> None:
        pass


@dataclass(frozen=True)
class Resume:
    """Sharding and ``--resume``, an option of a stage's graph (see :func:`sharded`).

    ``store``: where finished shards are kept (None: nowhere, nothing to resume: tests and
    one-off graphs). ``reuse``: finished shards read back instead of computed (listed by
    the driver). ``emit=False``: only compute and keep the shards not yet finished, emit
    nothing (the tables are then written apart, from :meth:`read_back`).
    """

    store: ShardStore | None = None
    reuse: frozenset[int] = frozenset()
    emit: bool = True

    def read_back(self, n_shards: int) -> Resume:
        """Every shard's pairs, read from its file (a missing or damaged one is computed)."""
        return Resume(self.store, frozenset(range(n_shards)), True)


NOT_KEPT = Resume()  # shards computed, kept nowhere: the default of every stage's graph


class _ShardFn(beam.DoFn):
    """One element = (shard number, items): read the finished shard, or compute and keep it."""

    def __init__(self, store: ShardStore | None, work: Work, reusable: frozenset[int],
                 emit: bool = True) -> None:
        self.store, self.work, self.reusable, self.emit = store, work, reusable, emit
        self._ready = False

    def setup(self) -> None:
        self._ready = False  # the work is set up on its first item: reading shards back needs none

    def _compute(self, items: list[Any]) -> list[tuple[str, Any]]:
        if not self._ready:
            self.work.setup()
            self._ready = True
        return [pair for item in items for pair in self.work.process(item) or ()]

    def process(self, element: tuple[int, list[Any]]):
        shard, items = element
        pairs = None
        if self.store is not None and shard in self.reusable:
            try:
                pairs = self.store.read(shard)
            except ShardCorruptError:
                pairs = None  # (the driver counted it as reused: progress may end above 100%)
        if pairs is None:
            pairs = self._compute(items)
            if self.store is not None:
                self.store.write(shard, pairs)
        if self.emit:
            yield from pairs

    def teardown(self) -> None:
        if self._ready:
            self.work.teardown()


def sharded(pbegin: beam.pvalue.PBegin, shards: list[list[Any]], work: Work,
            resume: Resume = NOT_KEPT) -> beam.PCollection:
    """The graph of every stage: ``Create(shards) -> Reshuffle -> ParDo(work per shard)``.

    Each element is one shard (a fixed slice of the stage's items, :func:`cut`); with a
    store, each finished shard is kept, and the shards of ``resume.reuse`` are read back
    instead of computed; with ``resume.emit`` False those are not even sent to a worker.
    """
    reused = frozenset(resume.reuse) & frozenset(range(len(shards))) if resume.store else frozenset()
    return (
        pbegin
        | "Shards" >> beam.Create([(i, items) for i, items in enumerate(shards)
                                   if resume.emit or i not in reused])
        | "Spread" >> beam.Reshuffle()
        | "Work" >> beam.ParDo(_ShardFn(resume.store, work, reused, resume.emit))
    )


class ResumableShards(beam.PTransform):
    """Shards of items -> ``work``'s ``(table, record)`` pairs, finished shards kept
    (:func:`sharded` as a composite of its own, for stages without a named one).

    ``reuse`` (default: the store's finished shards, listed when the transform is
    built, i.e. by the driver) says which shards are read back instead of computed;
    ``emit=False`` only computes and keeps the shards not yet finished; :meth:`read_back`
    is then the transform that emits every shard's pairs from its file.
    """

    def __init__(self, store: ShardStore, shards: list[list[Any]], work: Work,
                 reuse: set[int] | None = None, emit: bool = True) -> None:
        super().__init__()
        self.shards, self.work = shards, work
        done = store.done() if reuse is None else reuse
        self.resume = Resume(store, frozenset(done) & frozenset(range(len(shards))), emit)

    def read_back(self) -> ResumableShards:
        """Every shard's pairs, read from its file (a shard that fails its checksum, or
        is missing, is computed again): what follows a run with ``emit=False``."""
        back, store = self.resume.read_back(len(self.shards)), self.resume.store
        assert store is not None  # (a ResumableShards always has one)
        return ResumableShards(store, self.shards, self.work, set(back.reuse))

    @property
    def reused_items(self) -> int:
        return sum(len(self.shards[i]) for i in self.resume.reuse)

    def expand(self, pbegin):
        return sharded(pbegin, self.shards, self.work, self.resume)
