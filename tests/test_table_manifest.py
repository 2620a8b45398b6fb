"""Published tables are trusted only when they check out: manifests, generations, one reader.

Independent references: the records written are compared with what is read back;
corruption is made by flipping bytes of the published files (hypothesis chooses
where), not by calling the reader's own checks.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipelines.orchestration import generation
from pipelines.orchestration.sink import avro_bytes, shard_name, sidecar
from pipelines.schemas import SCHEMAS
from wordle_core.tables import avro
from wordle_core.tables.avro import TableError, read_records

RECS = [{"lexicon": "mini", "mode": "normal", "strategy": "-", "opener": w, "avg_eliminated": i + 0.5,
         "avg_remaining": 1.0 / (i + 1), "entropy_bits": 2.0 + i, "largest_bucket": i, "buckets": 3 * i,
         "is_answer": i % 2 == 0} for i, w in enumerate(["abbey", "cigar", "rebut", "sissy", "humph"])]


def _stage(gen: generation.Generation, table: str, shards: list[list[dict]]) -> None:
    """What the sink does: shard files + sidecars in the generation's staging area."""
    d = Path(gen.stage(table))
    d.mkdir(parents=True, exist_ok=True)
    for i, recs in enumerate(shards):
        data = avro_bytes(table, recs)
        name = shard_name(table, i, len(shards))
        (d / name).write_bytes(data)
        (d / (name + ".json")).write_bytes(sidecar(data, len(recs)))
    gen.seal([table])


def _publish(out: Path, tables: dict[str, list[list[dict]]], report: dict[str, str] | None = None,
             hook=None) -> generation.Generation:
    gen = generation.begin(str(out), "cfg", "fp")
    for t, shards in tables.items():
        _stage(gen, t, shards)
    entries = list(tables)
    if report is not None:
        rd = Path(gen.stage("report"))
        rd.mkdir(parents=True)
        for name, text in report.items():
            (rd / name).write_text(text)
        entries.append("report")
    gen.commit(entries, hook=hook)
    return gen


@pytest.fixture
def published(tmp_path):
    out = tmp_path / "out"
    _publish(out, {"opener_scores": [RECS[:2], RECS[2:]]})
    return out


def test_manifest_lists_files_counts_and_hashes(published):
    man = json.loads((published / "opener_scores" / avro.MANIFEST).read_text())
    assert man["table"] == "opener_scores" and man["records"] == 5
    assert [f["name"] for f in man["files"]] == [shard_name("opener_scores", i, 2) for i in range(2)]
    assert [f["records"] for f in man["files"]] == [2, 3]
    assert man["config_hash"] == "cfg" and man["lexicon_fingerprint"] == "fp"
    gens = json.loads((published / avro.GENERATION).read_text())
    assert gens["entries"] == {"opener_scores": man["generation"]}
    assert sorted(r["opener"] for r in read_records(published, "opener_scores")) == sorted(
        r["opener"] for r in RECS)
    by_dir = read_records(published / "opener_scores", "opener_scores")
    assert by_dir == read_records(published, "opener_scores")
    assert not list(published.glob(".staging-*"))  # the staging area is gone after the commit


def test_record_types_match_the_pipeline_schemas():
    assert {t: s["name"] for t, s in SCHEMAS.items()} == avro.RECORD_TYPES


def test_stray_copies_and_staging_are_ignored(published):
    d = published / "opener_scores"
    shutil.copy(d / shard_name("opener_scores", 0, 2), d / "opener_scores-00000-of-00002 (copy).avro")
    shutil.copy(d / shard_name("opener_scores", 0, 2), d / "opener_scores-00002-of-00002.avro")
    stale = published / ".staging-deadbeef" / "opener_scores"
    stale.mkdir(parents=True)
    shutil.copy(d / shard_name("opener_scores", 0, 2), stale / shard_name("opener_scores", 0, 1))
    assert len(read_records(published, "opener_scores")) == 5  # not 7, not 9


@pytest.mark.parametrize("damage", ["missing", "truncated", "swapped"])
def test_damaged_tables_are_one_line(published, damage):
    d = published / "opener_scores"
    a, b = d / shard_name("opener_scores", 0, 2), d / shard_name("opener_scores", 1, 2)
    if damage == "missing":
        a.unlink()
    elif damage == "truncated":
        a.write_bytes(a.read_bytes()[:-7])
    else:
        data_a, data_b = a.read_bytes(), b.read_bytes()
        a.write_bytes(data_b)
        b.write_bytes(data_a)
    with pytest.raises(TableError) as exc:
        read_records(published, "opener_scores")
    assert "\n" not in str(exc.value) and "opener_scores-0000" in str(exc.value)


def test_no_manifest_foreign_schema_and_wrong_table(tmp_path, published):
    hand = tmp_path / "hand" / "opener_scores"
    hand.mkdir(parents=True)
    (hand / shard_name("opener_scores", 0, 1)).write_bytes(avro_bytes("opener_scores", RECS))
    with pytest.raises(TableError, match=r"no _manifest\.json"):
        read_records(hand.parent, "opener_scores")
    # the trees table asked of an opener_scores directory
    with pytest.raises(TableError, match="holds the 'opener_scores' table, not 'trees'"):
        read_records(published / "opener_scores", "trees")
    # a foreign schema listed in a manifest, and a wrong-table file named directly
    import io

    import fastavro

    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema({"type": "record", "name": "Other", "fields": [
        {"name": "opener", "type": "string"}]}), [{"opener": "x"}])
    foreign = tmp_path / "foreign"
    avro.write_table(foreign / "opener_scores", "opener_scores", {"opener_scores-00000-of-00001.avro":
                                                                  (buf.getvalue(), 1)})
    with pytest.raises(TableError, match="foreign schema"):
        read_records(foreign, "opener_scores")
    trees_file = tmp_path / "trees-00000-of-00001.avro"
    trees_file.write_bytes(avro_bytes("opener_scores", RECS))
    with pytest.raises(TableError, match="holds the 'opener_scores' table, not 'trees'"):
        read_records(trees_file, "trees")


def test_one_line_and_exit_2_from_the_cli(published, capsys):
    from wordle_core.cli import main

    f = published / "opener_scores" / shard_name("opener_scores", 1, 2)
    data = bytearray(f.read_bytes())
    data[-20] ^= 0x01
    f.write_bytes(bytes(data))
    assert main(["report", "--input", str(published), "--output", str(published.parent / "rep")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "does not match its manifest" in err


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_byte_flip_is_detected(published, data):
    """Flip one bit of any byte of any published file (data or manifest): never wrong records."""
    files = sorted(p for p in (published / "opener_scores").iterdir())
    f = data.draw(st.sampled_from(files))
    raw = f.read_bytes()
    pos = data.draw(st.integers(0, len(raw) - 1))
    bit = data.draw(st.integers(0, 7))
    flipped = bytearray(raw)
    flipped[pos] ^= 1 << bit
    f.write_bytes(bytes(flipped))
    try:
        try:
            recs = read_records(published, "opener_scores")
        except TableError as exc:
            assert "\n" not in str(exc)
        else:  # only a flip in the manifest's whitespace-free JSON could still read...
            assert f.name == avro.MANIFEST and recs == read_records_clean(published, f, raw)
    finally:
        f.write_bytes(raw)


def read_records_clean(published: Path, f: Path, raw: bytes) -> list[dict]:
    """The records with the original file restored (what a harmless flip must give)."""
    cur = f.read_bytes()
    f.write_bytes(raw)
    try:
        return read_records(published, "opener_scores")
    finally:
        f.write_bytes(cur)


STEPS = ["committed", "published opener_scores", "published report", "generation"]


class KilledError(Exception):
    pass


@pytest.mark.parametrize("step", STEPS)
def test_killed_at_every_publication_step_never_mixes_generations(tmp_path, step):
    """Old generation, or refused, or (after the next run rolls forward) the new one: never a mix."""
    out = tmp_path / "out"
    old = _publish(out, {"opener_scores": [RECS[:1]]}, {"rankings.csv": "old\n"})

    def hook(at: str) -> None:
        if at == step:
            raise KilledError(at)

    with pytest.raises(KilledError):
        _publish(out, {"opener_scores": [RECS]}, {"rankings.csv": "new\n"}, hook=hook)
    gens = json.loads((out / avro.GENERATION).read_text())["entries"]
    try:
        recs = read_records(out, "opener_scores")
    except TableError as exc:
        assert "stopped while publishing" in str(exc) or "no _manifest.json" in str(exc)
    else:
        report = (out / "report" / "rankings.csv").read_text()
        man = avro.read_manifest(out / "report")
        assert (len(recs), report) in ((1, "old\n"), (5, "new\n"))
        if len(recs) == 1:
            assert gens["report"] == old.gen == man.generation
    # the next run (any config) first finishes the publication that was committed
    generation.begin(str(out), "other", "fp")
    assert len(read_records(out, "opener_scores")) == 5
    assert (out / "report" / "rankings.csv").read_text() == "new\n"
    avro.verify_dir(out / "report")


def test_dead_staging_is_cleaned_and_resume_refuses_another_config(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    gen = generation.begin(str(out), "cfg-a", "fp")
    gen.release()  # a run that died: its staging area has no live owner
    assert generation.stagings(str(out)) == [gen.gen]
    with pytest.raises(generation.GenerationError, match="another config"):
        generation.begin(str(out), "cfg-b", "fp", resume=True)
    again = generation.begin(str(out), "cfg-a", "fp", resume=True)
    assert again.gen == gen.gen and again.resumed
    again.release()
    fresh = generation.begin(str(out), "cfg-a", "fp")
    assert fresh.gen != gen.gen and generation.stagings(str(out)) == [fresh.gen]


def test_live_owner_is_refused(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "out"
    out.mkdir()
    gen = generation.begin(str(out), "cfg", "fp")
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        p = Path(gen.root) / generation.RUN_FILE
        meta = json.loads(p.read_text())
        meta["pid"] = proc.pid
        p.write_text(json.dumps(meta))
        with pytest.raises(generation.GenerationError, match=f"pid {proc.pid}"):
            generation.begin(str(out), "cfg", "fp")
    finally:
        proc.kill()
        proc.wait()
    generation.begin(str(out), "cfg", "fp")  # the owner is gone: cleaned
