r"""Pipeline ``hard``: can each opener guarantee a hard-mode win?

The story: in hard mode a bad opener can leave a position where no legal guess
wins every game. For each opener the pipeline plays every strategy in hard mode and
records whether it won every game in the ``hard_verdicts`` table
(:class:`pipelines.transforms.HardVerdicts`); with ``--exact-budget NODES`` (or the
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

The same as ``wordle-lab pipeline hard ...``; from Python: ``run(argv)``
(:func:`pipelines.cli.run_hard`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from wordle_core.errors import one_line_errors

from .cli import run_hard


def run(argv: Sequence[str] | None = None) -> int:
    """Run the pipeline with command-line ``argv`` (default ``sys.argv[1:]``); the exit code."""
    return run_hard(argv)


if __name__ == "__main__":
    raise SystemExit(one_line_errors(lambda: run(sys.argv[1:])))
