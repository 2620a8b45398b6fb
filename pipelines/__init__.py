"""Wordle Lab's Apache Beam pipelines: thin Beam code over :mod:`wordle_core`.

Modules: :mod:`.schemas` (every Avro schema), :mod:`.records` (records from engine
results, no Beam), :mod:`.transforms` (the composite PTransforms), :mod:`.sink` (the
one Avro sink that works on every runner), :mod:`.config` / :mod:`.options` (what to
compute / Beam flags), :mod:`.runner` (run, publish, progress), :mod:`.jobs` and
:mod:`.cli` (``run(argv)`` of each pipeline), :mod:`.report` (CSV + PNG report),
:mod:`.optimal` (the exact-optimum fan-out).
"""

import os as _os

_os.environ.setdefault("GRPC_VERBOSITY", "ERROR")  # before Beam loads gRPC: no fork_posix.cc notes
