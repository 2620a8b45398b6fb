"""The public Python API (``import wordle_core``) against independent references.

Feedback and candidates are checked against the brute-force scorer of
:mod:`tests.reference`; the ranked guesses against brute-force entropy and the CLI's
``suggest``; ``optimal`` and ``hard_verdict`` against an exhaustive search written
here (plain recursion over sets of words, hard mode by its own rule) on a lexicon
built around the "-IGHT" trap, where hard mode cannot win every game.
"""

from __future__ import annotations

import importlib
import json
import math
import random
import re
from functools import cache

import pytest

import wordle_core as wl
from tests.reference import reference_buckets, reference_entropy, reference_score
from wordle_core.engine import pattern_matrix
from wordle_core.errors import (
    FeedbackError,
    HardModeViolation,
    InconsistentHistoryError,
    UnknownLexiconError,
    UnknownStrategyError,
    UnknownWordError,
    WordleError,
    WrongLengthError,
)

SNAKE = re.compile(r"[a-z][a-z0-9_]*|[0-9]+")


def snake_keys(obj: object) -> list[str]:
    """Every dict key in ``obj`` (recursively) that is not snake_case."""
    bad: list[str] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if not SNAKE.fullmatch(str(k)):
                bad.append(str(k))
            bad += snake_keys(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            bad += snake_keys(v)
    return bad


# --- feedback -------------------------------------------------------------------------------
def test_score_agrees_with_the_reference_and_every_form_round_trips(wordle) -> None:
    rng = random.Random(7)
    for _ in range(400):
        g, a = rng.choice(wordle.guesses), rng.choice(wordle.answers)
        fb = wl.score(g, a)
        assert fb == reference_score(g, a) and str(fb) == reference_score(g, a)
        assert wl.Feedback.parse(str(fb)) == fb == wl.Feedback.parse(fb.emoji)
        assert wl.Feedback.from_digits(fb.digits) == fb == wl.Feedback.from_code(int(fb))
        cell = pattern_matrix(wordle)[wordle.guess_index[g], wordle.answer_index[a]]
        assert int(fb) == fb.code == int(cell)
        assert hash(fb) == hash(str(fb)) and fb.is_win == (g == a)
    assert wl.score("SPEED", "Abide") == "bbyby"
    assert wl.score("speed", "abide") != wl.score("abide", "speed")


def test_score_of_other_games_and_its_errors() -> None:
    assert wl.score("12345", "54321") == "yygyy"
    eqs = wl.load_lexicon("mini-nerdle").answers
    for g, a in zip(eqs[:40], eqs[::-5][:40], strict=True):
        assert wl.score(g, a, lexicon="mini-nerdle") == reference_score(g, a)
    with pytest.raises(WrongLengthError):
        wl.score("abc", "abcd")
    with pytest.raises(UnknownWordError, match="'qqqqq' is not an allowed guess in wordle"):
        wl.score("qqqqq", "crane", lexicon="wordle")
    with pytest.raises(UnknownLexiconError):
        wl.score("crane", "crane", lexicon="scrabble")
    with pytest.raises(FeedbackError):
        wl.Feedback.from_code(3**5, 5)
    with pytest.raises(FeedbackError):
        wl.Feedback("GYBBB")
    with pytest.raises(FeedbackError):
        wl.Feedback.from_digits([0, 3, 1])
    with pytest.raises(WrongLengthError):
        wl.Feedback.parse("gyb")


# --- positions ------------------------------------------------------------------------------
def test_candidates_match_brute_force_on_random_histories(wordle) -> None:
    rng = random.Random(3)
    for _ in range(15):
        answer = rng.choice(wordle.answers)
        guesses = rng.sample(wordle.guesses, rng.randint(1, 3))
        history = [(g, reference_score(g, answer)) for g in guesses]
        want = [a for a in wordle.answers if all(reference_score(g, a) == f for g, f in history)]
        pos = wl.Position(history, lexicon="wordle")
        assert list(pos.candidates) == want == wl.candidates(history, lexicon="wordle")
        assert pos.remaining == len(want) and answer in pos.candidates
        assert [(t.guess, str(t.feedback)) for t in pos.history] == history
        assert pos == wl.Position(",".join(f"{g}:{f}" for g, f in history), lexicon="wordle")
        assert pos.turn == len(history) and pos.guesses_left == 6 - len(history)


def test_play_is_pure_and_matches_construction() -> None:
    start = wl.Position(lexicon="wordle")
    after = start.play("salet", "bybgb")
    assert start.turn == 0 and start.remaining == 2315  # unchanged
    assert after == wl.Position([("salet", "bybgb")], lexicon="wordle")
    assert hash(after) == hash(wl.Position("salet:bybgb", lexicon="wordle"))
    assert after != wl.Position("salet:bybgb")  # the same history in today's game
    assert after.play("borna", wl.score("borna", "amber")).candidates == ("amber",)
    won = after.play_against("amber", "amber")
    assert won.is_solved and won.is_over and won.history[-1].feedback.is_win
    assert wl.best_guesses(won) == []
    json.dumps(after.to_dict())
    assert not snake_keys(after.to_dict())


def test_hard_mode_legal_guesses_follow_the_rule_written_here(wordle) -> None:
    pos = wl.Position([("salet", "bybgb")], lexicon="wordle", hard=True)
    # the rule: E 4th, and an A somewhere
    want = [w for w in wordle.guesses if w[3] == "e" and "a" in w]
    assert list(pos.legal_guesses) == want
    assert all(pos.is_legal(w) for w in want[:50]) and not pos.is_legal("crane")
    assert len(wl.Position([("salet", "bybgb")], lexicon="wordle").legal_guesses) == len(wordle.guesses)
    with pytest.raises(HardModeViolation, match="4th letter must be E"):
        pos.play("crane", "bbbbb")


@pytest.mark.parametrize(("history", "error"), [
    ([("qqqqq", "bbbbb")], UnknownWordError),
    ([("salet", "bybqb")], FeedbackError),
    ([("salet", "bybg")], WrongLengthError),
    ([("sale", "bybgb")], WrongLengthError),
    ([("salet", "bybgb"), ("crony", "bbbbb")], InconsistentHistoryError),
    ("salet", FeedbackError),
    ([("salet",)], FeedbackError),
])
def test_bad_histories_raise_one_clear_wordle_error(history, error) -> None:
    with pytest.raises(error) as info:
        wl.Position(history, lexicon="wordle")
    assert isinstance(info.value, WordleError) and "\n" not in str(info.value)


# --- best guesses ---------------------------------------------------------------------------
def test_best_guesses_numbers_are_the_brute_force_ones(wordle) -> None:
    pos = wl.Position([("salet", "bybgb")])
    cands = list(pos.candidates)
    got = wl.best_guesses(pos, strategy="entropy", n=8)
    assert len(got) == 8 and got[0].is_pick and not any(g.is_pick for g in got[1:])
    for g in got:
        buckets = reference_buckets(g.word, cands)
        assert g.entropy_bits == pytest.approx(reference_entropy(g.word, cands), abs=1e-4)
        assert g.largest_bucket == max(buckets.values()) and g.buckets == len(buckets)
        assert g.expected_size == pytest.approx(sum(c * c for c in buckets.values()) / len(cands), abs=1e-3)
        assert g.is_candidate == (g.word in cands)
    # nobody among all guesses beats the pick's entropy + win chance
    best = max(reference_entropy(w, cands) + (w in cands) / len(cands) for w in wordle.guesses[::7])
    assert got[0].entropy_bits + got[0].is_candidate / len(cands) >= best - 1e-4


@pytest.mark.parametrize("strategy", ["entropy", "minimax", "default"])
def test_best_guesses_are_what_the_cli_suggests(strategy, capsys) -> None:
    from wordle_core.cli import main
    from wordle_core.strategies import get_strategy

    history = ",".join(f"{w}:{reference_score(w, 'focal')}" for w in ("crane", "tidal"))
    got = wl.best_guesses(wl.Position(history, lexicon="wordle"), strategy=strategy, n=4)
    assert main(["suggest", "--history", history, "--lexicon", "wordle", "--strategy", strategy,
                 "--top", "4", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)["options"]
    assert [g.word for g in got] == [o["word"] for o in cli]
    assert [g.entropy_bits for g in got] == [o["entropy_bits"] for o in cli]
    pick = get_strategy(strategy).choose(wl.Position(history, lexicon="wordle").state)
    assert got[0].word == wl.load_lexicon("wordle").guesses[pick]


def test_best_guesses_errors() -> None:
    with pytest.raises(UnknownStrategyError):
        wl.best_guesses(wl.Position(), strategy="oracle")
    with pytest.raises(WordleError, match="n must be at least 1"):
        wl.best_guesses(wl.Position(), n=0)
    assert wl.best_guesses(wl.Position(), n=2, opener="crane")[0].word == "crane"


# --- whole games: an exhaustive reference on the -IGHT trap ----------------------------------
IGHT = ["fight", "light", "might", "night", "right", "sight", "tight"]
OTHERS = ["flame", "north", "smirk", "graft"]


@pytest.fixture(scope="module")
def trap() -> wl.Lexicon:
    return wl.Lexicon.build("ight-trap", IGHT + OTHERS, IGHT + OTHERS + ["flits", "storm", "nymph"])


def _hard_ok(word: str, history: tuple[tuple[str, str], ...]) -> bool:
    """NYT hard mode, written from the rule: greens stay, revealed letters are reused (with counts)."""
    for guess, fb in history:
        need: dict[str, int] = {}
        for i, (c, f) in enumerate(zip(guess, fb, strict=True)):
            if f == "g" and word[i] != c:
                return False
            if f in "gy":
                need[c] = need.get(c, 0) + 1
        if any(word.count(c) < n for c, n in need.items()):
            return False
    return True


def brute_total(lex: wl.Lexicon, opener: str, hard: bool, limit: int = 6) -> float:
    """Fewest total guesses over every strategy (inf: none wins all), by plain recursion."""

    @cache
    def value(cands: frozenset[str], left: int, history: tuple[tuple[str, str], ...]) -> float:
        # total guesses still needed to solve every answer in cands with `left` guesses
        if left == 0:
            return math.inf
        best = math.inf
        for g in lex.guesses:
            if hard and not _hard_ok(g, history):
                continue
            best = min(best, play(cands, g, left, history))
        return best

    def play(cands: frozenset[str], g: str, left: int, history: tuple[tuple[str, str], ...]) -> float:
        groups: dict[str, set[str]] = {}
        for a in cands:
            groups.setdefault(reference_score(g, a), set()).add(a)
        total = float(len(cands))
        for fb, group in groups.items():
            if fb == "ggggg":
                continue
            if group == set(cands):
                return math.inf  # learned nothing: never optimal
            key_hist = (*history, (g, fb)) if hard else ()
            total += value(frozenset(group), left - 1, key_hist)
        return total

    return play(frozenset(lex.answers), opener, limit, ())


@pytest.mark.parametrize("hard", [False, True])
def test_optimal_and_the_hard_verdict_match_exhaustive_search(trap, hard) -> None:
    for opener in ["fight", "flame", "north", "flits", "storm"]:
        want = brute_total(trap, opener, hard)
        got = wl.optimal(opener, lexicon=trap, hard=hard)
        assert got.proven and got.games == len(trap.answers)
        assert got.total == (None if math.isinf(want) else want), (opener, hard)
        assert got.wins_all == (not math.isinf(want))
        if hard:
            verdict = wl.hard_verdict(opener, lexicon=trap)
            assert verdict.feasible == got.wins_all and verdict.verdict in ("feasible", "infeasible")
        assert not snake_keys(got.to_dict())
    # the trap: after FIGHT, hard mode keeps -IGHT and needs one guess per word
    assert wl.hard_verdict("fight", lexicon=trap).verdict == "infeasible"
    assert wl.optimal("fight", lexicon=trap).wins_all


def test_simulate_games_replay_and_add_up(trap, small_lex) -> None:
    for lex, opener in ((small_lex, small_lex.answers[5]), (trap, "north")):
        r = wl.simulate(opener, strategy="entropy", lexicon=lex, worst=4)
        assert r.games == len(lex.answers) == sum(r.histogram.values())
        assert r.total == sum(k * v for k, v in r.histogram.items())
        assert r.mean == pytest.approx(r.total / r.games)
        assert r.max_guesses == max(r.histogram) == r.worst_games[0].length
        assert r.failures == sum(v for k, v in r.histogram.items() if k > lex.max_guesses)
        assert r.report["guessDistribution"] == {str(k): v for k, v in r.histogram.items()}
        lengths = [g.length for g in r.worst_games]
        assert len(lengths) == 4 and lengths == sorted(lengths, reverse=True)
        for answer in [g.answer for g in r.worst_games] + list(lex.answers[:20]):
            game = r.game(answer)
            assert game.turns[0].guess == opener and game.turns[-1].guess == answer
            assert all(t.feedback == reference_score(t.guess, answer) for t in game.turns)
        opt = wl.optimal(opener, lexicon=lex)
        assert opt.total is not None and opt.total <= r.total
        d = r.to_dict()
        assert not snake_keys(d) and json.loads(json.dumps(d))["games"] == r.games


def test_simulate_defaults_and_errors(trap) -> None:
    r = wl.simulate(lexicon=trap)  # no SALET here: the best first guess by entropy
    assert r.opener in trap.guesses and r.strategy == "entropy"
    with pytest.raises(UnknownWordError):
        wl.simulate("zzzzz", lexicon=trap)
    with pytest.raises(UnknownStrategyError):
        wl.simulate("north", strategy="oracle", lexicon=trap)
    with pytest.raises(UnknownWordError):
        wl.hard_verdict("zzzzz", lexicon=trap)
    with pytest.raises(WordleError):
        wl.hard_verdict("north", lexicon=trap, budget=0)


def test_results_are_frozen_and_the_surface_is_documented() -> None:
    import dataclasses
    import inspect

    r = wl.HardVerdict("x", "salet", "unknown", 0.0, 1)
    assert r.feasible is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.verdict = "feasible"  # type: ignore[misc]
    from wordle_core.tables import frames

    assert wl.read_table is wl.api.read_table is frames.read_table  # one implementation
    for name in wl.api.__all__:
        obj = getattr(wl, name, None) or getattr(wl.api, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert obj.__doc__, name
            if inspect.isfunction(obj) and obj.__module__.startswith("wordle_core.api"):
                assert ">>>" in obj.__doc__, f"{name} has no example"
        if inspect.isclass(obj) and dataclasses.is_dataclass(obj):
            assert callable(getattr(obj, "to_dict", None)), name


def test_no_exported_name_is_shadowed_by_a_subpackage() -> None:
    """``import wordle_core.X`` rebinds ``wordle_core.X``: an export named like a module breaks."""
    import pkgutil

    subs = {m.name for m in pkgutil.iter_modules(wl.__path__)}
    assert not subs & set(wl.__all__)
    import wordle_core.strategies  # noqa: F401 - the import that would rebind a clash

    assert callable(wl.list_strategies) and "entropy" in [s.name for s in wl.list_strategies()]


def test_py_typed_ships_with_the_package() -> None:
    import tomllib
    from pathlib import Path

    root = Path(wl.__file__).parent
    assert (root / "py.typed").is_file()
    data = tomllib.loads((root.parent / "pyproject.toml").read_text())
    assert "py.typed" in data["tool"]["setuptools"]["package-data"]["wordle_core"]


@pytest.mark.parametrize(("opener", "hard"), [("caums", False), ("slime", True)])
def test_optimal_reads_the_shipped_table_and_the_search_agrees(opener: str, hard: bool) -> None:
    """With every guess allowed and the usual limit, ``optimal`` on the built-in lists
    answers from the shipped exact table; ``search=True`` proves it again here."""
    table = wl.optimal(opener.upper(), lexicon="wordle", hard=hard)
    assert table.source == "shipped table" and table.cpu_seconds == 0.0 and table.proven
    proved = wl.optimal(opener, lexicon="wordle", hard=hard, search=True)
    assert proved.source == "search"
    assert (table.total, table.mean, table.games, table.opener) == \
        (proved.total, proved.mean, proved.games, proved.opener)
    assert table.to_dict()["source"] == "shipped table"
    # other limits or pools are not what the table holds: searched
    assert wl.optimal(opener, lexicon="wordle", hard=hard, max_guesses=7).source == "search"


def test_optimal_table_is_only_for_the_lists_it_was_computed_on(trap) -> None:
    """A lexicon built under the built-in name from other words gets a search."""
    same_name = wl.Lexicon.build("wordle", list(trap.answers))
    got = wl.optimal("fight", lexicon=same_name)
    assert got.source == "search" and got.total == wl.optimal("fight", lexicon=trap).total


def test_no_api_module_is_named_like_a_name_it_exports() -> None:
    """``wordle_core.api`` imports its names on first use; a submodule named like one of
    them (a module ``lexicons`` beside the function ``lexicons``) would replace the name
    on the package once anything imported the module."""
    import pkgutil

    import wordle_core.api as api

    modules = {m.name for m in pkgutil.iter_modules(api.__path__)}
    assert modules and not modules & set(api.__all__)
    for name in api.__all__:  # every name resolves to what its module defines
        assert getattr(api, name) is getattr(importlib.import_module(api._EXPORTS[name]), name)
