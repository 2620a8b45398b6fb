"""The pipelines on ``gs://``, against a GCS API emulator (the ``gcs_emulator`` fixture).

Every stage reads and writes through Beam's ``FileSystems`` (via
:func:`wordle_core.files.location`): the main job on ``gs://`` must publish the same
bytes as on a local disk, a killed run must resume there byte-identically, and a
damaged object must be detected (a published table refused, a kept shard recomputed).
Runs are real ``wordle-lab`` processes with ``STORAGE_EMULATOR_HOST`` in their
environment, so the driver and every worker process talk to the emulator.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from wordle_core.errors import WordleError
from wordle_core.files import UrlPath, backend_for, location, write_whole
from wordle_core.tables import avro

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["run", "--config", "configs/quick.yaml", "--no-progress"]
LOCAL = ["--runner=DirectRunner", "--direct_running_mode=multi_processing", "--direct_num_workers=2"]
MINI = ["pipeline", "games", "--lexicon", "mini-nerdle", "--openers", "all", "--strategies", "entropy",
        "--modes", "normal,hard", "--no-progress"]
MINI_SHARDS = 206  # 206 openers x 2 modes, cut into shards of 2 (as in test_resume)
KEPT = (".avro", ".csv", ".png")  # what a run publishes that must not depend on where it went


def _wordle_lab(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wordle_core", *args], cwd=ROOT, timeout=timeout,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True)


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "wordle_core", *args], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _objects(url: str) -> list[str]:
    """Names of every object under ``url``, relative to it."""
    prefix = url.rstrip("/") + "/"
    return [u[len(prefix):] for u in backend_for(url).listing(prefix)]


def _published_remote(url: str) -> dict[str, bytes]:
    return {n: location(f"{url}/{n}").read_bytes() for n in _objects(url)
            if n.endswith(KEPT) and not n.startswith(".")}


def _published_local(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.suffix in KEPT and not any(s.startswith(".") for s in p.relative_to(out).parts)}


def _fresh(bucket: str, name: str) -> str:
    return f"{bucket}/{name}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def quick_local(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("quick-local")
    res = _wordle_lab(*QUICK, "--output", str(out))
    assert res.returncode == 0, res.stderr[-2000:]
    return out


@pytest.fixture(scope="module")
def quick_gcs(gcs_emulator: str) -> tuple[str, subprocess.CompletedProcess]:
    out = _fresh(gcs_emulator, "quick")
    return out, _wordle_lab(*QUICK, "--output", out)


def test_quick_run_on_gcs_publishes_the_local_bytes(quick_gcs, quick_local) -> None:
    out, res = quick_gcs
    assert res.returncode == 0, res.stderr[-2000:]
    assert f"report: {out}/report" in res.stdout  # not a local path made of the URL
    remote, local = _published_remote(out), _published_local(quick_local)
    assert {n.split("/")[0] for n in local} == {"opener_scores", "opener_summaries", "hard_verdicts",
                                                "trees", "report"}
    assert sorted(remote) == sorted(local)
    assert [n for n in local if remote[n] != local[n]] == []
    names = _objects(out)
    assert not [n for n in names if n.startswith(".staging-")]  # published, staging removed
    assert "_generation.json" in names
    for table in ("opener_summaries", "opener_scores", "hard_verdicts", "trees"):
        assert avro.read_records(out, table) == avro.read_records(quick_local, table)


def test_quick_run_on_dask_to_gcs_publishes_the_local_bytes(gcs_emulator, quick_local) -> None:
    """The Dask runner (a local cluster of 2 worker processes, which reach the emulator
    through the inherited ``STORAGE_EMULATOR_HOST``) writing to ``gs://``: every published
    table, CSV and plot is the local DirectRunner run's bytes."""
    pytest.importorskip("distributed")
    out = _fresh(gcs_emulator, "quick-dask")
    res = _wordle_lab(*QUICK, "--output", out, "--dask-workers", "2")
    assert res.returncode == 0, res.stderr[-2000:]
    assert "on DaskRunner" in res.stderr and "on DirectRunner" not in res.stderr, res.stderr[-2000:]
    remote, local = _published_remote(out), _published_local(quick_local)
    assert sorted(remote) == sorted(local) and len(local) > 10
    assert [n for n in local if remote[n] != local[n]] == []
    assert not [n for n in _objects(out) if n.startswith(".staging-")]


def test_report_rank_and_tree_read_from_gcs(quick_gcs, quick_local, gcs_emulator) -> None:
    out, res = quick_gcs
    assert res.returncode == 0, res.stderr[-2000:]
    again = _fresh(gcs_emulator, "report")
    rep = _wordle_lab("report", "--input", out, "--output", again)
    assert rep.returncode == 0, rep.stderr
    assert rep.stdout.startswith(f"report: {again}/index.html (")  # the page a person opens
    for name in ("rankings.csv", "hard_mode.csv", "opener_scores.csv"):
        assert location(f"{again}/{name}").read_bytes() == (quick_local / "report" / name).read_bytes()
    rank = _wordle_lab("rank", "--report", f"{out}/report", "--top", "3")
    assert rank.returncode == 0, rank.stderr
    assert rank.stdout == _wordle_lab("rank", "--report", str(quick_local / "report"), "--top", "3").stdout
    tree = ["--lexicon", "wordle", "--strategy", "minimax", "--opener", "salet", "--json"]
    sim = _wordle_lab("simulate", "--tree", f"{out}/trees", *tree)
    assert sim.returncode == 0, sim.stderr
    assert '"totalCount": 2315' in sim.stdout
    assert sim.stdout == _wordle_lab("simulate", "--tree", str(quick_local / "trees"), *tree).stdout


@pytest.fixture(scope="module")
def mini_local(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mini-local")
    res = _wordle_lab(*MINI, "--output", str(out), *LOCAL)
    assert res.returncode == 0, res.stderr[-2000:]
    return out


def _shard_objects(out: str) -> list[str]:
    return [n for n in _objects(out) if "/_shards/play/shard-" in n and n.endswith(".pkl")]


def test_killed_run_resumes_on_gcs_byte_identically(gcs_emulator, mini_local) -> None:
    out = _fresh(gcs_emulator, "resume")
    proc = _start(*MINI, "--output", out, *LOCAL)
    t0 = time.time()
    while len(_shard_objects(out)) < MINI_SHARDS // 3:
        if proc.poll() is not None:
            pytest.fail(f"the run ended before it was killed: {proc.stderr.read()[-800:]}")
        if time.time() - t0 > 300:
            proc.kill()
            pytest.fail("no shards appeared in time")
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    time.sleep(0.5)
    assert not [n for n in _objects(out) if n.startswith("opener_summaries/")]  # nothing published
    kept = _shard_objects(out)
    # a damaged shard object is detected by its checksum and computed again
    write_whole(f"{out}/{kept[0]}", location(f"{out}/{kept[0]}").read_bytes()[:-7] + b"damaged")
    res = _wordle_lab(*MINI, "--output", out, *LOCAL, "--resume")
    assert res.returncode == 0, res.stderr[-2000:]
    assert "resuming generation" in res.stderr or "reused" in res.stdout + res.stderr
    line = next(x for x in (res.stdout + res.stderr).splitlines() if "reused" in x)
    assert int(line.split("reused ", 1)[1].split()[0]) == len(kept)
    assert _published_remote(out) == _published_local(mini_local)
    assert not [n for n in _objects(out) if n.startswith(".staging-")]


def test_damaged_published_object_is_refused(quick_gcs, gcs_emulator) -> None:
    out, res = quick_gcs
    assert res.returncode == 0, res.stderr[-2000:]
    copy = _fresh(gcs_emulator, "damaged")
    for name in _objects(f"{out}/trees"):
        write_whole(f"{copy}/trees/{name}", location(f"{out}/trees/{name}").read_bytes())
    write_whole(f"{copy}/_generation.json", location(f"{out}/_generation.json").read_bytes())
    assert len(avro.read_records(copy, "trees")) == len(avro.read_records(out, "trees"))
    shard = next(n for n in _objects(f"{copy}/trees") if n.endswith(".avro"))
    data = bytearray(location(f"{copy}/trees/{shard}").read_bytes())
    data[len(data) // 2] ^= 0xFF
    write_whole(f"{copy}/trees/{shard}", bytes(data))
    with pytest.raises(avro.TableError, match="does not match its manifest"):
        avro.read_records(copy, "trees")
    sim = _wordle_lab("simulate", "--tree", f"{copy}/trees", "--strategy", "minimax", "--opener", "salet")
    assert sim.returncode == 2
    assert sim.stderr.count("\n") == 1 and "does not match its manifest" in sim.stderr, sim.stderr
    assert "Traceback" not in sim.stderr


def test_url_path_is_a_prefix_store(gcs_emulator) -> None:
    base = UrlPath(_fresh(gcs_emulator, "paths"))
    assert not base.exists() and not base.is_dir() and base.iterdir() == []
    write_whole(base / "t" / "a-00000-of-00001.avro", b"x")
    write_whole(base / "t" / "_manifest.json", b"{}")
    assert base.is_dir() and not base.is_file()
    assert [p.name for p in base.iterdir()] == ["t"]
    assert [p.name for p in (base / "t").glob("a-*-of-*.avro")] == ["a-00000-of-00001.avro"]
    assert (base / "t" / "_manifest.json").read_text() == "{}"
    assert (base / "t" / "a.avro").suffix == ".avro" and (base / "t").parent == base
    assert sorted([base / "t", base / "a"]) == [base / "a", base / "t"]  # (find_opener_scores sorts)
    with pytest.raises(FileNotFoundError):
        (base / "missing").read_bytes()
    base.remove_tree()
    assert not base.exists()


def _documented(doc: str, heading: str) -> list[str]:
    """The first ``sh`` block after ``heading`` in ``doc``, as one command's argv."""
    import shlex

    text = (ROOT / doc).read_text()
    block = text.split(heading, 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return shlex.split(block.replace("\\\n", " ").replace("$PWD", str(ROOT)))


def test_dataflow_dry_run_as_documented(gcs_emulator) -> None:
    pytest.importorskip("apache_beam.runners.dataflow.dataflow_runner")
    out = _fresh(gcs_emulator, "dry")
    argv = _documented("docs/how-to/run-on-dataflow.md", "## The offline check")
    assert argv[:2] == ["wordle-lab", "run"] and "--dry_run=True" in argv
    argv = [a.replace("gs://BUCKET/quick", out).replace("gs://BUCKET", gcs_emulator)
            .replace("PROJECT", "wordle-lab-test") for a in argv[1:]]
    res = _wordle_lab(*argv, "--no-progress")
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stderr.count("DataflowRunner job built") == 2, res.stderr
    assert "dry run: every job built, none submitted" in res.stderr
    assert "Traceback" not in res.stderr
    assert _objects(out) == []  # nothing written


def test_the_documented_placeholders_are_one_line_at_once() -> None:
    """The dry run copied with its placeholders (``gs://BUCKET``, ``PROJECT``) left in: one
    line naming what to replace, exit 2, in seconds (Beam would look for a default bucket
    for minutes). No emulator: nothing may be contacted."""
    import time

    argv = _documented("docs/how-to/run-on-dataflow.md", "## The offline check")
    t0 = time.perf_counter()
    res = _wordle_lab(*argv[1:], "--no-progress", timeout=60)
    assert time.perf_counter() - t0 < 30
    assert res.returncode == 2 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    assert "'BUCKET' is not a Cloud Storage bucket name" in res.stderr
    fixed = [a.replace("gs://BUCKET", "gs://my-bucket") for a in argv[1:]]
    res = _wordle_lab(*fixed, "--no-progress", timeout=60)
    assert res.returncode == 2 and "--project=PROJECT: not a Google Cloud project ID" in res.stderr


def test_matrix_command_writes_what_workers_verify(gcs_emulator) -> None:
    from pipelines.transforms import worker_matrix
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import pattern_matrix

    path = _fresh(gcs_emulator, "matrix") + "/mini-nerdle.wlm"
    res = _wordle_lab_module("pipelines.matrix", "--lexicon", "mini-nerdle", "--output", path)
    assert res.returncode == 0, res.stderr
    assert f"--matrix-path {path}" in res.stdout
    lex = load_lexicon("mini-nerdle")
    assert (worker_matrix(lex, path) == pattern_matrix(lex)).all()
    other = load_lexicon("primel")
    bad = _wordle_lab_module("pipelines.matrix", "--lexicon", "mini-nerdle", "--output", path[:-4] + ".npy")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and ".wlm" in bad.stderr
    with pytest.raises(WordleError, match="built for another lexicon"):
        worker_matrix(other, path)


def _wordle_lab_module(module: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True)
