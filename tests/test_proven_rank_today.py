"""Today's game (``nyt2023``): the shipped proven normal-mode ranking and what it changes.

The table (``wordle-lab optimal --lexicon nyt2023 --rank 100``) claims that its 100 openers
have these exact totals and that every other of the 14,855 allowed openers is worse. The
shape of that claim is checked row by row in ``test_proven_rank_table``; here: the one
published figure for this game (Selby's TARSE, 11,219 over 3,158 answers; proven again from
scratch, with a seeded sample of rows, in ``test_proven_rank_table``) and the users of the
table (the default opener, ``rank --proven``).
"""

from __future__ import annotations

import json

from wordle_core import api
from wordle_core.cli import main
from wordle_core.game.lexicon import load_lexicon
from wordle_core.tables.exact import recommended_opener, shipped_rank

# Published: Alex Selby, "The best strategies for Wordle, part 2" (the NYT lists after
# November 2022): TARSE needs 11,219 guesses over the 3,158 answers, the fewest of any opener.
PUBLISHED_BEST = ("tarse", 11_219)


def _table():
    lex = load_lexicon("nyt2023")
    got = shipped_rank(lex, "normal")
    assert got is not None, "no proven ranking shipped for nyt2023 normal"
    return lex, got


def test_the_published_best_opener_is_first() -> None:
    lex, got = _table()
    assert len(got.records) == len(lex.guesses) == 14_855
    assert int(got.about["wordle_lab.k"]) == 100 and len(got.top) == 100
    assert (got.top[0]["opener"], got.top[0]["total"]) == PUBLISHED_BEST
    assert got.top[1]["total"] > PUBLISHED_BEST[1]  # the best is alone at the top


def test_the_default_opener_of_todays_game_is_the_proven_best() -> None:
    lex = load_lexicon("nyt2023")
    assert recommended_opener(lex) == "tarse"
    assert api.default_opener(lex) == "tarse"


def test_rank_proven_json_prints_the_shipped_top(capsys) -> None:
    assert main(["rank", "--proven", "--top", "3", "--json"]) == 0  # the default game
    rows = json.loads(capsys.readouterr().out)
    _, got = _table()
    assert [(r["rank"], r["opener"], r["total"]) for r in rows] == [
        (t["rank"], t["opener"], t["total"]) for t in got.top[:3]]
    assert rows[0]["opener"] == "tarse" and abs(rows[0]["mean"] - 11_219 / 3_158) < 1e-4
