"""A pipeline's entry point: its ``argv`` parsed and checked, its run guarded.

Every pipeline module's ``run(argv)`` (:mod:`pipelines.scores`, :mod:`~pipelines.games`,
:mod:`~pipelines.hard`, :mod:`~pipelines.trees`, :mod:`~pipelines.optimal`,
:mod:`~pipelines.analysis`) is a :func:`guarded` function that parses with
:func:`parse_job_args`: our flags (:mod:`pipelines.options`) and Beam's, every mistake
one line and exit 2 before any output exists; Ctrl-C / SIGTERM one line and exit 130 /
143, the workers stopped.
"""

from __future__ import annotations

import argparse
import functools
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

from wordle_core.errors import OneLineParser
from wordle_core.files import check_bucket

from ..options import add_job_args, add_resume_arg, check_beam_args
from .cloud import check_cloud_args, check_dask_scheduler
from .runner import Interrupted, interrupts, kill_workers


def parse_job_args(prog: str, argv: Sequence[str] | None, *, play: bool, about: str = "",
                   extra: Callable[[argparse.ArgumentParser], None] | None = None,
                   ) -> tuple[argparse.Namespace, list[str]]:
    """A pipeline's ``argv`` (default ``sys.argv[1:]``): our flags (plus ``extra``'s) and
    Beam's, each checked before any output exists (an unknown flag; Dataflow's tools and
    service, in seconds)."""
    p = OneLineParser(prog=prog, description=about or None,
                      epilog="Any other --flag is passed to Apache Beam "
                      "(e.g. --runner, --direct_num_workers).")
    add_job_args(p, play=play)
    add_resume_arg(p)
    if extra:
        extra(p)
    ns, beam_args = p.parse_known_args(list(sys.argv[1:] if argv is None else argv))
    for where in (getattr(ns, "output", None), getattr(ns, "matrix_path", None)):
        check_bucket(where or "")  # gs://BUCKET copied from the docs: one line, not minutes of retries
    check_beam_args(beam_args)  # an unknown flag fails here, before any output exists
    check_cloud_args(beam_args)  # Dataflow: staging tools present, service reachable (seconds)
    return ns, beam_args


def guarded(fn: Callable[..., int]) -> Callable[..., int]:
    """A pipeline's ``run(argv)`` whose SIGINT/SIGTERM is one line and exit 130/143 (see
    :func:`~pipelines.orchestration.runner.interrupts`).

    A ``--dask_client_address`` in its ``argv`` is checked first, before Beam is imported:
    a scheduler that does not answer is one line within seconds.
    """
    @functools.wraps(fn)
    def wrapper(*a: Any, **kw: Any) -> int:
        argv = a[0] if a else kw.get("argv")
        if argv is None or isinstance(argv, (list, tuple)):
            check_dask_scheduler(list(sys.argv[1:] if argv is None else argv))
        try:
            with interrupts():
                return fn(*a, **kw)
        except KeyboardInterrupt as exc:
            kill_workers()
            if not isinstance(exc, Interrupted):
                exc = Interrupted(signal.SIGINT)
            raise exc from None

    return wrapper
