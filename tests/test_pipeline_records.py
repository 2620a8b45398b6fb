"""Records built from trees agree with `simulate` and with a brute-force replay."""

from __future__ import annotations

import io

import fastavro
import numpy as np
import pytest

from pipelines import records
from pipelines.orchestration.sink import avro_bytes
from pipelines.schemas import SCHEMAS, SORT_KEYS
from wordle_core.analysis.simulate import simulate
from wordle_core.game.feedback import score
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.search.openers import compute_opener_scores
from wordle_core.strategies import get_strategy


def _tree(lex, strategy="entropy", opener="salet", hard=False):
    return Tree.build(get_strategy(strategy), GameState.new(lex, hard, pattern_matrix(lex)), opener)


def test_summary_equals_simulate_small(small_lex):
    opener = small_lex.answers[0]
    report, tree = simulate(small_lex, "entropy", opener, False, pattern_matrix(small_lex))
    rec = records.summary_record(tree, worst_k=14)
    assert rec["games"] == report["totalCount"] == len(small_lex.answers)
    assert sum(rec["histogram"]) == rec["games"]
    assert {str(i + 1): n for i, n in enumerate(rec["histogram"]) if n} == report["guessDistribution"]
    assert rec["mean_guesses"] == pytest.approx(report["meanGuesses"], abs=0)
    assert rec["total_guesses"] == report["totalGuesses"]
    assert rec["max_guesses"] == report["maxGuesses"]
    assert rec["failures"] == report["failures"]
    assert [g["answer"] for g in rec["worst_games"]] == report["maxGuessWords"]


@pytest.mark.slow
def test_salet_entropy_normal_equals_simulate(wordle):
    """The (salet, entropy, normal) summary is exactly what `simulate` reports."""
    report, tree = simulate(wordle, "entropy", "salet", False, pattern_matrix(wordle))
    rec = records.summary_record(tree, worst_k=14)
    key = (rec["lexicon"], rec["strategy"], rec["mode"], rec["opener"])
    assert key == ("wordle", "entropy", "normal", "salet")
    assert rec["games"] == 2315 == sum(rec["histogram"])
    assert {str(i + 1): n for i, n in enumerate(rec["histogram"]) if n} == report["guessDistribution"]
    assert rec["total_guesses"] == report["totalGuesses"]
    assert rec["mean_guesses"] == report["meanGuesses"]
    assert (rec["max_guesses"], rec["failures"]) == (report["maxGuesses"], report["failures"])
    assert [g["answer"] for g in rec["worst_games"]] == report["maxGuessWords"]
    win3 = sum(rec["histogram"][:3]) / 2315
    assert rec["win_in_3_rate"] == pytest.approx(win3)


def test_games_replay_by_hand(small_lex):
    """Every game record's feedback is what score() gives, and ends on the answer."""
    tree = _tree(small_lex, "minimax", small_lex.answers[5])
    games = records.game_records(tree)
    assert [g["answer"] for g in games] == sorted(small_lex.answers)
    lengths = dict(zip(small_lex.answers, tree.lengths().tolist(), strict=True))
    for g in games[::7]:
        assert g["guesses"][-1] == g["answer"]
        assert g["feedback"] == [score(w, g["answer"]) for w in g["guesses"]]
        assert g["n_guesses"] == len(g["guesses"]) == lengths[g["answer"]]
        assert g["solved"] == (g["n_guesses"] <= 6)


def test_hard_verdict_matches_lengths(small_lex):
    tree = _tree(small_lex, "entropy", small_lex.answers[3], hard=True)
    exact = records.exact_hard_verdict(small_lex, tree.opener, pattern_matrix(small_lex), None)
    rec = records.verdict_record(tree, exact)
    lengths = tree.lengths()
    assert rec["mode"] == "hard"
    assert rec["losses"] == int((lengths > 6).sum())
    assert rec["wins_all"] == (rec["losses"] == 0)
    assert rec["worst_game"]["n_guesses"] == rec["max_guesses"] == lengths.max()
    assert rec["exact_verdict"] == "unknown" and "not requested" in rec["exact_note"]


def test_tree_record_rebuilds_same_tree(small_lex):
    tree = _tree(small_lex, "entropy", small_lex.answers[1])
    rec = records.tree_record(tree)
    back = Tree.from_rows(small_lex, [(n["path"], n["guess"]) for n in rec["nodes"]], "entropy",
                          False, pattern_matrix(small_lex))
    assert np.array_equal(back.lengths(), tree.lengths())
    assert rec["nodes"][0] == {"path": "", "guess": small_lex.answers[1]}


def test_score_records_match_engine(small_lex):
    rows = np.array([0, 7, 42])
    sc = compute_opener_scores(small_lex, pattern_matrix(small_lex), rows)
    recs = records.score_records(small_lex, rows, sc)
    # brute force the first: average candidates eliminated over every answer
    w = small_lex.guesses[7]
    pats = [score(w, a) for a in small_lex.answers]
    from collections import Counter

    sizes = Counter(pats)
    n = len(small_lex.answers)
    elim = sum(n - sizes[p] for p in pats) / n
    assert recs[1]["opener"] == w
    assert recs[1]["avg_eliminated"] == pytest.approx(elim)
    assert recs[1]["buckets"] == len(sizes) and recs[1]["largest_bucket"] == max(sizes.values())
    assert recs[1]["is_answer"] == (w in small_lex.answer_index)


@pytest.mark.parametrize("table", list(SCHEMAS))
def test_schemas_are_documented_and_keyed(table):
    schema = SCHEMAS[table]
    names = [f["name"] for f in schema["fields"]]
    assert {"lexicon", "mode", "strategy"} <= set(names)
    assert all(f.get("doc") for f in schema["fields"])
    assert schema["name"].startswith("org.wordlelab.v1.")
    assert set(SORT_KEYS[table]) <= set(names)


def test_avro_bytes_sorted_and_deterministic(small_lex):
    trees = [_tree(small_lex, "entropy", w) for w in small_lex.answers[:3]]
    recs = [records.summary_record(t) for t in trees]
    a = avro_bytes("opener_summaries", recs[::-1])
    b = avro_bytes("opener_summaries", recs)
    assert a == b
    back = list(fastavro.reader(io.BytesIO(a)))
    assert [r["opener"] for r in back] == sorted(small_lex.answers[:3])
    assert back[0] == min(recs, key=lambda r: r["opener"])


def test_exact_verdict_is_the_search_verdict(small_lex):
    """The record carries exactly what wordle_core.search.hard decides for the opener."""
    from wordle_core.search.hard import hard_verdict

    lex = Lexicon.build("small4r", small_lex.answers, small_lex.guesses, max_guesses=4)
    mat = pattern_matrix(lex)
    seen = set()
    for row in range(0, len(lex.guesses), 97):
        rec = records.exact_hard_verdict(lex, row, mat, 0)  # 0: the complete search
        ref = hard_verdict(lex, row, mat)
        assert rec["exact_verdict"] == ref["verdict"] and "complete search" in rec["exact_note"]
        seen.add(rec["exact_verdict"])
    assert seen == {"feasible", "infeasible"}
