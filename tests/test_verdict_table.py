"""The shipped table of every opener's exact hard-mode verdict, and its users.

``wordle-lab pipeline hard --ship DIR`` turns a finished complete-search run into the
table; ``hard-verdict``, the API and ``suggest`` answer from it. The table itself is
checked against fresh proofs (the search run again) on a seeded sample of its openers.
"""

from __future__ import annotations

import csv
import json
import random

import pytest

import wordle_core as wl
from wordle_core.cli import main
from wordle_core.game.lexicon import load_lexicon
from wordle_core.search.hard import hard_verdict
from wordle_core.tables.verdicts import read_verdicts, shipped_about, shipped_verdicts, write_verdicts

LOCAL = ["--direct_running_mode=in_memory", "--no-progress"]
NAMED = {"salet": "feasible", "crane": "feasible", "crate": "feasible", "slate": "infeasible",
         "trace": "infeasible", "raise": "infeasible", "arose": "infeasible", "soare": "infeasible"}


def _ship_three(run, dest, capsys) -> list[dict]:
    """``--ship`` a finished nyt run of salet, slate and trace; its CSV rows (checked)."""
    capsys.readouterr()
    assert main(["pipeline", "hard", "--lexicon", "nyt", "--output", str(run), "--ship", str(dest)]) == 0
    assert "3 nyt verdicts (1 feasible, 2 infeasible)" in capsys.readouterr().out
    rows = list(csv.DictReader((dest / "nyt.csv").open()))
    assert [(r["opener"], r["verdict"]) for r in rows] == [
        ("salet", "feasible"), ("slate", "infeasible"), ("trace", "infeasible")]
    return rows


def test_ship_collects_a_run(tmp_path, capsys):
    """A pipeline run -> --ship: one row per opener, its exact verdict, the run's metadata."""
    run, dest = tmp_path / "run", tmp_path / "data"
    assert main(["pipeline", "hard", "--lexicon", "nyt", "--openers", "salet,slate,trace",
                 "--strategies", "entropy,minimax", "--output", str(run), *LOCAL]) == 0
    rows = _ship_three(run, dest, capsys)
    table, meta = read_verdicts((dest / "nyt.avro").read_bytes())
    assert table == {r["opener"]: r["verdict"] for r in rows}
    assert meta["wordle_lab.fingerprint"] == load_lexicon("nyt").fingerprint
    assert "complete search" in meta["wordle_lab.computed_by"]


def test_exact_only_run_ships_the_same_verdicts(tmp_path, capsys):
    """``--exact-only`` writes hard_exact (one record per opener, no strategy played) and
    ships the same table as a run that also plays strategies (test above)."""
    from wordle_core.tables.avro import read_records

    run, dest = tmp_path / "run", tmp_path / "data"
    assert main(["pipeline", "hard", "--lexicon", "nyt", "--openers", "salet,slate,trace",
                 "--exact-only", "--output", str(run), *LOCAL]) == 0
    assert sorted(p.name for p in run.iterdir()) == ["_generation.json", "hard_exact"]
    recs = read_records(run, "hard_exact")
    assert [(r["opener"], r["strategy"], r["exact_verdict"]) for r in recs] == [
        ("salet", "-", "feasible"), ("slate", "-", "infeasible"), ("trace", "-", "infeasible")]
    _ship_three(run, dest, capsys)


def test_ship_refuses_undecided_and_wrong_lexicon(tmp_path, capsys):
    run = tmp_path / "run"
    # an opener no other test proves (the process's solver memo would decide it at once)
    assert main(["pipeline", "hard", "--lexicon", "nyt", "--openers", "vozhd", "--strategies",
                 "minimax", "--exact-budget", "1", "--output", str(run), *LOCAL]) == 0
    capsys.readouterr()
    assert main(["pipeline", "hard", "--lexicon", "nyt", "--output", str(run),
                 "--ship", str(tmp_path / "d")]) == 2
    assert "not decided" in capsys.readouterr().err
    assert main(["pipeline", "hard", "--lexicon", "wordle", "--output", str(run),
                 "--ship", str(tmp_path / "d")]) == 2
    assert "holds 'nyt' verdicts" in capsys.readouterr().err
    assert not (tmp_path / "d" / "nyt.csv").exists()


def test_write_refuses_unknown(tmp_path):
    lex = load_lexicon("nyt")
    with pytest.raises(ValueError, match="not decided"):
        write_verdicts([{"opener": "salet", "verdict": "unknown", "seconds": 0.0, "nodes": 1}],
                       tmp_path, lex, {})
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", ["wordle", "nyt"])
def test_shipped_table_is_complete_and_agrees_with_fresh_proofs(name):
    """Every allowed opener decided; the named openers; a seeded sample proved again
    (6 feasible, 6 infeasible, among those whose proof took under a second in the run,
    to keep the suite quick)."""
    from importlib import resources

    lex = load_lexicon(name)
    table = shipped_verdicts(lex)
    assert table, f"the package ships no hard-mode verdicts for {name}"
    assert set(table) == set(lex.guesses) and set(table.values()) <= {"feasible", "infeasible"}
    assert {w: table[w] for w in NAMED} == NAMED
    assert shipped_about(lex)["wordle_lab.openers"] == str(len(lex.guesses))
    rows = list(csv.DictReader(resources.files("wordle_core.data").joinpath(
        f"hard/{name}.csv").read_text(encoding="utf-8").splitlines()))
    assert {r["opener"]: r["verdict"] for r in rows} == table  # the CSV says what the Avro says
    rng = random.Random(12)
    for verdict in ("feasible", "infeasible"):
        quick = sorted(r["opener"] for r in rows if r["verdict"] == verdict and float(r["seconds"]) < 1)
        for w in rng.sample(quick, 6):
            assert hard_verdict(lex, lex.guess_id(w))["verdict"] == verdict, w


def test_custom_lexicon_of_the_same_name_gets_nothing():
    base = load_lexicon("nyt")
    other = wl.Lexicon.build("nyt", base.answers[:50], base.guesses)
    assert shipped_verdicts(other) == {}


def test_cli_and_api_answer_from_the_table(capsys):
    lex = load_lexicon("nyt")
    assert shipped_verdicts(lex), "the package ships no hard-mode verdicts for nyt"
    assert main(["hard-verdict", "--lexicon", "nyt", "--opener", "soare", "--opener", "crate",
                 "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert [(r["opener"], r["verdict"], r["source"]) for r in got] == [
        ("soare", "infeasible", "shipped table"), ("crate", "feasible", "shipped table")]
    assert main(["hard-verdict", "--lexicon", "nyt", "--opener", "slate", "--search", "--json"]) == 0
    fresh = json.loads(capsys.readouterr().out)
    assert (fresh["verdict"], fresh["source"]) == ("infeasible", "search")
    v = wl.hard_verdict("trace", lexicon="nyt")
    assert (v.feasible, v.source) == (False, "shipped table")
    assert wl.hard_verdict("trace", lexicon="nyt", search=True).source == "search"


def test_first_hard_suggestion_says_whether_a_win_is_guaranteed(capsys):
    lex = load_lexicon("wordle")
    table = shipped_verdicts(lex)
    assert table, "the package ships no hard-mode verdicts for wordle"
    from wordle_core.game.state import GameState
    from wordle_core.interactive.suggest import suggest
    from wordle_core.strategies import get_strategy

    res = suggest(GameState.new(lex, True), get_strategy("entropy"), top=8)
    assert res.options
    for o in res.options:
        want = "no-win" if table[o.word] == "infeasible" else ("wins", "proven")
        assert o.optimal in want, (o.word, o.optimal)


def test_implied_feasible_skips_the_search(tmp_path, monkeypatch, capsys):
    """nyt from wordle's table: a shipped-feasible opener is taken, the rest are searched."""
    import wordle_core.tables.verdicts as verdicts
    from wordle_core.tables.avro import read_records

    real = verdicts.shipped_verdicts
    monkeypatch.setattr(verdicts, "shipped_verdicts",
                        lambda lex: {"salet": "feasible", "trace": "infeasible"} if lex.name == "wordle"
                        else real(lex))
    out = tmp_path / "run"
    assert main(["pipeline", "hard", "--lexicon", "nyt", "--openers", "salet,trace", "--strategies",
                 "minimax", "--exact-implied-by", "wordle", "--output", str(out), *LOCAL]) == 0
    recs = {r["opener"]: r for r in read_records(out, "hard_verdicts")}
    assert recs["salet"]["exact_verdict"] == "feasible" and recs["salet"]["exact_nodes"] == 0
    assert recs["salet"]["exact_note"].startswith("implied: feasible on wordle")
    assert recs["trace"]["exact_verdict"] == "infeasible"  # searched (a shipped 'infeasible' implies nothing)
    assert "complete search" in recs["trace"]["exact_note"]


@pytest.mark.parametrize(("source", "needle"), [
    ("nyt", "must be another lexicon"), ("nyt2023", "superset"), ("primel", "same guesses")])
def test_implied_by_refuses_an_unsound_source(tmp_path, capsys, source, needle):
    assert main(["pipeline", "hard", "--lexicon", "nyt", "--openers", "salet", "--strategies",
                 "minimax", "--exact-implied-by", source, "--output", str(tmp_path / "r"), *LOCAL]) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "r" / "hard_verdicts").exists()


def test_report_marks_shipped_infeasible_openers(tmp_path):
    """The hard-mode ranking's proven column: a shipped 'infeasible' is 'no guaranteed win'."""
    import pandas as pd

    from pipelines.report import exact_values

    assert shipped_verdicts(load_lexicon("nyt")), "the package ships no hard-mode verdicts for nyt"
    ranks = pd.DataFrame({"lexicon": ["nyt", "nyt"], "mode": ["hard", "normal"]})
    got = exact_values(ranks, tmp_path)
    assert got[("nyt", "hard", "slate")] == -1 and got[("nyt", "hard", "soare")] == -1
    # feasible openers are never "no guaranteed win" (an exact total where one is shipped),
    # and a hard-mode verdict says nothing of normal mode
    assert got.get(("nyt", "hard", "salet"), 1) > 0 and got.get(("nyt", "normal", "slate"), 1) > 0


def test_report_decides_undecided_openers_by_the_shipped_verdicts():
    """A run that did not search (the quick config) shows the shipped proof, not 'undecided'."""
    import pandas as pd

    from pipelines.report import SHIPPED_NOTE, with_shipped_verdicts
    from pipelines.report_html import user_note

    rows = pd.DataFrame({"lexicon": ["nyt", "nyt", "nyt", "custom:x.txt"],
                         "opener": ["salet", "slate", "crane", "salet"],
                         "exact_verdict": ["unknown", "unknown", "infeasible", "unknown"],
                         "exact_note": ["", "", "budget", ""]})
    got = with_shipped_verdicts(rows)
    assert got["exact_verdict"].tolist() == ["feasible", "infeasible", "infeasible", "unknown"]
    assert got["exact_note"].tolist() == [SHIPPED_NOTE, SHIPPED_NOTE, "budget", ""]
    assert rows["exact_verdict"].tolist()[:2] == ["unknown", "unknown"]  # the input is not changed
    assert "wordle_core" not in user_note(SHIPPED_NOTE)


@pytest.mark.parametrize(("text", "budget", "implied"), [
    ("exact_hard: true", 0, None),
    ("exact_hard: {implied_by: wordle}", 0, "wordle"),
    ("exact_hard: {node_budget: 500, implied_by: wordle}", 500, "wordle"),
])
def test_config_exact_hard_forms(tmp_path, text, budget, implied):
    from pipelines.config import build_config

    p = tmp_path / "c.yaml"
    p.write_text(f"lexicon: nyt\nopeners: [salet]\n{text}\n")
    cfg = build_config(p)
    assert (cfg.exact_node_budget, cfg.exact_implied_by) == (budget, implied)


def test_config_exact_hard_refuses_unknown_keys(tmp_path):
    from pipelines.config import ConfigError, build_config

    p = tmp_path / "c.yaml"
    p.write_text("lexicon: nyt\nopeners: [salet]\nexact_hard: {implied: wordle}\n")
    with pytest.raises(ConfigError, match="implied_by"):
        build_config(p)
