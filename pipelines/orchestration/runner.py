"""Running one pipeline stage: options, the staged sink, whole-job progress, counters.

:func:`execute` builds a pipeline from a ``build(pipeline, progress_dir)`` function
returning ``(table, record)`` pairs, writes them with the one sink
(:class:`pipelines.orchestration.sink.WriteTables`) into the run's generation staging area and,
after the runner reports success, seals them (their manifests); publishing is the
generation's commit (:mod:`pipelines.orchestration.generation`), once all stages succeeded.

Progress (:class:`JobProgress`): local workers bump a count file per process in a
temporary directory that a driver thread sums into one line on stderr: the stage,
items done, games/s and an ETA for the whole job (every stage, weighted by an
estimate corrected by the stages already run); at the end, the time per stage.
Remote workers cannot see that directory and simply skip it. The Beam counters are
read where the runner supports ``metrics()`` (Dask does not).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import apache_beam as beam
from apache_beam.options.pipeline_options import PipelineOptions

from wordle_core.errors import MACHINE_ERRNOS, WordleError

from ..config import ConfigError
from ..options import DASK_RUNNER, check_beam_args, runner_name
from . import sink
from .tempdirs import private_tempdir


class PipelineError(WordleError):
    """A pipeline that could not run or did not finish (exit code 1: a failure, not a usage error)."""

    exit_code = 1


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM reached the driver; ``exit_code`` is 130 or 143."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.exit_code = 128 + signum
        self.detail = (f" ({self.args[0]}): nothing was published; finished shards are kept, "
                       "continue with --resume")


class WorkerLost(Interrupted):
    """A local worker process died on its own (killed, out of memory, crashed): the stage
    cannot finish, so it stops like an interruption (nothing published, the finished
    shards kept for ``--resume``), with exit code 1, a failure."""

    def __init__(self, how: str) -> None:
        KeyboardInterrupt.__init__(self, how)
        self.signum = 0
        self.exit_code = 1
        self.detail = (f": a worker process {how}; nothing was published; finished shards are "
                       "kept, continue with --resume")


_LOST: list[str] = []  # how a worker died on its own, set by local_workers' thread hook
_HANDLING = threading.Event()  # interrupts() has its handler installed in the main thread


@contextlib.contextmanager
def interrupts() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Interrupted` in the driver's main thread, and a
    local worker that dies on its own :class:`WorkerLost` (see :func:`local_workers`).

    (Beam's job service otherwise swallows a SIGINT to the driver alone, SIGTERM would
    kill it without cleanup, and a dead worker would leave it waiting for ever.)
    Outside the main thread this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, _frame: Any) -> None:
        if _LOST:
            raise WorkerLost(_LOST.pop())
        raise Interrupted(signum)

    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    _HANDLING.set()
    try:
        yield
    finally:
        _HANDLING.clear()
        _LOST.clear()
        for s, h in old.items():
            signal.signal(s, h)


def _how_it_died(exc: BaseException | None) -> str:
    """``exited with code 3`` / ``was killed by SIGKILL (out of memory?)``, from Beam's
    "Worker subprocess exited with return code N".

    >>> _how_it_died(RuntimeError("Worker subprocess exited with return code -9"))
    'was killed by SIGKILL (out of memory?)'
    >>> _how_it_died(RuntimeError("Worker subprocess exited with return code 3"))
    'exited with code 3'
    """
    import re

    m = re.search(r"return code (-?\d+)", str(exc))
    code = int(m.group(1)) if m else 1
    if code >= 0:
        return f"exited with code {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = f"signal {-code}"
    return f"was killed by {name}" + (" (out of memory?)" if -code == signal.SIGKILL else "")


# --- local Beam worker processes -----------------------------------------------------------

_WORKERS: set[subprocess.Popen] = set()


BEAM_WORKER = "-m apache_beam.runners.worker.sdk_worker_main"


class _WorkerPopen(subprocess.Popen):
    """Beam's SDK worker subprocess, made to stop with its driver (see :func:`local_workers`)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        kw["start_new_session"] = True  # its own session: a terminal's Ctrl-C reaches the driver only
        cmd = args[0] if args else kw.get("args")
        if kw.get("shell") and isinstance(cmd, str) and BEAM_WORKER in cmd:
            # the worker itself (no shell in between) is the child, via pipelines.orchestration.worker
            cmd = "exec " + cmd.replace(BEAM_WORKER, "-m pipelines.orchestration.worker")
            kw["env"] = dict(kw.get("env") or os.environ, WORDLE_LAB_DRIVER_PID=str(os.getpid()))
            args = (cmd, *args[1:]) if args else args
            if not args:
                kw["args"] = cmd
        super().__init__(*args, **kw)
        _WORKERS.add(self)


_STOPPING = threading.Event()
# Beam's driver-side threads that fail with a traceback when a worker goes away
_WORKER_THREADS = ("run_worker", "beam_control_read", "read_grpc_client_inputs")


def kill_workers() -> int:
    """Kill every local SDK worker process group started by this driver; how many were alive."""
    n = 0
    _STOPPING.set()  # their watcher threads' "exited with return code -9" is expected now
    for p in list(_WORKERS):
        if p.poll() is None:
            n += 1
            with contextlib.suppress(OSError):
                os.killpg(p.pid, signal.SIGKILL)
        _WORKERS.discard(p)
    return n


@contextlib.contextmanager
def local_workers() -> Iterator[None]:
    """The DirectRunner's multi-processing workers stop with the driver, on every exit path.

    Beam 2.77 starts them with ``subprocess.Popen(cmd, shell=True)`` from
    ``local_job_service`` and leaves them running when the driver is killed; here
    each is started in its own session (a Ctrl-C in the terminal reaches the driver
    alone: no worker tracebacks) as :mod:`pipelines.orchestration.worker`, which asks for
    ``PR_SET_PDEATHSIG`` so that even a SIGKILL of the driver takes it down; and every
    one is killed when the stage ends for any reason.
    """
    from apache_beam.runners.portability import local_job_service

    shim = types.SimpleNamespace(**{k: getattr(subprocess, k) for k in dir(subprocess)
                                    if not k.startswith("__")})
    shim.Popen = _WorkerPopen
    old = local_job_service.subprocess
    local_job_service.subprocess = shim  # type: ignore[assignment]  # (a stand-in module)
    old_hook = threading.excepthook
    held: list[Any] = []  # worker-thread failures with no stop or death behind them (yet)

    def hook(args: Any) -> None:
        name = getattr(args.thread, "name", "")
        if name == "run_worker" and not _STOPPING.is_set() and _HANDLING.is_set():
            # a worker died that the driver did not stop: the job cannot finish (Beam
            # would wait for it for ever), so the main thread stops as on a SIGTERM
            _LOST.append(_how_it_died(args.exc_value))
            _STOPPING.set()
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGTERM)
            return
        if _STOPPING.is_set() and name in _WORKER_THREADS:
            return  # the expected end of a stopped worker's threads
        if name in _WORKER_THREADS:
            held.append(args)  # a worker's connection dropped: shown at the end unless it died
            return
        old_hook(args)

    threading.excepthook = hook
    _STOPPING.clear()
    try:
        yield
    except BaseException:
        held.clear()  # the stage failed or stopped: its own one line says what happened
        raise
    finally:
        local_job_service.subprocess = old
        kill_workers()
        for args in held:
            old_hook(args)


def summarise_failure(exc: BaseException) -> str:
    """The one line that says what went wrong, from a (possibly worker-side) exception."""
    import re

    text = str(exc)
    found = re.findall(r"^\s*((?:[\w.]+\.)?\w*(?:Error|Exception|Exit|Full)\b.*)$", text, re.M)
    found = [f.strip() for f in found if not f.strip().startswith(("Traceback", "During"))]
    line = found[-1] if found else (text.strip().splitlines() or [type(exc).__name__])[-1].strip()
    if not line.startswith(type(exc).__name__) and not found:
        line = f"{type(exc).__name__}: {line}"
    line = re.sub(r"\s*\[while running '[^']*'\]", "", line)
    return line[:300]


def as_failure(exc: BaseException, gen: Any, what: str) -> PipelineError:
    """A :class:`PipelineError` line for ``exc``, its full trace logged in ``gen``'s staging area."""
    log = log_failure(exc, getattr(gen, "logs_dir", None), what.split(" ", 1)[0])
    where = f"; full trace in {log}" if log else ""
    return PipelineError(f"{what}: {summarise_failure(exc)}{where}")


def _shared_tmp() -> str:
    """The system temp dir, not a run's private one (removed when the run ends)."""
    from .tempdirs import PREFIX

    tmp = tempfile.gettempdir()
    return os.path.dirname(tmp) if os.path.basename(tmp).startswith(PREFIX) else tmp


def log_failure(exc: BaseException, logs_dir: str | None, stage: str) -> str | None:
    """Write the full traceback under ``logs_dir``; returns the log's path (None if impossible)."""
    import traceback

    captured = _CAPTURED.take()
    text = "".join([f"stage: {stage}\n",
                    *traceback.format_exception(type(exc), exc, exc.__traceback__),
                    *(["\nwhat the runner logged:\n"] + [line + "\n" for line in captured]
                      if captured else [])])
    name = f"{time.strftime('%Y%m%dT%H%M%S')}-{stage.replace(' ', '_')}.log"
    if logs_dir and "://" in logs_dir:  # a run's logs in an object store
        from wordle_core.files import write_whole

        path = sink.FileSystems.join(logs_dir, name)
        try:
            write_whole(path, text.encode())
            return path
        except OSError:
            pass
    # the run's own logs directory; when that cannot be written (a full disk), the temp dir
    for where in ([logs_dir] if logs_dir and "://" not in logs_dir else []) + \
            [os.path.join(_shared_tmp(), "wordle-lab-logs")]:
        path = os.path.join(where, name)
        try:
            os.makedirs(where, exist_ok=True)
            with open(path, "w") as fh:
                fh.write(text)
            return path
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(path)
    return None


@dataclass
class RunResult:
    tables: list[str]
    files: list[str]
    seconds: float
    runner: str
    counters: dict[str, int] = field(default_factory=dict)
    dry_run: bool = False
    beam_result: Any = None
    reused: tuple[int, int] = (0, 0)  # (finished shards reused, shards)


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
        if exc.errno in MACHINE_ERRNOS:
            raise  # a full disk: one line, exit 1 (errors.one_line_errors)
        raise ConfigError(f"output directory {output!r} is not writable: {exc.strerror or exc}") from None
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


def dask_partitions(args: list[str], workers: int) -> list[str]:
    """``--dask_npartitions`` for a local cluster of ``workers``: two partitions per worker,
    unless the arguments already choose a partitioning.

    Beam's Dask runner otherwise puts up to 128 elements into one partition of a
    pipeline's ``Create``, and everything downstream keeps that partitioning: a stage of
    up to 256 work shards would run on one worker while the others wait. A ``Create`` of
    fewer elements gets fewer partitions (one element each). Each partition sets its
    DoFn up once, so two per worker cost little.
    """
    if any(a.startswith(("--dask_npartitions", "--dask_partition_size")) for a in args):
        return []
    return [f"--dask_npartitions={2 * max(1, workers)}"]


class _NoInterruptTraces(logging.Filter):
    """Drop Beam's ERROR record of a DoFn that an interrupt stopped (a Ctrl-C is one line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        info = record.exc_info
        return not (info and info[1] is not None and interrupt_in(info[1]) is not None)


_NO_INTERRUPT_TRACES = _NoInterruptTraces()


class _Captured(logging.Handler):
    """Beam's and Dask's error records (a failing worker's whole traceback, forwarded by the
    local job service), kept for the failure's log file instead of the terminal."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if len(self.lines) < 1000:
            with contextlib.suppress(Exception):
                self.lines.append(self.format(record))

    def take(self) -> list[str]:
        out, self.lines = self.lines, []
        return out


_CAPTURED = _Captured()


def _quiet_beam() -> None:
    # Worker log lines are forwarded at WARNING by the local job service: too noisy; a
    # failing worker's traceback (ERROR) goes to the failure's log file, named in its line.
    _CAPTURED.take()  # what an earlier stage logged is not this one's
    for name in ("apache_beam", "distributed"):
        log = logging.getLogger(name)
        log.setLevel(logging.ERROR)
        if _CAPTURED not in log.handlers:
            log.addHandler(_CAPTURED)
        log.propagate = False
    common = logging.getLogger("apache_beam.runners.common")
    if _NO_INTERRUPT_TRACES not in common.filters:
        common.addFilter(_NO_INTERRUPT_TRACES)


def interrupt_in(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C / SIGTERM behind ``exc``, if any.

    With the in-memory DirectRunner a DoFn runs in the driver's thread, so the signal
    handler's exception is raised inside it, and Beam re-raises it wrapped
    (``RuntimeError: KeyboardInterrupt [while running ...]``); the chain keeps it.
    """
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return e
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return None


@dataclass
class Stage:
    """One stage of a job, for the whole-job progress line: work items and their weight.

    ``weight`` is the estimated cost of one item relative to the others (seconds,
    roughly); the ETA corrects it by what the stages so far actually took.
    """

    name: str
    items: int
    weight: float = 1.0
    games_per_item: int = 0
    done: int = 0  # finished before this run (reused shards)
    seconds: float = 0.0
    finished: bool = False


class JobProgress:
    """The whole job's progress on stderr: current stage, games/s, an ETA for all stages.

    Workers of local runs bump a count file per process in a temporary directory (see
    :class:`pipelines.transforms._Progress`); a driver thread sums those files. On a
    terminal the line is redrawn every half second; otherwise a line every 30 s. The
    temporary directory is removed on every exit path (:meth:`close`).
    """

    def __init__(self, stages: list[Stage], *, enabled: bool = True, stream: Any = None) -> None:
        self.stages = {s.name: s for s in stages}
        self.order = [s.name for s in stages]
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.pdir: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._current: Stage | None = None
        self._t_stage = 0.0
        self._last_line = 0.0
        self._drawn = False

    def add(self, stage: Stage) -> None:
        if stage.name not in self.stages:
            self.order.append(stage.name)
        self.stages[stage.name] = stage

    # time model --------------------------------------------------------------------------
    def _calibration(self) -> float:
        est = sum(s.weight * (s.items - s.done) for s in self.stages.values() if s.finished)
        real = sum(s.seconds for s in self.stages.values() if s.finished)
        return real / est if est > 0 and real > 0 else 1.0

    def eta(self, now_done: int, elapsed: float) -> float | None:
        cur = self._current
        if cur is None:
            return None
        new = now_done - cur.done
        left_here = max(cur.items - now_done, 0)
        if new > 0 and elapsed > 1:
            here = left_here * elapsed / new
            cal = (elapsed / new) / cur.weight if cur.weight > 0 else self._calibration()
        else:
            cal = self._calibration()
            here = left_here * cur.weight * cal
        later = sum(s.weight * (s.items - s.done) for s in self.stages.values()
                    if not s.finished and s is not cur) * cal
        return here + later

    # drawing -------------------------------------------------------------------------------
    def _count(self) -> int:
        total = 0
        if self.pdir:
            for f in os.listdir(self.pdir):
                if not f.endswith(".count"):
                    continue
                with contextlib.suppress(OSError, ValueError):
                    total += int(Path(self.pdir, f).read_text() or 0)
        return total

    def _line(self, final: bool = False) -> None:
        cur = self._current
        if cur is None:
            return
        done = cur.items if final else min(cur.items, cur.done + self._count())
        elapsed = time.perf_counter() - self._t_stage
        pos = self.order.index(cur.name) + 1
        parts = [f"[{pos}/{len(self.order)} {cur.name}] {done:,}/{cur.items:,}"]
        if cur.items:
            parts.append(f"{100 * done / cur.items:.0f}%")
        new = done - cur.done
        if cur.games_per_item and new and elapsed > 0:
            parts.append(f"{new * cur.games_per_item / elapsed:,.0f} games/s")
        eta = self.eta(done, elapsed)
        if eta is not None and not final:
            parts.append(f"job ETA {_clock(eta)}")
        line = "  ".join(parts)
        if self.tty:
            self.stream.write("\r\x1b[2K" + line)
            self._drawn = True
        elif final or time.perf_counter() - self._last_line >= 30:
            self.stream.write(line + "\n")
            self._last_line = time.perf_counter()
        self.stream.flush()

    @contextlib.contextmanager
    def stage(self, name: str, local: bool = True, base: str | None = None) -> Iterator[str | None]:
        """Track stage ``name``; yields the directory workers count into (None if remote).

        ``base``: where that directory goes (the run's staging area, so that even a
        killed run's count files go away with it); default the system temp directory.
        """
        cur = self.stages[name]
        self._current = cur
        self._t_stage = time.perf_counter()
        self._last_line = self._t_stage
        self.pdir = None
        if self.enabled and local:
            if base:
                os.makedirs(base, exist_ok=True)
            self.pdir = tempfile.mkdtemp(prefix="wordle-lab-progress-", dir=base)
        self._stop.clear()
        if self.enabled:
            self._thread = threading.Thread(target=self._poll, daemon=True)
            self._thread.start()
        ok = False
        try:
            yield self.pdir
            ok = True
        finally:
            cur.seconds = time.perf_counter() - self._t_stage
            self._stop.set()
            if self._thread:
                self._thread.join()
                self._thread = None
            if ok and self.enabled:  # every stage ends on its line, the last at N/N
                self._line(final=True)
            if self._drawn:
                self.stream.write("\n")
                self._drawn = False
            cur.finished = ok
            self.close()

    def note(self, text: str, final: bool = False) -> None:
        """A line of a step outside the stages (compiling the kernels): redrawn in place on
        a terminal, one line each otherwise; ``final`` ends it."""
        if not self.enabled:
            return
        if self.tty:
            self.stream.write("\r\x1b[2K" + text + ("\n" if final else ""))
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def timed(self, name: str) -> contextlib.AbstractContextManager:
        """A driver-side stage (report, publish): timed, no worker counts."""
        return self.stage(name, local=False)

    def _poll(self) -> None:
        while not self._stop.wait(0.5):
            with contextlib.suppress(Exception):
                self._line()

    def close(self) -> None:
        if self.pdir:
            shutil.rmtree(self.pdir, ignore_errors=True)
            self.pdir = None

    def summary(self) -> str:
        done = [self.stages[n] for n in self.order if self.stages[n].finished]
        return "time per stage: " + ", ".join(f"{s.name} {s.seconds:.1f} s" for s in done)


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _counters(result: Any) -> dict[str, int]:
    try:
        res = result.metrics().query()
    except Exception:
        return {}
    out: dict[str, int] = {}
    for c in res.get("counters", []):
        out[c.key.metric.name] = out.get(c.key.metric.name, 0) + int(c.committed or c.attempted or 0)
    return out


def is_dry(args: list[str]) -> bool:
    return any(a in ("--dry_run", "--dry_run=True", "--dry_run=true") for a in args)


def execute(
    build: Callable[..., Any],
    gen: Any,
    tables: list[str],
    beam_args: list[str],
    *,
    shards: int = 1,
    progress: JobProgress | bool | None = None,
    stage: str = "pipeline",
    dask_workers: int | None = None,
    total: int = 0,
    desc: str | None = None,
    read_back: Callable[[], beam.PTransform] | None = None,
    warm: Callable[[], Any] | None = None,
) -> RunResult:
    """Run ``build`` and stage its tables in the generation ``gen`` (sealed on success).

    ``build(pipeline, progress_dir, emit=...)`` applies the stage's named composite,
    built there with everything it needs (nothing is changed on a transform afterwards).
    ``read_back`` (given for a stage whose shards are kept): on a local run (the
    DirectRunner, a Dask cluster on this machine) the tables are written apart from the
    work: ``build`` is called with ``emit=False``, so the first pipeline only computes the
    shards not yet finished and keeps each in its file; a second pipeline applies
    ``read_back()`` (the same composite reading every shard back, see
    :meth:`pipelines.orchestration.shards.Resume.read_back`) and writes the tables. Its workers are new
    processes, so the tables' grouping and writing no longer come on top of what the
    play's strategies and searches hold (the largest worker of ``configs/full.yaml``
    peaked in that last minute). On a service (Dataflow, Flink, Spark) one job does both
    (``emit=True``), as a second job would cost a second start-up. The records, and so the
    tables, are the same either way: a shard's file holds exactly the pairs it emits.

    ``warm``: called first on a local run, before the stage starts (a step of its own, not
    time in the stage's ETA): :func:`pipelines.orchestration.warm.compile_first`, so that the workers load
    the engine's compiled kernels instead of each compiling them.

    Publishing is the generation's commit (:mod:`pipelines.orchestration.generation`), done by the
    caller once every stage of the run succeeded. ``gen`` may also be an output
    directory: then this one stage is its own generation, published on success
    (``total``/``desc``/``progress=True`` describe its progress line).
    """
    if isinstance(gen, str):
        return _execute_alone(build, gen, tables, beam_args, shards=shards, progress=progress,
                              stage=desc or stage, dask_workers=dask_workers, total=total)
    if not isinstance(progress, JobProgress):
        progress = None
    args = list(beam_args)
    with contextlib.ExitStack() as stack:
        stack.enter_context(private_tempdir())  # Beam's and Dask's temp dirs, removed at exit
        if dask_workers:
            address = stack.enter_context(local_dask_cluster(dask_workers))
            args = [a for a in args if not a.startswith(("--runner", "--dask_client_address"))]
            args += [f"--runner={DASK_RUNNER}", f"--dask_client_address={address}",
                     *dask_partitions(args, dask_workers)]
        args = check_beam_args(args)
        runner = runner_name(args)
        dry = is_dry(args)
        _quiet_beam()
        # Progress files only where workers share this machine's disk (local runs).
        local = (runner == "DirectRunner" or bool(dask_workers) or _local_dask(args)) and not dry
        prog = progress or JobProgress([Stage(stage, 0)], enabled=False)
        if stage not in prog.stages:
            prog.add(Stage(stage, 0))
        t0 = time.perf_counter()
        try:
            base = gen.root if "://" not in gen.root else None
            split = read_back is not None and local
            if warm is not None and local:
                warm()  # before the stage: its own step, not time inside the stage's ETA
            with prog.stage(stage, local=local, base=base) as pdir, local_workers():
                pipeline = beam.Pipeline(options=PipelineOptions(args))
                pairs = build(pipeline, pdir, emit=not split)
                if not split:
                    _ = pairs | "WriteTables" >> sink.WriteTables(gen.root, tables, shards)
                result = _run(pipeline, runner, stage)
                if split and read_back is not None:  # the tables, by fresh workers, from the kept shards
                    writer = beam.Pipeline(options=PipelineOptions(args))
                    _ = (writer | "ReadShards" >> read_back()
                         | "WriteTables" >> sink.WriteTables(gen.root, tables, shards))
                    _run(writer, runner, stage)
                if not dry:
                    gen.seal(tables, shards)
        except (WordleError, KeyboardInterrupt):
            raise
        except Exception as exc:  # worker-side or runner error: one line, the trace in a log
            stop = interrupt_in(exc)
            if stop is not None:  # a Ctrl-C / SIGTERM inside a DoFn (in-memory runner)
                raise (stop if isinstance(stop, Interrupted) else Interrupted(signal.SIGINT)) from None
            raise as_failure(exc, None if dry else gen, f"{stage} failed on the {runner}") from exc
        seconds = time.perf_counter() - t0
    counters = {} if dry else _counters(result)
    files = [] if dry else [sink.FileSystems.join(gen.stage(t), sink.shard_name(t, i, shards))
                            for t in tables for i in range(shards)]
    return RunResult(tables, files, seconds, runner, counters, dry, result)


def _run(pipeline: beam.Pipeline, runner: str, stage: str) -> Any:
    """Run ``pipeline`` to the end; a failed or cancelled run is one :class:`PipelineError`."""
    result = pipeline.run()
    try:
        result.wait_until_finish()
    finally:
        client = getattr(result, "client", None)  # DaskRunner: close before the cluster
        if client is not None:
            client.close()
    state = str(getattr(result, "state", "DONE"))
    if "FAIL" in state.upper() or "CANCEL" in state.upper():
        raise PipelineError(f"{stage}: the {runner} reported {state}")
    return result


def _execute_alone(build: Callable[[beam.Pipeline, str | None], Any], output: str, tables: list[str],
                   beam_args: list[str], *, shards: int, progress: Any, stage: str,
                   dask_workers: int | None, total: int) -> RunResult:
    from . import generation

    if is_dry(beam_args):
        gen = generation.Generation(output, generation.DRY_RUN, "-", "-")
    else:
        output = ensure_output(output)
        gen = generation.begin(output, generation.config_hash({"stage": stage, "tables": tables}), "-")
    prog = progress if isinstance(progress, JobProgress) else JobProgress(
        [Stage(stage, total)], enabled=progress is not False)
    try:
        res = execute(build, gen, tables, beam_args, shards=shards, progress=prog, stage=stage,
                      dask_workers=dask_workers)
        if not res.dry_run:
            res.files = gen.commit(list(tables))
    except BaseException:
        if not is_dry(beam_args):
            gen.release()
        raise
    return res


def local_dask_address(args: list[str]) -> bool:
    """Does ``--dask_client_address`` name a cluster on this machine?"""
    return _local_dask(args)


def _local_dask(args: list[str]) -> bool:
    for a in args:
        if a.startswith("--dask_client_address="):
            return "127.0.0.1" in a or "localhost" in a
    return False
