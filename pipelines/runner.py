"""Running one pipeline: options, a staged sink, progress, counters, cleanup.

:func:`execute` builds a pipeline from a ``build(pipeline, progress_dir)`` function
returning ``(table, record)`` pairs, writes them with the one sink
(:class:`pipelines.sink.WriteTables`), and only after the runner reports success
moves the staged shards into place. Progress: local workers bump a count file per
process in a temporary directory that a driver thread sums into a tqdm bar on
stderr (remote workers cannot see that directory and simply skip it); at the end
the Beam counters are printed where the runner supports ``metrics()`` (Dask does
not).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import apache_beam as beam
from apache_beam.options.pipeline_options import PipelineOptions

from wordle_core.errors import WordleError

from . import sink
from .options import DASK_RUNNER, check_beam_args, runner_name
from .tempdirs import private_tempdir


class PipelineError(WordleError):
    """A pipeline that could not run or did not finish."""


@dataclass
class RunResult:
    tables: list[str]
    files: list[str]
    seconds: float
    runner: str
    counters: dict[str, int] = field(default_factory=dict)
    dry_run: bool = False
    beam_result: Any = None


def ensure_output(output: str) -> str:
    """The output location, absolute for local paths; fails early if it is not writable."""
    if "://" in output:
        return output
    p = Path(output).expanduser().resolve()
    try:
        p.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=p)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise PipelineError(f"output directory {output!r} is not writable: {exc.strerror or exc}") from None
    return str(p)


@contextlib.contextmanager
def local_dask_cluster(n_workers: int) -> Iterator[str]:
    """A ``dask.distributed`` LocalCluster on 127.0.0.1 for the run; closed afterwards.

    The nanny's default ``MALLOC_TRIM_THRESHOLD_=65536`` (measured here to double CPU
    per element for numpy-heavy work) is unset for the workers it spawns.
    """
    import dask
    from distributed import LocalCluster

    with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
        cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None, silence_logs=logging.ERROR)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def _quiet_beam() -> None:
    # Worker log lines are forwarded at WARNING by the local job service: too noisy.
    for name in ("apache_beam", "distributed"):
        logging.getLogger(name).setLevel(logging.ERROR)


def _progress_thread(directory: str, total: int, desc: str, stop: threading.Event) -> threading.Thread:
    def poll() -> None:
        from tqdm import tqdm

        with tqdm(total=total, desc=desc, unit="item", file=sys.stderr, dynamic_ncols=True) as bar:
            shown = 0

            def update() -> None:
                nonlocal shown
                done = 0
                for f in os.listdir(directory):
                    with contextlib.suppress(OSError, ValueError):
                        done += int(Path(directory, f).read_text() or 0)
                if min(done, total) > shown:
                    bar.update(min(done, total) - shown)
                    shown = min(done, total)

            while not stop.wait(0.5):
                update()
            update()

    t = threading.Thread(target=poll, daemon=True)
    t.start()
    return t


def _counters(result: Any) -> dict[str, int]:
    try:
        res = result.metrics().query()
    except Exception:
        return {}
    out: dict[str, int] = {}
    for c in res.get("counters", []):
        out[c.key.metric.name] = out.get(c.key.metric.name, 0) + int(c.committed or c.attempted or 0)
    return out


def execute(
    build: Callable[[beam.Pipeline, str | None], Any],
    output: str,
    tables: list[str],
    beam_args: list[str],
    *,
    shards: int = 1,
    total: int = 0,
    desc: str = "pipeline",
    progress: bool = True,
    dask_workers: int | None = None,
) -> RunResult:
    """Run ``build`` and publish its tables under ``output`` (all or nothing)."""
    output = ensure_output(output)
    args = list(beam_args)
    with contextlib.ExitStack() as stack:
        stack.enter_context(private_tempdir())  # Beam's and Dask's temp dirs, removed at exit
        if dask_workers:
            address = stack.enter_context(local_dask_cluster(dask_workers))
            args = [a for a in args if not a.startswith(("--runner", "--dask_client_address"))]
            args += [f"--runner={DASK_RUNNER}", f"--dask_client_address={address}"]
        args = check_beam_args(args)
        runner = runner_name(args)
        dry = any(a in ("--dry_run", "--dry_run=True", "--dry_run=true") for a in args)
        _quiet_beam()
        run_id = uuid.uuid4().hex[:12]
        # Progress files only where workers share this machine's disk (local runs).
        local = runner == "DirectRunner" or bool(dask_workers)
        pdir = tempfile.mkdtemp(prefix="wordle-lab-progress-") if progress and local and not dry else None
        stop = threading.Event()
        thread = _progress_thread(pdir, total, desc, stop) if pdir and total else None
        t0 = time.perf_counter()
        try:
            pipeline = beam.Pipeline(options=PipelineOptions(args))
            pairs = build(pipeline, pdir)
            _ = pairs | "WriteTables" >> sink.WriteTables(output, tables, run_id, shards)
            result = pipeline.run()
            try:
                result.wait_until_finish()
            finally:
                client = getattr(result, "client", None)  # DaskRunner: close before the cluster
                if client is not None:
                    client.close()
            state = str(getattr(result, "state", "DONE"))
            if "FAIL" in state.upper() or "CANCEL" in state.upper():
                raise PipelineError(f"{desc}: the {runner} reported {state}")
            files = [] if dry else sink.publish(output, tables, run_id)
        except BaseException:
            if not dry:
                sink.discard(output, tables, run_id)
            raise
        finally:
            stop.set()
            if thread:
                thread.join()
            if pdir:
                shutil.rmtree(pdir, ignore_errors=True)
        seconds = time.perf_counter() - t0
    counters = {} if dry else _counters(result)
    return RunResult(tables, files, seconds, runner, counters, dry, result)
