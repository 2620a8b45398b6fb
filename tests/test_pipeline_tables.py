"""The solver reads the pipelines' Avro tables: opener scores and decision trees."""

from __future__ import annotations

import numpy as np
import pytest

from pipelines import games, scores, trees
from pipelines.config import build_config
from pipelines.orchestration import stages
from wordle_core.analysis.simulate import simulate
from wordle_core.cli import main
from wordle_core.game.matrix import pattern_matrix
from wordle_core.search import openers
from wordle_core.tables import load as tables

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    d = tmp_path_factory.mktemp("tables")
    cfg = build_config(None, lexicon="wordle",
                       output=str(d), openers="salet,crane", strategies="entropy,minimax",
                       modes="normal,hard")
    scores.score(cfg, LOCAL, None)
    hard_only = build_config(None, lexicon="wordle",
                             output=str(d), openers="salet,crane", strategies="entropy,minimax",
                             modes="hard")
    trees.play(hard_only, LOCAL, None)
    return d


def test_opener_scores_from_avro_equal_engine(out, wordle, small_lex, monkeypatch):
    loaded = tables.load_opener_scores(wordle, out)
    direct = openers.compute_opener_scores(wordle, pattern_matrix(wordle))
    for f in ("avg_eliminated", "avg_remaining", "entropy", "largest", "buckets"):
        assert np.array_equal(getattr(loaded, f), getattr(direct, f)), f
    monkeypatch.setattr(openers, "compute_opener_scores", lambda *a, **k: pytest.fail("recomputed"))
    assert openers.opener_scores(wordle, scores=loaded) is loaded
    assert openers.top_openers(wordle, 3, scores=loaded) == ["roate", "raise", "raile"]
    with pytest.raises(ValueError, match="rows"):
        openers.opener_scores(small_lex, scores=loaded)  # another lexicon's table


def test_missing_scores_table(tmp_path, wordle):
    assert tables.find_opener_scores(wordle, tmp_path) is None
    with pytest.raises(tables.TableError, match="no opener_scores"):
        tables.load_opener_scores(wordle, tmp_path)


def test_tree_from_avro_plays_like_strategy(out, wordle):
    tree = tables.load_tree_file(wordle, out / "trees", strategy="minimax", hard=True, opener="crane",
                                 matrix=pattern_matrix(wordle))
    from_table, _ = simulate(wordle, "minimax", "crane", True, pattern_matrix(wordle), tree=tree)
    direct, _ = simulate(wordle, "minimax", "crane", True, pattern_matrix(wordle))
    for k in ("totalCount", "guessDistribution", "meanGuesses", "maxGuesses", "failures", "maxGuessWords"):
        assert from_table[k] == direct[k], k


def test_tree_table_selection_errors(out, wordle):
    with pytest.raises(tables.TableError, match="match"):
        tables.load_tree_file(wordle, out, strategy=None, hard=True, opener="crane")  # two strategies
    with pytest.raises(tables.TableError, match="0 trees"):
        tables.load_tree_file(wordle, out, strategy="entropy", hard=False, opener="crane")  # no normal


def test_simulate_cli_plays_from_avro(out, capsys):
    assert main(["simulate", "--lexicon", "wordle", "--tree", str(out / "trees"), "--strategy", "entropy",
                 "--hard", "--opener", "salet", "--json"]) == 0
    import json

    rep = json.loads(capsys.readouterr().out)
    assert rep["opener"] == "salet" and rep["hard"] and rep["totalCount"] == 2315
    assert rep["averageTime"] == 0.0  # nothing was searched: the table was played


def test_found_opener_scores(out, tmp_path, wordle):
    """The first *complete* table for the lexicon is found; partial ones are skipped."""
    import shutil

    from pipelines.orchestration.sink import avro_bytes, shard_name

    root = tmp_path / "outputs"
    partial = tables.read_avro_records(tables.table_files(out, "opener_scores"))[:100]
    from wordle_core.tables.avro import write_table

    write_table(root / "a" / "opener_scores", "opener_scores",
                {shard_name("opener_scores", 0, 1): (avro_bytes("opener_scores", partial), len(partial))})
    shutil.copytree(out / "opener_scores", root / "b" / "opener_scores")
    assert tables.find_opener_scores(wordle, tmp_path / "nothing") is None
    found = tables.find_opener_scores(wordle, root)
    assert found is not None
    assert np.array_equal(found.avg_eliminated, tables.load_opener_scores(wordle, out).avg_eliminated)


def test_counters_and_summary_line(tmp_path):
    cfg = build_config(None, lexicon="wordle",
                       output=str(tmp_path), openers="fuzzy", strategies="entropy", modes="hard")
    res = games.play(cfg, LOCAL, None)
    (rec,) = tables.read_avro_records(tables.table_files(tmp_path, "opener_summaries"))
    assert res.counters["openers_done"] == res.counters["trees_built"] == 1
    assert res.counters["games_played"] == rec["games"] == 2315
    assert res.counters["games_failed"] == rec["failures"] > 0
    assert "2,315 games" in stages.describe(res)
    # the tree's CPU, counted per strategy and mode
    ((key, (ms, n)),) = stages.tree_cpu(res.counters).items()
    assert key == ("entropy", "hard") and n == 1 and 0 < ms < 60_000
    assert f"CPU per tree: entropy hard {ms:,.1f} ms" in stages.describe(res)


def test_tree_cpu_per_strategy_and_mode():
    """CPU-ms per tree from the counters: microseconds summed / trees, normal mode first."""
    c = {"trees:entropy:hard": 4, "tree_cpu_us:entropy:hard": 10_000, "trees:default:normal": 2,
         "tree_cpu_us:default:normal": 90_000, "trees:default:hard": 0, "games_played": 5}
    assert stages.tree_cpu(c) == {("default", "normal"): (45.0, 2), ("entropy", "hard"): (2.5, 4)}


def test_avg_eliminated_strategies_take_the_table(out, wordle, monkeypatch):
    """`simple` plays from a table passed in as its option, and nothing is recomputed."""
    loaded = tables.load_opener_scores(wordle, out)
    monkeypatch.setattr(openers, "compute_opener_scores", lambda *a, **k: pytest.fail("recomputed"))
    report, _ = simulate(wordle, "simple", "salet", False, pattern_matrix(wordle), opener_scores=loaded)
    assert report["totalCount"] == 2315


def test_the_engine_never_looks_for_tables(out, wordle, monkeypatch, tmp_path):
    """$WORDLE_LAB_OUTPUTS and ./outputs are the CLI's business: the engine computes."""
    monkeypatch.setenv("WORDLE_LAB_OUTPUTS", str(out.parent))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "outputs").symlink_to(out, target_is_directory=True)
    monkeypatch.setattr(openers, "_COMPUTED", {})
    calls = []
    real = openers.compute_opener_scores
    monkeypatch.setattr(openers, "compute_opener_scores", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert openers.top_openers(wordle, 1, scores=None) == ["roate"]
    assert calls == [1]


def test_the_cli_finds_a_finished_table(out, monkeypatch, capsys):
    """With a table under $WORDLE_LAB_OUTPUTS, `simulate --strategy simple` plays from it."""
    import json

    monkeypatch.setenv("WORDLE_LAB_OUTPUTS", str(out.parent))
    monkeypatch.setattr(openers, "_COMPUTED", {})
    monkeypatch.setattr(openers, "compute_opener_scores", lambda *a, **k: pytest.fail("recomputed"))
    assert main(["simulate", "--lexicon", "wordle", "--strategy", "simple", "--opener", "salet",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totalCount"] == 2315
