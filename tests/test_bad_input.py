"""Hostile inputs: every bad flag, file and config is one line, the right exit code, and
nothing is created on disk; long words get exact feedback; word lists with a BOM or CRLF
work. Each case runs in-process through ``wordle_core.cli.main`` (fast) and checks the
exact stderr line, the exit code and that the output path was not created.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import numpy as np
import pytest

from tests.reference import reference_score
from wordle_core.cli import main
from wordle_core.errors import LexiconFileError
from wordle_core.game import matrix as mx
from wordle_core.game.feedback import MAX_LENGTH, pattern_to_str
from wordle_core.game.lexicon import MAX_SYMBOLS, Lexicon

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory", "--no-progress"]


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("wordle-lab") and "Traceback" not in err[0]
    return err[0]


def _words(tmp_path: Path, name: str, words: list[str], *, bom: bool = False, crlf: bool = False) -> str:
    text = ("\r\n" if crlf else "\n").join(words) + ("\r\n" if crlf else "\n")
    data = text.encode("utf-8")
    p = tmp_path / name
    p.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    return str(p)


# --- CLI flags ----------------------------------------------------------------------------
CLI_CASES = [
    (["play", "--seed", "-1"], "--seed: must be from 0"),
    (["simulate", "--boards", "0"], "--boards: must be from 1 to 64"),
    (["solve", "crane", "--boards", "-3"], "--boards: must be from 1 to 64"),
    (["multi-solve", "--boards", "2", "--limit", "0"], "--limit: must be from 1 to 1,000"),
    (["multi-simulate", "--boards", "4", "--games", "0"], "--games: must be from 1"),
    (["multi-solve", "--boards", "2", "--seed", "-5"], "--seed: must be from 0"),
    (["simulate", "--opener", ""], "--opener: expected a word, got an empty string"),
    (["solve", "crane", "--opener", "  "], "--opener: expected a word"),
    (["optimal", "--opener", ",,,"], "--opener: expected one or more words"),
    (["optimal", "--opener", ""], "--opener: expected one or more words"),
    (["hard-verdict", "--opener", ""], "--opener: expected a word"),
    (["suggest", "--top", "0"], "--top"),
    (["rank", "--top", "0"], "--top must be at least 1"),
    (["optimal", "--top", "0"], "--top must be at least 1"),
    (["play", "--answer", ""], "--answer: expected a word"),
    (["candidates", "--history", "salet:ggggg,crane:bbyby"], "already solved by salet:ggggg (guess 1)"),
    (["candidates", "--history", "crane:ggggg,salet:bbbbb,trace:bbbbb"], "already solved by crane:ggggg"),
    (["review", "--history", ",".join(["salet:bbbbb", "crony:bbbbb", "dumpy:bbbbb", "whiff:bbbbb",
                                       "jived:bbbbb", "quack:bbbbb", "vivid:bbbbb"])],
     "at most 6 guesses; the history has 7"),
    (["simulate", "--answers", "/nonexistent/list.txt"], "does not exist"),
]


@pytest.mark.parametrize(("argv", "needle"), CLI_CASES, ids=[" ".join(a)[:40] for a, _ in CLI_CASES])
def test_bad_flag_is_one_line_exit_2(argv, needle, capsys) -> None:
    with pytest.raises(SystemExit) as exc:  # argparse errors exit from the parser
        raise SystemExit(main(argv))
    assert exc.value.code == 2
    assert needle in _one_line(capsys)


# --- unwritable output files --------------------------------------------------------------
def _unwritable(tmp_path: Path) -> dict[str, str]:
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    return {"under a file": str(blocker / "out.json"), "a directory": str(tmp_path),
            "empty": "", "/proc": "/proc/wordle-lab-nope/x.json"}


@pytest.mark.parametrize("flag_argv", [
    ["simulate", "--lexicon", "mini-nerdle", "--save-tree"],
    ["tree", "--lexicon", "mini-nerdle", "--no-table", "-o"],
    ["hard-verdict", "--lexicon", "mini-nerdle", "--opener", "1+9=10", "--witness"],
    ["optimal", "--lexicon", "mini-nerdle", "--opener", "1+9=10", "--save-tree"],
])
@pytest.mark.parametrize("kind", ["under a file", "a directory", "empty", "/proc"])
def test_unwritable_output_file_is_one_line_before_work(flag_argv, kind, tmp_path, capsys) -> None:
    target = _unwritable(tmp_path)[kind]
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main([*flag_argv, target]) == 2
    line = _one_line(capsys)
    assert "cannot write" in line or "is a directory" in line or "expected a file name" in line
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing created


def test_disk_full_while_writing_is_one_line_exit_1(tmp_path, capsys, monkeypatch) -> None:
    import errno

    import wordle_core.files as files

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "t.json"))

    monkeypatch.setattr(files, "atomic_write_parts", full)
    assert main(["simulate", "--lexicon", "mini-nerdle", "--save-tree", str(tmp_path / "t.json")]) == 1
    assert "No space left on device" in _one_line(capsys)
    assert not (tmp_path / "t.json").exists()


# --- word lists ---------------------------------------------------------------------------
def test_bom_and_crlf_word_lists_are_accepted(tmp_path, capsys) -> None:
    words = ["cigar", "rebut", "sissy", "humph", "awake", "blush"]
    plain = _words(tmp_path, "plain.txt", words)
    for kw in ({"bom": True}, {"crlf": True}, {"bom": True, "crlf": True}):
        odd = _words(tmp_path, f"odd-{len(kw)}-{kw.get('bom')}.txt", words, **kw)
        a, b = Lexicon.from_files(plain), Lexicon.from_files(odd)
        assert a.answers == b.answers == tuple(sorted(words)) and a.fingerprint == b.fingerprint
    assert main(["candidates", "--answers", odd, "--history", "cigar:bbbbb"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("candidates")


@pytest.mark.parametrize("length", [11, 12, 16, 21, 33, MAX_LENGTH])
def test_long_words_get_exact_feedback_and_genuine_histories(length, tmp_path, capsys) -> None:
    rng = random.Random(length)
    words = sorted({"".join(rng.choice("abcde") for _ in range(length)) for _ in range(40)})
    lex = Lexicon.build(f"len{length}", words, words)
    mx._LOADED.clear()
    mat = mx.pattern_matrix(lex, cache=False)
    assert mat.dtype == mx.pattern_dtype(length) and np.dtype(mat.dtype).itemsize * 8 >= length * 1.585
    wrong = sum(pattern_to_str(int(mat[i, j]), length) != reference_score(g, a)
                for i, g in enumerate(words) for j, a in enumerate(words))
    assert wrong == 0
    path = _words(tmp_path, "long.txt", words)
    guess, answer = words[3], words[17]
    hist = f"{guess}:{reference_score(guess, answer)}"
    assert main(["candidates", "--answers", path, "--history", hist, "--json"]) == 0
    assert answer in capsys.readouterr().out  # a genuine history keeps its answer


@pytest.mark.parametrize("length", [15, 21, 33])
def test_guess_choice_on_too_long_words_is_one_line(length, tmp_path, capsys) -> None:
    """Scoring works for any length; choosing a guess needs 3^length counters: refused, no traceback."""
    rng = random.Random(length)
    words = sorted({"".join(rng.choice("abc") for _ in range(length)) for _ in range(6)})
    path = _words(tmp_path, "long.txt", words)
    for argv in (["simulate", "--answers", path, "--strategy", "entropy"],
                 ["suggest", "--answers", path, "--history", ""],
                 ["hard-verdict", "--answers", path, "--opener", words[0]],
                 ["optimal", "--answers", path, "--opener", words[0]]):
        assert main(argv) == 2, argv
        assert f"up to 14 characters; these have {length}" in _one_line(capsys)


def test_guess_choice_at_the_pattern_limit_still_works(tmp_path, capsys) -> None:
    words = ["abcabcabcabcab", "cbacbacbacbacb", "aaaaaaaaaaaaaa", "bbbbbbbbbbbbbb"]
    path = _words(tmp_path, "fourteen.txt", words)
    assert main(["simulate", "--answers", path, "--strategy", "entropy", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totalCount"] == 4


def test_too_long_words_and_too_many_symbols_are_refused_naming_the_limit(tmp_path, capsys) -> None:
    long_list = _words(tmp_path, "long.txt", ["a" * 41, "b" * 41])
    assert main(["candidates", "--answers", long_list, "--history", ""]) == 2
    assert f"the limit is {MAX_LENGTH} characters" in _one_line(capsys)
    hundred = _words(tmp_path, "hundred.txt", ["x" * 100, "y" * 100])
    assert main(["simulate", "--answers", hundred]) == 2
    assert "words of 100 characters" in _one_line(capsys)
    symbols = [chr(0x4E00 + i) + chr(0x4E00 + i + 1) for i in range(0, 2 * (MAX_SYMBOLS + 2), 2)]
    many = _words(tmp_path, "many.txt", symbols)
    assert main(["candidates", "--answers", many, "--history", ""]) == 2
    assert f"the limit is {MAX_SYMBOLS}" in _one_line(capsys)
    with pytest.raises(LexiconFileError, match="256 distinct characters"):
        Lexicon.build("too-many", [chr(0x4E00 + i) * 2 for i in range(MAX_SYMBOLS + 1)])
    assert len(Lexicon.build("ok", [chr(0x4E00 + i) * 2 for i in range(MAX_SYMBOLS)]).alphabet) == 255


def test_word_list_too_big_for_memory_is_one_line(tmp_path, capsys, monkeypatch) -> None:
    words = [f"{i:06d}" for i in range(0, 3000)]
    path = _words(tmp_path, "big.txt", words)
    monkeypatch.setattr(mx, "available_memory", lambda: 2**20)  # 1 MiB "free": 17 MiB needed (uint16)
    mx._LOADED.clear()
    assert main(["suggest", "--answers", path]) == 2
    line = _one_line(capsys)
    assert "3,000 guesses x 3,000 answers needs 17.2 MiB, more than the 1.0 MiB" in line


# --- configs ------------------------------------------------------------------------------
CONFIG_CASES = [
    ("", "is empty: say at least which openers"),
    ("# only a comment\n", "is empty"),
    ("description: a job with no openers\n", "does not say which openers to play"),
    ("lexicon: wordle\nstrategies: [entropy]\n", "does not say which openers to play"),
    ("openers: [salet]\nshards: 2\nopeners: [crane]\n", "line 3: duplicate key 'openers' (first at line 1)"),
    ("openers: {top: 5, top: 6}\n", "duplicate key 'top'"),
    ("openers: [salet]\nshards: '4'\n", ": shards: expected a whole number from 1 to 1,024, got '4'"),
    ("openers: [salet]\nshards: 5000\n", ": shards: expected a whole number from 1 to 1,024, got 5000"),
    ("openers: [salet]\nshards: true\n", ": shards: expected a whole number"),
    ("openers: [salet]\nworst_games: -1\n", ": worst_games: expected a whole number from 0"),
    ("openers: [salet]\nlexicon: klingon\n", ": lexicon: unknown lexicon 'klingon'"),
    ("openers: [salet]\nlexicon: 7\n", ": lexicon: expected a lexicon name"),
    ("openers: [salet]\nstrategies: [entropy, oracle]\n", ": strategies: unknown strategy 'oracle'"),
    ("openers: [salet]\nstrategies: entropy\nmodes: [easy]\n", ": modes: unknown easy"),
    ("openers: [salet, zzzzz]\n", ": openers: 'zzzzz' is not an allowed guess"),
    ("openers: 42\n", ": openers: openers must be 'all', a list or a mapping"),
    ("openers: []\n", ": openers: the opener list is empty"),
    ("openers: [salet]\ndescription: [1, 2]\n", ": description: expected text"),
    ("openers: [salet]\nexact_hard: {node_budget: -7}\n", ": exact_hard: expected a whole number >= 0"),
    ("openers: [salet]\noutputs: [report, pdf]\n", ": outputs: unknown pdf"),
    ("\ufeffopeners: [salet]\nshards: 0\n", ": shards: expected a whole number"),  # BOM is fine
    ("openers: [salet\n", "is not valid YAML at line"),
    ("!!python/object:os.system {}\n", "could not determine a constructor"),
]


@pytest.mark.parametrize(("text", "needle"), CONFIG_CASES, ids=[c[1][:30] for c in CONFIG_CASES])
def test_bad_config_is_one_line_naming_file_and_key(text, needle, tmp_path, capsys) -> None:
    cfg = tmp_path / "job.yaml"
    cfg.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["run", "--config", str(cfg), "--output", str(out), *LOCAL]) == 2
    line = _one_line(capsys)
    assert needle in line and str(cfg) in line
    assert not out.exists()


def test_config_errors_are_reported_as_config_not_flags(tmp_path, capsys) -> None:
    cfg = tmp_path / "job.yaml"
    cfg.write_text("openers: [salet]\nshards: 0\nlexicon: nope\n")
    assert main(["run", "--config", str(cfg), "--output", str(tmp_path / "o"), *LOCAL]) == 2
    line = _one_line(capsys)
    assert f"config {str(cfg)!r}: shards" in line and "--shards" not in line
    # a flag overriding the key is reported as the flag
    assert main(["run", "--config", str(cfg), "--shards", "0", "--output", str(tmp_path / "o"), *LOCAL]) == 2
    assert "--shards: expected" in _one_line(capsys)


# --- pipeline flags -----------------------------------------------------------------------
PIPELINE_CASES = [
    (["run", "--openers", "salet", "--dask-workers", "-1"], "--dask-workers: expected a whole number from 1"),
    (["run", "--openers", "salet", "--dask-workers", "0"], "--dask-workers: expected a whole number from 1"),
    (["run", "--openers", "salet", "--shards", "1000000"], "--shards: expected a whole number from 1 to"),
    (["run", "--openers", "salet", "--worst-games", "-2"], "--worst-games: expected"),
    (["pipeline", "hard", "--openers", "salet", "--exact-budget", "-7"], "--exact-budget: expected a whole"),
    (["pipeline", "hard", "--openers", "salet", "--exact-budget", "0"], "--exact-budget: expected a whole"),
    (["run", "--openers", "salet", "--matrix-path", "/nonexistent.npy"], "'/nonexistent.npy' does not exist"),
    (["run", "--openers", "salet", "--matrix-path", "/tmp"], "'/tmp' is a directory"),
    (["run", "--openers", "", "--strategies", "entropy"], "give --config FILE"),
    (["run", "--openers", ",,", "--strategies", "entropy"], "--openers: the opener list is empty"),
    (["run", "--openers", "top:0", "--strategies", "entropy"], "select at least one opener"),
    (["run", "--openers", "salet", "--bogus-flag", "3"], "unknown option --bogus-flag"),
    (["pipeline", "scores", "--openers", "salet", "--lexicon", "klingon"], "--lexicon: unknown lexicon"),
]


@pytest.mark.parametrize(("argv", "needle"), PIPELINE_CASES,
                         ids=[" ".join(a)[:50] for a, _ in PIPELINE_CASES])
def test_bad_pipeline_flag_is_one_line_and_creates_nothing(argv, needle, tmp_path, capsys) -> None:
    out = tmp_path / "out"
    assert main([*argv, "--output", str(out), *LOCAL]) == 2
    assert needle in _one_line(capsys)
    assert not out.exists()


@pytest.mark.parametrize("content", ["float64", "zeros", "garbage", "empty", "other-lexicon", "flipped"])
def test_bad_matrix_path_is_refused_by_the_driver(content, tmp_path, capsys) -> None:
    from wordle_core.game.lexicon import load_lexicon

    lex = load_lexicon("mini-nerdle")
    good = mx.compute_patterns(lex.guess_codes, lex.answer_codes)
    p = tmp_path / "m.npy"
    if content == "float64":
        np.save(p, good.astype(np.float64))
    elif content == "zeros":
        np.save(p, np.zeros_like(good))
    elif content == "garbage":
        p.write_bytes(os.urandom(999))
    elif content == "empty":
        p.write_bytes(b"")
    elif content == "other-lexicon":
        np.save(p, good[:, :-1])
    else:
        mx.save_matrix(good, p, lex)
        b = bytearray(p.read_bytes())
        b[-5] ^= 0x40
        p.write_bytes(bytes(b))
    out = tmp_path / "out"
    assert main(["pipeline", "scores", "--lexicon", "mini-nerdle", "--openers", "1+9=10",
                 "--matrix-path", str(p), "--output", str(out), *LOCAL]) == 2
    assert "--matrix-path" in _one_line(capsys)
    assert not out.exists()


def test_good_matrix_path_both_formats_is_accepted(tmp_path) -> None:
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import read_matrix

    lex = load_lexicon("mini-nerdle")
    good = mx.compute_patterns(lex.guess_codes, lex.answer_codes)
    np.save(tmp_path / "m.npy", good)
    mx.save_matrix(good, tmp_path / "m.wlm", lex)
    for name in ("m.npy", "m.wlm"):
        assert np.array_equal(read_matrix(tmp_path / name, lex), good)
        assert np.array_equal(read_matrix((tmp_path / name).read_bytes(), lex), good)


def test_one_opener_strategy_group_report_and_no_temp_litter(tmp_path, capsys, monkeypatch) -> None:
    """Issue 14: `run --openers 1+9=10 --lexicon mini-nerdle --strategies entropy` crashed in the
    report (one opener per group); every run also left empty /tmp/tmp* directories."""
    import tempfile

    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    out = tmp_path / "x"
    assert main(["run", "--openers", "1+9=10", "--lexicon", "mini-nerdle", "--strategies", "entropy",
                 "--output", str(out), *LOCAL]) == 0
    assert (out / "report" / "lengths_top.png").stat().st_size > 0
    assert "1+9=10" in capsys.readouterr().out
    assert list(tmp.iterdir()) == []  # private temp dir removed


def test_private_tempdir_is_removed_on_failure_and_stale_ones_swept(tmp_path, monkeypatch) -> None:
    import tempfile

    from pipelines.orchestration.tempdirs import PREFIX, private_tempdir

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = tmp_path / f"{PREFIX}999999999-abc"  # no such pid
    dead.mkdir()
    (dead / "tmpjunk").mkdir()
    alive = tmp_path / f"{PREFIX}{os.getpid()}-keep"
    alive.mkdir()
    with pytest.raises(RuntimeError), private_tempdir() as d:
        assert os.environ["TMPDIR"] == d and tempfile.gettempdir() == d
        tempfile.mkdtemp()
        raise RuntimeError("worker failed")
    assert sorted(p.name for p in tmp_path.iterdir()) == [alive.name]
    assert tempfile.gettempdir() == str(tmp_path)


# --- the cloud path -----------------------------------------------------------------------
def test_dataflow_unreachable_is_one_line_within_seconds(tmp_path, capsys, monkeypatch) -> None:
    import socket
    import time

    from pipelines.orchestration import cloud

    def refuse(addr, timeout=None):
        assert timeout is not None and timeout <= 10
        raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(cloud, "check_setup_file", lambda p: Path(p))
    out = tmp_path / "out"
    t = time.perf_counter()
    rc = main(["run", "--openers", "salet", "--strategies", "entropy", "--output", "gs://my-bucket/wordle",
               "--runner=DataflowRunner", "--project=my-project", "--region=us-central1",
               "--temp_location=gs://my-bucket/tmp", f"--setup_file={Path.cwd() / 'pyproject.toml'}"])
    assert rc == 1 and time.perf_counter() - t < 10
    assert "cannot reach the Dataflow service at dataflow.googleapis.com:443" in _one_line(capsys)
    assert not out.exists()


def test_setup_file_without_stager_tools_is_one_line(tmp_path, capsys, monkeypatch) -> None:
    from pipelines.orchestration import cloud

    monkeypatch.setattr(cloud, "_version", lambda d: None if d == "build" else (99, 0))
    assert main(["run", "--openers", "salet", "--strategies", "entropy", "--output", "gs://my-bucket/w",
                 "--runner=DataflowRunner", "--project=my-project", "--temp_location=gs://my-bucket/tmp",
                 f"--setup_file={Path.cwd() / 'pyproject.toml'}", "--dry_run=True"]) == 2
    assert "needs build>=1.0: pip install -e '.[gcp]'" in _one_line(capsys)
    assert main(["run", "--openers", "salet", "--output", "gs://my-bucket/w", "--runner=DataflowRunner",
                 "--setup_file=/no/such/pyproject.toml", "--dry_run=True"]) == 2
    assert "--setup_file '/no/such/pyproject.toml' does not exist" in _one_line(capsys)


def test_staging_builds_and_stages_the_package_offline(tmp_path) -> None:
    """The documented --setup_file step, through Beam's own stager, into a local directory."""
    pytest.importorskip("build")
    import tarfile

    from pipelines.orchestration.cloud import main as stage_main

    root = Path(__file__).resolve().parents[1]
    assert stage_main([f"--setup_file={root / 'pyproject.toml'}", f"--staging_location={tmp_path}"]) == 0
    sdist = tmp_path / "workflow.tar.gz"
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
    for must in ("wordle_core/game/matrix.py", "pipelines/transforms.py",
                 "wordle_core/data/wordle-answers-2315.txt", "pyproject.toml"):
        assert any(n.endswith(must) for n in names), must
