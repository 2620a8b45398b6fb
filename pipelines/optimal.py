"""Pipeline ``optimal``: the proven fewest total guesses of every opener, sharded and resumable.

The story. The exact search (:mod:`wordle_core.search.exact`) proves, for one opener,
the minimal sum of guesses over every answer; a weak opener takes minutes, so all
12,972 openers take CPU-hours. This pipeline spreads that work and survives being
stopped:

1. the selected openers, most first-guess buckets first (likely best, and cheapest to
   prove, first), are cut into *parts* of ``--part-size`` openers per mode: the shards
   of this stage, so the same selection always gives the same parts;
2. ``ProveOpeners`` (a named composite transform) is the graph of every stage,
   :func:`pipelines.orchestration.shards.sharded`: ``Create(parts) -> Reshuffle ->
   ParDo(prove a part)``. A worker proves its part's openers one after the other with one
   solver per mode (openers share its memo, bounded by ``--memo-limit``) and, as soon
   as the part is done, keeps it as one shard file under
   ``<output>/optimal_parts/<plan>/`` (:class:`~pipelines.orchestration.shards.ShardStore`:
   temporary name, then renamed, so a stopped run leaves only whole parts; each file
   checksummed and bound to its part, lexicon, guess pool and limit; ``<plan>`` is a hash
   of the whole plan, so runs of other selections never overwrite these parts);
3. with ``--resume`` the driver lists the parts already there and verifies what they claim
   to be (:func:`~pipelines.orchestration.shards.verified_reuse`); the workers read those
   back instead of proving them again (``Resume(store, reuse)``, the one resume mechanism
   of every pipeline), and a damaged one is proved again. With ``--known DIR`` the openers
   whose values a shipped table in ``DIR`` already holds are left out of the plan (the
   parts are cut from the rest), so a table survives the loss of the parts it was made
   from; ``--ship DIR`` merges the finished parts of every plan into it;
4. every record goes through the shared sink (:class:`pipelines.orchestration.sink.WriteTables`,
   via :func:`pipelines.orchestration.runner.execute`) into the ``optimal`` table (schema in
   :mod:`pipelines.schemas`), published only when the run succeeded, and the driver
   writes ``optimal_ranking.csv`` (openers ranked per mode by proven total, the
   openers that cannot guarantee a win last) from the published table.

No worker gathers every record: the only all-records step is the sink's per-shard
grouping. Options are the shared ones (:mod:`pipelines.options`) plus the search's own.

Run (DirectRunner, local; ``--direct_running_mode=in_memory`` for one process)::

    python -m pipelines.optimal --lexicon wordle --openers salet,trace,crane \\
        --modes normal,hard --output outputs/optimal
    python -m pipelines.optimal --config configs/exact.yaml --resume \\
        --direct_running_mode=in_memory --direct_num_workers=1

Dask (a local cluster of N worker processes, or ``--runner`` +
``--dask_client_address`` for an existing one)::

    python -m pipelines.optimal --config configs/exact.yaml --resume --dask-workers 2

Dataflow (parts and tables through Beam's FileSystems, so a ``gs://`` output works)::

    python -m pipelines.optimal --config configs/exact.yaml --resume \\
        --runner DataflowRunner --project P --region R \\
        --temp_location gs://B/tmp --output gs://B/exact
"""

from __future__ import annotations

import csv
import hashlib
import io
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import apache_beam as beam
import fastavro
from apache_beam.io.filesystems import FileSystems
from apache_beam.metrics import Metrics

from wordle_core.game.lexicon import Lexicon

from .config import ConfigError
from .orchestration import sink
from .orchestration.shards import (
    NOT_KEPT,
    Resume,
    ShardCorruptError,
    ShardStore,
    Work,
    sharded,
    verified_reuse,
)
from .transforms import LexiconSpec, WorkerProgress, worker_lexicon, worker_matrix

TABLE = "optimal"
PARTS_DIR = "optimal_parts"
MODES = ("normal", "hard")
POOLS = ("all", "answers")


@dataclass(frozen=True)
class Part:
    """One unit of work and of resumption (a shard of the stage): some openers of one mode."""

    mode: str
    openers: tuple[str, ...]

    @property
    def items(self) -> list[tuple[str, str]]:
        """The shard's items: ``(mode, opener)`` per opener, in the part's order."""
        return [(self.mode, w) for w in self.openers]


@dataclass(frozen=True)
class SearchSpec:
    """What every worker needs to prove an opener (picklable)."""

    lexicon: LexiconSpec
    pool: str = "all"
    max_guesses: int | None = None
    compare: bool = False
    greedy: str = "entropy"
    memo_limit: int = 2_000_000
    matrix_path: str | None = None


def plan_parts(openers: Sequence[str], modes: Sequence[str], part_size: int) -> list[Part]:
    """Cut the openers (in the given order, duplicates dropped) into parts per mode; the
    same order gives the same parts."""
    words = list(dict.fromkeys(openers))
    return [Part(mode, tuple(words[i:i + part_size]))
            for mode in modes for i in range(0, len(words), part_size)]


def part_store(output: str, lex: Lexicon, parts: Sequence[Part], pool: str, limit: int,
               compare: bool = False, greedy: str = "entropy") -> ShardStore:
    """Where the finished parts of this plan are kept: ``<output>/optimal_parts/<plan>/``,
    ``<plan>`` a hash of everything that fixes the parts' records (lexicon, guess pool and
    limit, the ``--compare`` columns, every part); each part file is bound to the lexicon's
    word lists, the guess pool and the limit (:func:`part_identity`)."""
    ident = "\x1f".join((lex.name, pool, str(limit), f"compare={compare}:{greedy}",
                         *("/".join((p.mode, *p.openers)) for p in parts)))
    plan = hashlib.sha1(ident.encode()).hexdigest()[:16]
    return ShardStore(FileSystems.join(output, PARTS_DIR), plan, part_identity(lex, pool, limit))


def part_identity(lex: Lexicon, pool: str, limit: int) -> dict[str, str]:
    """What every part file says it was proved for (checked when it is read back)."""
    return {"lexicon": lex.name, "lexicon_fingerprint": lex.fingerprint, "guess_pool": pool,
            "guess_limit": str(limit)}


class ProveWork(Work):
    """Proves one opener of one mode per item: ``(mode, opener)`` -> its ``("optimal",
    record)`` pair (the work of :class:`ProveOpeners`, run per part by
    :func:`~pipelines.orchestration.shards.sharded`)."""

    def __init__(self, spec: SearchSpec, progress_dir: str | None = None) -> None:
        self.spec, self.progress_dir = spec, progress_dir
        self.proved = Metrics.counter("optimal", "openers_proved")

    def setup(self) -> None:
        self.lex = worker_lexicon(self.spec.lexicon)
        self.matrix = worker_matrix(self.lex, self.spec.matrix_path)
        self.solvers: dict[bool, Any] = {}
        self.strategies: dict[tuple[str, bool], Any] = {}
        self.progress = WorkerProgress(self.progress_dir)

    def _solver(self, hard: bool):
        from wordle_core.search.exact import ExactSolver

        s = self.solvers.get(hard)
        if s is None:  # one memo per mode: a worker's openers share positions
            s = ExactSolver(self.lex, hard=hard, pool=self.spec.pool, exact=True,
                            max_guesses=self.spec.max_guesses, matrix=self.matrix,
                            memo_limit=self.spec.memo_limit)
            self.solvers[hard] = s
        return s

    def _tree_total(self, name: str, opener: str, hard: bool) -> tuple[int, int]:
        from wordle_core.game.tree import build_tree
        from wordle_core.strategies import get_strategy

        strat = self.strategies.get((name, hard))
        if strat is None:
            strat = self.strategies[(name, hard)] = get_strategy(name)
        lengths = build_tree(strat, self.lex, opener, hard, self.matrix).lengths()
        return int(lengths.sum()), int(lengths.max())

    def prove(self, mode: str, opener: str) -> dict[str, Any]:
        from wordle_core.search.exact import INF, optimal_for_opener

        hard = mode == "hard"
        solver = self._solver(hard)
        res, _ = optimal_for_opener(self.lex, opener, hard=hard, pool=self.spec.pool,
                                    solver=solver)
        won = res.total < INF
        rec: dict[str, Any] = {
            "lexicon": self.lex.name, "mode": mode, "strategy": "optimal", "opener": res.opener,
            "guess_pool": self.spec.pool, "answers": res.n_answers, "guess_limit": solver.limit,
            "total": res.total if won else None, "mean": res.mean if won else None,
            "seconds": float(res.seconds), "cpu_seconds": float(res.cpu_seconds),
            "nodes": int(res.stats["nodes"]), "default_total": None, "default_max": None,
            "greedy_strategy": "", "greedy_total": None, "greedy_max": None,
        }
        if self.spec.compare:
            rec["default_total"], rec["default_max"] = self._tree_total("default", opener, hard)
            rec["greedy_strategy"] = self.spec.greedy
            rec["greedy_total"], rec["greedy_max"] = self._tree_total(self.spec.greedy, opener, hard)
        return rec

    def process(self, item: tuple[str, str]) -> Iterable[tuple[str, dict[str, Any]]]:
        mode, opener = item
        rec = self.prove(mode, opener)
        self.proved.inc()
        self.progress.add(1)
        yield (TABLE, rec)


class ProveOpeners(beam.PTransform):
    """Parts -> ``("optimal", record)`` pairs: ``Create(parts) -> Reshuffle -> ParDo(prove a
    part)`` (:func:`~pipelines.orchestration.shards.sharded`); with a ``resume`` store each
    finished part is kept, and the parts of ``resume.reuse`` are read back instead of proved."""

    def __init__(self, spec: SearchSpec, parts: Sequence[Part], progress_dir: str | None = None,
                 resume: Resume = NOT_KEPT) -> None:
        super().__init__()
        self.parts = list(parts)
        self.fn = ProveWork(spec, progress_dir)
        self.resume = resume

    def expand(self, pbegin):
        return sharded(pbegin, [p.items for p in self.parts], self.fn, self.resume)


def ranking_rows(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Openers ranked within each (mode, guess pool) by proven total; no-win openers last."""
    out = []
    for mode, pool in sorted({(str(r["mode"]), str(r["guess_pool"])) for r in records}):
        rs = sorted((r for r in records if r["mode"] == mode and r["guess_pool"] == pool),
                    key=lambda r: (r["total"] is None, r["total"] or 0, r["opener"]))
        for i, r in enumerate(rs, 1):
            out.append({"lexicon": r["lexicon"], "mode": mode, "guess_pool": pool, "rank": i,
                        "opener": r["opener"], "total": r["total"],
                        "mean": round(r["mean"], 4) if r["mean"] is not None else None,
                        "default_total": r["default_total"], "greedy_strategy": r["greedy_strategy"],
                        "greedy_total": r["greedy_total"], "cpu_seconds": round(r["cpu_seconds"], 3)})
    return out


def ranking_csv(records: list[dict[str, Any]]) -> str:
    rows = ranking_rows(records)
    text = io.StringIO()
    fields = ["lexicon", "mode", "guess_pool", "rank", "opener", "total", "mean", "default_total",
              "greedy_strategy", "greedy_total", "cpu_seconds"]
    w = csv.DictWriter(text, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return text.getvalue()


SHIP_SCHEMA: dict[str, Any] = fastavro.parse_schema({  # type: ignore[assignment]
    "type": "record", "name": "ShippedOptimal", "namespace": "org.wordlelab.v1",
    "doc": "Proven fewest total guesses per opener (wordle_core/data/exact/README.md).",
    "fields": [
        {"name": "opener", "type": "string", "doc": "the first guess"},
        {"name": "total", "type": ["null", "long"],
         "doc": "minimal total over every answer, proven; null: no guaranteed win"},
        {"name": "cpu_seconds", "type": "double", "doc": "CPU time of the proof"},
    ],
})


def shipped_rows(dest: str, lexicon: str, mode: str, pool: str,
                 limit: int) -> dict[str, dict[str, Any]]:
    """The values already shipped at ``dest/<lexicon>-<mode>.avro``: opener -> row
    (``opener``, ``total``, ``cpu_seconds``); empty when there is no such table.

    Raises :class:`ConfigError` when the table was computed with another guess pool or
    guess limit (its values would not be this run's values).
    """
    from pathlib import Path

    from wordle_core.tables.avro import read_with_metadata

    path = Path(dest) / f"{lexicon}-{mode}.avro"
    if not path.is_file():
        return {}
    try:
        from wordle_core.shipped import covers, data_bytes, data_root

        # the package's own table is read through its data manifest (an edit is refused)
        data = data_bytes(path.resolve().relative_to(data_root()).as_posix()) \
            if covers(path.parent) else path.read_bytes()
        rows, meta = read_with_metadata(data or b"", str(path))
    except Exception as exc:
        raise ConfigError(f"{path}: not a readable table of proven values ({exc})") from None
    got = (meta.get("wordle_lab.guess_pool"), meta.get("wordle_lab.guess_limit"))
    if got != (pool, str(limit)):
        raise ConfigError(f"{path} holds values for guess pool {got[0]}, limit {got[1]}; "
                          f"this run proves pool {pool}, limit {limit}")
    return {str(r["opener"]): r for r in rows}


def finished_records(output: str, lex: Lexicon, pool: str, limit: int) -> list[dict[str, Any]]:
    """Every record of every whole part under ``<output>/optimal_parts/``, whatever plan it
    belongs to, proved for ``lex``'s word lists, ``pool`` and ``limit`` (a damaged part, or
    one of other values, is skipped)."""
    out: list[dict[str, Any]] = []
    pattern = FileSystems.join(output, PARTS_DIR, "*", "shard-*.pkl")
    plans = sorted({m.path.rstrip("/").rsplit("/", 2)[-2]
                    for m in FileSystems.match([pattern])[0].metadata_list})
    for plan in plans:
        store = ShardStore(FileSystems.join(output, PARTS_DIR), plan, part_identity(lex, pool, limit))
        for i in sorted(store.done()):
            try:
                out.extend(r for t, r in store.read(i) if t == TABLE)
            except ShardCorruptError:
                continue
    return out


def ship(output: str, lex: Lexicon, modes: Sequence[str], pool: str, limit: int,
         dest: str) -> int:
    """Merge the finished parts' values into ``dest/<lexicon>-<mode>.csv`` and ``.avro``.

    The values ``dest`` already holds are kept (a table survives the loss of the parts it
    was made from); a part that disagrees with a shipped value is an error, and nothing is
    written. Parts of any plan count (a run resumed with ``--known`` plans fewer openers).
    """
    import datetime
    from pathlib import Path

    from wordle_core.tables.avro import write_avro_and_csv

    lexicon = lex.name
    recs = finished_records(output, lex, pool, limit)
    merged: dict[str, tuple[dict[str, dict[str, Any]], int]] = {}
    for mode in modes:  # every mode merged and checked before anything is written
        rows = shipped_rows(dest, lexicon, mode, pool, limit)
        before = len(rows)
        for r in (r for r in recs if r["mode"] == mode):
            row = {"opener": r["opener"], "total": r["total"],
                   "cpu_seconds": round(float(r["cpu_seconds"]), 3)}
            old = rows.get(row["opener"])
            if old is not None and old["total"] != row["total"]:
                raise ConfigError(f"{row['opener']} ({mode}): a part proves {row['total']}, "
                                  f"{dest} holds {old['total']}; nothing shipped")
            rows.setdefault(row["opener"], row)
        if rows:
            merged[mode] = rows, before
    Path(dest).mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    for mode, (rows, before) in merged.items():
        stem = Path(dest) / f"{lexicon}-{mode}"
        meta = {"wordle_lab.computed_by": "pipelines.optimal (wordle_core.search.exact)",
                "wordle_lab.collected_at": stamp, "wordle_lab.lexicon": lexicon,
                "wordle_lab.mode": mode, "wordle_lab.guess_pool": pool,
                "wordle_lab.guess_limit": str(limit)}
        write_avro_and_csv(f"{stem}.avro", f"{stem}.csv", SHIP_SCHEMA,
                           ["opener", "total", "cpu_seconds"],
                           [rows[w] for w in sorted(rows)], meta)
        print(f"optimal: {len(rows)} {lexicon} {mode} values ({len(rows) - before} new) "
              f"-> {stem}.csv, {stem}.avro")
    print(f"optimal: {len(recs)} proven values in the parts under {output}")
    return 0


def _add_args(p) -> None:
    p.add_argument("--modes", help="normal,hard (default: the config's, else normal)")
    p.add_argument("--guess-pool", dest="guess_pool", default="all", choices=POOLS,
                   help="guesses the search may play: all (default) or answers")
    p.add_argument("--max-guesses", dest="max_guesses", type=int, metavar="N",
                   help="guess limit (default: the lexicon's)")
    p.add_argument("--part-size", dest="part_size", type=int, default=25, metavar="N",
                   help="openers per part (the unit of checkpointing; default 25)")
    p.add_argument("--resume", action="store_true",
                   help="reuse the parts a previous run of the same plan finished under "
                        "OUTPUT/optimal_parts/ (each verified; a damaged one is proved again)")
    p.add_argument("--compare", action="store_true",
                   help="also build the default and a greedy strategy's trees per opener")
    p.add_argument("--greedy", default="entropy", help="greedy strategy for --compare")
    p.add_argument("--ship", metavar="DIR",
                   help="run nothing: merge the finished parts under --output into "
                        "DIR/<lexicon>-<mode>.csv + .avro (the package's exact tables), "
                        "keeping the values DIR already holds")
    p.add_argument("--known", metavar="DIR",
                   help="skip the openers whose values DIR/<lexicon>-<mode>.avro already "
                        "holds (e.g. wordle_core/data/exact: resume from the shipped table "
                        "when the parts are gone)")
    p.add_argument("--memo-limit", dest="memo_limit", type=int, default=2_000_000, metavar="N",
                   help="positions each worker's search memo keeps (default 2,000,000)")


def run(argv: Sequence[str] | None = None) -> int:
    """Entry point (``python -m pipelines.optimal``); returns the exit code."""
    from wordle_core.errors import OneLineParser, one_line_errors

    from .options import add_job_args, config_from
    from .orchestration.entry import guarded
    from .orchestration.runner import execute

    p = OneLineParser(prog="pipelines.optimal", description=__doc__.split("\n")[0],
                      epilog="Any other --flag is passed to Apache Beam.")
    add_job_args(p, play=False)
    _add_args(p)
    ns, beam_args = p.parse_known_args(list(sys.argv[1:] if argv is None else argv))
    # errors (ConfigError, PipelineError, lexicon errors) and Ctrl-C / SIGTERM: one line,
    # exit 2 / 130 / 143; finished parts stay for --resume
    return one_line_errors(lambda: guarded(_run)(ns, beam_args, config_from, execute),
                           prog="pipelines.optimal")


def _run(ns, beam_args, config_from, execute) -> int:
    from wordle_core.files import write_whole

    from .orchestration.cloud import check_cloud_args
    from .orchestration.stages import lexicon_of, select_rows

    check_cloud_args(beam_args)  # before any work: a Dask scheduler that answers, Dataflow's tools

    flags: dict[str, Any] = {}
    if ns.modes:
        flags["modes"] = ns.modes
    if not ns.output and not ns.config:
        flags["output"] = "outputs/optimal"
    cfg = config_from(ns, **flags)
    modes = list(cfg.modes)
    bad = [m for m in modes if m not in MODES]
    if bad or not modes:
        raise ConfigError(f"--modes takes normal and/or hard, not {','.join(bad) or 'nothing'}")
    if ns.part_size < 1:
        raise ConfigError("--part-size must be at least 1")
    if ns.memo_limit < 1:
        raise ConfigError("--memo-limit must be at least 1")
    lex = lexicon_of(cfg)
    if ns.max_guesses is not None and not 1 <= ns.max_guesses <= 30:
        raise ConfigError("--max-guesses must be between 1 and 30")
    rows = select_rows(lex, cfg.openers, cfg.output)
    if ns.guess_pool == "answers":
        rows = [r for r in rows if lex.guess_is_answer[r]]
    if not rows:
        raise ConfigError("no openers to prove")
    from wordle_core.search.exact import ExactSolver

    # likely-best (and cheapest) openers first: the first parts to finish are the useful ones
    ordered, _ = ExactSolver(lex, pool=ns.guess_pool).opener_order(rows)
    openers = [lex.guesses[int(r)] for r in ordered]
    limit = ns.max_guesses or lex.max_guesses
    from .orchestration.runner import ensure_output

    output = ensure_output(cfg.output)
    if ns.ship:
        return ship(output, lex, modes, ns.guess_pool, limit, ns.ship)
    parts, skipped = [], 0
    for mode in modes:
        known = shipped_rows(ns.known, lex.name, mode, ns.guess_pool, limit) if ns.known else {}
        todo_words = [w for w in openers if w not in known]
        skipped += len(openers) - len(todo_words)
        parts += plan_parts(todo_words, [mode], ns.part_size)
    if skipped:
        sys.stderr.write(f"optimal: {skipped} proofs skipped: their values are in {ns.known}\n")
    store = part_store(output, lex, parts, ns.guess_pool, limit, ns.compare, ns.greedy)
    reuse = verified_reuse(store, [p.items for p in parts], store.done()) if ns.resume else frozenset()
    spec = SearchSpec(LexiconSpec.of(lex), ns.guess_pool, ns.max_guesses, ns.compare, ns.greedy,
                      ns.memo_limit, getattr(ns, "matrix_path", None))
    n_todo = sum(len(p.openers) for i, p in enumerate(parts) if i not in reuse)
    sys.stderr.write(f"optimal: {len(openers)} openers x {len(modes)} mode(s) = {len(parts)} parts; "
                     f"{len(reuse)} finished before, {len(parts) - len(reuse)} to compute "
                     f"({n_todo} proofs) -> {output}\n")

    def build(pipeline, pdir, emit=True):  # every part kept in the plan's store, finished ones read back
        return pipeline | "ProveOpeners" >> ProveOpeners(spec, parts, pdir, Resume(store, reuse, emit))

    t0 = time.perf_counter()
    res = execute(build, output, [TABLE], beam_args, shards=cfg.shards, total=n_todo,
                  desc="optimal", progress=getattr(ns, "progress", True),
                  dask_workers=getattr(ns, "dask_workers", None))
    if res.dry_run:
        print(f"optimal: {res.runner} job built (dry run: not submitted)")
        return 0
    records = sink.read_table(output, TABLE)
    write_whole(FileSystems.join(output, "optimal_ranking.csv"), ranking_csv(records).encode())
    print(f"optimal: {len(records)} proven values ({n_todo} new) in {len(res.files)} file(s), "
          f"{time.perf_counter() - t0:.1f} s on {res.runner} -> {output}")
    return 0


if __name__ == "__main__":
    # through the package module, so workers unpickle pipelines.optimal.Part (not __main__.Part)
    from pipelines.optimal import run as run_packaged

    raise SystemExit(run_packaged())
