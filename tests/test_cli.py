"""The CLI as a user meets it: outputs, and one clear line + exit 2 for bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wordle_core", *args], capture_output=True,
                          text=True, input=stdin, timeout=300)


def test_lexicons_json() -> None:
    r = run("lexicons", "--json")
    assert r.returncode == 0
    rows = {d["name"]: d for d in json.loads(r.stdout)}
    assert rows["wordle"] == {"name": "wordle", "length": 5, "answers": 2315, "guesses": 12972,
                              "default": False}
    assert [n for n, d in rows.items() if d["default"]] == ["nyt2023"]
    assert rows["nerdle"]["answers"] == 17723 and rows["primel"]["answers"] == 8363


def test_score_and_emoji() -> None:
    assert run("score", "speed", "abide").stdout.strip() == "bbyby"
    assert run("score", "SPEED", "abide", "--emoji").stdout.strip() == "⬛⬛🟨⬛🟨"


def test_candidates() -> None:
    r = run("candidates", "--history", "salet:bybgb", "--lexicon", "wordle", "--json")
    data = json.loads(r.stdout)
    assert data["remaining"] == len(data["candidates"]) == 7 and "amber" in data["candidates"]
    today = json.loads(run("candidates", "--history", "salet:bybgb", "--json").stdout)  # nyt2023
    assert today["remaining"] == 19 and set(data["candidates"]) < set(today["candidates"])


def test_simulate_json_report() -> None:
    r = run("simulate", "--strategy", "entropy", "--opener", "salet", "--lexicon", "wordle", "--json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    for key in ("totalCount", "guessDistribution", "averageTime", "minTime", "maxTime",
                "timeDistribution", "maxGuessWords", "meanGuesses", "maxGuesses", "failures"):
        assert key in rep
    assert rep["totalCount"] == 2315 == sum(rep["guessDistribution"].values())
    assert rep["minTime"] <= rep["averageTime"] <= rep["maxTime"]


def test_solve_reaches_the_answer() -> None:
    r = run("solve", "skier", "--strategy", "entropy", "--json")
    data = json.loads(r.stdout)
    assert data["solved"] and data["guesses"][-1] == "skier" and data["feedback"][-1] == "ggggg"
    assert data["guesses"][0] == "salet" and data["length"] == len(data["remaining"])


@pytest.mark.parametrize("args", [
    ["simulate", "--lexicon", "scrabble"],
    ["simulate", "--strategy", "oracle"],
    ["score", "qqqqq", "crane"],
    ["score", "cran", "crane"],
    ["candidates", "--history", "salet:gyqbb"],
    ["candidates", "--history", "salet:ggggb,crane:ggggg"],
    ["candidates", "--history", "salet"],
    ["candidates"],
    ["solve", "salet"],
    ["candidates", "--hard", "--history", "heart:bbbbg,hears:bbbbb"],
    ["simulate", "--answers", "/nonexistent/list.txt"],
    ["bogus-command"],
])
def test_bad_input_is_one_line_exit_2(args: list[str]) -> None:
    r = run(*args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0]
    assert "Traceback" not in r.stderr


def test_boards_flag_dispatches_simulate_solve_and_assist() -> None:
    sim = json.loads(run("simulate", "--boards", "2", "--games", "20", "--lexicon", "wordle",
                         "--json").stdout)
    assert sim["boards"] == 2 and sim["games"] == 20 == sum(sim["guess_distribution"].values())
    solve = run("solve", "skier,abbey", "--boards", "2", "--lexicon", "wordle")
    assert solve.returncode == 0 and "won: SKIER ABBEY" in solve.stdout
    assist = run("assist", "--boards", "2", "--lexicon", "wordle", stdin="bybgb bbbbb\n")
    assert assist.returncode == 0 and "board 2: 221 left" in assist.stdout
