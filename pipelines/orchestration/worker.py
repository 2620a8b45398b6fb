"""The local Beam SDK worker, made to stop with its driver: ``python -m pipelines.orchestration.worker``.

:func:`pipelines.orchestration.runner.local_workers` starts the DirectRunner's worker processes with
this module instead of ``apache_beam.runners.worker.sdk_worker_main``. Before handing
over to Beam's worker it asks the kernel for ``SIGKILL`` when its parent (the driver)
dies (``PR_SET_PDEATHSIG``; checked once more in case the driver is already gone), so
no worker outlives a driver that was killed, even with ``kill -9``. Done here, after
``exec``, rather than in a ``preexec_fn``, which can deadlock a threaded driver. It also
gives the root logger a handler first, so that Beam's worker logs only through Beam.
"""

from __future__ import annotations

import contextlib
import logging
import os
import runpy
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the driver died before the request took effect
        os._exit(1)


def main() -> None:
    parent = int(os.environ.get("WORDLE_LAB_DRIVER_PID", os.getppid()))
    die_with_parent(parent)
    # A root handler before Beam is imported: a warning logged while it loads (see
    # pipelines._BeamImportNoise) must not install logging's default stderr handler, which
    # would then print every INFO line of the worker (they reach the driver through Beam).
    logging.getLogger().addHandler(logging.NullHandler())
    sys.argv[0] = "sdk_worker_main"
    runpy.run_module("apache_beam.runners.worker.sdk_worker_main", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
