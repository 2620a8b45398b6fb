r"""Pipeline ``scores``: first-guess statistics of every opener (the "Wordle Solver KT" table).

The story: "Wordle Solver KT" ranked openers by the candidates they eliminate on average, with
a Beam job over every allowed guess. This pipeline is that job: the selected openers
(default: all 12,972 guesses) are cut into blocks, spread over the workers
(``Create -> Reshuffle``), and each block is scored against every answer in one
vectorised pass (:class:`pipelines.transforms.ScoreOpeners`, over
:func:`wordle_core.search.openers.compute_opener_scores`). Output: the
``opener_scores`` Avro table (average eliminated, expected remaining, entropy,
largest bucket, buckets per opener), which ``wordle-lab report`` ranks and which
the CLI hands to the avg-eliminated strategies and to top-N opener selection.

Run it (every flag we do not know goes to Beam; ``--help`` lists ours)::

    # DirectRunner (the default: local processes, one per core)
    python -m pipelines.scores --output outputs/scores
    # Dask: a local dask.distributed cluster, or your own with --dask_client_address
    python -m pipelines.scores --output outputs/scores --dask-workers 4
    python -m pipelines.scores --output outputs/scores \
        --runner=apache_beam.runners.dask.dask_runner.DaskRunner --dask_client_address=tcp://HOST:8786
    # Dataflow (``pip install -e .[gcp]``; the output on storage every worker sees)
    python -m pipelines.scores --output gs://BUCKET/scores \
        --runner=DataflowRunner --project=PROJECT --region=us-central1 \
        --temp_location=gs://BUCKET/tmp --setup_file=$PWD/pyproject.toml

The same as ``wordle-lab pipeline scores ...``; from Python: ``run(argv)``
(:func:`pipelines.cli.run_scores`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from wordle_core.errors import one_line_errors

from .cli import run_scores


def run(argv: Sequence[str] | None = None) -> int:
    """Run the pipeline with command-line ``argv`` (default ``sys.argv[1:]``); the exit code."""
    return run_scores(argv)


if __name__ == "__main__":
    raise SystemExit(one_line_errors(lambda: run(sys.argv[1:])))
