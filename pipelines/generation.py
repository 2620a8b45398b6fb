"""One generation per output directory: stage everything, then publish it together.

A run (``wordle-lab run`` or one ``wordle-lab pipeline ...``) is a *generation*
with an id. Nothing it computes is written into the public part of its output
directory until every stage has finished:

``<output>/.staging-<gen>/``
    ``_run.json``      who owns it (pid, host), the config hash and lexicon fingerprint;
    ``<table>/``       the sink's staged shard files (+ a ``.json`` sidecar each:
                       records, bytes, sha256), in the public layout;
    ``report/``        the report, built from the staged tables;
    ``_shards/``       finished work shards (see :mod:`pipelines.shards`), for ``--resume``;
    ``logs/``          full tracebacks of failures (named in the one-line message);
    ``_commit.json``   written once everything above is complete: the commit point.

:func:`Generation.commit` then moves each entry into place (per table: old manifest
removed first, old shard files removed, new files moved, new ``_manifest.json``
written last; the report alike) and finally rewrites ``<output>/_generation.json``,
which maps every entry to the generation that published it. Readers
(:mod:`wordle_core.tables.avro`) refuse an entry whose manifest generation differs
from that map, so an output caught mid-publish (a kill between two moves) is never
read as a mix of new tables and an old report; the next run on that output sees the
``_commit.json`` and rolls the publication forward before doing anything else.

Staging directories of dead runs (no commit, owner process gone) are removed by the
next run, or reused by ``--resume`` when their config hash and lexicon fingerprint
match (a changed config is refused with one line). Works through Beam's
``FileSystems``, so ``gs://`` outputs follow the same protocol (minus the pid check).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import socket
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from apache_beam.io.filesystems import FileSystems

from wordle_core.errors import WordleError
from wordle_core.tables.avro import GENERATION, MANIFEST, FileEntry, manifest_of

STAGING_PREFIX = ".staging-"
RUN_FILE = "_run.json"
COMMIT_FILE = "_commit.json"


class GenerationError(WordleError):
    """An output directory another live run is writing, or a resume that cannot be."""


def config_hash(cfg: Any, *extra: Any) -> str:
    """Hash of everything a job computes (the config minus where it writes), plus ``extra``."""
    fields = (dataclasses.asdict(cfg) if dataclasses.is_dataclass(cfg) and not isinstance(cfg, type)
              else dict(cfg))
    for k in ("output", "source", "top_report"):
        fields.pop(k, None)
    blob = json.dumps([fields, list(extra)], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


# --- small FileSystems helpers -------------------------------------------------------------

def _local(path: str) -> bool:
    return "://" not in path


def join(*parts: str) -> str:
    return FileSystems.join(*parts)


def exists(path: str) -> bool:
    return FileSystems.exists(path)


def write_bytes(path: str, data: bytes) -> None:
    """Whole file or nothing: a temporary name, fsynced (local), then renamed."""
    if _local(path):
        from pathlib import Path

        from wordle_core.files import atomic_write_bytes

        atomic_write_bytes(Path(path), data)
        return
    tmp = f"{path}.tmp-{uuid.uuid4().hex[:6]}"
    with FileSystems.create(tmp) as fh:
        fh.write(data)
    if FileSystems.exists(path):
        FileSystems.delete([path])
    FileSystems.rename([tmp], [path])


def read_bytes(path: str) -> bytes:
    with FileSystems.open(path, compression_type="uncompressed") as fh:
        return fh.read()


def read_json(path: str) -> Any:
    return json.loads(read_bytes(path).decode())


def listdir(path: str) -> list[str]:
    """Names directly inside ``path`` (files and, locally, directories)."""
    if _local(path):
        try:
            return sorted(os.listdir(path))
        except (FileNotFoundError, NotADirectoryError):
            return []
    prefix = path.rstrip("/") + "/"
    names = set()
    for m in FileSystems.match([prefix + "**"])[0].metadata_list:
        rest = m.path[len(prefix):]
        if rest:
            names.add(rest.split("/", 1)[0])
    return sorted(names)


def remove_tree(path: str) -> None:
    if _local(path):
        import shutil

        shutil.rmtree(path, ignore_errors=True)
        return
    with contextlib.suppress(Exception):
        if FileSystems.exists(path):
            FileSystems.delete([path])


def move(src: str, dst: str) -> None:
    if _local(src):
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        os.replace(src, dst)
        return
    if FileSystems.exists(dst):
        FileSystems.delete([dst])
    FileSystems.rename([src], [dst])


def delete(path: str) -> None:
    if _local(path):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        return
    if FileSystems.exists(path):
        FileSystems.delete([path])


def _fsync_dir(path: str) -> None:
    if _local(path):
        with contextlib.suppress(OSError):
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def _alive(owner: dict[str, Any]) -> bool:
    """Is the process that owns a staging directory still running (same host only)?"""
    if owner.get("host") != socket.gethostname():
        return False  # cannot tell; treated as dead (one output, one writer at a time)
    pid = int(owner.get("pid", 0) or 0)
    if pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (killed, not yet reaped) is dead
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return True


# --- the generation ----------------------------------------------------------------------------

@dataclass
class Generation:
    """A run's staging area under ``output`` and how it is published."""

    output: str
    gen: str
    config_hash: str
    lexicon_fingerprint: str
    resumed: bool = False

    @property
    def root(self) -> str:
        return join(self.output, STAGING_PREFIX + self.gen)

    def stage(self, entry: str) -> str:
        """Where a table (or ``report``) is staged: the public layout, under the root."""
        return join(self.root, entry)

    @property
    def shards_dir(self) -> str:
        return join(self.root, "_shards")

    @property
    def logs_dir(self) -> str:
        return join(self.root, "logs")

    def write_run_file(self) -> None:
        write_bytes(join(self.root, RUN_FILE), json.dumps({
            "generation": self.gen, "config_hash": self.config_hash,
            "lexicon_fingerprint": self.lexicon_fingerprint, "pid": os.getpid(),
            "host": socket.gethostname(), "started": time.time()}, indent=1).encode())

    def release(self) -> None:
        """Mark the staging area as owned by nobody (kept for ``--resume``)."""
        with contextlib.suppress(Exception):
            p = join(self.root, RUN_FILE)
            data = read_json(p)
            data["pid"] = 0
            write_bytes(p, json.dumps(data, indent=1).encode())

    def discard(self) -> None:
        remove_tree(self.root)

    # commit ------------------------------------------------------------------------------
    def seal(self, tables: list[str]) -> None:
        """Write the manifests of staged tables (from the sink's sidecars): a stage is done.

        A sealed staged table is a valid table directory, so later stages of the same
        run (top-N selection, the report) read it through the same verified reader.
        """
        for table in tables:
            d = self.stage(table)
            files = []
            for name in listdir(d):
                if name.endswith(".avro"):
                    side = read_json(join(d, name + ".json"))
                    files.append(FileEntry(name, int(side["records"]), int(side["bytes"]),
                                           str(side["sha256"])))
            man = manifest_of(table, files, self.gen, config_hash=self.config_hash,
                              lexicon_fingerprint=self.lexicon_fingerprint)
            write_bytes(join(d, MANIFEST), man.to_json().encode())

    def entry_manifest(self, entry: str) -> dict[str, Any]:
        """The manifest of a staged entry: a sealed table's, or made from the report's files."""
        from wordle_core.tables.avro import file_entry

        d = self.stage(entry)
        if exists(join(d, MANIFEST)):
            return read_json(join(d, MANIFEST))
        files = [file_entry(n, read_bytes(join(d, n)), 0) for n in listdir(d)
                 if not n.startswith((".", "_"))]
        man = manifest_of(entry, files, self.gen, config_hash=self.config_hash,
                          lexicon_fingerprint=self.lexicon_fingerprint)
        return json.loads(man.to_json())

    def commit(self, entries: list[str], hook: Callable[[str], None] | None = None) -> list[str]:
        """Publish the staged ``entries`` (tables and ``report``) together; see module doc.

        ``hook(step)`` is called at each step boundary (tests kill the run there).
        """
        staged = [e for e in entries if exists(self.stage(e))]
        manifests = {e: self.entry_manifest(e) for e in staged}
        write_bytes(join(self.root, COMMIT_FILE), json.dumps(
            {"generation": self.gen, "entries": manifests}, indent=1, sort_keys=True).encode())
        if hook:
            hook("committed")
        return finish(self.output, self.gen, hook)


def finish(output: str, gen: str, hook: Callable[[str], None] | None = None) -> list[str]:
    """Carry out (or roll forward) the publication of a committed generation."""
    root = join(output, STAGING_PREFIX + gen)
    commit = read_json(join(root, COMMIT_FILE))
    published: list[str] = []
    for entry, man in sorted(commit["entries"].items()):
        dest = join(output, entry)
        mpath = join(dest, MANIFEST)
        current = None
        with contextlib.suppress(Exception):
            current = read_json(mpath)
        names = [f["name"] for f in man["files"]]
        if current is None or current.get("generation") != gen:
            delete(mpath)  # from here on the old entry is unpublished
            for old in listdir(dest):
                if old in names or old == MANIFEST or old.startswith("."):
                    continue
                if old.endswith(".avro") or entry == "report":
                    delete(join(dest, old))
            for name in names:  # the staged manifest stays behind: the new one is written last
                src = join(root, entry, name)
                if exists(src):
                    move(src, join(dest, name))
            write_bytes(mpath, json.dumps(man, indent=1, sort_keys=True).encode())
            _fsync_dir(dest)
            if hook:
                hook(f"published {entry}")
        published.extend(join(dest, n) for n in names)
    gpath = join(output, GENERATION)
    gens: dict[str, Any] = {"entries": {}}
    with contextlib.suppress(Exception):
        gens = read_json(gpath)
    gens.setdefault("entries", {}).update({e: gen for e in commit["entries"]})
    gens["generation"] = gen
    gens["published"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    write_bytes(gpath, json.dumps(gens, indent=1, sort_keys=True).encode())
    if hook:
        hook("generation")
    remove_tree(root)
    return published


def stagings(output: str) -> list[str]:
    return [n[len(STAGING_PREFIX):] for n in listdir(output) if n.startswith(STAGING_PREFIX)]


def begin(output: str, cfg_hash: str, lex_fp: str, *, resume: bool = False,
          say: Callable[[str], None] | None = None) -> Generation:
    """Prepare ``output`` for a new generation (or the resumed one) and claim it.

    Rolls forward publications that were committed but not finished, removes staging
    areas of dead runs (unless ``resume`` and they match), refuses while another live
    run owns a staging area, and refuses ``--resume`` of a different config.
    """
    note = say or (lambda _m: None)
    reuse: Generation | None = None
    for gen in stagings(output):
        root = join(output, STAGING_PREFIX + gen)
        if exists(join(root, COMMIT_FILE)):
            note(f"finishing the publication of generation {gen} (a run stopped while publishing)")
            finish(output, gen)
            continue
        owner: dict[str, Any] = {}
        with contextlib.suppress(Exception):
            owner = read_json(join(root, RUN_FILE))
        if owner and _alive(owner):
            raise GenerationError(f"another run (pid {owner.get('pid')}) is writing to {output!r}; "
                                  "wait for it or stop it first")
        if resume and reuse is None and owner:
            if owner.get("config_hash") != cfg_hash or owner.get("lexicon_fingerprint") != lex_fp:
                what = "lexicon" if owner.get("config_hash") == cfg_hash else "config"
                raise GenerationError(
                    f"cannot --resume: the unfinished run in {output!r} was started with another "
                    f"{what} (hash {owner.get('config_hash')}, now {cfg_hash}); run without --resume "
                    "to start over")
            reuse = Generation(output, gen, cfg_hash, lex_fp, resumed=True)
            continue
        remove_tree(root)
    if _local(output):  # the layout before generations: <table>/.staging-<id> of killed runs
        for name in listdir(output):
            if not name.startswith("."):
                for inner in listdir(join(output, name)):
                    if inner.startswith(STAGING_PREFIX) and os.path.isdir(join(output, name, inner)):
                        remove_tree(join(output, name, inner))
    g = reuse or Generation(output, uuid.uuid4().hex[:12], cfg_hash, lex_fp)
    if resume and reuse is None:
        note("nothing to resume: starting from the beginning")
    g.write_run_file()
    return g
