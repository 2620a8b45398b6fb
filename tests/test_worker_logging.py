"""What Beam logs while it loads never reaches the user's terminal.

Beam 2.77 without its GCP extra (``pip install -e .``, what ``make run`` installs) logs
"apitools not found ..." on the root logger whenever a process imports it. In a worker
process that call also installed logging's default stderr handler, so every INFO line
of Beam's worker (about 60 per run) was printed under the progress line. The test
environment has the GCP extra, so Beam's import is imitated here in a subprocess.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import pipelines  # noqa: F401  (installs the root logger's filter)

ROOT = Path(__file__).resolve().parents[1]

BEAM_LOADING = '''
import logging
def beam_loading(*_a, **_k):
    logging.warning("apitools not found, and bigquery client libraries are not available")
    logging.getLogger().setLevel(logging.INFO)  # as Beam's worker does
    logging.info("Python sdk harness starting.")
'''


def _stderr(body: str) -> str:
    code = BEAM_LOADING + body
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True)
    return out.stderr


def test_a_worker_prints_nothing_of_what_beam_logs():
    # without the worker's set-up the imitation prints both lines (the test can fail) ...
    bare = _stderr("beam_loading()")
    assert "apitools" in bare and "sdk harness" in bare
    # ... through pipelines.orchestration.worker (Beam's worker main replaced by the imitation) nothing
    quiet = _stderr(
        "import runpy\n"
        "from pipelines.orchestration import worker\n"
        "worker.die_with_parent = lambda parent: None\n"
        "runpy.run_module = beam_loading\n"
        "worker.main()\n")
    assert quiet == ""


def test_the_driver_drops_only_beams_import_warning():
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    root = logging.getLogger()
    handler = Keep(logging.WARNING)
    root.addHandler(handler)
    try:
        logging.warning("apitools not found, and bigquery client libraries are not available")
        logging.warning("something a user should see")
    finally:
        root.removeHandler(handler)
    assert seen == ["something a user should see"]
