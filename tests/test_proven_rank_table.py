"""The shipped proven rankings (``wordle-lab optimal --rank 100``) and their users.

Each table claims: these ``k`` openers have these exact totals, and every other allowed
opener is worse (its exact total or a lower bound is above the ``k``-th total). The
tests check the claim's shape on every row, the published totals it contains, a fresh
proof of a seeded sample of its rows, and the readers: ``rank --proven``, ``suggest``'s
proven worth, and the report.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from wordle_core.cli import main
from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.search.exact import ExactSolver
from wordle_core.tables.exact import exact_ranking, proven_worth, shipped_rank, shipped_values

SHIPPED = [("wordle", "normal"), ("nyt", "normal"), ("wordle", "hard"), ("nyt", "hard"),
           ("nyt2023", "normal")]
# published exact totals on the original lists (Selby, "The best strategies for Wordle")
PUBLISHED = {"salet": 7920, "crate": 7926, "trace": 7926, "slate": 7928}
# ... and his top ten, in order (ties at 7,926 alphabetical)
PUBLISHED_TOP10 = ["salet", "reast", "crate", "trace", "slate", "crane", "carle", "slane", "carte", "torse"]


@pytest.mark.parametrize(("name", "mode"), SHIPPED)
def test_every_row_proves_its_place(name: str, mode: str) -> None:
    lex = load_lexicon(name)
    got = shipped_rank(lex, mode)
    assert got is not None, f"no proven ranking shipped for {name} {mode}"
    a = got.about
    k, kth = int(a["wordle_lab.k"]), int(a["wordle_lab.kth_total"])
    assert sorted(r["opener"] for r in got.records) == sorted(lex.guesses)  # every opener, once
    top = got.top
    assert [r["rank"] for r in top] == list(range(1, k + 1))
    assert [(r["total"], r["opener"]) for r in top] == sorted((r["total"], r["opener"]) for r in top)
    assert top[-1]["total"] == kth and all(r["proof"] == "exact" for r in top)
    last = top[-1]["opener"]
    for r in got.records[k:]:
        assert r["rank"] is None
        if r["proof"] == "bound":
            assert r["total"] is None and r["lower_bound"] > kth
        elif r["proof"] == "exact":  # tied with the k-th: alphabetically later
            assert r["total"] == r["lower_bound"] >= kth
            assert r["total"] > kth or r["opener"] > last
        else:
            assert r["proof"] == "no-win" and mode == "hard"


@pytest.mark.parametrize("name", ["wordle", "nyt"])
def test_hard_mode_agrees_with_the_shipped_verdicts(name: str) -> None:
    """No-win rows are exactly the openers proven infeasible; every ranked one is feasible;
    SALET's hard-mode optimum is the published 8,122 on the original lists."""
    from wordle_core.tables.verdicts import shipped_verdicts

    lex = load_lexicon(name)
    got = shipped_rank(lex, "hard")
    verdicts = shipped_verdicts(lex)
    assert {r["opener"] for r in got.records if r["proof"] == "no-win"} == \
        {w for w, v in verdicts.items() if v == "infeasible"}
    assert all(verdicts[r["opener"]] == "feasible" for r in got.top)
    normal = {r["opener"]: r["total"] for r in shipped_rank(lex, "normal").top}
    for r in got.top:  # hard mode only removes strategies: never better than normal mode
        assert normal.get(r["opener"], r["total"]) <= r["total"]
    if name == "wordle":
        assert (got.top[0]["opener"], got.top[0]["total"]) == ("salet", 8122)


def test_published_totals_and_the_exact_table_agree() -> None:
    lex = load_lexicon("wordle")
    top = {r["opener"]: r["total"] for r in shipped_rank(lex, "normal").top}
    assert {w: top[w] for w in PUBLISHED} == PUBLISHED
    assert min(top.items(), key=lambda kv: (kv[1], kv[0])) == ("salet", 7920)
    assert [r["opener"] for r in shipped_rank(lex, "normal").top[:10]] == PUBLISHED_TOP10
    table = shipped_values("wordle", "normal")
    both = set(top) & set(table)
    assert len(both) >= 50
    assert {w: top[w] for w in both} == {w: table[w] for w in both}


def test_the_hard_table_agrees_with_the_verdicts_and_the_ranking() -> None:
    """Every shipped hard-mode value: empty exactly where the shipped verdicts say no
    strategy wins, equal to the proven ranking's total where both have one, never below
    the opener's normal-mode total (hard mode only takes strategies away)."""
    from wordle_core.tables.verdicts import shipped_verdicts

    lex = load_lexicon("wordle")
    table = shipped_values("wordle", "hard")
    verdicts = shipped_verdicts(lex)
    assert len(table) >= 100
    assert all((t is None) == (verdicts[w] == "infeasible") for w, t in table.items())
    ranked = {r["opener"]: r["total"] for r in shipped_rank(lex, "hard").top}
    both = set(ranked) & {w for w, t in table.items() if t is not None}
    assert both and {w: table[w] for w in both} == {w: ranked[w] for w in both}
    normal = shipped_values("wordle", "normal")
    assert all(normal[w] <= t for w, t in table.items() if t is not None and w in normal)


@pytest.mark.parametrize(("name", "seed", "unsearched_at_least"),
                         [("wordle", 12, 10_000), ("nyt2023", 2023, 5_000)])
def test_a_sample_of_rows_is_proven_again(name: str, seed: int, unsearched_at_least: int) -> None:
    """The best opener's exact total and one other top-40 total, four bound-only rows'
    two-level bounds and two searched rows' cut-off proofs, recomputed from scratch."""
    lex = load_lexicon(name)
    got = shipped_rank(lex, "normal")
    kth = int(got.about["wordle_lab.kth_total"])
    rng = random.Random(seed)
    solver = ExactSolver(lex)
    for r in [got.top[0], *rng.sample(got.top[1:40], 1)]:
        assert solver.opener_value(lex.guess_index[r["opener"]]) == r["total"], r
    bounds = [r for r in got.records if r["proof"] == "bound"]
    unsearched = [r for r in bounds if r["cpu_seconds"] == 0]
    searched = [r for r in bounds if r["cpu_seconds"] > 0]
    assert len(unsearched) > unsearched_at_least and searched
    sample = rng.sample(unsearched, 4)
    lb2 = solver.opener_bounds(np.array([lex.guess_index[r["opener"]] for r in sample], np.int32))
    assert [int(x) for x in lb2] == [r["lower_bound"] for r in sample]
    for r in rng.sample(searched, 2):
        assert solver.opener_value(lex.guess_index[r["opener"]], beta=kth + 1) > kth, r


def test_the_normal_exact_table_is_complete_and_within_independent_bounds() -> None:
    """The shipped normal-mode exact table has one total for every allowed opener of
    ``wordle``, and each total of a sample (the five worst, the last rows to be computed,
    and ten seeded others) lies between the opener's two-level lower bound and the total
    of the width-limited search's own tree (an upper bound: a strategy that exists)."""
    lex = load_lexicon("wordle")
    table = shipped_values("wordle", "normal")
    assert set(table) == set(lex.guesses) and all(t is not None for t in table.values())
    worst = sorted(table, key=lambda w: (-table[w], w))[:5]
    assert worst[0] == "qajaq"
    sample = worst + random.Random(19).sample(sorted(table), 10)
    lower = ExactSolver(lex).opener_bounds(np.array([lex.guess_index[w] for w in sample], np.int32))
    upper = ExactSolver(lex, exact=False)
    for w, lb in zip(sample, lower, strict=True):
        assert int(lb) <= table[w] <= upper.opener_value(lex.guess_index[w]), w


def test_other_word_lists_get_nothing() -> None:
    lex = load_lexicon("wordle")
    other = replace(lex, answers=lex.answers[1:])
    assert isinstance(other, Lexicon) and shipped_rank(other, "normal") is None
    assert shipped_rank(other, "hard") is None


def test_proven_worth_includes_the_ranking() -> None:
    lex = load_lexicon("nyt")
    top = shipped_rank(lex, "normal").top
    worth = proven_worth(lex, "normal")
    assert all(worth[r["opener"]] == r["total"] for r in top)


def test_rank_proven_prints_the_shipped_top(capsys) -> None:
    assert main(["rank", "--proven", "--lexicon", "wordle", "--top", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    got = shipped_rank(load_lexicon("wordle"), "normal")
    assert out[0].startswith("wordle · normal mode — the 3 best of 12,972 openers, proven")
    rows = [line.split() for line in out[2:5]]
    assert [(int(r[0]), r[1], int(r[2])) for r in rows] == [
        (t["rank"], t["opener"], t["total"]) for t in got.top[:3]]
    assert rows[0][1:3] == ["salet", "7920"] and rows[0][3] == f"{7920 / 2315:.4f}"
    assert f"the 100th total is {got.about['wordle_lab.kth_total']}" in out[5]


def test_rank_proven_refuses_in_one_line(capsys) -> None:
    assert shipped_rank(load_lexicon("nyt2023"), "hard") is None
    assert main(["rank", "--proven", "--lexicon", "nyt2023", "--mode", "hard"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no proven ranking ships for nyt2023 hard" in err[0]
    assert main(["rank", "--proven", "--by", "win3"]) == 2
    assert "exact total only" in capsys.readouterr().err


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_exact_ranking_places_every_shipped_opener(mode: str) -> None:
    """Every opener of the shipped table once, by total then alphabetical, no-win openers
    last; each rank is 1 + the number of openers with a smaller total (counted here
    directly from the table, not from the order)."""
    values = shipped_values("wordle", mode)
    places = exact_ranking(load_lexicon("wordle"), mode)
    assert sorted(p.opener for p in places) == sorted(values)
    assert all(p.total == values[p.opener] for p in places)
    won = [p for p in places if p.total is not None]
    assert places[:len(won)] == won  # no-win openers come last
    keys = [(p.total, p.opener) for p in won]
    assert keys == sorted(keys)
    totals = np.array([p.total for p in won])
    for p in won[:200] + won[-200:] + random.Random(3).sample(won, 200):
        assert p.rank == 1 + int((totals < p.total).sum()), p
    assert all(p.rank == len(won) + 1 for p in places[len(won):])
    assert (mode == "hard") == (len(won) < len(places))  # hard mode has lost openers


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_exact_ranking_agrees_with_the_proven_ranking(mode: str) -> None:
    """The proven k best (a separate search, with its own cut-off proofs) are the exact
    table's first k, in the same order, with the same totals."""
    top = shipped_rank(load_lexicon("wordle"), mode).top
    places = exact_ranking(load_lexicon("wordle"), mode)[:len(top)]
    assert [(p.opener, p.total) for p in places] == [(r["opener"], r["total"]) for r in top]


def test_rank_exact_prints_the_best_the_worst_and_one_opener(capsys) -> None:
    n = len(shipped_values("wordle", "normal"))
    left = 12972 - n
    assert main(["rank", "--exact", "--lexicon", "wordle", "--top", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"wordle · normal mode — exact totals of {n:,} of 12,972 openers")
    assert (f"({left:,} not computed yet)" in out[0]) == (left > 0)
    rows = [line.split() for line in out[2:]]
    # Selby's published totals: SALET 7,920 first, CRATE and TRACE tied at 7,926
    assert rows[0] == ["1", "salet", "7920", f"{7920 / 2315:.4f}"] and len(rows) == 3
    assert main(["rank", "--exact", "--lexicon", "wordle", "--opener", "TRACE"]) == 0
    assert capsys.readouterr().out.splitlines()[2].split()[:3] == ["3", "trace", "7926"]
    assert main(["rank", "--exact", "--lexicon", "wordle", "--worst", "--top", "2"]) == 0
    last = exact_ranking(load_lexicon("wordle"), "normal")[-1]
    assert capsys.readouterr().out.splitlines()[-1].split()[:3] == [f"{last.rank}", last.opener,
                                                                     f"{last.total}"]
    assert main(["rank", "--exact", "--lexicon", "wordle", "--mode", "hard", "--worst", "--top", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].split()[2:] == ["no", "win", "-"]


def test_rank_exact_refuses_in_one_line(capsys) -> None:
    for argv, says in [(["--exact", "--lexicon", "nyt"], "no exact table ships for nyt normal"),
                       (["--exact", "--opener", "zzzzz"], "not an allowed guess"),
                       (["--exact", "--proven"], "exact total only"),
                       (["--worst"], "go with --exact"),
                       (["--opener", "salet"], "go with --exact")]:
        assert main(["rank", *argv]) == 2, argv
        cap = capsys.readouterr()
        err = cap.err.strip().splitlines()
        assert len(err) == 1 and says in err[0] and cap.out == "", (argv, err)


def test_table_writer_is_deterministic(tmp_path) -> None:
    """Same rows and metadata, same bytes (a fixed Avro sync marker), and the CSV agrees."""
    import csv

    from wordle_core.tables.exact import RANK_FIELDS, write_rank

    got = shipped_rank(load_lexicon("nyt"), "normal")
    rows = got.records[:300]
    for name in ("a", "b"):
        write_rank(rows, str(tmp_path / f"{name}.avro"), str(tmp_path / f"{name}.csv"), got.about)
    assert (tmp_path / "a.avro").read_bytes() == (tmp_path / "b.avro").read_bytes()
    back = list(csv.DictReader((tmp_path / "a.csv").open()))
    assert [r["opener"] for r in back] == [r["opener"] for r in rows] and list(back[0]) == RANK_FIELDS
