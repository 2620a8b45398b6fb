"""The report's ``index.html``: one self-contained page an analyst can open offline.

Everything the page needs is inside the file: the stylesheet and script (shipped in
``pipelines/report_assets/``), the summary plots as data URIs, and the data as one
gzip-compressed JSON block (base64) that the script unpacks with the browser's
``DecompressionStream``. No network is touched at viewing time.

The data is columnar and indexes a word table, so a full run (12,972 openers x
several strategies x both modes, five worst games each) stays a few megabytes; the
script shows 50 rows a page, so sorting and filtering stay instant. Feedback colours
of the worst games are recomputed in the page with Wordle's rule (the browser test
checks them against the engine's). Output is deterministic: same tables, same bytes.

Views (state in the URL hash, so every view can be bookmarked or opened by a test):
``#`` the ranking (``lexicon=``, ``strategy=``, ``mode=``, ``q=``, ``wins=1``,
``sort=``, ``dir=desc``, ``page=``), ``#opener=salet`` one opener, ``#view=hard``
the hard-mode verdicts, ``#view=proven`` the proven best openers (the shipped
``optimal --rank`` tables) next to the run's strategies, ``#view=plots`` the PNGs.
``&test=1`` runs the small self-test the browser test reads (``<pre id="test-result">``).
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from importlib import resources
from typing import Any, cast

import pandas as pd

GROUP = ["lexicon", "strategy", "mode"]
PLOT_TITLES = {
    "ranking.png": "Best 20 openers per strategy and mode (each panel on its own scale; "
                   "openers that lose games in red, ranked after every winner)",
    "lengths_top.png": "Game lengths of the top openers (✗ = lost: not solved in {limit})",
    "mean_vs_eliminated.png": "Mean guesses against the first guess's avg eliminated "
                              "(zoomed on the best openers; the inset shows them all)",
}
# the hard-mode verdicts in a player's words: a badge on a normal-mode row must not read as "fails"
VERDICT_LABELS = {"feasible": "sure win possible", "infeasible": "no sure win", "unknown": "undecided"}
# what the tables' notes name in code, in the words the report shows
NOTE_WORDS = {"wordle_core.search.hard.hard_verdict": "exact search over every hard-mode strategy",
              "wordle_core.tables.verdicts.shipped_verdicts":
                  "proven by the exact search; the table ships with wordle-lab"}


def user_note(note: str) -> str:
    """A verdict's note as the report shows it: module names replaced by what they did."""
    for code, words in NOTE_WORDS.items():
        note = note.replace(code, words)
    return note


def _asset(name: str) -> str:
    return resources.files("pipelines").joinpath("report_assets", name).read_text(encoding="utf-8")


def _num(x: Any, digits: int | None = None) -> Any:
    if x is None or (isinstance(x, float) and x != x):
        return None
    return round(float(x), digits) if digits is not None else int(x)


def verdicts_by_opener(verdicts: pd.DataFrame | None) -> dict[tuple[str, str], tuple[str, str]]:
    """(lexicon, opener) -> (hard verdict, note), decided as in ``hard_summary.csv``."""
    if verdicts is None or not len(verdicts):
        return {}
    first: dict[tuple[str, str], tuple[str, str]] = {}
    winners: dict[tuple[str, str], list[str]] = {}
    cols = zip(verdicts["lexicon"], verdicts["opener"], verdicts["strategy"], verdicts["wins_all"],
               verdicts["exact_verdict"], verdicts["exact_note"], strict=True)
    for lex, opener, strategy, wins, exact, note in cols:
        key = (str(lex), str(opener))
        first.setdefault(key, (str(exact), str(note)))
        if wins:
            winners.setdefault(key, []).append(str(strategy))
    out = {}
    for key, (exact, note) in sorted(first.items()):
        if exact == "unknown" and key in winners:
            exact, note = "feasible", f"{', '.join(sorted(winners[key]))} won every hard-mode game"
        out[key] = (exact, note)
    return out


def group_order(key: tuple) -> tuple:
    """Sort key of a (lexicon, strategy, mode) group: normal mode before hard."""
    return (key[0], key[1], {"normal": 0, "hard": 1}.get(key[2], 2), key[2])


def sorted_groups(frame: pd.DataFrame) -> list[tuple[Any, ...]]:
    """The frame's (lexicon, strategy, mode) groups in :func:`group_order`."""
    return sorted(cast("list[tuple[Any, ...]]", list(frame.groupby(GROUP).groups)), key=group_order)


def report_data(ranks: pd.DataFrame, summaries: pd.DataFrame, verdicts: pd.DataFrame | None,
                hard_summary: pd.DataFrame | None, optimal: dict[tuple[str, str, str], int] | None,
                title: str, proven: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The JSON the page reads (see the module doc); ``ranks`` is ``rankings.csv``'s frame."""
    hist_cols = [c for c in ranks.columns if c.startswith("solved_in_")] + ["unsolved"]
    groups = sorted_groups(ranks)
    gidx = {g: i for i, g in enumerate(groups)}
    words: dict[str, int] = {}

    def wid(w: str) -> int:
        return words.setdefault(w, len(words))

    # rows in the order: group, rank
    ranks = ranks.assign(gidx_=[gidx[tuple(k)] for k in ranks[GROUP].itertuples(index=False)])
    ranks = ranks.sort_values(["gidx_", "rank"], kind="stable")
    worst = dict(zip(zip(summaries["lexicon"], summaries["strategy"], summaries["mode"],
                         summaries["opener"], strict=True), summaries["worst_games"], strict=True))
    hard = verdicts_by_opener(verdicts)
    optimal = optimal or {}
    cols: dict[str, list] = {k: [] for k in ("g", "o", "rank", "tot", "max", "hist", "ae", "ent",
                                              "exact", "verdict")}
    worst_out = []
    has_scores = "avg_eliminated" in ranks
    cols["g"] = ranks["gidx_"].astype(int).tolist()
    cols["rank"] = ranks["rank"].astype(int).tolist()
    cols["tot"] = ranks["total_guesses"].astype(int).tolist()
    cols["max"] = ranks["max_guesses"].astype(int).tolist()
    cols["hist"] = ranks[hist_cols].astype(int).to_numpy().tolist()
    n = len(ranks)
    cols["ae"] = [_num(x, 3) for x in ranks["avg_eliminated"]] if has_scores else [None] * n
    cols["ent"] = [_num(x, 4) for x in ranks["entropy_bits"]] if has_scores else [None] * n
    for lex, strat, mode, opener in zip(ranks["lexicon"], ranks["strategy"], ranks["mode"],
                                        ranks["opener"], strict=True):
        cols["o"].append(wid(opener))
        cols["exact"].append(optimal.get((lex, mode, opener)))
        cols["verdict"].append(hard.get((lex, opener), (None, ""))[0])
        games = []
        for game in worst.get((lex, strat, mode, opener), ()):
            games.append([wid(game["answer"]), [wid(g) for g in game["guesses"][1:]]])
        worst_out.append(games)
    games_per_group = [int(ranks.loc[ranks["gidx_"] == i, "games"].iloc[0]) for i in range(len(groups))]
    hard_list = []
    if hard_summary is not None:
        h: Any  # (a row: its fields are whatever pandas holds)
        for h in hard_summary.itertuples(index=False):
            hard_list.append({"lexicon": h.lexicon, "verdict": h.verdict, "openers": int(h.openers),
                              "of": int(h.of), "words": str(h.words).split()})
    n_openers = ranks.groupby("lexicon")["opener"].nunique()
    subtitle = (f"{title} · " + ", ".join(f"{lex}: {n:,} openers" for lex, n in n_openers.items())
                + f" · {ranks['strategy'].nunique()} strategies · {len(ranks):,} opener runs")
    return {
        "subtitle": subtitle, "limit": len(hist_cols) - 1, "groups": [list(g) for g in groups],
        "games": games_per_group, "words": list(words), "rows": cols, "worst": worst_out,
        "hard": hard_list, "notes": {o: user_note(n) for (_lex, o), (_v, n) in sorted(hard.items()) if n},
        "labels": VERDICT_LABELS,
        "proven": proven or [],
        "plots": [],
    }


def render_html(data: dict[str, Any], plots: dict[str, bytes], title: str) -> bytes:
    """The whole page: the data block, the plots as data URIs, the stylesheet and script."""
    data = dict(data)
    data["plots"] = [[name, PLOT_TITLES[name].format(limit=data.get("limit", 6))]
                     for name in PLOT_TITLES if name in plots]
    payload = gzip.compress(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode(),
                            compresslevel=6, mtime=0)
    images = "".join(
        f'<script type="text/plain" id="img-{name.replace(".", "_")}">data:image/png;base64,'
        f"{base64.b64encode(plots[name]).decode()}</script>\n"
        for name in PLOT_TITLES if name in plots)
    brand = "".join(f'<i style="background:{c}"></i>' for c in ("#6aaa64", "#c9b458", "#787c7e"))
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} · Wordle Lab report</title>
<style>{_asset("report.css")}</style></head>
<body>
<header><h1><span class="brand">{brand}</span>Wordle Lab · which opener is best?</h1>
<div class="sub" id="sub">{html.escape(title)}</div>
<nav><a href="#" data-view="ranking" class="on">Ranking</a><a href="#view=hard" data-view="hard">Hard mode</a>
<a href="#view=proven" data-view="proven">Proven best</a>
<a href="#view=plots" data-view="plots">Plots</a></nav></header>
<main id="view"><p>Loading…</p></main>
<pre id="test-result"></pre>
<script type="application/octet-stream" id="data">{base64.b64encode(payload).decode()}</script>
{images}<script>{_asset("report.js")}</script>
</body></html>
"""
    return page.encode("utf-8")
