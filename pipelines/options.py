"""Command-line options shared by every pipeline: config flags, then Beam's own.

``--config`` plus the override flags (``--lexicon --openers --strategies --modes
--output`` ...) are ours; every other flag goes to Beam (``--runner``,
``--direct_num_workers``, ``--dask_client_address``, ``--project`` ...). A flag that
neither we nor any Beam options class knows is an error (one line, exit 2) instead
of being silently discarded, as Beam itself would do.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Sequence
from typing import Any

from .config import ConfigError, JobConfig, build_config, check_flags

LOCAL_RUNNER_ARGS = ["--runner=DirectRunner", "--direct_running_mode=multi_processing",
                     "--direct_num_workers=0"]
DASK_RUNNER = "apache_beam.runners.dask.dask_runner.DaskRunner"


def add_job_args(p: argparse.ArgumentParser, *, play: bool = True) -> None:
    """Our flags; each overrides the config key of the same name."""
    p.add_argument("--config", metavar="YAML", help="job config (see configs/); flags override it")
    p.add_argument("--lexicon", help="built-in lexicon name (default nyt2023, today's NYT game)")
    p.add_argument("--output", metavar="DIR", help="output directory (tables go to DIR/<table>/)")
    p.add_argument("--openers", help="all | w1,w2 | top:N[:MEASURE][+w1,w2]")
    if play:
        p.add_argument("--strategies", help="comma-separated strategy names (registry)")
        p.add_argument("--modes", help="normal,hard")
        p.add_argument("--worst-games", type=int, dest="worst_games",
                       help="worst games kept per summary (default 5)")
    p.add_argument("--shards", type=int, help="Avro files per table (default 1)")
    p.add_argument("--matrix-path", dest="matrix_path", metavar="PATH",
                   help="pattern matrix .npy for workers (any FileSystems path, e.g. gs://...); "
                        "default: each worker's local cache")
    p.add_argument("--dask-workers", dest="dask_workers", type=int, metavar="N",
                   help="start a local dask.distributed cluster of N worker processes and run on it")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar on stderr")


def add_resume_arg(p: argparse.ArgumentParser) -> None:
    """``--resume`` for the sharded pipelines (:mod:`pipelines.orchestration.shards`)."""
    p.add_argument("--resume", action="store_true",
                   help="continue the unfinished run of the same config in --output: finished "
                        "shards are reused, the rest computed (a different config is refused)")


def config_from(ns: argparse.Namespace, **fixed: Any) -> JobConfig:
    flags = {k: getattr(ns, k, None) for k in ("lexicon", "output", "openers", "strategies", "modes",
                                                "worst_games", "shards")}
    flags.update(fixed)
    check_flags(ns)
    cfg = build_config(getattr(ns, "config", None), **flags)
    check_flags(ns, cfg)
    return cfg


def _beam_parser() -> argparse.ArgumentParser:
    import apache_beam.runners.dask.dask_runner  # noqa: F401  (registers DaskOptions)
    from apache_beam.options.pipeline_options import PipelineOptions

    parser = argparse.ArgumentParser(add_help=False)
    seen: set[type] = set()
    stack = list(PipelineOptions.__subclasses__())
    while stack:
        cls = stack.pop()
        if cls in seen:
            continue
        seen.add(cls)
        stack.extend(cls.__subclasses__())
        with contextlib.suppress(argparse.ArgumentError):  # an option two classes define
            cls._add_argparse_args(parser)  # type: ignore[arg-type]  # (Beam types its own parser)
    return parser


def check_beam_args(args: Sequence[str]) -> list[str]:
    """Beam's flags, checked: unknown ones raise :class:`ConfigError`; runner made explicit.

    Without ``--runner`` the job runs on the local DirectRunner with one worker
    process per core. The runner is always named, because Beam 2.77's default first
    tries to download the Prism runner (no network here).
    """
    args = list(args)
    _, unknown = _beam_parser().parse_known_args(args)
    flags = [a for a in unknown if a.startswith("-")]
    if flags:
        raise ConfigError(f"unknown option {flags[0].split('=')[0]} (not a wordle-lab or Beam option)")
    if unknown:
        raise ConfigError(f"unexpected argument {unknown[0]!r}")
    has = lambda name: any(a == name or a.startswith(name + "=") for a in args)
    if not has("--runner"):
        return _one_thread([*LOCAL_RUNNER_ARGS, *args], args)
    runner = next(a.split("=", 1)[1] if "=" in a else args[args.index(a) + 1]
                  for a in args if a == "--runner" or a.startswith("--runner="))
    if runner.endswith("DirectRunner") and not has("--direct_running_mode"):
        args += LOCAL_RUNNER_ARGS[1:]
    return _one_thread(args, args) if runner.endswith("DirectRunner") else args


THREAD_MODES = ("in_memory", "multi_threading")


def _one_thread(args: list[str], given: list[str]) -> list[str]:
    """A DirectRunner running in one process (``in_memory``, ``multi_threading``) with one
    worker thread: its workers would be threads sharing one process's engine caches (the
    strategies' memos, the search kernels' scratch), which are not made for threads
    (measured: `default`'s hard-mode trees changed from run to run, or the run stopped).
    ``--direct_num_workers`` above 1 given with such a mode is refused, in one line.

    >>> _one_thread(["--direct_running_mode=in_memory", "--direct_num_workers=0"], [])[-1]
    '--direct_num_workers=1'
    >>> _one_thread(["--direct_running_mode=multi_processing"], [])
    ['--direct_running_mode=multi_processing']
    """
    if _last(args, "--direct_running_mode") not in THREAD_MODES:
        return args
    asked = _last(given, "--direct_num_workers")
    if asked is not None and asked != "1":
        raise ConfigError(f"--direct_num_workers={asked} with --direct_running_mode="
                          f"{_last(args, '--direct_running_mode')} would run the workers as threads "
                          "sharing one process's caches; use --direct_running_mode=multi_processing")
    return [*args, "--direct_num_workers=1"]


def _last(args: Sequence[str], name: str) -> str | None:
    """The value of the last ``name=VALUE`` or ``name VALUE`` in ``args``, or None."""
    value = None
    for i, a in enumerate(args):
        if a.startswith(name + "="):
            value = a.split("=", 1)[1]
        elif a == name and i + 1 < len(args):
            value = args[i + 1]
    return value


def runner_name(args: Sequence[str]) -> str:
    for i, a in enumerate(args):
        if a.startswith("--runner="):
            return a.split("=", 1)[1].rsplit(".", 1)[-1]
        if a == "--runner" and i + 1 < len(args):
            return args[i + 1].rsplit(".", 1)[-1]
    return "DirectRunner"

