"""The report reads true at a glance: linear histograms, per-panel axes, a zoomed and
labelled scatter, the opener as neutral tiles, user words, verdict badges that do not
read as failures, and "lost (not solved in 6)" wording."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _report_data import browse, chromium, synthetic_tables, write_tables

from pipelines import report as report_mod
from pipelines.orchestration.stages import describe
from pipelines.report_html import PLOT_TITLES, VERDICT_LABELS, user_note

OPENERS = ["salet", "crane", "trace", "slate", "fuzzy", "queue", "blimp", "perms", "rowth", "clots",
           "colts", "soare", "raise", "tales", "reals", "lares", "roate", "stare", "arise", "irate",
           "least", "reast", "crate", "trape", "plate", "spare", "share", "stale", "snare", "saner"]
needs_chromium = pytest.mark.skipif(chromium() is None,
                                    reason="chromium is not installed (run .ci/install-browser)")


@pytest.fixture(scope="module")
def tables_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("present")
    tables = synthetic_tables(OPENERS, ["default", "entropy"], ["normal", "hard"], games=700, seed=5)
    for rec in tables["hard_verdicts"]:  # what a real run's exact search writes
        rec["exact_note"] = "wordle_core.search.hard.hard_verdict, complete search"
    write_tables(out, tables)
    return out


@pytest.fixture(scope="module")
def figures(tables_dir):
    """The report's matplotlib figures, kept open (``_png`` replaced) to inspect their axes."""
    figs: dict[str, object] = {}
    names = iter(["lengths_top.png", "ranking.png", "mean_vs_eliminated.png"])
    mp = pytest.MonkeyPatch()
    mp.setattr(report_mod, "_png", lambda fig: figs.setdefault(next(names), fig) and b"png")
    try:
        report_mod.build_report(tables_dir, tables_dir / "figs")
    finally:
        mp.undo()
    return figs


@pytest.fixture(scope="module")
def built(tables_dir) -> Path:
    report_mod.build_report(tables_dir, tables_dir / "report")
    return tables_dir / "report"


def test_histograms_are_linear_with_their_own_scale(figures):
    axes = [ax for ax in figures["lengths_top.png"].axes if ax.get_visible()]
    assert len(axes) == 4 and all(ax.get_yscale() == "linear" for ax in axes)
    assert all(ax.get_ylim()[0] == 0 for ax in axes)
    assert [t.get_text() for t in axes[0].get_xticklabels()][-1] == "✗ lost"
    assert "lost: not solved in 6" in axes[-1].get_xlabel()


def test_ranking_panels_each_span_their_own_values(figures):
    axes = [ax for ax in figures["ranking.png"].axes if ax.get_visible()]
    for ax in axes:
        xs = ax.collections[-1].get_offsets()[:, 0]  # the dots
        lo, hi = ax.get_xlim()
        assert lo < xs.min() and xs.max() < hi
        assert (xs.max() - xs.min()) / (hi - lo) > 0.5  # the differences fill the panel
    assert len({ax.get_xlim() for ax in axes}) == len(axes)  # not one shared axis


def test_scatter_is_zoomed_and_names_the_best(figures, built):
    import pandas as pd

    ranks = pd.read_csv(built / "rankings.csv")
    axes = [ax for ax in figures["mean_vs_eliminated.png"].axes
            if ax.get_visible() and ax.get_label() != "<inset>" and ax.get_title()]
    main = [ax for ax in axes if "zoomed" in ax.get_title()]
    assert len(main) == 4
    ax = main[0]
    group = ranks[(ranks.strategy == "default") & (ranks["mode"] == "normal")]
    best = group.head(8)  # the box: the best 8's extent plus a margin; their names beside it
    names = sorted(t.get_text() for t in ax.texts)
    assert names == sorted(f"{r.rank}. {r.opener.upper()}  {r.mean_guesses:.3f}" for r in best.itertuples())
    x0, x1 = best["avg_eliminated"].min(), best["avg_eliminated"].max()
    dx = max(x1 - x0, 0.5) * 0.3
    assert ax.get_xlim()[0] == pytest.approx(x0 - dx)
    y0, y1 = ax.get_ylim()
    inside = group[group["avg_eliminated"].between(x0 - dx, x1 + dx) & group["mean_guesses"].between(y0, y1)]
    assert f"({len(inside)} of {len(group)} openers in the box)" in ax.get_title()
    assert len(ax.collections[0].get_offsets()) + len(ax.collections[1].get_offsets()) == len(inside)
    assert any(child.get_title().startswith("all ") for child in ax.child_axes)  # every opener beside


def test_plot_titles_say_lost_not_log_scale():
    text = " ".join(PLOT_TITLES.values())
    assert "log scale" not in text and "within the limit" not in text and "lost" in text


def test_notes_and_badges_use_a_players_words(built):
    import base64
    import gzip
    import json

    page = (built / "index.html").read_text()
    assert "wordle_core." not in page.split("<script", 1)[0]
    block = re.search(r'id="data">([^<]+)</script>', page).group(1)
    data = json.loads(gzip.decompress(base64.b64decode(block)))
    notes = list(data["notes"].values())
    assert notes and not any("wordle_core." in n for n in notes)
    assert any(n.startswith("exact search over every hard-mode strategy") for n in notes)
    assert data["labels"] == VERDICT_LABELS
    assert user_note("wordle_core.search.hard.hard_verdict, complete search") == \
        "exact search over every hard-mode strategy, complete search"
    assert VERDICT_LABELS["infeasible"] == "no sure win" and "fail" not in VERDICT_LABELS["infeasible"]


def test_run_summary_says_lost():
    from types import SimpleNamespace

    res = SimpleNamespace(dry_run=False, tables=["opener_summaries"], files=["f"], seconds=10.0,
                          runner="DirectRunner",
                          counters={"games_played": 4630, "trees_built": 2, "games_failed": 3})
    line = describe(res)
    assert "3 lost (not solved in 6)" in line and "over the limit" not in line


def _url(path: Path, frag: str) -> str:
    return (path / "index.html").resolve().as_uri() + frag


@needs_chromium
def test_opener_page_in_chromium_neutral_tiles_linear_bars_and_words(built):
    dom, console, _ = browse(_url(built, "#opener=trace"), "--virtual-time-budget=20000", "--dump-dom")
    assert console == [], console
    big = re.search(r'<div class="big">(.*?)</div></div>', dom, re.S).group(1)
    assert re.findall(r'class="tile (\w)"', big) == ["n"] * 5
    view = re.search(r'<main id="view">(.*?)</main>', dom, re.S).group(1)  # what is shown
    assert "wordle_core." not in view
    assert "infeasible</span>" not in view and "feasible</span>" not in view  # shown as labels
    # linear bars: height proportional to the count written above it (2 px minimum)
    svg = re.search(r'<svg class="hist".*?</svg>', dom, re.S).group(0)
    bars = re.findall(r'<rect class="bar[^"]*" x="[^"]+" y="[^"]+" width="[^"]+" height="([^"]+)"></rect>'
                      r'<text [^>]*>(\d+)</text>', svg)
    pairs = [(float(h), int(c)) for h, c in bars if int(c) > 0]
    top = max(c for _, c in pairs)
    for h, c in pairs:
        assert abs(h - max(2.0, 132 * c / top)) < 0.01
    assert "log" not in svg


@needs_chromium
def test_ranking_badges_in_chromium(built):
    dom, console, _ = browse(_url(built, ""), "--virtual-time-budget=20000", "--dump-dom")
    assert console == []
    badges = set(re.findall(r'<span class="pill (?:feasible|infeasible|unknown)">([^<]+)</span>', dom))
    assert badges and badges <= set(VERDICT_LABELS.values())
