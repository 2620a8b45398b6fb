r"""Pipeline ``games``: every answer from every opener, under every strategy.

The story: is an opener good? Play it against every answer and look at the whole
distribution, not one game. Each (opener, mode) element builds every named
strategy's decision tree once (:class:`wordle_core.game.tree.Tree`), which *is*
all of its games, and emits one ``opener_summaries`` record per strategy (mean,
histogram, failures, worst games) plus, with ``--games``, one ``games`` record per
answer (:class:`pipelines.transforms.OpenerSummaries`).

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

The same as ``wordle-lab pipeline games ...``; from Python: ``run(argv)``
(:func:`pipelines.cli.run_games`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from wordle_core.errors import one_line_errors

from .cli import run_games


def run(argv: Sequence[str] | None = None) -> int:
    """Run the pipeline with command-line ``argv`` (default ``sys.argv[1:]``); the exit code."""
    return run_games(argv)


if __name__ == "__main__":
    raise SystemExit(one_line_errors(lambda: run(sys.argv[1:])))
