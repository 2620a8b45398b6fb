"""The ``optimal`` pipeline on a small lexicon: Avro values equal the engine's proofs."""

from __future__ import annotations

import csv

import fastavro
import pytest

from wordle_core.game.lexicon import Lexicon
from wordle_core.search.exact import ExactSolver

pytest.importorskip("apache_beam")

from pipelines import optimal


def _write_lists(lex: Lexicon, tmp_path) -> tuple[str, str]:
    a = tmp_path / "answers.txt"
    g = tmp_path / "guesses.txt"
    a.write_text("\n".join(lex.answers) + "\n")
    g.write_text("\n".join(lex.guesses) + "\n")
    return str(a), str(g)


def test_pipeline_writes_proven_values(small_lex: Lexicon, tmp_path) -> None:
    a, g = _write_lists(small_lex, tmp_path)
    openers = list(small_lex.answers[:3])
    out = tmp_path / "out"
    rc = optimal.run(["--answers", a, "--guesses", g, "--openers", ",".join(openers),
                      "--modes", "normal,hard", "--output", str(out)], save_main_session=False)
    assert rc == 0
    with open(out / "optimal.avro", "rb") as fh:
        recs = list(fastavro.reader(fh))
    assert len(recs) == 6
    for hard in (False, True):
        solver = ExactSolver(small_lex, hard=hard)
        for r in (r for r in recs if r["mode"] == ("hard" if hard else "normal")):
            want = solver.opener_value(small_lex.guess_id(r["opener"]))
            assert r["total"] == want and r["proven"]
            assert r["greedyTotal"] >= r["total"] and r["defaultTotal"] >= r["total"]
    with open(out / "optimal_ranking.csv") as fh:
        rows = list(csv.DictReader(fh))
    normal = [int(r["total"]) for r in rows if r["mode"] == "normal"]
    assert normal == sorted(normal) and len(normal) == 3
    assert not list(out.glob("*.tmp")) and not list(out.glob(".*.tmp"))


def test_bad_opener_is_one_line_exit_2(tmp_path, capsys) -> None:
    rc = optimal.run(["--openers", "qqqqq", "--output", str(tmp_path)], save_main_session=False)
    assert rc == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "qqqqq" in err[0]
