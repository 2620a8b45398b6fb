r"""Pipeline ``trees``: each strategy's decision tree per opener and mode.

The story: a deterministic strategy from an opener is a decision tree, so it can be
computed once and read forever. This pipeline writes those trees (one ``trees``
record per opener x strategy x mode, every node's path and guess:
:class:`DecisionTrees`); ``wordle-lab simulate --tree``,
``suggest --tree`` and ``tree`` then answer from the table without any search.

Run it (every flag we do not know goes to Beam; ``--help`` lists ours)::

    # DirectRunner (the default: local processes, one per core)
    python -m pipelines.trees --openers salet,crane --output outputs/trees
    # Dask: a local dask.distributed cluster, or your own with --dask_client_address
    python -m pipelines.trees --openers salet,crane --output outputs/trees --dask-workers 4
    python -m pipelines.trees --openers salet,crane --output outputs/trees \
        --runner=apache_beam.runners.dask.dask_runner.DaskRunner --dask_client_address=tcp://HOST:8786
    # Dataflow (``pip install -e .[gcp]``; the output on storage every worker sees)
    python -m pipelines.trees --openers salet,crane --output gs://BUCKET/trees \
        --runner=DataflowRunner --project=PROJECT --region=us-central1 \
        --temp_location=gs://BUCKET/tmp --setup_file=$PWD/pyproject.toml

The same as ``wordle-lab pipeline trees ...``; from Python: ``run(argv)``.
"""

from __future__ import annotations

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


class DecisionTrees(PlayOpeners):
    """``trees`` per opener x strategy x mode: the solver plays from these alone."""

    def __init__(self, spec: LexiconSpec, rows: list[int], strategies: list[str], modes: list[str],
                 **kw: Any) -> None:
        super().__init__(spec, rows, strategies, modes, ["trees"], **kw)


def composite(strategies: Sequence[str], modes: Sequence[str]) -> stages.Composite:
    """This pipeline's graph as its stage builds it: ``"DecisionTrees" >> DecisionTrees(...)``."""
    def build(spec: LexiconSpec, rows: list[int], **options: Any) -> tuple[str, DecisionTrees]:
        return "DecisionTrees", DecisionTrees(spec, rows, list(strategies), list(modes), **options)
    return build


def play(cfg: JobConfig, beam_args: list[str], ns: Any = None, *,
         rows: list[int] | None = None) -> RunResult:
    """Run the stage: the ``trees`` of ``cfg.openers`` (or ``rows``)."""
    return stages.run_play(cfg, ["trees"], composite(cfg.strategies, cfg.modes), beam_args, ns, rows=rows)


@guarded
def run(argv: Sequence[str] | None = None) -> int:
    """Run the pipeline with command-line ``argv`` (default ``sys.argv[1:]``); the exit code."""
    ns, beam_args = parse_job_args(
        "wordle-lab pipeline trees", argv, play=True,
        about="Write each strategy's decision tree per opener and mode (the solver plays from it).")
    cfg = config_from(ns)
    res = play(cfg, beam_args, ns)
    print(stages.describe(res, stages.lexicon_of(cfg).max_guesses))
    return 0


if __name__ == "__main__":
    # through the package module, so workers unpickle pipelines.trees's classes (not __main__'s)
    from pipelines.trees import run as run_packaged

    raise SystemExit(one_line_errors(lambda: run_packaged(sys.argv[1:])))
