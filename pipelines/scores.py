r"""Pipeline ``scores``: first-guess statistics of every opener (the "Wordle Solver KT" table).

The story: "Wordle Solver KT" ranked openers by the candidates they eliminate on average, with
a Beam job over every allowed guess. This pipeline is that job: the selected openers
(default: all 12,972 guesses) are cut into blocks, spread over the workers
(``Create -> Reshuffle``), and each block is scored against every answer in one
vectorised pass (:class:`ScoreOpeners`, over
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

The same as ``wordle-lab pipeline scores ...``; from Python: ``run(argv)``. The main job
(``wordle-lab run``, :mod:`pipelines.analysis`) runs the same composite as its first stage.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from typing import Any

import apache_beam as beam
import numpy as np
from apache_beam.metrics import Metrics

from wordle_core.errors import one_line_errors
from wordle_core.files import location

from . import records
from .config import JobConfig
from .options import config_from
from .orchestration import stages
from .orchestration.entry import guarded, parse_job_args
from .orchestration.runner import RunResult
from .orchestration.shards import NOT_KEPT, Resume, Work, cut, sharded
from .transforms import NAMESPACE, LexiconSpec, WorkerProgress, worker_lexicon, worker_matrix, worker_threads


class ScoreBlockFn(Work):
    """Scores a block of opener rows in one vectorised pass over the matrix (the work of
    :class:`ScoreOpeners`, run per shard of blocks by :func:`~pipelines.orchestration.shards.sharded`)."""

    def __init__(self, spec: LexiconSpec, matrix_path: str | None, progress_dir: str | None) -> None:
        self.spec, self.matrix_path, self.progress_dir = spec, matrix_path, progress_dir
        self.scored = Metrics.counter(NAMESPACE, "openers_scored")

    def setup(self) -> None:
        worker_threads()
        self.lex = worker_lexicon(self.spec)
        self.matrix = worker_matrix(self.lex, self.matrix_path)
        self.progress = WorkerProgress(self.progress_dir)

    def process(self, rows: list[int]):
        from wordle_core.search.openers import compute_opener_scores

        arr = np.asarray(rows, dtype=np.int64)
        scores = compute_opener_scores(self.lex, self.matrix, arr)
        for rec in records.score_records(self.lex, arr, scores):
            yield ("opener_scores", rec)
        self.scored.inc(len(rows))
        self.progress.add(len(rows))


class ScoreOpeners(beam.PTransform):
    """``opener_scores`` of the given opener rows: blocks of rows, cut into shards ->
    Reshuffle -> vectorised scoring per block (:func:`~pipelines.orchestration.shards.sharded`; with a
    ``resume`` store each finished shard is kept, and reused by ``--resume``)."""

    def __init__(self, spec: LexiconSpec, rows: list[int], block: int = 512,
                 matrix_path: str | None = None, progress_dir: str | None = None,
                 resume: Resume = NOT_KEPT) -> None:
        super().__init__()
        self.spec, self.rows, self.block = spec, sorted(rows), block
        self.shards = cut([self.rows[i : i + block] for i in range(0, len(self.rows), block)])
        self.fn = ScoreBlockFn(spec, matrix_path, progress_dir)
        self.resume = resume

    def expand(self, pbegin):
        return sharded(pbegin, self.shards, self.fn, self.resume)


def composite(spec: LexiconSpec, rows: list[int], **options: Any) -> tuple[str, ScoreOpeners]:
    """This pipeline's graph as its stage builds it: ``"ScoreOpeners" >> ScoreOpeners(...)``."""
    return "ScoreOpeners", ScoreOpeners(spec, rows, **options)


def score(cfg: JobConfig, beam_args: list[str], ns: Any = None, **stage: Any) -> RunResult:
    """Run the stage: ``opener_scores`` of ``cfg.score_openers``, resumable (``stage``: the
    main job's generation and progress, see :func:`pipelines.orchestration.stages.run_scores`)."""
    return stages.run_scores(cfg, composite, beam_args, ns, **stage)


def scores_result(cfg: JobConfig, n: int = 5) -> str:
    """Where ``pipeline scores`` wrote, and the top ``n`` openers by the table's measures."""
    from wordle_core.search.openers import top_openers
    from wordle_core.tables.load import TableError, load_opener_scores

    lex = stages.lexicon_of(cfg)
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


@guarded
def run(argv: Sequence[str] | None = None) -> int:
    """Run the pipeline with command-line ``argv`` (default ``sys.argv[1:]``); the exit code."""
    ns, beam_args = parse_job_args("wordle-lab pipeline scores", argv, play=False,
                                   about="Write opener_scores: first-guess statistics of every "
                                         "selected opener.")
    cfg = config_from(ns)
    if ns.openers:
        cfg = dataclasses.replace(cfg, score_openers=cfg.openers)
    res = score(cfg, beam_args, ns)
    print(stages.describe(res))
    if not res.dry_run:
        print(scores_result(cfg))
    return 0


if __name__ == "__main__":
    # through the package module, so workers unpickle pipelines.scores.ScoreBlockFn (not __main__'s)
    from pipelines.scores import run as run_packaged

    raise SystemExit(one_line_errors(lambda: run_packaged(sys.argv[1:])))
