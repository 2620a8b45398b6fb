"""``wordle-lab optimal``: JSON keys, tree file replay, one-line errors with exit 2."""

from __future__ import annotations

import json

import pytest

from wordle_core.cli import main
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.tree import Tree
from wordle_core.search.exact import ExactSolver


@pytest.fixture()
def lists(small_lex: Lexicon, tmp_path) -> list[str]:
    a = tmp_path / "answers.txt"
    g = tmp_path / "guesses.txt"
    a.write_text("\n".join(small_lex.answers) + "\n")
    g.write_text("\n".join(small_lex.guesses) + "\n")
    return ["--answers", str(a), "--guesses", str(g)]


def test_json_and_tree(small_lex: Lexicon, lists: list[str], tmp_path, capsys) -> None:
    opener = small_lex.answers[11]
    tree_file = tmp_path / "tree.json"
    rc = main(["optimal", *lists, "--opener", opener, "--json", "--save-tree", str(tree_file)])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert {"opener", "total", "mean", "longest_game", "guess_limit", "proven", "seconds"} <= set(out)
    want = ExactSolver(small_lex).opener_value(small_lex.guess_id(opener))
    assert out["total"] == want and out["proven"] is True
    assert out["mean"] == pytest.approx(want / len(small_lex.answers), abs=1e-6)
    tree = Tree.load_json(small_lex, tree_file)
    assert int(tree.lengths().sum()) == want and int(tree.lengths().max()) == out["longest_game"]


def test_several_openers_and_hard(small_lex: Lexicon, lists: list[str], capsys) -> None:
    ops = small_lex.answers[1:4]
    assert main(["optimal", *lists, "--opener", ",".join(ops), "--hard", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["opener"] for r in out] == list(ops) and all(r["hard"] for r in out)
    s = ExactSolver(small_lex, hard=True)
    assert [r["total"] for r in out] == [s.opener_value(small_lex.guess_id(w)) for w in ops]


@pytest.mark.parametrize("argv", [
    ["optimal", "--opener", "zzzzz"],
    ["optimal"],
    ["optimal", "--opener", "salet", "--top", "3"],
    ["optimal", "--opener", "salet", "--guesses", "answers"],
    ["optimal", "--opener", "salet,crane", "--save-tree", "x.json"],
    ["optimal", "--best", "--opener", "salet"],
    ["optimal", "--opener", "salet", "--max-guesses", "0"],
])
def test_bad_input_is_one_line_exit_2(argv: list[str], capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("wordle-lab: error:")


def test_rank_writes_avro_and_csv(small_lex: Lexicon, lists: list[str], tmp_path, capsys) -> None:
    import csv

    import fastavro

    out = tmp_path / "rank"
    assert main(["optimal", *lists, "--rank", "5", "--output", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["k"] == 5 and len(summary["top"]) == 5
    assert summary["openers"] == len(small_lex.guesses)
    avro_path, csv_path = summary["files"]
    assert avro_path.endswith("-normal.avro") and csv_path.endswith("-normal.csv")
    with open(avro_path, "rb") as fh:
        recs = list(fastavro.reader(fh))
    with open(csv_path) as fh:
        rows = list(csv.DictReader(fh))
    assert len(recs) == len(rows) == len(small_lex.guesses)
    s = ExactSolver(small_lex)
    for r in recs[:5]:
        assert r["total"] == s.opener_value(small_lex.guess_id(r["opener"]))
    kth = summary["kth_total"]
    assert all(r["lower_bound"] > kth for r in recs if r["proof"] == "bound")
    proofs = [r["proof"] for r in recs]
    assert (summary["exact"], summary["no_win"], summary["by_bound"]) == (
        proofs.count("exact"), proofs.count("no-win"), proofs.count("bound"))
    with open(avro_path, "rb") as fh:  # how it was made, in the header
        meta = fastavro.reader(fh).metadata
    assert meta["wordle_lab.kth_total"] == str(kth) and meta["wordle_lab.k"] == "5"
    assert meta["wordle_lab.fingerprint"] == small_lex.fingerprint
    assert int(meta["wordle_lab.exact_searches"]) == proofs.count("exact")
    assert main(["optimal", *lists, "--rank", "0"]) == 2
