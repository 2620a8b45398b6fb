"""The cloud path: stage this package as Dataflow would, and fail fast when offline.

Dataflow workers install the job's code from an sdist that Beam's stager builds from
``--setup_file`` with ``python -m build --no-isolation --sdist``: the driver's
environment needs ``build``, ``wheel`` and ``setuptools >= 77`` (the ``gcp`` extra
installs them). :func:`check_cloud_args` checks that before anything starts, and, for a
real submission, that the Dataflow service can be reached at all (a TCP connection with
a few seconds' timeout), so an offline machine gets one line instead of minutes of
retries and a traceback.

:func:`stage_locally` runs Beam's own stager into a local directory instead of GCS,
which tests the whole staging step offline::

    python -m pipelines.orchestration.cloud --setup_file=$PWD/pyproject.toml --staging_location=/tmp/stage
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from urllib.parse import urlparse

from ..config import ConfigError

DEFAULT_ENDPOINT = "https://dataflow.googleapis.com"
CONNECT_TIMEOUT_S = 5.0
DASK_CONNECT_TIMEOUT_S = 3.0  # the scheduler's answer: one line within 5 s in all
STAGER_NEEDS = {"build": (1, 0), "wheel": (0, 40), "setuptools": (77, 0)}


def _flag(args: Sequence[str], name: str) -> str | None:
    for i, a in enumerate(args):
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
        if a == name and i + 1 < len(args):
            return args[i + 1]
    return None


def _version(dist: str) -> tuple[int, ...] | None:
    try:
        raw = metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None
    parts = []
    for p in raw.split(".")[:2]:
        digits = "".join(c for c in p if c.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


def check_dask_scheduler(args: Sequence[str], timeout: float = DASK_CONNECT_TIMEOUT_S) -> None:
    """``--dask_client_address``: the scheduler answers (a TCP connection within ``timeout``
    seconds), checked before any work, so a wrong or stopped scheduler is one line.

    Without this the Dask client retries for its whole connect timeout (30 s by default)
    and the run fails with a traceback from inside Beam's runner.
    """
    address = _flag(args, "--dask_client_address")
    if not address:
        return
    url = urlparse(address if "://" in address else f"tcp://{address}")
    if url.scheme not in ("tcp", "tls"):
        raise ConfigError(f"--dask_client_address {address!r}: give tcp://HOST:PORT (the address "
                          "`dask scheduler` prints)")
    try:
        host, port = url.hostname, url.port or 8786
    except ValueError:
        raise ConfigError(f"--dask_client_address {address!r}: not HOST:PORT") from None
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        why = "timed out" if isinstance(exc, socket.timeout) else (exc.strerror or str(exc))
        raise ConfigError(f"cannot reach the Dask scheduler at {address} ({why}); start it with "
                          "`dask scheduler` or fix --dask_client_address") from None


def check_setup_file(setup_file: str) -> Path:
    """``--setup_file`` exists and this environment can build it (else one-line error)."""
    p = Path(setup_file).expanduser()
    if not p.is_file():
        raise ConfigError(f"--setup_file {setup_file!r} does not exist")
    missing = []
    for dist, need in STAGER_NEEDS.items():
        have = _version(dist)
        if have is None or have < need or (dist == "build" and importlib.util.find_spec("build") is None):
            missing.append(f"{dist}>={'.'.join(map(str, need))}" + (f" (have {'.'.join(map(str, have))})"
                                                                    if have else ""))
    if missing:
        raise ConfigError(f"--setup_file: Beam builds the package with `python -m build`, which needs "
                          f"{', '.join(missing)}: pip install -e '.[gcp]'")
    return p


def check_reachable(url: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """One TCP connection to ``url``'s host, or :class:`CloudUnreachableError` within ``timeout``."""
    u = urlparse(url if "://" in url else f"https://{url}")
    host, port = u.hostname or "", u.port or (443 if u.scheme != "http" else 80)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise CloudUnreachableError(f"cannot reach the Dataflow service at {host}:{port} ({why}); "
                                    "check the network, or add --dry_run=True to build the job "
                                    "without submitting it") from None


class CloudUnreachableError(ConfigError):
    """The cloud service cannot be reached from this machine (a failure: exit code 1)."""

    exit_code = 1


def check_project(project: str | None) -> None:
    """A ``--project`` Dataflow would refuse is one line before any work (Beam's own rule:
    a project ID, or a project number), not a failed job after the first stage."""
    import re

    from apache_beam.options.pipeline_options_validator import PipelineOptionsValidator as V

    if project is not None and not (re.fullmatch(V.PROJECT_ID_PATTERN, project)
                                    or re.fullmatch(V.PROJECT_NUMBER_PATTERN + "+", project)):
        raise ConfigError(f"--project={project}: not a Google Cloud project ID (lowercase letters, "
                          "digits and '-', e.g. my-project-123): put your project's ID there")


def check_cloud_args(args: Sequence[str]) -> None:
    """Before any work: a Dask scheduler answers; for Dataflow, the staging tools and
    (unless a dry run) the service."""
    from wordle_core.files import check_bucket

    for flag in ("--temp_location", "--staging_location", "--gcp_temp_location"):
        check_bucket(_flag(args, flag) or "")  # Beam would look for a default bucket, for minutes
    runner = (_flag(args, "--runner") or "").rsplit(".", 1)[-1]
    if runner == "DaskRunner":
        check_dask_scheduler(args)
    if runner not in ("DataflowRunner", "TestDataflowRunner"):
        return
    check_project(_flag(args, "--project"))
    setup_file = _flag(args, "--setup_file")
    if setup_file:
        check_setup_file(setup_file)
    dry = (_flag(args, "--dry_run") or "").lower() == "true" or "--dry_run" in args
    if not dry:
        check_reachable(_flag(args, "--dataflow_endpoint") or DEFAULT_ENDPOINT)


def stage_locally(setup_file: str, staging_location: str, extra_args: Sequence[str] = ()) -> list[Path]:
    """Build and stage the job's resources with Beam's stager into a local directory.

    The same :class:`~apache_beam.runners.portability.stager.Stager` code path as a
    Dataflow submission, with ``stage_artifact`` copying into ``staging_location``
    instead of uploading. Returns the staged files (the sdist ``workflow.tar.gz`` among them).
    """
    from apache_beam.options.pipeline_options import PipelineOptions
    from apache_beam.runners.portability.stager import Stager

    check_setup_file(setup_file)
    dest = Path(staging_location)
    dest.mkdir(parents=True, exist_ok=True)

    class LocalStager(Stager):
        def stage_artifact(self, local_path_to_artifact: str, artifact_name: str, sha256: str) -> None:
            shutil.copyfile(local_path_to_artifact, artifact_name)

        def commit_manifest(self) -> str:
            return ""

    opts = PipelineOptions([f"--setup_file={Path(setup_file).resolve()}", "--sdk_location=container",
                            *extra_args])
    with tempfile.TemporaryDirectory(prefix="wordle-lab-stage-") as tmp:
        _, names = LocalStager().create_and_stage_job_resources(
            opts, temp_dir=os.path.join(tmp, "build"), staging_location=str(dest))
    return [dest / n for n in names]


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m pipelines.orchestration.cloud",
                                description="Stage the job's package as Dataflow would, into a local dir.")
    p.add_argument("--setup_file", required=True)
    p.add_argument("--staging_location", required=True)
    ns = p.parse_args(argv)
    try:
        files = stage_locally(ns.setup_file, ns.staging_location)
    except (ConfigError, RuntimeError) as exc:
        sys.stderr.write(f"wordle-lab: error: {str(exc).strip().splitlines()[-1]}\n")
        return 2
    for f in files:
        print(f"staged {f} ({f.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
