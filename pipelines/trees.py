r"""Pipeline ``trees``: each strategy's decision tree per opener and mode.

The story: a deterministic strategy from an opener is a decision tree, so it can be
computed once and read forever. This pipeline writes those trees (one ``trees``
record per opener x strategy x mode, every node's path and guess:
:class:`pipelines.transforms.DecisionTrees`); ``wordle-lab simulate --tree``,
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

The same as ``wordle-lab pipeline trees ...``; from Python: ``run(argv)``
(:func:`pipelines.cli.run_trees`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from wordle_core.errors import one_line_errors

from .cli import run_trees


def run(argv: Sequence[str] | None = None) -> int:
    """Run the pipeline with command-line ``argv`` (default ``sys.argv[1:]``); the exit code."""
    return run_trees(argv)


if __name__ == "__main__":
    raise SystemExit(one_line_errors(lambda: run(sys.argv[1:])))
