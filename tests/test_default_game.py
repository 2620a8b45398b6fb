"""Today's NYT game (``nyt2023``) is the default game; the 2021 one is one flag away.

A history or word that another built-in game accepts, but not the chosen one, gets one
line naming that game (CLI and ``assist``); ``rank --json`` in each of its modes. Today's
answer ADIEU (2026-12-07) is an answer of ``nyt2023`` and of no 2021/2022 list.
"""

from __future__ import annotations

import json

import pytest

import wordle_core as wl
from pipelines.config import JobConfig
from tests._solver_cli import run_main
from wordle_core.game.history import answers_fitting, games_fitting, history_hint, word_hint
from wordle_core.game.lexicon import DEFAULT_LEXICON, load_lexicon

ADIEU = "salet:bybgb,brine:bbgby"  # today's game: only ADIEU fits, in nyt2023 alone


def test_the_default_game_is_nyt2023():
    assert DEFAULT_LEXICON == "nyt2023"
    lex = load_lexicon()
    assert (lex.name, len(lex.answers), len(lex.guesses)) == ("nyt2023", 3158, 14855)
    assert wl.Position().lexicon.name == "nyt2023"
    assert len(wl.candidates()) == 3158 and len(wl.candidates(lexicon="wordle")) == 2315
    assert JobConfig().lexicon == "nyt2023"


def test_main_job_config_plays_nyt2023():
    from pathlib import Path

    from pipelines.config import build_config

    cfg = build_config(Path(__file__).resolve().parents[1] / "configs" / "default.yaml")
    assert cfg.lexicon == "nyt2023"
    lex = load_lexicon(cfg.lexicon)
    assert cfg.openers.top == 60 and "tarse" in cfg.openers.words
    assert all(w in lex.guess_index for w in cfg.openers.words)


def test_adieu_is_found_by_default(capsys):
    code, out, _ = run_main(["candidates", "--history", ADIEU, "--json"], capsys)
    got = json.loads(out)
    assert code == 0 and (got["remaining"], got["candidates"], got["lexicon"]) == (1, ["adieu"], "nyt2023")


def test_adieu_in_the_2021_game_names_nyt2023(capsys):
    code, out, err = run_main(["candidates", "--history", ADIEU, "--lexicon", "wordle"], capsys)
    assert code == 2 and out == ""
    assert err == ("wordle-lab: error: no answer of wordle fits this history; it fits nyt2023 "
                   "(1 answer): try --lexicon nyt2023\n")


def test_a_history_that_fits_several_games_names_them_all():
    wordle = load_lexicon("wordle")
    # CRONY:bbbbb after SALET:bybgb: no 2021 answer, five of today's
    history = [("salet", "bybgb"), ("crony", "bbbbb")]
    assert answers_fitting(wordle, history) == 0
    assert games_fitting(history, besides="wordle") == [("nyt2023", 5)]
    # a history of a 2021 answer fits every list that has it
    history = [("salet", "bybgb"), ("borna", "ybyby")]
    assert games_fitting(history, besides="nyt2023") == [("wordle", 1), ("nyt", 1), ("nyt14855", 1)]
    # nothing anywhere: no hint, the plain error stays
    assert history_hint(wordle, [("salet", "ggggb"), ("crane", "ggggg")]) is None


def test_a_word_of_another_game_names_it(capsys):
    code, _, err = run_main(["solve", "adieu", "--lexicon", "wordle"], capsys)
    assert code == 2
    assert err == ("wordle-lab: error: 'adieu' is never an answer in wordle; it is one in "
                   "nyt2023: try --lexicon nyt2023\n")
    # a guess only the NYT's 14,855 accept
    only_nyt = next(w for w in load_lexicon("nyt2023").guesses if w not in load_lexicon("wordle").guess_index)
    code, _, err = run_main(["score", only_nyt, "salet", "--lexicon", "wordle"], capsys)
    assert code == 2
    assert err == (f"wordle-lab: error: {only_nyt!r} is not an allowed guess in wordle; nyt2023, "
                   f"nyt14855 allow it: try --lexicon nyt2023\n")
    assert word_hint(load_lexicon("wordle"), "zzzzz") is None
    code, _, err = run_main(["score", "zzzzz", "salet", "--lexicon", "wordle"], capsys)
    assert err == "wordle-lab: error: 'zzzzz' is not an allowed guess in wordle\n"


def test_custom_lists_get_no_hint(capsys, tmp_path):
    (tmp_path / "a.txt").write_text("amber\nabbey\n")
    code, _, err = run_main(["candidates", "--history", ADIEU, "--answers", str(tmp_path / "a.txt")],
                            capsys)
    assert code == 2 and "try --lexicon" not in err and err.count("\n") == 1


def test_suggest_and_assist_play_todays_game_by_default(capsys):
    code, out, _ = run_main(["suggest", "--history", ADIEU, "--strategy", "entropy", "--json"], capsys)
    assert code == 0 and json.loads(out)["candidates"] == ["adieu"]
    code, out, err = run_main(["assist", "--strategy", "entropy"], capsys,
                              "salet bybgb\nbrine bbgby\nadieu ggggg\n")
    assert code == 0 and err == ""
    assert out.splitlines()[0].startswith("nyt2023 (normal mode): 3,158 possible answers")
    assert "It must be ADIEU" in out and "Solved in 3 guesses!" in out


def test_assist_names_the_game_a_history_fits(capsys):
    code, out, err = run_main(["assist", "--lexicon", "wordle", "--strategy", "entropy"], capsys,
                              "salet bybgb\nbrine bbgby\nquit\n")
    assert code == 0
    assert err == ("error: no answer of wordle fits this history; it fits nyt2023 (1 answer): "
                   "try --lexicon nyt2023\n")
    assert "Bye." in out


# --- rank --json ---------------------------------------------------------------------------
def test_rank_proven_json(capsys):
    code, out, _ = run_main(["rank", "--proven", "--lexicon", "wordle", "--top", "3", "--json"], capsys)
    assert code == 0
    rows = json.loads(out)
    assert [(r["rank"], r["opener"], r["total"], r["proof"]) for r in rows] == [
        (1, "salet", 7920, "exact"), (2, "reast", 7923, "exact"), (3, "crate", 7926, "exact")]
    assert rows[0]["mean"] == round(7920 / 2315, 4)
    assert [r.to_dict() for r in wl.proven_ranking("wordle")[:3]] == rows


def test_rank_exact_json_has_null_totals_where_no_win(capsys):
    code, out, _ = run_main(["rank", "--exact", "--lexicon", "wordle", "--mode", "hard", "--worst",
                             "--top", "2", "--json"], capsys)
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 2 and all(r["total"] is None and r["mean"] is None for r in rows)
    assert all(set(r) == {"rank", "opener", "total", "mean"} for r in rows)
    code, out, _ = run_main(["rank", "--exact", "--lexicon", "wordle", "--opener", "CRANE", "--json"], capsys)
    assert json.loads(out) == [{"rank": 6, "opener": "crane", "total": 7930, "mean": 3.4255}]


@pytest.mark.parametrize("flag", ["--proven", "--exact"])
@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_rank_without_a_shipped_table_is_one_line(capsys, flag, mode, monkeypatch):
    from wordle_core.tables import exact

    # as long as nyt2023's tables are not shipped; pretend so once they are
    monkeypatch.setattr(exact, "shipped_rank", lambda lex, m: None)
    monkeypatch.setattr(exact, "exact_ranking", lambda lex, m: [])
    code, out, err = run_main(["rank", flag, "--mode", mode, "--json"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"for nyt2023 {mode} mode (compute one:" in err


def test_rank_report_json(capsys, tmp_path):
    head = ("lexicon,strategy,mode,opener,games,total_guesses,mean_guesses,win3_pct,win6_pct,"
            "max_guesses,failures,rank_mean\n")
    rows = ["nyt2023,entropy,normal,tarse,3158,11300,3.5782,40.0,100.0,6,0,1",
            "nyt2023,entropy,normal,salet,3158,11310,3.5814,39.0,100.0,6,0,2",
            "nyt2023,entropy,normal,fuzzy,3158,13000,4.1165,10.0,99.9,7,3,3"]
    (tmp_path / "rankings.csv").write_text(head + "\n".join(rows) + "\n")
    from wordle_core.tables.avro import MANIFEST, file_entry, manifest_of

    # rank --report reads only a report its manifest vouches for (as `wordle-lab report` writes)
    man = manifest_of("report", [file_entry("rankings.csv", (tmp_path / "rankings.csv").read_bytes(), 0)],
                      "manual")
    (tmp_path / MANIFEST).write_text(man.to_json())
    code, out, _ = run_main(["rank", "--report", str(tmp_path), "--json"], capsys)
    assert code == 0
    got = json.loads(out)
    assert [(r["rank"], r["opener"], r["total"], r["failures"]) for r in got] == [
        (1, "tarse", 11300, 0), (2, "salet", 11310, 0), (3, "fuzzy", None, 3)]
    assert got[0]["lexicon"] == "nyt2023" and got[0]["strategy"] == "entropy"


# --- one result type per concept: the CLI prints the API's to_dict() -----------------------
def test_optimal_json_has_the_api_keys(capsys, small_lex, tmp_path):
    from tests._solver_cli import write_lexicon

    flags = write_lexicon(small_lex, tmp_path)
    opener = small_lex.answers[5]
    code, out, _ = run_main(["optimal", *flags, "--opener", opener, "--json"], capsys)
    assert code == 0
    cli = json.loads(out)
    api = wl.optimal(opener, lexicon=small_lex).to_dict()
    assert set(cli) == set(api)
    keep = {"seconds", "cpu_seconds", "search", "lexicon"}  # costs, and the files' name
    assert {k: v for k, v in cli.items() if k not in keep} == {k: v for k, v in api.items() if k not in keep}
    assert cli["source"] == "search" and cli["longest_game"] is None and cli["search"]["nodes"] > 0


def test_hard_verdict_json_has_the_api_keys(capsys):
    code, out, _ = run_main(["hard-verdict", "--lexicon", "wordle", "--opener", "salet", "--json"], capsys)
    assert code == 0
    assert json.loads(out) == wl.hard_verdict("salet", lexicon="wordle").to_dict() == {
        "lexicon": "wordle", "opener": "salet", "verdict": "feasible", "seconds": 0.0, "nodes": 0,
        "source": "shipped table"}


def test_top_level_is_the_words_api_and_engine_names_live_in_engine():
    import warnings

    from wordle_core import engine

    moved = {"GameState", "pattern_matrix", "pattern_to_str", "pattern_to_emoji", "parse_feedback",
             "resolve_lexicon"}
    assert not moved & set(wl.__all__) and moved <= set(engine.__all__)
    assert {"Position", "Feedback", "score", "optimal", "Optimum", "proven_ranking"} <= set(wl.__all__)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert wl.GameState is engine.GameState  # old code keeps working, with a warning
    assert [w.category for w in caught] == [DeprecationWarning]
    with pytest.raises(AttributeError):
        wl.no_such_name  # noqa: B018


def test_shipped_tables_are_found_by_the_lexicon_name(monkeypatch):
    """The loaders take any built-in name: a table for nyt2023 is read once it ships
    (here wordle's files stand in for it), the exact table from its .avro alone too."""
    from wordle_core.tables import avro, exact

    real = avro.shipped_bytes
    shipped = {"exact/nyt2023-normal.avro": real("exact/wordle-normal.avro")}
    monkeypatch.setattr(exact, "shipped_bytes", lambda path: shipped.get(path))
    exact.shipped_values.cache_clear()
    try:
        values = exact.shipped_values("nyt2023", "normal")
        assert len(values) == 12972 and values["salet"] == 7920 and values["qajaq"] == 9496
    finally:
        exact.shipped_values.cache_clear()
