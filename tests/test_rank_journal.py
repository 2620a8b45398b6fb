"""``optimal --rank K --resume``: an interrupted proven ranking goes on from its journal.

The ranking is a chain of exact searches, each cut off at the current ``K``-th best
total; the journal keeps each finished one. A run stopped after some searches and
resumed must prove the same ranking as an uninterrupted run, search only what the first
run had not finished, and refuse a journal of another ranking.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from wordle_core.cli import main
from wordle_core.errors import WordleError
from wordle_core.game.lexicon import Lexicon
from wordle_core.search.exact import ExactSolver, SearchedOpener, rank_openers
from wordle_core.tables.rank_journal import RankJournal, ranking_identity, read_rank_journal

ANSWERS = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal", "evade", "naval",
           "serve", "heath", "dwarf", "model", "karma", "stink", "grade", "quiet", "bench",
           "abate", "feign", "major", "death", "fresh", "crust", "stool", "colon", "abase"]
GUESSES = sorted({*ANSWERS, "salet", "crane", "trace", "slate", "raise", "arise", "soare",
                  "roate", "tares", "lares", "cares", "dares"})


class KilledError(Exception):
    """Stands for a kill after some searches."""


def _lex() -> Lexicon:
    return Lexicon.build("toy27", ANSWERS, GUESSES)


def _ranking(res):
    return [(o.opener, o.rank, o.total, o.proof) for o in res.openers]


def test_resumed_ranking_equals_the_uninterrupted_one() -> None:
    lex = _lex()
    whole_log: list[SearchedOpener] = []
    whole = rank_openers(ExactSolver(lex), 6, on_searched=whole_log.append)
    assert len(whole_log) > 6  # enough searches to stop in the middle

    kept: list[SearchedOpener] = []
    bounds: list[list[int]] = []

    def stop_after_five(s: SearchedOpener) -> None:
        kept.append(s)
        if len(kept) == 5:
            raise KilledError

    with pytest.raises(KilledError):
        rank_openers(ExactSolver(lex), 6, on_searched=stop_after_five, on_bounds=bounds.append)
    again: list[SearchedOpener] = []
    solver = ExactSolver(lex)
    solver.opener_bounds = None  # type: ignore[assignment,method-assign]  # the saved ones serve
    resumed = rank_openers(solver, 6, searched={s.opener: s for s in kept},
                           on_searched=again.append, bounds=bounds[0])
    assert _ranking(resumed) == _ranking(whole)
    assert resumed.kth_total == whole.kth_total
    # only the searches the first run had not finished ran again
    assert [s.opener for s in again] == [s.opener for s in whole_log[5:]]
    # the replayed searches' CPU counts towards the ranking's: resumed legs add up
    assert resumed.cpu_seconds >= sum(s.cpu_seconds for s in kept) + sum(s.cpu_seconds for s in again)


def test_a_replayed_search_must_have_the_same_cut_off() -> None:
    lex = _lex()
    log: list[SearchedOpener] = []
    rank_openers(ExactSolver(lex), 4, on_searched=log.append)
    late = log[-1]  # searched with a finite beta
    with pytest.raises(WordleError, match="cut at"):
        rank_openers(ExactSolver(lex), 4, searched={late.opener: late._replace(beta=late.beta - 1)})


def _rows(path: Path) -> list[tuple[str, ...]]:
    with path.open() as f:
        return [tuple(v for k, v in r.items() if k != "cpu_seconds") for r in csv.DictReader(f)]


def test_cli_resumes_from_the_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answers, guesses = tmp_path / "a.txt", tmp_path / "g.txt"
    answers.write_text("\n".join(ANSWERS) + "\n")
    guesses.write_text("\n".join(GUESSES) + "\n")
    args = ["optimal", "--answers", str(answers), "--guesses", str(guesses), "--rank", "4"]
    assert main([*args, "--output", str(tmp_path / "whole")]) == 0
    whole = next((tmp_path / "whole").glob("*.csv"))
    assert not list((tmp_path / "whole").glob("*.journal.jsonl"))  # removed once published

    # an interrupted run: three searches in the journal and a fourth cut short by the kill
    lex = Lexicon.build("custom", ANSWERS, GUESSES)
    out = tmp_path / "cut"
    out.mkdir()
    log: list[SearchedOpener] = []
    bounds: list[list[int]] = []
    rank_openers(ExactSolver(lex), 4, on_searched=log.append, on_bounds=bounds.append)
    journal_path = out / whole.name.replace(".csv", ".journal.jsonl")
    name = whole.name.split("optimal_rank-")[1].rsplit("-", 1)[0]
    identity = ranking_identity(Lexicon.build(name, ANSWERS, GUESSES), "normal", "all", 4, None)
    with RankJournal.create(journal_path, identity) as journal:
        journal.add_bounds(bounds[0])
        for s in log[:3]:
            journal.add(s)
    with journal_path.open("a") as f:
        f.write('["' + log[3].opener)
    assert len(read_rank_journal(journal_path, identity).searched) == 3

    capsys.readouterr()
    assert main([*args, "--output", str(out)]) == 2  # never silently over a journal
    assert "--resume" in capsys.readouterr().err
    assert main([*args, "--output", str(out), "--resume"]) == 0
    assert "resuming: 3 searches and the bounds from" in capsys.readouterr().err
    assert _rows(out / whole.name) == _rows(whole)
    assert not journal_path.exists()


def test_cli_refuses_a_journal_of_another_ranking(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    answers, guesses = tmp_path / "a.txt", tmp_path / "g.txt"
    answers.write_text("\n".join(ANSWERS) + "\n")
    guesses.write_text("\n".join(GUESSES) + "\n")
    args = ["optimal", "--answers", str(answers), "--guesses", str(guesses),
            "--output", str(tmp_path)]
    lex = Lexicon.build("x", ANSWERS, GUESSES)
    ident = ranking_identity(lex, "normal", "all", 4, None)
    assert main([*args, "--rank", "4"]) == 0
    stem = next(tmp_path.glob("*.csv")).name.replace(".csv", "")
    RankJournal.create(tmp_path / f"{stem}.journal.jsonl", {**ident, "k": 3}).close()
    capsys.readouterr()
    assert main([*args, "--rank", "5", "--resume"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "another ranking" in err[0]
