"""``run(argv)`` entry points of every pipeline and of the main job.

Each parses our flags (config + overrides), hands every other flag to Beam, runs,
and prints one summary line per table written. Used by ``wordle-lab pipeline ...``,
``wordle-lab run`` and directly: ``python -m pipelines.scores --output DIR``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Sequence

from wordle_core.errors import OneLineParser
from wordle_core.files import location

from .config import ConfigError, JobConfig
from .options import add_job_args, add_resume_arg, check_beam_args, config_from
from .orchestration.cloud import check_cloud_args, check_dask_scheduler


def _parse(prog: str, argv: Sequence[str] | None, play: bool, extra=None, about: str = ""):
    p = OneLineParser(prog=prog, description=about or None,
                      epilog="Any other --flag is passed to Apache Beam "
                      "(e.g. --runner, --direct_num_workers).")
    add_job_args(p, play=play)
    add_resume_arg(p)
    if extra:
        extra(p)
    ns, beam_args = p.parse_known_args(list(sys.argv[1:] if argv is None else argv))
    check_beam_args(beam_args)  # an unknown flag fails here, before any output exists
    check_cloud_args(beam_args)  # Dataflow: staging tools present, service reachable (seconds)
    return ns, beam_args


def guarded(fn):
    """An entry point whose SIGINT/SIGTERM is one line and exit 130/143 (see runner.interrupts).

    A ``--dask_client_address`` in its ``argv`` is checked first, before Beam is imported:
    a scheduler that does not answer is one line within seconds.
    """
    import functools
    import signal

    @functools.wraps(fn)
    def wrapper(*a, **kw):
        argv = a[0] if a else kw.get("argv")
        if argv is None or isinstance(argv, (list, tuple)):
            check_dask_scheduler(list(sys.argv[1:] if argv is None else argv))
        from .orchestration.runner import Interrupted, interrupts, kill_workers

        try:
            with interrupts():
                return fn(*a, **kw)
        except KeyboardInterrupt as exc:
            kill_workers()
            if not isinstance(exc, Interrupted):
                exc = Interrupted(signal.SIGINT)
            raise exc from None

    return wrapper


def _say(msg: str) -> None:
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


@guarded
def run_scores(argv: Sequence[str] | None = None) -> int:
    """``opener_scores`` for every selected opener (default all)."""
    from . import jobs

    ns, beam_args = _parse("wordle-lab pipeline scores", argv, play=False,
                           about="Write opener_scores: first-guess statistics of every selected opener.")
    cfg = config_from(ns)
    if ns.openers:
        cfg = dataclasses.replace(cfg, score_openers=cfg.openers)
    res = jobs.run_scores(cfg, beam_args, ns)
    print(jobs.describe(res))
    if not res.dry_run:
        print(scores_result(cfg))
    return 0


def scores_result(cfg: JobConfig, n: int = 5) -> str:
    """Where ``pipeline scores`` wrote, and the top ``n`` openers by the table's measures."""
    from wordle_core.search.openers import top_openers
    from wordle_core.tables.load import TableError, load_opener_scores

    from . import jobs

    lex = jobs.lexicon_of(cfg)
    where = location(cfg.output).resolve() / "opener_scores"
    lines = [f"opener_scores: {where}"]
    try:
        scores = load_opener_scores(lex, cfg.output)
    except TableError:  # a partial selection of openers: no whole column to rank
        return lines[0]
    measures = (("avg_eliminated", "avg eliminated", "{:,.1f}"), ("entropy", "entropy", "{:.3f} bits"),
                ("largest", "largest bucket", "{:,.0f}"), ("buckets", "buckets", "{:,.0f}"))
    for by, label, fmt in measures:
        words = top_openers(lex, n, by=by, scores=scores)
        vals = getattr(scores, by)
        lines.append(f"  top {n} by {label}: " + ", ".join(
            f"{w.upper()} {fmt.format(float(vals[lex.guess_index[w]]))}" for w in words))
    return "\n".join(lines)


def _play(prog: str, argv: Sequence[str] | None, tables_of, about: str) -> int:
    from . import jobs

    def extra(p: argparse.ArgumentParser) -> None:
        if prog.endswith("games"):
            p.add_argument("--games", action="store_true", help="also write every game (games table)")
        if prog.endswith("hard"):
            p.add_argument("--exact-budget", type=int, dest="exact_budget", metavar="NODES",
                           help="node budget of the exact hard-mode search per opener, for a quick "
                                "partial answer (default 0: the complete search, every verdict "
                                "decided)")
            p.add_argument("--exact-implied-by", dest="exact_implied_by", metavar="LEXICON",
                           help="take 'feasible' without a search for every opener the shipped "
                                "table of LEXICON proves feasible (LEXICON: the same guesses and a "
                                "superset of the answers, e.g. wordle for nyt); the rest are searched")
            p.add_argument("--exact-only", action="store_true", dest="exact_only",
                           help="write only each opener's exact verdict (table hard_exact), "
                                "playing no strategy: the fastest way to decide every opener")
            p.add_argument("--ship", metavar="DIR",
                           help="run nothing: collect the exact verdicts of the finished run under "
                                "--output into DIR/<lexicon>.avro + .csv (the package's shipped "
                                "table: wordle_core/data/hard)")

    ns, beam_args = _parse(prog, argv, play=True, extra=extra, about=about)
    cfg = config_from(ns)
    if getattr(ns, "ship", None):
        return ship_verdicts(cfg, ns.ship)
    if getattr(ns, "exact_budget", None) is not None:
        if ns.exact_budget < 0:
            raise ConfigError("--exact-budget must be 0 (complete search) or a positive node count")
        cfg = dataclasses.replace(cfg, exact_node_budget=ns.exact_budget)
    elif prog.endswith("hard") and cfg.exact_node_budget is None:
        cfg = dataclasses.replace(cfg, exact_node_budget=0)  # the hard pipeline decides every opener
    if getattr(ns, "exact_implied_by", None):
        cfg = dataclasses.replace(cfg, exact_implied_by=ns.exact_implied_by)
    res = jobs.run_play(cfg, tables_of(cfg, ns), beam_args, ns)
    print(jobs.describe(res, jobs.lexicon_of(cfg).max_guesses))
    return 0


@guarded
def run_games(argv: Sequence[str] | None = None) -> int:
    """``opener_summaries`` (plus ``games`` with --games or when the config lists it)."""
    return _play("wordle-lab pipeline games", argv,
                 lambda cfg, ns: ["opener_summaries",
                                  *(["games"] if ns.games or "games" in cfg.outputs else [])],
                 "Play every answer from each opener; write opener_summaries (and games).")


@guarded
def run_hard(argv: Sequence[str] | None = None) -> int:
    """``hard_verdicts`` per opener x strategy."""
    return _play("wordle-lab pipeline hard", argv,
                 lambda cfg, ns: ["hard_exact"] if ns.exact_only else ["hard_verdicts"],
                 "Hard mode: does each opener win every game under each strategy, and can any "
                 "strategy? Write hard_verdicts (hard_exact with --exact-only).")


def ship_verdicts(cfg: JobConfig, dest: str) -> int:
    """Write the run's exact hard-mode verdicts (one per opener) as the shipped table."""
    import datetime

    from wordle_core.tables.avro import read_manifest, read_records
    from wordle_core.tables.verdicts import write_verdicts

    from . import jobs

    lex = jobs.lexicon_of(cfg)
    # an --exact-only run's table when the output holds one, else the per-strategy table
    table = "hard_exact" if (location(cfg.output) / "hard_exact").is_dir() else "hard_verdicts"
    recs = read_records(cfg.output, table)  # manifest-verified: a complete run only
    by_opener: dict[str, dict] = {}
    for r in recs:
        if r["lexicon"] != lex.name:
            raise ConfigError(f"--ship: {cfg.output} holds {r['lexicon']!r} verdicts, "
                              f"not {lex.name!r} (pass its --lexicon)")
        by_opener.setdefault(r["opener"], {"opener": r["opener"], "verdict": r["exact_verdict"],
                                           "seconds": round(float(r["exact_seconds"]), 4),
                                           "nodes": int(r["exact_nodes"]), "note": r["exact_note"]})
    notes = sorted({r["note"] for r in by_opener.values()})
    manifest = read_manifest(location(cfg.output) / table)
    if manifest.lexicon_fingerprint and manifest.lexicon_fingerprint != lex.fingerprint:
        raise ConfigError(f"--ship: {cfg.output} was computed on other {lex.name} word lists")
    meta = {"wordle_lab.computed_by": "wordle-lab pipeline hard (wordle_core.search.hard, "
                                      + "; ".join(notes) + ")",
            "wordle_lab.collected_at": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "wordle_lab.run_generation": manifest.generation,
            "wordle_lab.guess_limit": str(lex.max_guesses)}
    try:
        avro, csv_path = write_verdicts(list(by_opener.values()), dest, lex, meta)
    except ValueError as exc:
        raise ConfigError(f"--ship: {exc}") from None
    n = len(by_opener)
    feas = sum(v["verdict"] == "feasible" for v in by_opener.values())
    print(f"hard: {n:,} {lex.name} verdicts ({feas:,} feasible, {n - feas:,} infeasible) "
          f"of {len(lex.guesses):,} openers -> {avro}, {csv_path}")
    return 0


@guarded
def run_trees(argv: Sequence[str] | None = None) -> int:
    """``trees`` per opener x strategy x mode."""
    return _play("wordle-lab pipeline trees", argv, lambda cfg, ns: ["trees"],
                 "Write each strategy's decision tree per opener and mode (the solver plays from it).")


def main_job(cfg: JobConfig, beam_args: list[str], ns: argparse.Namespace) -> int:
    """Scores -> opener selection -> play (one pipeline, one sink) -> report -> publish -> top 10.

    Everything is staged in one generation (:mod:`pipelines.orchestration.generation`) and
    published together at the end, so the output directory holds either the previous
    complete result or this one, never new tables beside an old report.
    """
    from wordle_core.errors import WordleError
    from wordle_core.game.lexicon import load_lexicon

    from . import jobs
    from .orchestration.generation import DRY_RUN
    from .orchestration.runner import JobProgress, Stage, as_failure
    from .report import build_report, format_top, top_table

    t0 = time.perf_counter()
    lex = load_lexicon(cfg.lexicon)
    jobs.check_strategies(cfg.strategies)  # fail before any work
    for sel in (cfg.openers, cfg.score_openers):
        for w in sel.words:
            lex.guess_id(w)
    gen = jobs.open_generation(cfg, ns, beam_args, "run")  # (may refuse: before any banner)
    _say(f"wordle-lab run: {cfg.source} -> {cfg.output}")
    if gen.resumed:
        _say(f"  resuming generation {gen.gen}")
    play_tables = [t for t in jobs.PLAY_TABLES if t in cfg.outputs]
    guess_n = {"all": len(lex.guesses), "list": len(cfg.openers.words),
               "top": cfg.openers.top + len(cfg.openers.words)}[cfg.openers.kind]
    stages = []
    if "opener_scores" in cfg.outputs:
        stages.append(jobs.score_stage(cfg, lex, gen)[2])
    if play_tables:
        stages.append(jobs.play_stage(cfg, lex, list(range(guess_n)), play_tables, gen)[2])
        stages[-1].done = 0
    if "report" in cfg.outputs:
        stages.append(Stage("report", 1, 3.0))
    stages.append(Stage("publish", 1, 0.5))
    progress = JobProgress(stages, enabled=getattr(ns, "progress", True))
    if play_tables and not beam_runs_remote(beam_args, ns):
        _compile_kernels(cfg, lex, play_tables, ns, progress)
    try:
        entries: list[str] = []
        if "opener_scores" in cfg.outputs:
            res = jobs.run_scores(cfg, beam_args, ns, gen=gen, progress=progress)
            entries.append("opener_scores")
            _say("  " + jobs.describe(res))
            checkpoint("after opener_scores")
        if play_tables:
            staged = gen.root if "opener_scores" in cfg.outputs else cfg.output
            rows = jobs.select_rows(lex, cfg.openers, staged)
            if play_tables == ["hard_exact"]:
                _say(f"  deciding {len(rows)} openers ({cfg.openers.describe()}) in hard mode "
                     "(exact verdicts, no strategy played)")
            else:
                _say(f"  playing {len(rows)} openers ({cfg.openers.describe()}) x "
                     f"{', '.join(cfg.strategies)} x {', '.join(cfg.modes)}")
            res = jobs.run_play(cfg, play_tables, beam_args, ns, rows=rows, gen=gen, progress=progress)
            entries.extend(play_tables)
            _say("  " + jobs.describe(res, lex.max_guesses))
            checkpoint("after play")
        if gen.gen == DRY_RUN:  # nothing was computed: no report, nothing to publish
            _say("  dry run: every job built, none submitted; no report, nothing published")
            return 0
        if "report" in cfg.outputs:
            with progress.timed("report"):
                files = build_report(gen.root, gen.stage("report"),
                                     title=str(location(cfg.output).resolve()))
            entries.append("report")
            _say(f"  report: {len(files)} files")
            checkpoint("after report")
        with progress.timed("publish"):
            gen.commit(entries, hook=_commit_hook())
    except (WordleError, KeyboardInterrupt):
        gen.release()
        raise
    except Exception as exc:  # the report or the publication failed (e.g. disk full): one line
        gen.release()
        raise as_failure(exc, gen, "run failed") from exc
    except BaseException:
        gen.release()
        raise
    _say("  " + progress.summary())
    total = time.perf_counter() - t0
    print(f"done in {total:.1f} s ({total / 60:.1f} min)")
    report_dir = location(cfg.output) / "report" if "report" in cfg.outputs else None
    if report_dir is not None:
        page = report_dir.resolve() / "index.html"
        print(f"report: {page if page.exists() else report_dir.resolve()}")
        if (report_dir / "rankings.csv").exists():
            g, key = top_table(report_dir, "mean", cfg.top_report, strategy=cfg.strategies[0],
                               mode=cfg.modes[0], lexicon=lex.name)
            print(format_top(g, key, "mean"))
    return 0


def beam_runs_remote(beam_args: list[str], ns: argparse.Namespace) -> bool:
    """Do the workers run elsewhere (their own disks, their own kernel cache)?"""
    from .options import runner_name
    from .orchestration.runner import is_dry, local_dask_address

    if getattr(ns, "dask_workers", None):
        return False
    args = list(beam_args)
    return is_dry(args) or (runner_name(args) != "DirectRunner" and not local_dask_address(args))


def _compile_kernels(cfg: JobConfig, lex, play_tables: list[str], ns: argparse.Namespace,
                     progress) -> None:
    """On a cold kernel cache, compile what the job's stages call, as a step of its own
    before the first stage (so no ETA includes it); a warm cache skips this."""
    from . import jobs, transforms
    from .orchestration.warm import cache_is_cold, compile_first

    _, play = jobs.play_transform(transforms.LexiconSpec.of(lex), [], cfg, play_tables,
                                  getattr(ns, "matrix_path", None))
    if cache_is_cold(play.fn):
        compile_first(play.fn, show=progress.note)


def _die() -> None:
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def checkpoint(step: str) -> None:
    """A stage boundary of ``run``; ``WORDLE_LAB_KILL_AT=<step>`` kills the run there (tests).

    Steps: ``after opener_scores``, ``after play``, ``after report``, then the
    publication's ``committed``, ``published <entry>`` ... and ``generation``.
    """
    import os

    if os.environ.get("WORDLE_LAB_KILL_AT") == step:
        _die()


def _commit_hook():
    import os

    return checkpoint if os.environ.get("WORDLE_LAB_KILL_AT") else None


@guarded
def run_main(argv: Sequence[str] | None = None) -> int:
    """The main job (``wordle-lab run``)."""
    ns, beam_args = _parse("wordle-lab run", argv, play=True,
                           about="The main job: opener scores, games, hard verdicts, report, top 10.")
    if not ns.config and not ns.openers:
        raise ConfigError("give --config FILE (e.g. configs/default.yaml) or at least --openers")
    cfg = config_from(ns)
    return main_job(cfg, beam_args, ns)
