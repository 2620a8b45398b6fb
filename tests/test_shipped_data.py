"""The package's data (word lists, exact, verdict and ranking tables) is checked against
``wordle_core/data/MANIFEST.sha256`` before it is used: an edited, truncated, replaced or
unlisted file is one line, never believed; the manifest in the repository is current.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordle_core import shipped
from wordle_core.errors import WordleError
from wordle_core.tables.avro import TableError, read_with_metadata


def test_the_manifest_is_current():
    assert shipped.stale() == [], "run `make data-manifest` after changing wordle_core/data"
    listed = shipped.parse_manifest((shipped.data_root() / shipped.MANIFEST_NAME).read_text())
    assert sorted(listed) == shipped.data_files()
    for need in ("wordle-answers-2315.txt", "exact/wordle-normal.csv", "hard/nyt.avro",
                 "rank/optimal_rank-wordle-hard.avro"):
        assert need in listed


@pytest.fixture
def data_copy(tmp_path, monkeypatch):
    """A copy of the package data that ``wordle_core.shipped`` reads instead."""
    root = tmp_path / "data"
    shutil.copytree(shipped.data_root(), root, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(shipped, "data_root", lambda: root)
    shipped.forget()
    yield root
    shipped.forget()


def test_each_file_is_checked_once_when_first_read(data_copy):
    name = "nyt-answers-2309.txt"
    assert shipped.data_bytes(name) == (data_copy / name).read_bytes()
    (data_copy / name).write_text("edited\n")  # after the check: this process keeps what it checked
    assert shipped.data_bytes(name) != b"edited\n"
    assert shipped.data_bytes("no/such/file.txt") is None


def test_an_unlisted_file_is_refused_until_the_manifest_is_regenerated(data_copy):
    (data_copy / "hard" / "extra.avro").write_bytes(b"new table")
    with pytest.raises(shipped.ShippedDataError, match=r"not listed in MANIFEST\.sha256; .*data-manifest"):
        shipped.data_bytes("hard/extra.avro")
    assert shipped.stale(data_copy) == ["hard/extra.avro: not listed"]
    shipped.write_manifest(data_copy)
    assert shipped.stale(data_copy) == []
    assert shipped.data_bytes("hard/extra.avro") == b"new table"


def test_a_missing_or_corrupt_manifest_is_one_error(data_copy):
    (data_copy / shipped.MANIFEST_NAME).write_text("not a manifest\n")
    with pytest.raises(shipped.ShippedDataError, match="is corrupt"):
        shipped.data_bytes("wordle-answers-2315.txt")
    shipped.forget()
    (data_copy / shipped.MANIFEST_NAME).unlink()
    with pytest.raises(shipped.ShippedDataError, match="is missing"):
        shipped.data_bytes("wordle-answers-2315.txt")


# every shipped file, by size: the property test below edits any of them
FILES = shipped.data_files()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(FILES), where=st.floats(0, 1, exclude_max=True),
       how=st.sampled_from(["flip", "truncate", "append", "delete-line"]), bit=st.integers(0, 7))
def test_any_edit_of_any_shipped_file_is_detected(data_copy, name, where, how, bit):
    shipped.forget()
    fp = data_copy / name
    orig = fp.read_bytes()
    i = int(where * len(orig))
    if how == "flip":
        data = orig[:i] + bytes([orig[i] ^ (1 << bit)]) + orig[i + 1:]
    elif how == "truncate":
        data = orig[:i]
    elif how == "append":
        data = orig + b"x"
    else:  # drop the line holding byte i
        start = orig.rfind(b"\n", 0, i) + 1
        end = orig.find(b"\n", i)
        data = orig[:start] + (orig[end + 1:] if end >= 0 else b"")
    if data == orig:
        return
    fp.write_bytes(data)
    try:
        with pytest.raises(shipped.ShippedDataError, match=r"does not match MANIFEST\.sha256"):
            shipped.data_bytes(name)
    finally:
        fp.write_bytes(orig)


def test_shipping_into_the_package_data_rewrites_the_manifest(data_copy):
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.tables.verdicts import write_verdicts

    lex = load_lexicon("wordle")
    rows = [{"opener": w, "verdict": "feasible", "seconds": 0.0, "nodes": 1} for w in ("salet", "crane")]
    write_verdicts(rows, data_copy / "hard-new", lex, {"wordle_lab.computed_by": "test"})
    assert shipped.stale(data_copy) == []
    got, _ = read_with_metadata(shipped.data_bytes("hard-new/wordle.avro"))
    assert [r["opener"] for r in got] == ["crane", "salet"]


def test_a_truncated_table_is_one_table_error_not_an_eof_traceback():
    data = shipped.data_bytes("hard/wordle.avro")
    for cut in (10, len(data) // 2, len(data) - 3):
        with pytest.raises(TableError, match="is not a readable Avro file"):
            read_with_metadata(data[:cut], "hard/wordle.avro")


_CLI = """
import sys
from pathlib import Path
from wordle_core import shipped
root = Path(sys.argv[1])
shipped.data_root = lambda: root
from wordle_core.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize(("edit", "argv"), [
    ("wordle-answers-2315.txt", ["candidates", "--lexicon", "wordle", "--history", "salet:bbbbb"]),
    ("exact/wordle-normal.csv", ["rank", "--exact", "--lexicon", "wordle", "--top", "3"]),
    ("rank/optimal_rank-wordle-normal.avro", ["rank", "--proven", "--lexicon", "wordle", "--top", "3"]),
    ("hard/wordle.avro", ["hard-verdict", "--lexicon", "wordle", "--opener", "salet"]),
])
def test_an_edited_file_is_one_line_and_a_non_zero_exit_in_the_cli(tmp_path, edit, argv):
    root = tmp_path / "data"
    shutil.copytree(shipped.data_root(), root, ignore=shutil.ignore_patterns("__pycache__"))
    fp = root / edit
    data = bytearray(fp.read_bytes())
    data[len(data) // 2] ^= 0x01
    fp.write_bytes(bytes(data))
    res = subprocess.run([sys.executable, "-c", _CLI, str(root), *argv], capture_output=True,
                         text=True, timeout=300)
    err = res.stderr.strip().splitlines()
    assert res.returncode == 2, res.stderr
    assert len(err) == 1 and err[0].startswith("wordle-lab: error: the shipped file"), err
    assert edit in err[0] and "does not match MANIFEST.sha256" in err[0]


def test_shipped_data_error_is_a_wordle_error():
    assert issubclass(shipped.ShippedDataError, WordleError)
    assert shipped.covers(shipped.data_root() / "hard")
    assert not shipped.covers(Path("/tmp"))
