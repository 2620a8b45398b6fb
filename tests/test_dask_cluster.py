"""A real Dask cluster: ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1.

Started and stopped by the test. The same job (mini-nerdle, every opener, both
modes) on the DirectRunner and on the cluster gives byte-identical tables; with one
worker killed mid-run the job either still finishes with identical tables (Dask
reruns the lost tasks) or fails with one line, and ``--resume`` completes it.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from pipelines.options import DASK_RUNNER
from wordle_core.cli import main

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[1]
JOB = ["pipeline", "games", "--lexicon", "mini-nerdle", "--openers", "all", "--strategies", "entropy",
       "--modes", "normal,hard", "--no-progress"]


def _dask() -> str:
    exe = Path(sys.executable).with_name("dask")
    return str(exe) if exe.exists() else (shutil.which("dask") or pytest.skip("no dask CLI"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tables(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.glob("*/*.avro"))}


class Cluster:
    def __init__(self, n_workers: int = 2) -> None:
        self.port = _free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.procs: list[subprocess.Popen] = []
        common = {"env": self.env, "cwd": ROOT, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL,
                  "start_new_session": True}
        self.scheduler = subprocess.Popen([_dask(), "scheduler", "--host", "127.0.0.1", "--port",
                                           str(self.port), "--no-dashboard"], **common)
        self.procs.append(self.scheduler)
        worker = [_dask(), "worker", self.address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard",
                  "--host", "127.0.0.1"]
        self.workers = [subprocess.Popen([*worker, "--name", f"w{i}"], **common) for i in range(n_workers)]
        self.procs += self.workers
        self.wait_for(n_workers)

    def wait_for(self, n: int, timeout: float = 90) -> None:
        from distributed import Client

        t0 = time.time()
        while True:
            try:
                with Client(self.address, timeout=5) as c:
                    c.wait_for_workers(n, timeout=max(1, timeout - (time.time() - t0)))
                    return
            except OSError:
                if time.time() - t0 > timeout:
                    raise
                time.sleep(0.5)

    def kill_worker(self, i: int) -> None:
        os.killpg(self.workers[i].pid, signal.SIGKILL)

    def close(self) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


@pytest.fixture(scope="module")
def cluster():
    c = Cluster(2)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture(scope="module")
def direct(tmp_path_factory):
    out = tmp_path_factory.mktemp("direct")
    assert main([*JOB, "--output", str(out), "--runner=DirectRunner", "--direct_running_mode=in_memory"]) == 0
    return _tables(out)


def _on(cluster: Cluster) -> list[str]:
    """The documented flags: twice as many partitions as worker processes."""
    return [f"--runner={DASK_RUNNER}", f"--dask_client_address={cluster.address}", "--dask_npartitions=4"]


def test_cluster_equals_direct_runner(cluster, direct, tmp_path, capfd):
    out = tmp_path / "dask"
    assert main([*JOB, "--output", str(out), *_on(cluster)]) == 0
    assert _tables(out) == direct and len(direct) == 1
    err = capfd.readouterr().err
    assert not [x for x in err.splitlines() if "distributed" in x or " INFO " in x], err  # quiet console


def test_worker_killed_mid_run(cluster, direct, tmp_path, capsys):
    out = tmp_path / "dask"
    killed = threading.Event()

    def killer() -> None:
        t0 = time.time()
        while time.time() - t0 < 120:
            if len(list(out.glob(".staging-*/_shards/play/shard-*.pkl"))) >= 20:
                cluster.kill_worker(0)
                killed.set()
                return
            time.sleep(0.05)

    t = threading.Thread(target=killer, daemon=True)
    t.start()
    rc = main([*JOB, "--output", str(out), *_on(cluster)])
    t.join()
    assert killed.is_set()
    err = [x for x in capsys.readouterr().err.splitlines() if x.startswith("wordle-lab")]
    if rc != 0:  # it could not finish: one line, then --resume on the surviving worker completes it
        assert rc == 1 and len(err) == 1, err
        assert main([*JOB, "--output", str(out), *_on(cluster), "--resume"]) == 0
    assert _tables(out) == direct


def test_unreachable_scheduler_is_one_line_within_5_s(tmp_path, capfd):
    out = tmp_path / "never"
    t0 = time.perf_counter()
    rc = main([*JOB, "--output", str(out), f"--runner={DASK_RUNNER}",
               f"--dask_client_address=tcp://127.0.0.1:{_free_port()}"])  # nobody listens there
    seconds = time.perf_counter() - t0
    err = capfd.readouterr().err
    assert rc == 2 and seconds < 5, (rc, seconds)
    assert err.count("\n") == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:" in err, err
    assert not out.exists()  # checked before any work


def test_recipe_in_the_docs_is_the_one_tested():
    """docs/how-to/run-on-dask.md shows the commands :class:`Cluster` runs."""
    doc = (ROOT / "docs/how-to/run-on-dask.md").read_text()
    assert "dask scheduler --host HOST --port 8786 --no-dashboard" in doc
    assert "dask worker tcp://HOST:8786 --nworkers 1 --nthreads 1 --no-dashboard" in doc
    assert f"--runner={DASK_RUNNER}" in doc
    assert "--dask_client_address=tcp://HOST:8786 --dask_npartitions=" in doc
