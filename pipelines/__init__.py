r"""Wordle Lab's Apache Beam pipelines: thin Beam code over :mod:`wordle_core`.

One module per pipeline, each with its story, its named composite ``PTransform``\ s and
its ``run(argv)``: :mod:`.scores`, :mod:`.games`, :mod:`.hard`, :mod:`.trees`,
:mod:`.optimal` (the exact-optimum fan-out), and :mod:`.analysis` (``wordle-lab run``:
all of a config's stages, the report, one publication). Beside them: :mod:`.transforms`
(what the pipelines share on the workers: lexicon and matrix per process, playing every
answer from an opener), :mod:`.records` (records from engine results, no Beam),
:mod:`.schemas` (every Avro schema), :mod:`.config` / :mod:`.options` (what to compute,
our flags and Beam's), :mod:`.report` (CSV, PNG, HTML report), and
:mod:`.orchestration`, how a stage runs (stages, shards and ``--resume``, runner, sink,
generations, warm-up, workers, cloud, storage).
"""

import logging as _logging
import os as _os

_os.environ.setdefault("GRPC_VERBOSITY", "ERROR")  # before Beam loads gRPC: no fork_posix.cc notes


class _BeamImportNoise(_logging.Filter):
    """Beam 2.77, installed without its GCP extra (``pip install -e .``, what ``make run``
    installs), logs "apitools not found ..." on the root logger each time a process
    imports it: harmless (no BigQuery is used), but it is no message for a user. Dropped
    here, before any module of this package imports Beam; :mod:`pipelines.orchestration.worker` also
    keeps it from configuring the worker processes' logging."""

    def filter(self, record: _logging.LogRecord) -> bool:
        return not str(record.msg).startswith("apitools not found")


_logging.getLogger().addFilter(_BeamImportNoise())


def _serve_object_stores() -> None:
    """The engine reads ``gs://`` ... locations through Beam's FileSystems (imported on first use);
    against a GCS emulator (``$STORAGE_EMULATOR_HOST``) every process connects anonymously."""
    from .orchestration.storage import anonymous_under_emulator, register

    register()
    anonymous_under_emulator()


_serve_object_stores()
