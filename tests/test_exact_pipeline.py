"""The ``optimal`` pipeline: proven values equal the engine's, parts make it resumable."""

from __future__ import annotations

import csv

import pytest

pytest.importorskip("apache_beam")

import apache_beam as beam
from apache_beam.testing.test_pipeline import TestPipeline as BeamTestPipeline
from apache_beam.testing.util import assert_that, equal_to

from pipelines import optimal
from pipelines.orchestration.shards import Resume, ShardCorruptError
from pipelines.orchestration.sink import read_table
from pipelines.transforms import LexiconSpec
from wordle_core.game.lexicon import load_lexicon
from wordle_core.search.exact import INF, ExactSolver

LEX = "mini-nerdle"  # 206 equations: every proof takes milliseconds
LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]


def _want(openers: list[str], hard: bool) -> dict[str, int | None]:
    lex = load_lexicon(LEX)
    s = ExactSolver(lex, hard=hard)
    out = {}
    for w in openers:
        v = s.opener_value(lex.guess_id(w))
        out[w] = v if v < INF else None
    return out


def test_prove_openers_transform(tmp_path) -> None:
    lex = load_lexicon(LEX)
    words = list(lex.guesses[:6])
    parts = optimal.plan_parts(words, ["normal", "hard"], 4)
    assert [len(p.openers) for p in parts] == [4, 2, 4, 2]
    spec = optimal.SearchSpec(LexiconSpec.of(lex), compare=True)
    store = optimal.part_store(str(tmp_path), lex, parts, "all", 6, compare=True)
    want = [(m, w, v) for m in ("normal", "hard") for w, v in _want(words, m == "hard").items()]
    with BeamTestPipeline(argv=LOCAL) as p:
        got = (p | optimal.ProveOpeners(spec, parts, resume=Resume(store))
               | beam.Map(lambda tr: (tr[1]["mode"], tr[1]["opener"], tr[1]["total"])))
        assert_that(got, equal_to(want))
    assert store.done() == {0, 1, 2, 3}
    for i, part in enumerate(parts):  # every part was kept, and reads back as itself
        recs = [r for _, r in store.read(i, part.items)]
        assert sorted(r["opener"] for r in recs) == sorted(part.openers)
        for r in recs:
            assert r["default_total"] >= r["total"] and r["greedy_total"] >= r["total"]
    with pytest.raises(ShardCorruptError):  # a part read as another is refused
        store.read(0, parts[1].items)
    # read back instead of proved: the same pairs, no proof (a solver would fail here)
    with BeamTestPipeline(argv=LOCAL) as p:
        again = (p | optimal.ProveOpeners(spec, parts, resume=Resume(store, frozenset(range(4))))
                 | beam.Map(lambda tr: (tr[1]["mode"], tr[1]["opener"], tr[1]["total"])))
        assert_that(again, equal_to(want))


def test_run_writes_table_and_resumes(tmp_path, capsys) -> None:
    lex = load_lexicon(LEX)
    words = list(lex.guesses[10:19])
    out = tmp_path / "out"
    argv = ["--lexicon", LEX, "--openers", ",".join(words), "--modes", "normal,hard",
            "--part-size", "3", "--output", str(out), "--no-progress", *LOCAL]
    assert optimal.run(argv) == 0
    recs = read_table(str(out), "optimal")
    assert len(recs) == 18
    for hard in (False, True):
        want = _want(words, hard)
        got = {r["opener"]: r["total"] for r in recs if r["mode"] == ("hard" if hard else "normal")}
        assert got == want
    with open(out / "optimal_ranking.csv") as fh:
        rows = list(csv.DictReader(fh))
    normal = [int(r["total"]) for r in rows if r["mode"] == "normal" and r["total"]]
    assert normal == sorted(normal) and len(rows) == 18
    # resume: a deleted part, a damaged header and a damaged body are proved again, the
    # other three are read back (the shared mechanism: pipelines.orchestration.shards)
    parts = sorted((out / "optimal_parts").glob("*/shard-*.pkl"))
    assert len(parts) == 6
    kept = {p: p.read_bytes() for p in parts[3:]}
    parts[0].unlink()
    parts[1].write_bytes(b"not a part")
    body = bytearray(parts[2].read_bytes())
    body[-5] ^= 0xFF  # the header still claims the part: the worker's checksum refuses it
    parts[2].write_bytes(bytes(body))
    capsys.readouterr()
    assert optimal.run([*argv, "--resume"]) == 0
    err = capsys.readouterr().err
    assert "4 finished before, 2 to compute" in err and "1 kept shard(s)" in err
    again = read_table(str(out), "optimal")
    key = lambda r: (r["mode"], r["opener"])
    assert sorted((key(r), r["total"]) for r in again) == sorted((key(r), r["total"]) for r in recs)
    # the reused parts' records are the same bytes: their timings were not measured again
    reused = _proved(kept)
    assert len(reused) == 9 and sorted(map(repr, (r for r in again if key(r) in reused))) == \
        sorted(map(repr, (r for r in recs if key(r) in reused)))
    assert all(p.read_bytes() == b for p, b in kept.items())
    assert len(list((out / "optimal_parts").glob("*/shard-*.pkl"))) == 6
    assert not list(out.rglob("*.tmp"))


def _proved(kept) -> set[tuple[str, str]]:
    """(mode, opener) of the records in kept part files."""
    import pickle

    out = set()
    for data in kept.values():
        out |= {(r["mode"], r["opener"]) for _, r in pickle.loads(data.split(b"\n", 3)[3])}
    return out


@pytest.mark.parametrize("argv", [
    ["--lexicon", LEX, "--openers", "qqqqq"],
    ["--lexicon", LEX, "--modes", "sideways"],
    ["--lexicon", LEX, "--part-size", "0"],
])
def test_bad_input_is_one_line_exit_2(tmp_path, capsys, argv) -> None:
    rc = optimal.run([*argv, "--output", str(tmp_path), *LOCAL])
    assert rc == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error" in err[0]


def test_dask_equals_direct_runner(tmp_path) -> None:
    """The same parts through a local Dask cluster give the same proven values (the
    records differ only in their timings)."""
    words = ",".join(load_lexicon(LEX).guesses[30:34])
    base = ["--lexicon", LEX, "--openers", words, "--modes", "normal", "--part-size", "2",
            "--no-progress"]
    assert optimal.run([*base, "--output", str(tmp_path / "direct"), *LOCAL]) == 0
    assert optimal.run([*base, "--output", str(tmp_path / "dask"), "--dask-workers", "2"]) == 0
    ra, rb = read_table(str(tmp_path / "direct"), "optimal"), read_table(str(tmp_path / "dask"), "optimal")
    assert [(r["opener"], r["total"]) for r in ra] == [(r["opener"], r["total"]) for r in rb]
    assert len(ra) == 4 and all(r["total"] for r in ra)


def test_ship_collects_finished_parts(tmp_path) -> None:
    import csv

    words = ",".join(load_lexicon(LEX).guesses[40:44])
    base = ["--lexicon", LEX, "--openers", words, "--modes", "normal", "--part-size", "2",
            "--output", str(tmp_path / "o"), "--no-progress", *LOCAL]
    assert optimal.run(base) == 0
    next((tmp_path / "o/optimal_parts").glob("*/shard-*.pkl")).unlink()  # one part unfinished
    assert optimal.run([*base, "--ship", str(tmp_path / "data")]) == 0
    with open(tmp_path / "data" / f"{LEX}-normal.csv") as fh:
        rows = list(csv.DictReader(fh))
    want = _want(load_lexicon(LEX).guesses[40:44], False)
    assert len(rows) == 2 and all(int(r["total"]) == want[r["opener"]] for r in rows)
    assert (tmp_path / "data" / f"{LEX}-normal.avro").stat().st_size > 0


def test_known_table_outlives_its_parts_and_ship_merges(tmp_path, capsys) -> None:
    """The shipped table is a checkpoint of its own: with the parts gone, ``--known``
    skips the openers it holds, and ``--ship`` adds the new values to it; a part that
    disagrees with a shipped value ships nothing."""
    import shutil

    from wordle_core.tables.avro import read_with_metadata, write_avro_and_csv

    lex = load_lexicon(LEX)
    words = list(lex.guesses[50:56])
    data, out = tmp_path / "data", tmp_path / "o"
    base = ["--lexicon", LEX, "--modes", "normal", "--part-size", "2", "--output", str(out),
            "--no-progress", *LOCAL]
    assert optimal.run([*base, "--openers", ",".join(words[:4])]) == 0
    assert optimal.run([*base, "--openers", ",".join(words[:4]), "--ship", str(data)]) == 0
    shutil.rmtree(out)  # the parts are lost; the shipped table remains
    capsys.readouterr()
    every = ["--openers", ",".join(words)]
    assert optimal.run([*base, *every, "--resume", "--known", str(data)]) == 0
    err = capsys.readouterr().err
    assert "4 proofs skipped" in err and "(2 proofs)" in err
    assert sorted(r["opener"] for r in read_table(str(out), "optimal")) == sorted(words[4:])
    assert optimal.run([*base, *every, "--ship", str(data)]) == 0
    assert "6 mini-nerdle normal values (2 new)" in capsys.readouterr().out
    with open(data / f"{LEX}-normal.csv") as fh:
        rows = list(csv.DictReader(fh))
    want = _want(words, False)
    assert sorted(r["opener"] for r in rows) == sorted(words)
    assert all(int(r["total"]) == want[r["opener"]] for r in rows)
    # a shipped value that a part contradicts: one line, exit 2, the table untouched
    recs, meta = read_with_metadata((data / f"{LEX}-normal.avro").read_bytes())
    wrong = {**recs[-1], "total": recs[-1]["total"] + 1}
    write_avro_and_csv(data / f"{LEX}-normal.avro", data / f"{LEX}-normal.csv",
                       optimal.SHIP_SCHEMA, ["opener", "total", "cpu_seconds"],
                       [*recs[:-1], wrong], meta)
    before = (data / f"{LEX}-normal.avro").read_bytes()
    if wrong["opener"] not in words[4:]:  # make a part cover it
        assert optimal.run([*base, "--openers", wrong["opener"]]) == 0
    capsys.readouterr()
    assert optimal.run([*base, *every, "--ship", str(data)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and wrong["opener"] in err[0] and "nothing shipped" in err[0]
    assert (data / f"{LEX}-normal.avro").read_bytes() == before
    # values of another guess pool are not this run's values
    assert optimal.run([*base, *every, "--guess-pool", "answers", "--known", str(data)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "guess pool all" in err[0]


def test_ctrl_c_inside_a_long_proof_is_one_line_and_prompt(tmp_path) -> None:
    """A SIGINT / SIGTERM while the compiled search is deep in a proof of minutes (KAAMA
    on nyt: its first bucket alone takes minutes) stops the in-memory run at once: one
    line, exit 130 / 143, no traceback, the finished part kept for --resume."""
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    nyt = load_lexicon("nyt")
    ExactSolver(nyt).opener_value(nyt.guess_id("salet"))  # compiled (and cached) before timing
    out = tmp_path / "out"
    parts = out / "optimal_parts"
    for sig, code, openers in ((signal.SIGINT, 130, "salet,kaama"), (signal.SIGTERM, 143, "kaama")):
        proc = subprocess.Popen(
            [sys.executable, "-m", "pipelines.optimal", "--lexicon", "nyt", "--openers", openers,
             "--part-size", "1", "--output", str(out), "--no-progress", "--resume", *LOCAL],
            cwd=root, env=dict(os.environ, PYTHONPATH=str(root)), stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        lines: list[str] = []
        reader = threading.Thread(target=lambda p=proc, got=lines: got.extend(p.stderr), daemon=True)
        reader.start()
        t0 = time.time()
        # the run's plan line (its handlers are in place), then SALET's part
        while time.time() - t0 < 120 and not (any(x.startswith("optimal: ") for x in lines)
                                              and len(list(parts.glob("*/shard-*.pkl"))) >= 1):
            assert proc.poll() is None, "".join(lines)[-800:]
            time.sleep(0.2)
        time.sleep(3)  # now inside KAAMA's proof
        assert proc.poll() is None
        t1 = time.time()
        proc.send_signal(sig)
        proc.wait(timeout=120)
        reader.join(10)
        err = "".join(lines)
        assert time.time() - t1 < 30, "the interrupt waited for the search to return"
        assert proc.returncode == code, err[-800:]
        lines = [x for x in err.splitlines() if x.strip()]
        assert lines[-1].startswith("pipelines.optimal: interrupted") and "--resume" in lines[-1]
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-800:]
        assert len(list(parts.glob("*/shard-*.pkl"))) == 1  # SALET's part survives for --resume
