"""Nothing wrong is ever trusted: damaged staging areas, shards that are not what they
claim, edited published outputs, empty or huge flags, a full disk.

The runs are in-process (``wordle_core.cli.main``, the in-memory DirectRunner) on the
built-in 206-word mini-nerdle game with three openers, so one run takes seconds. The
reference is an uninterrupted run of the same config: a ``--resume`` over any damage
must publish byte-identical tables, or refuse in one line; never a different result.
"""

from __future__ import annotations

import errno
import json
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from pipelines import analysis as pcli
from pipelines.orchestration import generation
from pipelines.orchestration.shards import ShardStore, cut
from wordle_core.cli import main
from wordle_core.tables import avro

IN_MEMORY = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]
OPENERS = "1+9=10,10-1=9,10-2=8"


class _Died(BaseException):
    """Stands for SIGKILL in-process."""


def _args(tmp: Path, out: Path, strategy: str = "entropy") -> list[str]:
    cfg = tmp / "trust.yaml"
    if not cfg.exists():
        cfg.write_text("outputs: [opener_scores, opener_summaries, report]\n")
    return ["run", "--config", str(cfg), "--lexicon", "mini-nerdle", "--openers", OPENERS,
            "--strategies", strategy, "--modes", "normal,hard", "--no-progress",
            "--output", str(out), *IN_MEMORY]


def _tables(out: Path) -> dict[str, bytes]:
    """The published table files (what must be byte-identical to the clean run)."""
    return {p.relative_to(out).as_posix(): p.read_bytes()
            for t in ("opener_scores", "opener_summaries") for p in sorted((out / t).glob("*.avro"))}


def _killed(tmp: Path, out: Path, strategy: str, mp: pytest.MonkeyPatch) -> Path:
    """A run stopped after its play: every shard kept in its staging area, nothing published."""
    def die():
        raise _Died("after play")

    mp.setattr(pcli, "_die", die)
    mp.setenv("WORDLE_LAB_KILL_AT", "after play")
    with pytest.raises(_Died):
        main(_args(tmp, out, strategy))
    mp.delenv("WORDLE_LAB_KILL_AT")
    [staging] = list(out.glob(".staging-*"))
    return staging


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(clean output, killed output of the same config, killed output of another config)."""
    tmp = tmp_path_factory.mktemp("trust")
    clean = tmp / "clean"
    assert main(_args(tmp, clean)) == 0
    mp = pytest.MonkeyPatch()
    try:
        _killed(tmp, tmp / "killed", "entropy", mp)
        _killed(tmp, tmp / "other", "minimax", mp)
    finally:
        mp.undo()
    return tmp, clean, tmp / "killed", tmp / "other"


def _shard_files(out: Path) -> list[Path]:
    return sorted(out.glob(".staging-*/_shards/*/shard-*.pkl"))


def _resume(tmp: Path, out: Path, capsys) -> tuple[int, list[str]]:
    capsys.readouterr()
    rc = main([*_args(tmp, out), "--resume"])
    return rc, capsys.readouterr().err.strip().splitlines()


def _check(tmp: Path, clean: Path, out: Path, capsys) -> str:
    rc, err = _resume(tmp, out, capsys)
    if rc == 0:
        assert _tables(out) == _tables(clean)  # never a different result
        assert not list(out.glob(".staging-*"))
        return "identical"
    assert len(err) == 1 and err[0].startswith("wordle-lab: error:"), err
    return "refused"


# --- shards bound to their identity ----------------------------------------------------------

def test_a_shard_record_names_stage_index_items_and_run(tmp_path):
    store = ShardStore(str(tmp_path), "toy", {"config_hash": "c1", "lexicon_fingerprint": "f1"})
    work = cut(list(range(6)), 3)
    store.write(0, [("t", 1)], work[0])
    assert store.read(0, work[0]) == [("t", 1)]
    assert store.mismatch(0, work[0]) is None
    assert "items" in store.mismatch(0, work[1])
    shutil.copy(store.path(0), store.path(1))  # copied over another index
    assert "shard" in store.mismatch(1, work[1])
    other = ShardStore(str(tmp_path), "toy", {"config_hash": "c2", "lexicon_fingerprint": "f1"})
    assert "config_hash" in other.mismatch(0, work[0])
    stage = ShardStore(str(tmp_path), "other", store.identity)
    shutil.copytree(Path(store.directory), Path(stage.directory))
    assert "stage" in stage.mismatch(0, work[0])


def test_swapped_and_foreign_shards_are_redone_with_one_note(runs, tmp_path, capsys):
    tmp, clean, killed, other = runs
    out = tmp_path / "out"
    shutil.copytree(killed, out)
    play = sorted(out.glob(".staging-*/_shards/play/shard-*.pkl"))
    assert len(play) == 6
    a, b = play[1].read_bytes(), play[4].read_bytes()
    play[1].write_bytes(b)  # swapped between indices
    play[4].write_bytes(a)
    [foreign] = [p for p in other.glob(".staging-*/_shards/play/shard-00002.pkl")]
    shutil.copy(foreign, play[2])  # from a run of another config
    rc, err = _resume(tmp, out, capsys)
    assert rc == 0
    notes = [e for e in err if "not the shards of this run" in e]
    assert len(notes) == 1 and "3 kept shard(s) of stage 'play'" in notes[0]
    assert _tables(out) == _tables(clean)


# --- damaged records never block the next run -------------------------------------------------

@pytest.mark.parametrize(("record", "content"), [
    ("_commit.json", b""), ("_commit.json", b"{}"), ("_commit.json", b"{\"entries\": 7}"),
    ("_run.json", b"{}")])
def test_a_damaged_record_is_treated_as_absent(runs, tmp_path, capsys, record, content):
    tmp, clean, killed, _ = runs
    out = tmp_path / "out"
    shutil.copytree(killed, out)
    [staging] = list(out.glob(".staging-*"))
    (staging / record).write_bytes(content)
    rc, err = _resume(tmp, out, capsys)
    assert rc == 0, err
    assert [e for e in err if "damaged: treated as absent" in e] != []
    assert not any("Traceback" in e or "KeyError" in e or "JSONDecodeError" in e for e in err)
    assert _tables(out) == _tables(clean)


def test_a_damaged_generation_record_is_rewritten_by_the_next_run(runs, tmp_path, capsys):
    tmp, clean, _, _ = runs
    out = tmp_path / "out"
    shutil.copytree(clean, out)
    (out / avro.GENERATION).write_text("[]")
    with pytest.raises(avro.TableError, match="is corrupt"):
        avro.read_records(out, "opener_summaries")
    assert main(_args(tmp, out)) == 0
    assert _tables(out) == _tables(clean)
    avro.verify_dir(out / "report")


# --- random damage to a staging area (property) --------------------------------------------------

DAMAGE = st.lists(st.tuples(st.sampled_from(["delete", "duplicate", "swap", "foreign", "truncate",
                                             "flip"]),
                            st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=3)
STAGING_EXAMPLES = 6


@settings(max_examples=STAGING_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(damage=DAMAGE)
def test_random_damage_to_a_staging_area_gives_the_clean_tables_or_one_line(
        runs, tmp_path_factory, capsys, damage):
    tmp, clean, killed, other = runs
    out = tmp_path_factory.mktemp("damaged") / "out"
    shutil.copytree(killed, out)
    foreign = _shard_files(other)
    for op, x, y in damage:
        files = _shard_files(out)
        if not files:
            break
        f, g = files[x % len(files)], files[y % len(files)]
        data = f.read_bytes()
        if op == "delete":
            f.unlink()
        elif op == "duplicate":
            shutil.copy(f, g)
        elif op == "swap":
            gd = g.read_bytes()
            g.write_bytes(data)
            f.write_bytes(gd)
        elif op == "foreign":
            shutil.copy(foreign[x % len(foreign)], f)
        elif op == "truncate":
            f.write_bytes(data[: y % max(1, len(data))])
        else:
            i = y % len(data)
            f.write_bytes(data[:i] + bytes([data[i] ^ (1 << (x % 8))]) + data[i + 1:])
    event(f"resume: {_check(tmp, clean, out, capsys)}")


# --- published outputs: every edit is detected --------------------------------------------------

PUBLISHED_EXAMPLES = 40


@settings(max_examples=PUBLISHED_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.integers(0, 10**6), where=st.floats(0, 1, exclude_max=True), bit=st.integers(0, 7),
       how=st.sampled_from(["flip", "truncate", "append"]))
def test_any_edit_of_a_published_file_is_detected(runs, tmp_path_factory, pick, where, bit, how):
    _, clean, _, _ = runs
    out = tmp_path_factory.mktemp("edited") / "out"
    shutil.copytree(clean, out)
    files = sorted(p for p in out.rglob("*") if p.is_file())
    f = files[pick % len(files)]
    data = f.read_bytes()
    i = int(where * len(data))
    edited = {"flip": lambda: data[:i] + bytes([data[i] ^ (1 << bit)]) + data[i + 1:],
              "truncate": lambda: data[:i], "append": lambda: data + b"\n"}[how]()
    f.write_bytes(edited)
    event(f"edited: {f.name if f.name.startswith('_') else f.suffix}")
    entries = ["opener_scores", "opener_summaries", "report"]
    refused = 0
    for e in entries:
        try:
            avro.verify_dir(out / e)
        except avro.TableError as exc:
            assert "\n" not in str(exc)
            refused += 1
    if f.name == avro.GENERATION and how == "append":
        assert refused == 0  # a newline after the JSON changes nothing it says
        return
    assert refused >= 1, f"an edit of {f.relative_to(out)} was not detected"


def test_an_edited_generation_record_is_refused(runs, tmp_path):
    _, clean, _, _ = runs
    out = tmp_path / "out"
    shutil.copytree(clean, out)
    record = json.loads((out / avro.GENERATION).read_text())
    record["published"] = "2020-01-01T00:00:00Z"
    (out / avro.GENERATION).write_text(json.dumps(record))
    with pytest.raises(avro.TableError, match="was changed after it was written"):
        avro.read_records(out, "opener_scores")


def test_a_stray_copy_in_a_published_table_is_refused(runs, tmp_path):
    _, clean, _, _ = runs
    out = tmp_path / "out"
    shutil.copytree(clean, out)
    [real] = sorted((out / "opener_summaries").glob("*.avro"))
    stray = real.with_name("opener_summaries-copy.avro")
    shutil.copy(real, stray)
    assert avro.read_records(real, "opener_summaries")  # the listed file itself: verified, read
    with pytest.raises(avro.TableError, match=r"is not listed in its directory's _manifest\.json"):
        avro.read_records(stray, "opener_summaries")


def test_rank_report_reads_only_a_verified_rankings_csv(runs, tmp_path, capsys):
    _, clean, _, _ = runs
    out = tmp_path / "out"
    shutil.copytree(clean, out)
    assert main(["rank", "--report", str(out / "report")]) == 0
    csv = out / "report" / "rankings.csv"
    text = csv.read_text()
    csv.write_text(text.replace("3.", "2.", 1))  # an edited mean
    capsys.readouterr()
    assert main(["rank", "--report", str(out / "report")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not match its manifest" in err[0]
    csv.write_text(text)
    (out / "report" / avro.MANIFEST).unlink()
    assert main(["rank", "--report", str(out / "report")]) == 2
    assert "has no _manifest.json" in capsys.readouterr().err


def test_a_rebuilt_report_is_recorded_and_readable(runs, tmp_path):
    _, clean, _, _ = runs
    out = tmp_path / "out"
    shutil.copytree(clean, out)
    assert main(["report", "--input", str(out)]) == 0
    avro.verify_dir(out / "report")
    assert main(["rank", "--report", str(out / "report")]) == 0


@pytest.mark.parametrize("record", [True, False])
def test_a_report_refuses_tables_of_two_runs(runs, tmp_path, capsys, record):
    tmp, clean, _, _ = runs
    other = tmp_path / "other"
    assert main(_args(tmp, other, "minimax")) == 0
    out = tmp_path / "out"
    shutil.copytree(clean, out)
    shutil.rmtree(out / "opener_summaries")
    shutil.copytree(other / "opener_summaries", out / "opener_summaries")
    if not record:
        (out / avro.GENERATION).unlink()
    capsys.readouterr()
    assert main(["report", "--input", str(out), "--output", str(tmp_path / "rep")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert ("come from different runs" in err[0]) or ("names" in err[0]), err


# --- a full disk ---------------------------------------------------------------------------------

def test_disk_full_during_run_is_one_line_exit_1_and_a_named_log(runs, tmp_path, capsys, monkeypatch):
    from pipelines.orchestration import shards

    tmp, _, _, _ = runs

    def full(self, shard, pairs, items=None):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shards.ShardStore, "write", full)
    capsys.readouterr()
    rc = main(_args(tmp, tmp_path / "out"))
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 1
    assert err[-1].startswith("wordle-lab: error: ") and "No space left on device" in err[-1]
    assert not [e for e in err if "Traceback" in e or e.startswith("ERROR:")]
    log = Path(err[-1].rsplit("full trace in ", 1)[1])
    assert "No space left on device" in log.read_text()


def test_a_full_disk_while_writing_the_report_is_exit_1(runs, tmp_path, capsys, monkeypatch):
    from pipelines import report

    _, clean, _, _ = runs
    real = Path.write_bytes

    def full(self, data):
        if self.parent.name.startswith(".report-"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    capsys.readouterr()
    assert main(["report", "--input", str(clean), "--output", str(tmp_path / "rep")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "No space left on device" in err[0], err
    assert report.MEASURES  # (the module the patch reached)


# --- flags ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "message"), [
    (["pipeline", "hard", "--ship", "", "--output", "{out}"],
     "--ship: expected a directory, got an empty value"),
    (["optimal", "--rank", "99999999999999999999", "--output", "{out}"],
     "--rank: 99999999999999999999 is out of range"),
    (["optimal", "--lexicon", "wordle", "--rank", "20000", "--output", "{out}"],
     "--rank must be at most 12,972"),
    (["optimal", "--lexicon", "wordle", "--top", "99999", "--output", "{out}"],
     "--top must be at most 12,972"),
    (["report", "--input", ""], "--input: expected a directory, got an empty value"),
    (["rank", "--report", ""], "--report: expected a directory, got an empty value"),
    (["run", "--config", "", "--output", "{out}"], "--config: expected a file name, got an empty value"),
    (["run", "--openers", "salet", "--matrix-path", "", "--output", "{out}"],
     "--matrix-path: expected a file name"),
    (["suggest", "--lexicon", "wordle", "--tree", "", "--history", "salet:bbbbb"],
     "--tree: expected a file name, got an empty value"),
    (["hard-verdict", "--lexicon", "wordle", "--opener", "salet", "--budget", str(2**40)],
     "--budget: 1099511627776 is out of range"),
    (["pipeline", "games", "--openers", "salet", "--shards", str(2**70), "--output", "{out}"],
     "is out of range"),
])
def test_bad_flags_are_one_line_before_any_work(tmp_path, capsys, argv, message):
    out = tmp_path / "out"
    argv = [a.replace("{out}", str(out)) for a in argv]
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:
        rc = main(argv)
        raise SystemExit(rc)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
    assert not out.exists()


def test_a_refused_resume_is_one_line_without_a_banner(runs, tmp_path, capsys):
    tmp, _, killed, _ = runs
    out = tmp_path / "out"
    shutil.copytree(killed, out)
    capsys.readouterr()
    rc = main([*_args(tmp, out, "minimax"), "--resume"])  # another config
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "cannot --resume" in err[0], err


def test_a_matrix_file_must_verify_whole(tmp_path, capsys):
    import numpy as np

    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import MatrixCacheError, pattern_matrix, read_matrix

    lex = load_lexicon("mini-nerdle")
    mat = np.array(pattern_matrix(lex, cache=False))
    good = tmp_path / "m.npy"
    np.save(good, mat)
    assert np.array_equal(read_matrix(good, lex), mat)
    rng = random.Random(0)
    bad = mat.copy()
    r, c = rng.randrange(mat.shape[0]), rng.randrange(mat.shape[1])
    bad[r, c] = (int(bad[r, c]) + 1) % 243
    wrong = tmp_path / "w.npy"
    np.save(wrong, bad)
    with pytest.raises(MatrixCacheError, match="checked whole"):
        read_matrix(wrong, lex)
    import hashlib

    side = tmp_path / "w.npy.sha256"
    side.write_text(hashlib.sha256(good.read_bytes()).hexdigest() + "  w.npy\n")
    with pytest.raises(MatrixCacheError, match=r"does not match its \.sha256 sidecar"):
        read_matrix(wrong, lex)
    (tmp_path / "m.npy.sha256").write_text(hashlib.sha256(good.read_bytes()).hexdigest() + "  m.npy\n")
    assert np.array_equal(read_matrix(good, lex), mat)


def test_generation_record_reader_tolerates_damage(tmp_path):
    p = tmp_path / "r.json"
    for content in ("", "{}", "[]", "null", "{\"entries\": 1}"):
        p.write_text(content)
        assert generation.read_record(str(p), "entries", "generation") is None
    p.write_text(json.dumps({"entries": {}, "generation": "x"}))
    assert generation.read_record(str(p), "entries", "generation") == {"entries": {}, "generation": "x"}
