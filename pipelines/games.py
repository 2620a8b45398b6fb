r"""Pipeline ``games``: every answer from every opener, under every strategy.

The story: is an opener good? Play it against every answer and look at the whole
distribution, not one game. Each (opener, mode) element builds every named
strategy's decision tree once (:class:`wordle_core.game.tree.Tree`), which *is*
all of its games, and emits one ``opener_summaries`` record per strategy (mean,
histogram, failures, worst games) plus, with ``--games``, one ``games`` record per
answer (:class:`OpenerSummaries`, a :class:`~pipelines.transforms.PlayOpeners` asked for
those tables).

Run it (every flag we do not know goes to Beam; ``--help`` lists ours)::

    # DirectRunner (the default: local processes, one per core)
    python -m pipelines.games --config configs/quick.yaml --output outputs/games
    # Dask: a local dask.distributed cluster, or your own with --dask_client_address
    python -m pipelines.games --config configs/quick.yaml --output outputs/games --dask-workers 4
    python -m pipelines.games --config configs/quick.yaml --output outputs/games \
        --runner=apache_beam.runners.dask.dask_runner.DaskRunner --dask_client_address=tcp://HOST:8786
    # Dataflow (``pip install -e .[gcp]``; the output on storage every worker sees)
    python -m pipelines.games --config configs/quick.yaml --output gs://BUCKET/games \
        --runner=DataflowRunner --project=PROJECT --region=us-central1 \
        --temp_location=gs://BUCKET/tmp --setup_file=$PWD/pyproject.toml

The same as ``wordle-lab pipeline games ...``; from Python: ``run(argv)``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from wordle_core.errors import one_line_errors

from .config import JobConfig
from .options import config_from
from .orchestration import stages
from .orchestration.entry import guarded, parse_job_args
from .orchestration.runner import RunResult
from .transforms import LexiconSpec, PlayOpeners


class OpenerSummaries(PlayOpeners):
    """``opener_summaries`` (and ``games`` when asked) per opener x strategy x mode."""

    def __init__(self, spec: LexiconSpec, rows: list[int], strategies: list[str], modes: list[str],
                 games: bool = False, **kw: Any) -> None:
        tables = ["opener_summaries", *(["games"] if games else [])]
        super().__init__(spec, rows, strategies, modes, tables, **kw)


def composite(strategies: Sequence[str], modes: Sequence[str], games: bool = False) -> stages.Composite:
    """This pipeline's graph as its stage builds it: ``"OpenerSummaries" >> OpenerSummaries(...)``."""
    def build(spec: LexiconSpec, rows: list[int], **options: Any) -> tuple[str, OpenerSummaries]:
        return "OpenerSummaries", OpenerSummaries(spec, rows, list(strategies), list(modes),
                                                  games=games, **options)
    return build


def play(cfg: JobConfig, beam_args: list[str], ns: Any = None, *, games: bool = False,
         rows: list[int] | None = None) -> RunResult:
    """Run the stage: ``opener_summaries`` (and ``games``) of ``cfg.openers`` (or ``rows``)."""
    tables = ["opener_summaries", *(["games"] if games else [])]
    return stages.run_play(cfg, tables, composite(cfg.strategies, cfg.modes, games), beam_args, ns,
                           rows=rows)


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", action="store_true", help="also write every game (games table)")


@guarded
def run(argv: Sequence[str] | None = None) -> int:
    """Run the pipeline with command-line ``argv`` (default ``sys.argv[1:]``); the exit code."""
    ns, beam_args = parse_job_args(
        "wordle-lab pipeline games", argv, play=True,
        about="Play every answer from each opener; write opener_summaries (and games).",
        extra=_args)
    cfg = config_from(ns)
    res = play(cfg, beam_args, ns, games=ns.games or "games" in cfg.outputs)
    print(stages.describe(res, stages.lexicon_of(cfg).max_guesses))
    return 0


if __name__ == "__main__":
    # through the package module, so workers unpickle pipelines.games's classes (not __main__'s)
    from pipelines.games import run as run_packaged

    raise SystemExit(one_line_errors(lambda: run_packaged(sys.argv[1:])))
