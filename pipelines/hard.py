r"""Pipeline ``hard``: can each opener guarantee a hard-mode win?

The story: in hard mode a bad opener can leave a position where no legal guess
wins every game. For each opener the pipeline plays every strategy in hard mode and
records whether it won every game in the ``hard_verdicts`` table
(:class:`HardVerdicts`); with ``--exact-budget NODES`` (or the
config's ``exact_hard``) each record also carries the exact verdict of
:mod:`wordle_core.search.hard`, computed once per opener.

Run it (every flag we do not know goes to Beam; ``--help`` lists ours)::

    # DirectRunner (the default: local processes, one per core)
    python -m pipelines.hard --config configs/hard.yaml --output outputs/hard
    # Dask: a local dask.distributed cluster, or your own with --dask_client_address
    python -m pipelines.hard --config configs/hard.yaml --output outputs/hard --dask-workers 4
    python -m pipelines.hard --config configs/hard.yaml --output outputs/hard \
        --runner=apache_beam.runners.dask.dask_runner.DaskRunner --dask_client_address=tcp://HOST:8786
    # Dataflow (``pip install -e .[gcp]``; the output on storage every worker sees)
    python -m pipelines.hard --config configs/hard.yaml --output gs://BUCKET/hard \
        --runner=DataflowRunner --project=PROJECT --region=us-central1 \
        --temp_location=gs://BUCKET/tmp --setup_file=$PWD/pyproject.toml

``--exact-only`` writes each opener's exact verdict alone (:class:`ExactHardVerdicts`,
table ``hard_exact``), and ``--ship DIR`` collects a finished run's verdicts into the
package's shipped table (:func:`ship_verdicts`).

The same as ``wordle-lab pipeline hard ...``; from Python: ``run(argv)``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from typing import Any

from wordle_core.errors import one_line_errors
from wordle_core.files import location

from .config import ConfigError, JobConfig
from .options import config_from
from .orchestration import stages
from .orchestration.entry import guarded, parse_job_args
from .orchestration.runner import RunResult
from .transforms import LexiconSpec, PlayOpeners


class HardVerdicts(PlayOpeners):
    """``hard_verdicts`` per opener x strategy (hard mode), with the exact verdict."""

    def __init__(self, spec: LexiconSpec, rows: list[int], strategies: list[str], **kw: Any) -> None:
        super().__init__(spec, rows, strategies, ["hard"], ["hard_verdicts"], **kw)


class ExactHardVerdicts(PlayOpeners):
    """``hard_exact``: each opener's exact hard-mode verdict alone, no strategy played.

    The question "can any strategy guarantee a hard-mode win from this opener?" needs
    only the exact search (:mod:`wordle_core.search.hard`); this skips the strategies'
    trees that :class:`HardVerdicts` also builds (about a quarter of that job's time
    over every opener with the cheapest strategy).
    """

    def __init__(self, spec: LexiconSpec, rows: list[int], **kw: Any) -> None:
        super().__init__(spec, rows, [], ["hard"], ["hard_exact"], **kw)


def composite(strategies: Sequence[str], exact_only: bool = False) -> stages.Composite:
    """This pipeline's graph as its stage builds it: ``"HardVerdicts" >> HardVerdicts(...)``,
    or ``"ExactHardVerdicts" >> ExactHardVerdicts(...)`` with ``exact_only``."""
    def build(spec: LexiconSpec, rows: list[int], **options: Any) -> tuple[str, PlayOpeners]:
        if exact_only:
            return "ExactHardVerdicts", ExactHardVerdicts(spec, rows, **options)
        return "HardVerdicts", HardVerdicts(spec, rows, list(strategies), **options)
    return build


def play(cfg: JobConfig, beam_args: list[str], ns: Any = None, *, exact_only: bool = False,
         rows: list[int] | None = None) -> RunResult:
    """Run the stage: ``hard_verdicts`` (``hard_exact`` with ``exact_only``) of ``cfg.openers``
    (or ``rows``)."""
    table = "hard_exact" if exact_only else "hard_verdicts"
    return stages.run_play(cfg, [table], composite(cfg.strategies, exact_only), beam_args, ns,
                           rows=rows)


def ship_verdicts(cfg: JobConfig, dest: str) -> int:
    """Write the run's exact hard-mode verdicts (one per opener) as the shipped table."""
    import datetime

    from wordle_core.tables.avro import read_manifest, read_records
    from wordle_core.tables.verdicts import write_verdicts

    lex = stages.lexicon_of(cfg)
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


def _args(p: argparse.ArgumentParser) -> None:
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


@guarded
def run(argv: Sequence[str] | None = None) -> int:
    """Run the pipeline with command-line ``argv`` (default ``sys.argv[1:]``); the exit code."""
    ns, beam_args = parse_job_args(
        "wordle-lab pipeline hard", argv, play=True, extra=_args,
        about="Hard mode: does each opener win every game under each strategy, and can any "
              "strategy? Write hard_verdicts (hard_exact with --exact-only).")
    cfg = config_from(ns)
    if ns.ship:
        return ship_verdicts(cfg, ns.ship)
    if ns.exact_budget is not None:
        if ns.exact_budget < 0:
            raise ConfigError("--exact-budget must be 0 (complete search) or a positive node count")
        cfg = dataclasses.replace(cfg, exact_node_budget=ns.exact_budget)
    elif cfg.exact_node_budget is None:
        cfg = dataclasses.replace(cfg, exact_node_budget=0)  # the hard pipeline decides every opener
    if ns.exact_implied_by:
        cfg = dataclasses.replace(cfg, exact_implied_by=ns.exact_implied_by)
    res = play(cfg, beam_args, ns, exact_only=ns.exact_only)
    print(stages.describe(res, stages.lexicon_of(cfg).max_guesses))
    return 0


if __name__ == "__main__":
    # through the package module, so workers unpickle pipelines.hard's classes (not __main__'s)
    from pipelines.hard import run as run_packaged

    raise SystemExit(one_line_errors(lambda: run_packaged(sys.argv[1:])))
