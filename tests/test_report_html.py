"""The HTML report: self-contained, and driven in headless Chromium (sorting, filter, opener view).

Chromium runs the page's own small harness (``#test=1``: click a header twice, sort
by losses, type a filter, open an opener) and the test compares every step with
what pandas says about the same tables. Screenshots go to ``$WORDLE_LAB_SCREENSHOTS``
(default: the test's temporary directory).
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import os
import re
import time
from pathlib import Path

import pandas as pd
import pytest
from _report_data import browse, chromium, synthetic_tables, write_tables

from pipelines.report import build_report
from pipelines.report_html import VERDICT_LABELS
from wordle_core.game.lexicon import load_lexicon
from wordle_core.tables.frames import read_table

OPENERS = ["salet", "crane", "trace", "slate", "fuzzy", "queue", "blimp", "perms", "rowth", "clots",
           "colts", "soare", "raise", "tales", "reals", "lares", "roate", "stare", "arise", "irate"]
needs_chromium = pytest.mark.skipif(chromium() is None,
                                    reason="chromium is not installed (run .ci/install-browser)")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("html")
    tables = synthetic_tables(_openers(80), ["default", "entropy"], ["normal", "hard"], games=500, seed=11)
    tables["optimal"] = [_optimal("salet", "normal", 1700), _optimal("salet", "hard", None),
                         _optimal("trace", "normal", 1710), _optimal("trace", "normal", 1650, "answers")]
    write_tables(out, tables)
    build_report(out, out / "report")
    return out


def _optimal(opener: str, mode: str, total: int | None, pool: str = "all") -> dict:
    return {"lexicon": "wordle", "mode": mode, "strategy": "optimal", "opener": opener, "guess_pool": pool,
            "answers": 500, "guess_limit": 6, "total": total, "mean": None if total is None else total / 500,
            "seconds": 1.0, "cpu_seconds": 1.0, "nodes": 10, "default_total": None, "default_max": None,
            "greedy_strategy": "", "greedy_total": None, "greedy_max": None}


def _openers(n: int) -> list[str]:
    words = list(load_lexicon("wordle").answers)
    return sorted(set(OPENERS) | set(words[:: max(1, len(words) // n)][: n - len(OPENERS)]))


def _data(page: Path) -> dict:
    text = page.read_text(encoding="utf-8")
    b64 = re.search(r'<script type="application/octet-stream" id="data">([^<]*)</script>', text).group(1)
    return json.loads(gzip.decompress(base64.b64decode(b64)))


def _state(dom: str) -> dict:
    m = re.search(r'data-state="([^"]*)"', dom)
    assert m, "the page's script did not run (no data-state)"
    return json.loads(html.unescape(m.group(1)))


def _url(report: Path, frag: str = "") -> str:
    return (report / "report" / "index.html").resolve().as_uri() + frag


def test_page_is_self_contained_and_holds_every_row(report):
    page = report / "report" / "index.html"
    text = page.read_text(encoding="utf-8")
    assert not re.search(r'(src|href)="(https?:)?//', text), "the page must not load anything remote"
    assert "<link" not in text and "@import" not in text
    data = _data(page)
    ranks = pd.read_csv(report / "report" / "rankings.csv")
    assert len(data["rows"]["g"]) == len(ranks)
    groups = [tuple(g) for g in data["groups"]]
    got = sorted(zip([groups[g] for g in data["rows"]["g"]], [data["words"][o] for o in data["rows"]["o"]],
                     data["rows"]["rank"], data["rows"]["tot"], strict=True))
    want = sorted(zip(ranks[["lexicon", "strategy", "mode"]].itertuples(index=False, name=None),
                      ranks["opener"], ranks["rank"], ranks["total_guesses"], strict=True))
    assert got == want
    # proven optima where the optimal table has them (all guesses only); -1: proven no win
    exact = {(groups[g][2], data["words"][o]): x for g, o, x in
             zip(data["rows"]["g"], data["rows"]["o"], data["rows"]["exact"], strict=True) if x is not None}
    want = {("normal", "salet"): 1700, ("hard", "salet"): -1, ("normal", "trace"): 1710}
    # ... and the package's shipped tables for the other rows: hard-mode verdicts
    # (wordle_core/data/hard: infeasible = -1), then the exact totals (wordle_core/data/exact)
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.tables.exact import shipped_rank, shipped_values
    from wordle_core.tables.verdicts import shipped_verdicts

    shipped = {("hard", w): -1 for w, v in shipped_verdicts(load_lexicon("wordle")).items()
               if v == "infeasible"}
    for m in ("normal", "hard"):  # the proven rankings' exact totals (wordle_core/data/rank)
        got = shipped_rank(load_lexicon("wordle"), m)
        shipped.update({(m, r["opener"]): (-1 if r["proof"] == "no-win" else r["total"])
                        for r in (got.records if got else []) if r["proof"] != "bound"})
    shipped.update({(m, w): (-1 if v is None else v) for m in ("normal", "hard")
                    for w, v in shipped_values("wordle", m).items()})
    assert exact == {**{k: v for k, v in shipped.items() if k in exact}, **want}
    # the histograms are the rankings.csv columns, failures last
    hist_cols = [f"solved_in_{i}" for i in range(1, 7)] + ["unsolved"]
    by_key = {(tuple(r[:3]), r[3]): list(r[4:]) for r in
              ranks[["lexicon", "strategy", "mode", "opener", *hist_cols]].itertuples(index=False, name=None)}
    for g, o, h in zip(data["rows"]["g"], data["rows"]["o"], data["rows"]["hist"], strict=True):
        assert by_key[(groups[g], data["words"][o])] == h
    assert build_report(report, report / "again") and (report / "again" / "index.html").read_bytes() == \
        page.read_bytes(), "the page must be deterministic"


@needs_chromium
def test_sorting_filter_and_opener_view_in_chromium(report):
    dom, console, _ = browse(_url(report, "#test=1"), "--virtual-time-budget=20000", "--dump-dom")
    assert console == [], console
    steps = json.loads(html.unescape(re.search(r'<pre id="test-result">([^<]*)</pre>', dom).group(1)))
    by = {s["step"].split(" ")[0] if s["step"].startswith("open") else s["step"]: s for s in steps}
    for s in steps:
        assert s["errors"] == []
    ranks = pd.read_csv(report / "report" / "rankings.csv")
    group = ranks[(ranks.lexicon == "wordle") & (ranks.strategy == "default") & (ranks["mode"] == "normal")]
    assert by["start"]["first"] == list(group["opener"][:10])  # default: default strategy, normal mode
    assert by["start"]["count"] == f"{len(group)} of {len(ranks):,} rows"
    by_mean = group.sort_values(["mean_guesses", "rank"])
    assert by["sort mean"]["sort"] == "mean:asc" and by["sort mean"]["first"] == list(by_mean["opener"][:10])
    desc = group.assign(neg=-group["mean_guesses"]).sort_values(["neg", "rank"])
    again = by["sort mean again"]
    assert again["sort"] == "mean:desc" and again["first"] == list(desc["opener"][:10])
    lost = group.sort_values(["failures", "rank"])
    assert by["sort lost"]["first"] == list(lost["opener"][:10])
    ra = lost[lost["opener"].str.contains("ra")]
    assert by["filter ra"]["first"] == list(ra["opener"][:10])
    assert by["filter ra"]["count"] == f"{len(ra)} of {len(ranks):,} rows"
    opened = by["open"]
    word = ra["opener"].iloc[0]
    assert opened["view"] == "opener" and opened["opener"] == word.upper()
    assert opened["panels"] == int((ranks["opener"] == word).sum()) == 4
    summaries = read_table(report, "opener_summaries")
    assert opened["games"] == sum(len(w) for w in summaries.loc[summaries.opener == word, "worst_games"])


@needs_chromium
def test_worst_game_tiles_are_the_engines_feedback(report):
    summaries = read_table(report, "opener_summaries")
    word = "trace"
    dom, console, _ = browse(_url(report, f"#opener={word}"), "--virtual-time-budget=20000", "--dump-dom")
    assert console == []
    assert _state(dom)["opener"] == word.upper()
    games = re.findall(r'<div class="game[^"]*"><div class="ans">(\w+) · (\d+) guesses(.*?)</div>'
                       r'\s*((?:<div class="row">.*?</div>)+)', dom, re.S)
    want = [(g["answer"], list(zip(g["guesses"], g["feedback"], strict=True)))
            for ws in summaries.loc[summaries.opener == word, "worst_games"] for g in ws]
    got = []
    for answer, n, _lost, rows in games:
        tiles = [re.findall(r'class="tile ([gyb])">(\w)<', row)
                 for row in re.findall(r'<div class="row">(.*?)</div>', rows)]
        path = [("".join(ch for _, ch in t), "".join(c for c, _ in t)) for t in tiles]
        assert len(path) == int(n)
        got.append((answer.lower(), path))
    assert sorted(got) == sorted(want) and len(got) == 20


@needs_chromium
def test_hard_view_and_screenshots(report):
    dom, console, _ = browse(_url(report, "#view=hard"), "--virtual-time-budget=20000", "--dump-dom")
    assert console == [] and _state(dom)["view"] == "hard"
    summary = pd.read_csv(report / "report" / "hard_summary.csv")
    for r in summary.itertuples():
        pill = f'<span class="pill {r.verdict}">{VERDICT_LABELS[r.verdict]}</span>'
        assert f"{r.lexicon}: {pill} {r.openers} of {r.of} openers" in dom
    table = re.search(r'<table id="hard-table">.*?<tbody>(.*?)</tbody>', dom, re.S).group(1)
    verdicts = re.findall(r'<tr><td class="l"><a class="op" href="#opener=(\w+)">.*?class="pill (\w+)"',
                          table, re.S)
    assert len(verdicts) == len(_openers(80))
    order = {"feasible": 0, "unknown": 1, "infeasible": 2}
    assert [order[v] for _, v in verdicts] == sorted(order[v] for _, v in verdicts)
    shots = Path(os.environ.get("WORDLE_LAB_SCREENSHOTS", report / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    for name, frag in (("report-ranking.png", ""), ("report-opener-trace.png", "#opener=trace"),
                       ("report-hard.png", "#view=hard")):
        browse(_url(report, frag), f"--screenshot={shots / name}", "--window-size=1400,1000",
               "--hide-scrollbars", "--virtual-time-budget=20000")
        data = (shots / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20000, name


@needs_chromium
def test_every_opener_of_the_game_stays_usable(tmp_path):
    """12,972 openers (one strategy, one mode): a few MB, and the ranking renders quickly."""
    openers = list(load_lexicon("wordle").guesses)
    write_tables(tmp_path, synthetic_tables(openers, ["entropy"], ["normal"], worst=2, seed=5))
    t0 = time.perf_counter()
    build_report(tmp_path, tmp_path / "report")
    build_s = time.perf_counter() - t0
    page = tmp_path / "report" / "index.html"
    size = page.stat().st_size
    assert size < 4_000_000, size
    dom, console, wall = browse(page.resolve().as_uri() + "#sort=ent&dir=desc&q=e",
                                "--virtual-time-budget=60000", "--dump-dom")
    state = _state(dom)
    assert console == [] and state["errors"] == []
    ranks = pd.read_csv(tmp_path / "report" / "rankings.csv")
    e = ranks[ranks.opener.str.contains("e")].sort_values(["entropy_bits", "rank"], ascending=[False, True])
    assert state["rows"] == 50 and state["first"] == list(e["opener"][:10])
    assert state["count"] == f"{len(e):,} of 12,972 rows"
    print(f"12,972 openers: index.html {size / 1e6:.2f} MB, report {build_s:.1f} s, chromium {wall:.1f} s")
    assert wall < 60


@needs_chromium
def test_proven_view_sets_the_strategies_beside_the_proof(tmp_path):
    """The shipped proven ranking in the report: its top k, and this run's strategies from
    the same openers (over every answer: same games) with their extra guesses."""
    from wordle_core.tables.exact import shipped_rank

    got = shipped_rank(load_lexicon("wordle"), "normal")
    assert got is not None
    top = got.top
    played = [r["opener"] for r in top[:12]] + ["fuzzy", "queue"]
    write_tables(tmp_path, synthetic_tables(played, ["default", "entropy"], ["normal"], seed=3))
    build_report(tmp_path, tmp_path / "report")
    proven = pd.read_csv(tmp_path / "report" / "proven_ranking.csv")
    assert list(proven.opener) == [r["opener"] for r in top]
    assert list(proven["rank"]) == list(range(1, len(top) + 1))
    assert list(proven.total) == [r["total"] for r in top]
    page = (tmp_path / "report" / "index.html").resolve().as_uri()
    dom, console, _ = browse(page + "#view=proven", "--virtual-time-budget=20000", "--dump-dom")
    assert console == [] and _state(dom)["view"] == "proven" and _state(dom)["errors"] == []
    table = re.search(r'<table class="proven" data-lexicon="wordle" data-mode="normal">'
                      r'.*?<tbody>(.*?)</tbody>', dom, re.S)
    assert table, "no proven table for wordle normal"
    rows = re.findall(r'<tr data-opener="(\w+)"><td class="num">(\d+)</td>.*?</td>\s*'
                      r'<td class="num">([\d,]+)</td><td class="num">([\d.]+)</td>(.*?)</tr>',
                      table.group(1), re.S)
    assert [(w, int(i), int(t.replace(",", ""))) for w, i, t, _m, _c in rows] == [
        (r["opener"], r["rank"], r["total"]) for r in top]
    ranks = pd.read_csv(tmp_path / "report" / "rankings.csv")
    for w, _i, t, mean, cells in rows[:12]:
        assert mean == f"{int(t.replace(',', '')) / 2315:.4f}"
        want = []
        for strategy in ("default", "entropy"):
            r = ranks[(ranks.strategy == strategy) & (ranks.opener == w)].iloc[0]
            extra = (f'<span class="pill loses">{r.failures} lost</span>' if r.failures
                     else f"{'-' if r.total_guesses < int(t.replace(',', '')) else '+'}"
                          f"{abs(r.total_guesses - int(t.replace(',', ''))):,}")
            want.append(f'<td class="num">{r.mean_guesses:.4f} <small>{extra}</small></td>')
        assert re.sub(r">\s+<", "><", cells).strip() == "".join(want)
    kth = int(got.about["wordle_lab.kth_total"])
    assert f"The {got.about['wordle_lab.k']}th total is <b>{kth:,}</b>" in dom
    dom, console, _ = browse(page, "--virtual-time-budget=20000", "--dump-dom")  # the ranking's card
    assert console == [] and "proven best · wordle · normal" in dom and f"{top[0]['total'] / 2315:.4f}" in dom
