"""Shared fixtures: a small lexicon for fast tests and the full ones for a few checks.

The pattern-matrix cache goes to a per-session temporary directory so tests never
depend on (or pollute) the user's cache, and every temporary directory the session makes
(Beam's ``TestPipeline`` runs each leave a ``/tmp/beam-temp*`` behind) goes under one
private directory that is removed when the session ends.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from pipelines.orchestration.tempdirs import private_tempdir
from wordle_core.game.lexicon import Lexicon, load_lexicon


@pytest.fixture(scope="session", autouse=True)
def _private_tmp() -> Iterator[str]:
    with private_tempdir() as d:
        yield d


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(_private_tmp: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    os.environ["WORDLE_LAB_CACHE"] = str(tmp_path_factory.mktemp("wordle-lab-cache"))


@pytest.fixture(scope="session")
def wordle() -> Lexicon:
    return load_lexicon("wordle")


@pytest.fixture(scope="session")
def small_lex() -> Lexicon:
    """300 answers (every 7th of the original list) and 600 guesses (answers + others)."""
    full = load_lexicon("wordle")
    answers = list(full.answers[::7][:300])
    extra = [w for w in full.guesses[::20] if w not in set(answers)][:300]
    return Lexicon.build("small", answers, answers + extra)


def trap_lexicon(name: str = "traps", max_guesses: int = 6) -> Lexicon:
    """Trap-rich lexicon: answers that share four letters with three others (``?ATCH``...),
    so hard-mode positions are often lost (mixed verdicts with 5 guesses)."""
    full = load_lexicon("wordle")
    groups: dict[str, list[str]] = {}
    for w in full.answers:
        for i in range(5):
            groups.setdefault(w[:i] + "*" + w[i + 1:], []).append(w)
    answers = sorted({w for g in groups.values() if len(g) >= 4 for w in g})[:220]
    extra = [w for w in full.guesses[7::97] if w not in set(answers)][:140]
    return Lexicon.build(name, answers, answers + extra, max_guesses=max_guesses)


GCS_BUCKET = "wordle-lab-test"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def gcs_emulator(_private_tmp: str) -> Iterator[str]:
    """A GCS API emulator (``gcp-storage-emulator``, in memory) on 127.0.0.1 for the session.

    Started on a free port with the bucket :data:`GCS_BUCKET` created; sets
    ``STORAGE_EMULATOR_HOST`` (inherited by every process a test starts: drivers, Beam
    and Dask workers), so Beam's ``gs://`` filesystem talks to it; yields ``gs://BUCKET``.
    Stopped, and the variable restored, at the end of the session.
    """
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "gcp_storage_emulator", "start", "--host", "127.0.0.1",
                             "--port", str(port), "--default-bucket", GCS_BUCKET, "--in-memory", "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t0 = time.time()
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        if proc.poll() is not None or time.time() - t0 > 30:
            proc.kill()
            pytest.fail(f"the GCS emulator did not start: {proc.stderr.read().decode()[-500:]}")
        time.sleep(0.1)
    old = os.environ.get("STORAGE_EMULATOR_HOST")
    os.environ["STORAGE_EMULATOR_HOST"] = f"http://127.0.0.1:{port}"
    from pipelines.orchestration.storage import anonymous_under_emulator

    anonymous_under_emulator()  # pipelines was imported before the variable was set
    try:
        yield f"gs://{GCS_BUCKET}"
    finally:
        if old is None:
            os.environ.pop("STORAGE_EMULATOR_HOST", None)
        else:
            os.environ["STORAGE_EMULATOR_HOST"] = old
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
