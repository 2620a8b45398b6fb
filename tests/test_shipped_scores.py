"""The first-guess scores shipped with the package (``wordle_core/data/scores/``).

They stand in for :func:`wordle_core.search.openers.compute_opener_scores` at the first move
(``suggest``, ``assist``, the default opener where no proven ranking ships), so they must be
the very numbers it computes, for exactly the word lists they were computed on.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from wordle_core.game.lexicon import load_lexicon
from wordle_core.search.openers import compute_opener_scores
from wordle_core.tables import scores as shipped

FIELDS = ("avg_eliminated", "avg_remaining", "entropy", "largest", "buckets")


@pytest.mark.parametrize("name", ["nyt2023", "wordle"])
def test_the_shipped_scores_are_the_computed_ones(name: str) -> None:
    lex = load_lexicon(name)
    got = shipped.shipped_opener_scores(lex)
    assert got is not None, f"no first-guess scores shipped for {name}"
    fresh = compute_opener_scores(lex)
    for f in FIELDS:
        assert np.array_equal(getattr(got, f), getattr(fresh, f)), f  # exact, not close


def test_other_word_lists_get_none() -> None:
    lex = load_lexicon("wordle")
    assert shipped.shipped_opener_scores(replace(lex, answers=lex.answers[1:])) is None
    assert shipped.shipped_opener_scores(load_lexicon("primel")) is None  # none shipped


def test_the_writer_reproduces_the_shipped_csv(tmp_path) -> None:
    """``python -m wordle_core.tables.scores`` (its ``run``) writes the shipped CSV byte for
    byte (the Avro differs only in its header's time and CPU), and a bad lexicon is one line."""
    from importlib.resources import files

    assert shipped.run(["--lexicon", "wordle", "--output", str(tmp_path)]) == 0
    ours = (files("wordle_core") / "data" / "scores" / "wordle.csv").read_bytes()
    assert (tmp_path / "wordle.csv").read_bytes() == ours
    from wordle_core.errors import WordleError

    with pytest.raises(WordleError):
        shipped.run(["--lexicon", "no-such-game", "--output", str(tmp_path)])


def test_the_first_move_reads_them(tmp_path, monkeypatch, capsys) -> None:
    """With no run's table under the outputs directory, ``suggest`` at the start reads the
    shipped scores instead of computing the bucket statistics of every guess."""
    import wordle_core.kernels.buckets as buckets
    from wordle_core.cli import main

    monkeypatch.chdir(tmp_path)  # no outputs/ here

    def refuse(*a, **k):
        raise AssertionError("computed at the first move")

    monkeypatch.setattr(buckets, "bucket_stats", refuse)
    assert main(["suggest", "--lexicon", "wordle", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "SALET" in out
