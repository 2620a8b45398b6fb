"""rankings.csv tells the truth: losers after winners, histogram columns, read_table."""

from __future__ import annotations

import csv

import pandas as pd
import pytest
from _report_data import synthetic_tables, write_tables

from pipelines.report import build_report, format_top, rankings, top_table
from wordle_core.cli import main
from wordle_core.tables.frames import histogram_columns, read_table, tables_in
from wordle_core.tables.load import TableError

OPENERS = ["salet", "crane", "trace", "slate", "fuzzy", "queue", "blimp", "perms", "rowth", "clots",
           "colts", "soare", "raise", "tales", "reals", "lares"]


@pytest.fixture(scope="module")
def synth(tmp_path_factory):
    out = tmp_path_factory.mktemp("synth")
    tables = synthetic_tables(OPENERS, ["entropy", "minimax"], ["normal", "hard"], games=400, seed=3)
    write_tables(out, tables)
    build_report(out, out / "report")
    return out, tables


def _summary(opener, mean, failures, games=100):
    """An opener_summaries row with a histogram consistent with ``failures``."""
    hist = [0, 0, games - failures, 0, 0, 0] + ([failures] if failures else [])
    return {"lexicon": "wordle", "strategy": "entropy", "mode": "hard", "opener": opener,
            "games": games, "total_guesses": round(mean * games), "mean_guesses": mean,
            "histogram": hist, "max_guesses": len(hist), "failures": failures,
            "win_in_3_rate": (games - failures) / games, "win_in_6_rate": (games - failures) / games,
            "tree_nodes": 1, "worst_games": []}


def test_losers_rank_after_every_winner():
    # TRACE has the best mean but loses two games: it must come after both winners.
    rows = [_summary("trace", 3.50, 2), _summary("salet", 3.51, 0), _summary("crane", 3.60, 0),
            _summary("fuzzy", 3.55, 9), _summary("blimp", 3.51, 0)]
    frame = pd.DataFrame(rows)
    for i in range(1, 7):
        frame[f"solved_in_{i}"] = frame["histogram"].map(lambda h, i=i: h[i - 1] if len(h) >= i else 0)
    frame["unsolved"] = frame["failures"]
    r = rankings(frame, None)
    assert list(r["opener"]) == ["blimp", "salet", "crane", "trace", "fuzzy"]
    assert list(r["rank"]) == [1, 2, 3, 4, 5]
    assert list(r["rank_mean"]) == [1, 1, 3, 4, 5]  # BLIMP and SALET tie on mean: shared rank
    # the other measures keep their plain meaning
    assert r.set_index("opener")["rank_failures"].to_dict() == {
        "blimp": 1, "salet": 1, "crane": 1, "trace": 4, "fuzzy": 5}


def test_rankings_csv_histogram_columns_sum_to_games(synth):
    out, tables = synth
    rows = list(csv.DictReader((out / "report" / "rankings.csv").open()))
    assert len(rows) == len(tables["opener_summaries"])
    cols = histogram_columns(6)
    assert set(cols) <= set(rows[0])
    by_key = {(s["strategy"], s["mode"], s["opener"]): s for s in tables["opener_summaries"]}
    for r in rows:
        counts = [int(r[c]) for c in cols]
        assert sum(counts) == int(r["games"])
        assert counts[-1] == int(r["failures"])
        hist = by_key[(r["strategy"], r["mode"], r["opener"])]["histogram"]
        assert counts[:6] == (hist + [0] * 6)[:6]
        assert sum((i + 1) * n for i, n in enumerate(counts[:6])) <= int(r["total_guesses"])


def test_rankings_csv_order_and_rank_columns(synth):
    out, _ = synth
    df = pd.read_csv(out / "report" / "rankings.csv")
    for _, g in df.groupby(["lexicon", "strategy", "mode"]):
        assert list(g["rank"]) == list(range(1, len(g) + 1))
        loses = list(g["failures"] > 0)
        assert loses == sorted(loses), "a losing opener above a winning one"
        key = list(zip(loses, g["mean_guesses"], g["opener"], strict=True))
        assert key == sorted(key)
        assert (g["rank_mean"] <= g["rank"]).all()
        # an independent reference for rank_mean: 1 + the rows strictly better
        for _, r in g.iterrows():
            better = ((g["failures"] > 0) < (r["failures"] > 0)) | (
                ((g["failures"] > 0) == (r["failures"] > 0)) & (g["mean_guesses"] < r["mean_guesses"]))
            assert r["rank_mean"] == 1 + int(better.sum())


def test_rank_command_puts_winners_first(synth, capsys):
    out, _ = synth
    assert main(["rank", "--report", str(out / "report"), "--mode", "hard", "--top", "16"]) == 0
    lines = capsys.readouterr().out.splitlines()[2:]
    fails = [int(line.split()[-1]) for line in lines]
    assert len(fails) == 16 and 0 in fails and any(fails)
    assert [f > 0 for f in fails] == sorted(f > 0 for f in fails)
    g, key = top_table(out / "report", "failures", 3, "minimax", "normal")
    assert key == ("wordle", "minimax", "normal") and len(g) == 3
    assert "top 3 by failures" in format_top(g, key, "failures")


def test_read_table_frames(synth):
    out, tables = synth
    assert tables_in(out) == ["opener_scores", "opener_summaries", "hard_verdicts"]
    s = read_table(out, "opener_summaries")
    assert len(s) == len(tables["opener_summaries"])
    assert (s[histogram_columns(6)].sum(axis=1) == s["games"]).all()
    assert (s["unsolved"] == s["failures"]).all()
    keys = list(zip(s["lexicon"], s["strategy"], s["mode"], s["opener"], strict=True))
    assert keys == sorted(keys)
    v = read_table(out / "hard_verdicts", "hard_verdicts")
    assert (v["worst_path"].str.split().str[-1] == v["worst_answer"] + ":ggggg").all()
    assert len(read_table(out, "opener_scores")) == len(OPENERS)
    with pytest.raises(TableError, match="unknown table"):
        read_table(out, "nope")
    with pytest.raises(TableError, match="no trees Avro table"):
        read_table(out, "trees")


def test_read_table_rejects_an_inconsistent_histogram(tmp_path):
    bad = _summary("salet", 3.5, 2)
    bad["failures"] = 0
    write_tables(tmp_path, {"opener_summaries": [bad]})
    with pytest.raises(TableError, match="failures=0"):
        read_table(tmp_path, "opener_summaries")
    bad["failures"], bad["games"] = 2, 101
    write_tables(tmp_path, {"opener_summaries": [bad]})
    with pytest.raises(TableError, match="not games=101"):
        read_table(tmp_path, "opener_summaries")
