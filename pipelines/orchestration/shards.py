"""Resumable work: a stage's items cut into shards, each finished shard kept on disk.

Every stage's graph is :func:`sharded`: its items cut into shards, each shard one
element, the stage's :class:`Work` (a plain object yielding ``(table, record)`` pairs
per item, not a ``DoFn``) run by one ``DoFn`` over a shard at a time. Resuming is an
option of that graph (:class:`Resume`), which the named composites take
(:class:`pipelines.transforms.PlayOpeners`, :class:`pipelines.scores.ScoreOpeners`,
:class:`pipelines.optimal.ProveOpeners`)::

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
and every shard file is bound to its identity as well: its header records its stage,
its index, the sha256 of its item list and the store's identity (config hash, lexicon
fingerprint), all under the file's checksum. A shard whose record does not match the
shard it is read as (a file copied over another index, or from another run or config)
is computed again, never emitted: the driver says so in one note.

Used by every pipeline: ``wordle-lab run``, ``wordle-lab pipeline ...`` and
``pipelines.optimal`` (whose parts are its shards, one store per plan).
"""

from __future__ import annotations

import hashlib
import json
import pickle
import sys
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import apache_beam as beam
from apache_beam.io.filesystems import FileSystems

MAGIC = b"wordle-lab-shard/2\n"
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


def items_digest(items: Sequence[Any] | None) -> str:
    """sha256 of a shard's item list (ints, bools, strings, nested lists/tuples)."""
    if items is None:
        return ""
    blob = json.dumps(list(items), default=lambda o: o.item() if hasattr(o, "item") else repr(o),
                      separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


class ShardStore:
    """Finished shards of one stage under ``root/<stage>/`` (any FileSystems path).

    ``identity`` (e.g. ``{"config_hash": ..., "lexicon_fingerprint": ...}``) is written
    into every shard's record and must match when the shard is read.
    """

    def __init__(self, root: str, stage: str, identity: Mapping[str, str] | None = None) -> None:
        self.root, self.stage = root, stage
        self.identity = dict(identity or {})

    def record(self, shard: int, items: Sequence[Any] | None) -> dict[str, Any]:
        """What a shard file must say it is: stage, index, item list, run identity."""
        return {"stage": self.stage, "shard": int(shard), "items": items_digest(items),
                **self.identity}

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

    def write(self, shard: int, pairs: list[tuple[str, Any]], items: Sequence[Any] | None = None) -> None:
        head = json.dumps(self.record(shard, items), sort_keys=True).encode()
        payload = pickle.dumps(pairs, protocol=pickle.HIGHEST_PROTOCOL)
        body = head + b"\n" + payload
        data = MAGIC + hashlib.sha256(body).hexdigest().encode() + b"\n" + body
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

    def _open(self, shard: int) -> tuple[dict[str, Any], bytes]:
        try:
            with FileSystems.open(self.path(shard), compression_type="uncompressed") as fh:
                data = fh.read()
        except Exception as exc:
            raise ShardCorruptError(str(exc)) from None
        if not data.startswith(MAGIC):
            raise ShardCorruptError("bad header")
        digest, _, body = data[len(MAGIC):].partition(b"\n")
        if hashlib.sha256(body).hexdigest().encode() != digest:
            raise ShardCorruptError("checksum")
        head, _, payload = body.partition(b"\n")
        try:
            rec = json.loads(head)
        except ValueError:
            raise ShardCorruptError("bad record") from None
        if not isinstance(rec, dict):
            raise ShardCorruptError("bad record")
        return rec, payload

    def mismatch(self, shard: int, items: Sequence[Any] | None = None) -> str | None:
        """Why the file of ``shard`` does not claim to be that shard (None: it does); reads
        only the file's record (the worker verifies the checksum when it reads the shard)."""
        try:
            with FileSystems.open(self.path(shard), compression_type="uncompressed") as fh:
                start = fh.read(4096)
        except Exception as exc:
            return str(exc).splitlines()[0] if str(exc) else "unreadable"
        lines = start.split(b"\n", 3)
        if not start.startswith(MAGIC) or len(lines) < 4:
            return "bad header"
        try:
            rec = json.loads(lines[2])
        except ValueError:
            return "bad record"
        if not isinstance(rec, dict):
            return "bad record"
        want = self.record(shard, items)
        if items is None:
            want["items"] = rec.get("items")
        wrong = sorted(k for k in set(want) | set(rec) if rec.get(k) != want.get(k))
        return f"its record differs in {', '.join(wrong)}" if wrong else None

    def read(self, shard: int, items: Sequence[Any] | None = None) -> list[tuple[str, Any]]:
        """The pairs of ``shard``; :class:`ShardCorruptError` if the file is damaged or is not
        that shard (``items``, when given, must be the item list it was computed from)."""
        rec, payload = self._open(shard)
        want = self.record(shard, items)
        if items is None:
            want["items"] = rec.get("items")
        if rec != want:
            raise ShardCorruptError("identity")
        try:
            return pickle.loads(payload)
        except Exception:
            raise ShardCorruptError("payload") from None


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


def verified_reuse(store: ShardStore, shards: Sequence[Sequence[Any]], done: Iterable[int]) -> frozenset[int]:
    """The finished shards of ``done`` whose files claim to be those very shards (index,
    items, stage, config and lexicon); the others are computed again, with one note."""
    wanted = frozenset(done) & frozenset(range(len(shards)))
    bad = {i: why for i in sorted(wanted) if (why := store.mismatch(i, shards[i]))}
    if bad:
        first = next(iter(bad.items()))
        sys.stderr.write(f"  note: {len(bad)} kept shard(s) of stage {store.stage!r} are not the "
                         f"shards of this run (shard {first[0]}: {first[1]}): computed again\n")
    return wanted - frozenset(bad)


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
                pairs = self.store.read(shard, items)
            except ShardCorruptError:
                pairs = None  # (the driver counted it as reused: progress may end above 100%)
        if pairs is None:
            pairs = self._compute(items)
            if self.store is not None:
                self.store.write(shard, pairs, items)
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
        self.resume = Resume(store, verified_reuse(store, shards, done), emit)

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
