"""The report job: Avro tables -> pandas -> CSV rankings and PNG plots.

Reads the tables with :func:`wordle_core.tables.frames.read_table` (fastavro: Beam
2.77's ``ReadFromAvro`` crashes on Dask, and the report is small enough for one
process), aggregates with pandas and writes:

* ``rankings.csv`` — every played opener per (lexicon, strategy, mode), best first:
  ``rank`` (openers that lose a game after every opener that wins all, then by mean
  guesses, then alphabetical), games, mean guesses, win-in-3 %, win-in-6 %, max,
  failures, the game-length histogram (``solved_in_1`` ... ``solved_in_6``,
  ``unsolved``; they sum to ``games``), its first-guess scores, and its rank per
  measure (1 = best; ties share the best rank; ``rank_mean`` uses the same
  winners-first rule) — the per-opener tables of the published solver write-ups;
* ``opener_scores.csv`` — every scored opener with its rank per first-guess score;
* ``best_worst.csv`` — the best and worst 10 openers per measure, strategy and mode;
* ``hard_summary.csv`` — per lexicon: how many openers can / cannot guarantee a
  hard-mode win (exact verdict, or a strategy that won every game), and which;
* ``hard_mode.csv`` — per opener x strategy: does it win every hard-mode game (the question
  of "Winning Wordle's Hard Mode"), losses, worst game, whether any strategy in the run wins them all
  (a constructive proof of feasibility), and the exact verdict;
* ``worst_games.csv`` — the longest games with full paths;
* ``lengths_top.png``, ``mean_vs_eliminated.png``, ``ranking.png``;
* ``index.html`` — one self-contained page (:mod:`pipelines.report_html`): the
  sortable, filterable ranking, a view per opener (histograms, worst games as
  tiles), the hard-mode verdicts and the plots.

Everything is computed in memory first and written to a temporary directory, then
renamed into place, so a bad input leaves no partial report behind.

Run it on any finished output, local or in object storage (``wordle-lab report`` is the
same job)::

    python -m pipelines.report --input outputs/default
    python -m pipelines.report --input gs://BUCKET/wordle --output gs://BUCKET/wordle/report
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wordle_core.errors import MACHINE_ERRNOS, OneLineParser, WordleError, one_line_errors
from wordle_core.files import AnyPath, Location, UrlPath, location, write_whole
from wordle_core.tables.avro import (
    GENERATION,
    MANIFEST,
    check_one_generation,
    file_entry,
    manifest_of,
    read_manifest,
    sealed_record,
    table_dir,
    verify_dir,
)
from wordle_core.tables.frames import game_path, read_table, tables_in

from .report_html import GROUP, group_order, sorted_groups

# measure -> (column, higher is better)
MEASURES = {
    "mean": ("mean_guesses", False),
    "win3": ("win3_pct", True),
    "win6": ("win6_pct", True),
    "max": ("max_guesses", False),
    "failures": ("failures", False),
}
SCORE_MEASURES = {
    "avg_eliminated": ("avg_eliminated", True),
    "entropy": ("entropy_bits", True),
    "avg_remaining": ("avg_remaining", False),
    "largest": ("largest_bucket", False),
    "buckets": ("buckets", True),
}


class ReportError(WordleError):
    """Input tables the report cannot use."""


def read_frame(input_dir: AnyPath, table: str) -> pd.DataFrame | None:
    """Table ``table`` under ``input_dir`` (:func:`read_table`), or None when it is absent."""
    if table not in tables_in(input_dir):
        return None
    return read_table(input_dir, table)


def _rank(df: pd.DataFrame, col: str, higher: bool, by: list[str]) -> pd.Series:
    return df.groupby(by)[col].rank(method="min", ascending=not higher).astype(int)


def _rank_by_keys(df: pd.DataFrame, keys: list[str], by: list[str]) -> pd.Series:
    """Rank (1 = best, ties share the best rank) by several ascending keys within ``by``."""
    order = df.sort_values([*by, *keys], kind="stable")
    pos = order.groupby(by, sort=False).cumcount() + 1
    new = (order[[*by, *keys]] != order[[*by, *keys]].shift()).any(axis=1)
    return pos.where(new).ffill().astype(int).reindex(df.index)


def truthful_order(df: pd.DataFrame) -> pd.DataFrame:
    """Rows in ranking order: winners of every game first, then by mean, then opener.

    The rule behind ``rank_mean``, ``rank``, ``rank --by mean``, the HTML report and
    the plots: within a (lexicon, strategy, mode), an opener that loses any game
    ranks after every opener that wins them all, however short its other games are.
    """
    key = df.assign(_loses=df["failures"] > 0)
    key = key.sort_values([*GROUP, "_loses", "mean_guesses", "opener"], kind="stable")
    return df.loc[key.index]


def rankings(summaries: pd.DataFrame, scores: pd.DataFrame | None) -> pd.DataFrame:
    """``rankings.csv``: one row per (lexicon, strategy, mode, opener), best first.

    ``rank`` is the row's position in its group (see :func:`truthful_order`);
    ``rank_mean`` the same order with ties shared; ``rank_win3`` ... the plain
    per-measure ranks. ``solved_in_1`` ... ``solved_in_<limit>`` and ``unsolved``
    are the game-length histogram (they sum to ``games``).
    """
    df = summaries.copy()
    df["win3_pct"] = (df["win_in_3_rate"] * 100).round(4)
    df["win6_pct"] = (df["win_in_6_rate"] * 100).round(4)
    df["mean_guesses"] = df["mean_guesses"].round(6)
    hist = [c for c in df.columns if c.startswith("solved_in_")] + ["unsolved"]
    cols = [*GROUP, "opener", "games", "total_guesses", "mean_guesses", "win3_pct", "win6_pct",
            "max_guesses", "failures", *hist]
    df = df[cols]
    if scores is not None and len(scores):
        sc = scores[["lexicon", "opener", "avg_eliminated", "entropy_bits"]].copy()
        sc["avg_eliminated"] = sc["avg_eliminated"].round(6)
        sc["entropy_bits"] = sc["entropy_bits"].round(6)
        df = df.merge(sc, on=["lexicon", "opener"], how="left")
    df = truthful_order(df).reset_index(drop=True)
    df.insert(3, "rank", df.groupby(GROUP, sort=False).cumcount() + 1)
    df["rank_mean"] = _rank_by_keys(df.assign(_loses=df["failures"] > 0), ["_loses", "mean_guesses"],
                                    GROUP)
    for name, (col, higher) in MEASURES.items():
        if name != "mean":
            df[f"rank_{name}"] = _rank(df, col, higher, GROUP)
    if "avg_eliminated" in df:
        df["rank_avg_eliminated"] = _rank(df, "avg_eliminated", True, GROUP)
    return df


def score_table(scores: pd.DataFrame) -> pd.DataFrame:
    df = scores.drop(columns=["mode", "strategy"]).copy()
    for name, (col, higher) in SCORE_MEASURES.items():
        df[f"rank_{name}"] = _rank(df, col, higher, ["lexicon"])
    return df.sort_values(["lexicon", "rank_avg_eliminated", "opener"]).reset_index(drop=True)


def best_worst(ranks: pd.DataFrame | None, scores: pd.DataFrame | None, n: int = 10) -> pd.DataFrame:
    rows = []

    def take(group: pd.DataFrame, key: tuple, measure: str, col: str, higher: bool) -> None:
        if measure == "mean" and "failures" in group:  # the truthful order: losers after winners
            order = truthful_order(group)
            worst = group.assign(_loses=group["failures"] > 0).sort_values(
                ["_loses", col, "opener"], ascending=[False, False, True])
        else:
            order = group.sort_values([col, "opener"], ascending=[not higher, True])
            worst = group.sort_values([col, "opener"], ascending=[higher, True])
        for end, part in (("best", order.head(n)), ("worst", worst.head(n))):
            for pos, (_, r) in enumerate(part.iterrows(), 1):
                rows.append({"lexicon": key[0], "strategy": key[1], "mode": key[2], "measure": measure,
                             "end": end, "position": pos, "opener": r["opener"], "value": r[col]})

    if ranks is not None:
        for key, g in ranks.groupby(GROUP, sort=True):
            for measure, (col, higher) in MEASURES.items():
                take(g, key, measure, col, higher)
    if scores is not None:
        for lex, g in scores.groupby("lexicon", sort=True):
            for measure, (col, higher) in SCORE_MEASURES.items():
                take(g, (lex, "-", "first-guess"), measure, col, higher)
    return pd.DataFrame(rows, columns=["lexicon", "strategy", "mode", "measure", "end", "position",
                                       "opener", "value"])


def hard_table(verdicts: pd.DataFrame) -> pd.DataFrame:
    df = verdicts.copy()
    # A strategy that wins every game is itself a proof that the opener is feasible.
    df["won_by_some_strategy"] = df.groupby(["lexicon", "opener"])["wins_all"].transform("any")
    cols = ["lexicon", "strategy", "opener", "wins_all", "losses", "max_guesses", "worst_answer",
            "worst_path", "won_by_some_strategy", "exact_verdict", "exact_note"]
    return df[cols].sort_values(["lexicon", "strategy", "wins_all", "losses", "opener"],
                                ascending=[True, True, False, True, True]).reset_index(drop=True)


def hard_summary(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Per lexicon: how many openers are feasible / infeasible / unknown in hard mode.

    One row per (lexicon, verdict) with the count and the openers, alphabetical. The
    exact verdict decides; an opener the exact search left ``unknown`` (or did not
    run on) still counts as ``feasible`` when some strategy won every game from it,
    because that strategy's tree is a winning hard-mode strategy.
    """
    per = verdicts.groupby(["lexicon", "opener"], sort=True).agg(
        exact=("exact_verdict", "first"), won=("wins_all", "any")).reset_index()
    per["verdict"] = per["exact"].where(per["exact"] != "unknown",
                                        per["won"].map({True: "feasible", False: "unknown"}))
    rows = []
    for (lex, verdict), g in per.groupby(["lexicon", "verdict"], sort=True):
        rows.append({"lexicon": lex, "verdict": verdict, "openers": len(g),
                     "of": int((per["lexicon"] == lex).sum()), "words": " ".join(g["opener"])})
    return pd.DataFrame(rows, columns=["lexicon", "verdict", "openers", "of", "words"])


SHIPPED_NOTE = "wordle_core.tables.verdicts.shipped_verdicts"  # (the report shows it in words)


def with_shipped_verdicts(verdicts: pd.DataFrame | None) -> pd.DataFrame | None:
    """``hard_verdicts`` with each ``unknown`` exact verdict (the run did not search, or its
    budget ran out) replaced by the verdict the package ships for that opener, where it
    ships one (:func:`wordle_core.tables.verdicts.shipped_verdicts`: built-in games, every
    opener proven); its note then names the shipped table. Other rows are unchanged."""
    if verdicts is None or not len(verdicts):
        return verdicts
    from wordle_core.game.lexicon import BUILTINS, load_lexicon
    from wordle_core.tables.verdicts import shipped_verdicts

    shipped = {(lex, w): v for lex in sorted(set(verdicts["lexicon"])) if lex in BUILTINS
               for w, v in shipped_verdicts(load_lexicon(lex)).items()}
    rows = zip(verdicts["lexicon"], verdicts["opener"], verdicts["exact_verdict"], strict=True)
    found = [shipped.get((lex, o)) if v == "unknown" else None for lex, o, v in rows]
    if not any(found):
        return verdicts
    out = verdicts.copy()
    hit = pd.Series([f is not None for f in found], index=out.index)
    out.loc[hit, "exact_verdict"] = [f for f in found if f is not None]
    out.loc[hit, "exact_note"] = SHIPPED_NOTE
    return out


def _with_exact(verdicts: pd.DataFrame | None, exact: pd.DataFrame | None) -> pd.DataFrame | None:
    """The rows :func:`hard_summary` counts: an ``hard_exact`` table's verdicts (no strategy
    played: ``wins_all`` false) first, so they decide an opener both tables hold, then
    ``hard_verdicts``; None when neither has a row."""
    parts = []
    if exact is not None and len(exact):
        parts.append(exact[["lexicon", "opener", "exact_verdict"]].assign(wins_all=False))
    if verdicts is not None and len(verdicts):
        parts.append(verdicts[["lexicon", "opener", "exact_verdict", "wins_all"]])
    if not parts:
        return None
    return pd.concat(parts, ignore_index=True)


def worst_games(summaries: pd.DataFrame) -> pd.DataFrame:
    rows = []
    keys = zip(summaries["lexicon"], summaries["strategy"], summaries["mode"], summaries["opener"],
               summaries["worst_games"], strict=True)
    for lex, strat, mode, opener, games in keys:
        for g in games:
            rows.append((lex, strat, mode, opener, g["answer"], g["n_guesses"], g["solved"], game_path(g)))
    df = pd.DataFrame(rows, columns=[*GROUP, "opener", "answer", "n_guesses", "solved", "path"])
    return df.sort_values([*GROUP, "n_guesses", "opener", "answer"],
                          ascending=[True, True, True, False, True, True]).reset_index(drop=True)


def _png(fig) -> bytes:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


WIN_COLOUR, LOSS_COLOUR = "#3a7d44", "#c0392b"
OPENER_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#17becf", "#e377c2"]


def _group_label(key: tuple) -> str:
    return f"{key[0]} · {key[1]} · {key[2]} mode"


def _grid(n: int, ncols: int) -> tuple[int, int]:
    ncols = max(1, min(ncols, n))
    return (n + ncols - 1) // ncols, ncols


def plots(summaries: pd.DataFrame, ranks: pd.DataFrame, top: int = 5) -> dict[str, bytes]:
    """The report's PNGs; every panel uses the ranking order of :func:`truthful_order`.

    * ``lengths_top.png``: the game-length histogram of the top openers of each
      (lexicon, strategy, mode), linear (bar heights compare as the counts do), each
      panel on its own scale, every count written on its bar; the ``✗`` column counts
      the games lost (not solved in the guess limit).
    * ``ranking.png``: the top 20 by mean guesses per group, one dot each on the
      panel's own axis (so the gaps between openers show), the value and the gap to #1
      beside each; openers that lose games in red with their loss count.
    * ``mean_vs_eliminated.png``: one panel per group, mean guesses against the first
      guess's avg eliminated, zoomed on the best openers (the top 8 named), beside it
      every opener and the zoomed box; openers that lose games drawn as red crosses.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hist_cols = [c for c in ranks.columns if c.startswith("solved_in_")] + ["unsolved"]
    limit = len(hist_cols) - 1
    groups = sorted_groups(ranks)
    by_group = {key: g for key, g in ranks.groupby(GROUP)}
    modes = len({key[2] for key in groups})  # one column per mode: normal, then hard
    out: dict[str, bytes] = {}

    # 1. game lengths of the top openers, linear, each panel on its own scale
    rows, ncols = _grid(len(groups), modes)
    fig, axes = plt.subplots(rows, ncols, figsize=(7.2 * ncols, 3.6 * rows), squeeze=False)
    for ax, key in zip(axes.flat, groups, strict=False):
        g = by_group[key].head(top)
        width = 0.8 / max(len(g), 1)
        xs0 = np.arange(1, limit + 2)
        ymax = 1
        for i, (_, r) in enumerate(g.iterrows()):
            counts = np.array([int(r[c]) for c in hist_cols])
            ymax = max(ymax, int(counts.max()))
            xs = xs0 + (i - (len(g) - 1) / 2) * width
            colour = OPENER_COLOURS[i % len(OPENER_COLOURS)]
            lost = int(r["failures"])
            label = (f"{r['opener'].upper()}  mean {r['mean_guesses']:.3f}, "
                     + (f"{lost} lost" if lost else "wins all"))
            bars = ax.bar(xs, counts, width=width, color=colour, label=label, edgecolor="white",
                          linewidth=0.3)
            bars[-1].set_hatch("///")
            bars[-1].set_edgecolor(LOSS_COLOUR)
            for x, c in zip(xs, counts, strict=True):
                if c:
                    ax.text(x, c, f" {c:,}", ha="center", va="bottom", fontsize=5.5, rotation=90)
        ax.axvspan(limit + 0.5, limit + 1.5, color=LOSS_COLOUR, alpha=0.07, lw=0)
        ax.set_title(f"{_group_label(key)}: top {len(g)} openers", fontsize=10)
        ax.set_ylim(0, ymax * 1.3)
        ax.set_xticks(range(1, limit + 2), [*map(str, range(1, limit + 1)), "✗ lost"])
        ax.legend(fontsize=7, loc="upper right", frameon=False)
        ax.grid(axis="y", alpha=0.3)
    for ax in axes.flat[len(groups):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel(f"guesses needed to solve (✗ = lost: not solved in {limit})")
    for ax in axes[:, 0]:
        ax.set_ylabel("answers (games)")
    fig.tight_layout()
    out["lengths_top.png"] = _png(fig)

    # 2. ranking chart: best 20 by the truthful order, a dot per opener, each panel its own axis
    n = 20
    heads = {key: by_group[key].head(n) for key in groups}
    rows, ncols = _grid(len(groups), modes)
    fig, axes = plt.subplots(rows, ncols, figsize=(5.2 * ncols, 0.28 * n * rows + 1.2 * rows),
                             squeeze=False)
    for ax, key in zip(axes.flat, groups, strict=False):
        g = heads[key].iloc[::-1]
        lo, hi = float(g["mean_guesses"].min()), float(g["mean_guesses"].max())
        span = max(hi - lo, 0.002)
        best = float(heads[key]["mean_guesses"].iloc[0])
        colours = [LOSS_COLOUR if f else WIN_COLOUR for f in g["failures"]]
        names = [f"{int(r['rank'])}. {r['opener'].upper()}" for _, r in g.iterrows()]
        ys = np.arange(len(g))
        ax.hlines(ys, lo - span * 0.08, g["mean_guesses"], color="#d5d9de", lw=0.8, zorder=1)
        ax.scatter(g["mean_guesses"], ys, color=colours, s=22, zorder=2)
        ax.axvline(best, color="#888", lw=0.6, ls=":", zorder=0)
        for y, (_, r) in enumerate(g.iterrows()):
            gap = float(r["mean_guesses"]) - best
            note = f"{r['mean_guesses']:.4f}" + (f"  +{gap:.4f}" if gap > 0 else "")
            note += f"  ✗{int(r['failures'])} lost" if r["failures"] else ""
            ax.text(r["mean_guesses"] + span * 0.03, y, note, va="center", fontsize=6.5,
                    color=LOSS_COLOUR if r["failures"] else "#222")
        ax.set_yticks(ys, names)
        ax.set_xlim(lo - span * 0.08, hi + span * 0.75)
        ax.set_title(_group_label(key), fontsize=9)
        ax.tick_params(axis="y", labelsize=7)
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(axis="x", alpha=0.3)
    for ax in axes.flat[len(groups):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("mean guesses per game (lower is better; this panel's scale)", fontsize=8)
    from matplotlib.lines import Line2D

    fig.legend(handles=[Line2D([], [], color=WIN_COLOUR, label="wins every game", marker="o",
                               linestyle="", markersize=5),
                        Line2D([], [], color=LOSS_COLOUR, label="loses games (ranked after every winner)",
                               marker="o", linestyle="", markersize=5)],
               loc="lower center", ncol=2, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    out["ranking.png"] = _png(fig)

    # 3. mean guesses against the first guess's avg eliminated: zoomed on the best, an inset of all
    if "avg_eliminated" in ranks and ranks["avg_eliminated"].notna().any():
        rows, ncols = _grid(len(groups), modes)
        fig, axes = plt.subplots(rows, ncols, figsize=(7.2 * ncols, 4.4 * rows), squeeze=False)
        named = 8
        for ax, key in zip(axes.flat, groups, strict=False):
            g = by_group[key].dropna(subset=["avg_eliminated"])
            if not len(g):
                ax.set_visible(False)
                continue
            zoom = g.head(named)  # the view: the best openers, where the blob is
            x0, x1 = float(zoom["avg_eliminated"].min()), float(zoom["avg_eliminated"].max())
            y0, y1 = float(zoom["mean_guesses"].min()), float(zoom["mean_guesses"].max())
            dx, dy = max(x1 - x0, 0.5) * 0.3, max(y1 - y0, 0.001) * 0.3
            box = (x0 - dx, x1 + dx, y0 - dy, y1 + dy)
            inside = g[g["avg_eliminated"].between(box[0], box[1])
                       & g["mean_guesses"].between(box[2], box[3])]
            for target, pts, size in ((ax, inside, 22), (None, g, 5)):
                if target is None:
                    target = ax.inset_axes((1.04, 0.45, 0.30, 0.5))  # beside the zoom, covering nothing
                    target.tick_params(labelsize=5)
                    target.set_title(f"all {len(g)} openers", fontsize=6)
                    from matplotlib.patches import Rectangle

                    target.add_patch(Rectangle((box[0], box[2]), box[1] - box[0], box[3] - box[2],
                                               fill=False, ec="#555", lw=0.6))
                win, lose = pts[pts["failures"] == 0], pts[pts["failures"] > 0]
                target.scatter(win["avg_eliminated"], win["mean_guesses"], s=size, color=WIN_COLOUR,
                               alpha=0.7, linewidths=0,
                               label=f"wins every game ({(g['failures'] == 0).sum()})")
                target.scatter(lose["avg_eliminated"], lose["mean_guesses"], s=size * 1.3,
                               color=LOSS_COLOUR, marker="x", alpha=0.8, linewidths=0.8,
                               label=f"loses games ({(g['failures'] > 0).sum()})")
            # names in a column right of the box, top to bottom by mean, each joined to its point
            width = box[1] - box[0]
            slots = np.linspace(box[3] - dy * 0.5, box[2] + dy * 0.5, max(len(zoom), 2))
            for slot, (_, r) in zip(slots, zoom.sort_values("mean_guesses", ascending=False).iterrows(),
                                    strict=False):
                ax.annotate(f"{int(r['rank'])}. {r['opener'].upper()}  {r['mean_guesses']:.3f}",
                            (r["avg_eliminated"], r["mean_guesses"]), xytext=(box[1] + width * 0.12, slot),
                            textcoords="data", fontsize=6.5, va="center", color="#222",
                            arrowprops={"arrowstyle": "-", "color": "#999", "lw": 0.5})
            ax.set_xlim(box[0], box[1] + width * 0.75)
            ax.set_ylim(box[2], box[3])
            ax.set_title(f"{_group_label(key)}: zoomed on the best {len(zoom)} "
                         f"({len(inside)} of {len(g)} openers in the box)", fontsize=8)
            ax.legend(fontsize=6.5, loc="upper left", frameon=False)
            ax.grid(alpha=0.3)
        for ax in axes.flat[len(groups):]:
            ax.set_visible(False)
        for ax in axes[-1]:
            ax.set_xlabel("answers ruled out by the first guess, on average", fontsize=8)
        for ax in axes[:, 0]:
            ax.set_ylabel("mean guesses per game", fontsize=8)
        fig.suptitle("Does a first guess that rules out more give shorter games?", fontsize=11)
        fig.tight_layout()
        out["mean_vs_eliminated.png"] = _png(fig)
    return out


def optimal_values(input_dir: AnyPath) -> dict[tuple[str, str, str], int]:
    """(lexicon, mode, opener) -> proven optimal total (-1: proven that no strategy wins all).

    From an ``optimal`` table (``wordle-lab pipeline optimal`` / ``configs/exact.yaml``)
    under ``input_dir``, searched over all allowed guesses; empty when there is none.
    """
    if "optimal" not in tables_in(input_dir):
        return {}
    out: dict[tuple[str, str, str], int] = {}
    table = read_table(input_dir, "optimal")
    for rec in table.to_dict("records"):
        if rec.get("guess_pool", "all") != "all":
            continue
        total = rec.get("total")
        proven_none = total is None or total != total  # null (NaN in pandas): no win exists
        out[(rec["lexicon"], rec["mode"], rec["opener"])] = -1 if proven_none or total is None else int(total)
    return out


def exact_values(ranks: pd.DataFrame, input_dir: AnyPath) -> dict[tuple[str, str, str], int]:
    """Proven optima for the report: the package's shipped tables, then the run's own.

    In hard mode an opener the shipped verdicts prove infeasible is -1 (no strategy wins
    every game) even where its exact total is not computed yet.
    """
    from wordle_core.game.lexicon import BUILTINS, load_lexicon
    from wordle_core.tables.exact import proven_worth

    out: dict[tuple[str, str, str], int] = {}
    for lex, mode in sorted(set(zip(ranks["lexicon"], ranks["mode"], strict=True))):
        if lex in BUILTINS:  # the package ships tables for built-in word lists only
            out.update({(lex, mode, w): int(v) for w, v in proven_worth(load_lexicon(lex), mode).items()})
    out.update(optimal_values(input_dir))
    return out


def proven_rankings(ranks: pd.DataFrame) -> list[dict[str, Any]]:
    """The shipped proven rankings (``wordle-lab optimal --rank K``) of the run's built-in
    lexicons and modes, one dict each: the top ``k`` with their exact totals, the k-th,
    how every other opener was proven worse, and how long the proof took.
    """
    from wordle_core.game.lexicon import BUILTINS, load_lexicon
    from wordle_core.tables.exact import shipped_rank

    out = []
    for lex, mode in sorted(set(zip(ranks["lexicon"], ranks["mode"], strict=True)),
                            key=lambda k: group_order((k[0], "", k[1]))):
        lexicon = load_lexicon(lex) if lex in BUILTINS else None
        got = shipped_rank(lexicon, mode) if lexicon is not None else None
        if got is None or lexicon is None:
            continue
        proofs: dict[str, int] = {}
        for r in got.records:
            if r["rank"] is None:
                proofs[r["proof"]] = proofs.get(r["proof"], 0) + 1
        about = got.about
        out.append({"lexicon": lex, "mode": mode, "answers": len(lexicon.answers),
                    "k": int(about["wordle_lab.k"]),
                    "kth": int(about["wordle_lab.kth_total"]), "openers": len(got.records),
                    "top": [[r["opener"], int(r["total"])] for r in got.top],
                    "worse_exact": proofs.get("exact", 0), "worse_bound": proofs.get("bound", 0),
                    "no_win": proofs.get("no-win", 0),
                    "cpu_seconds": float(about["wordle_lab.cpu_seconds"]),
                    "seconds": float(about["wordle_lab.seconds"]),
                    "collected_at": about.get("wordle_lab.collected_at", ""),
                    "computed_by": about.get("wordle_lab.computed_by", "")})
    return out


def proven_table(proven: list[dict[str, Any]]) -> pd.DataFrame:
    """``proven_ranking.csv``: the proven top k of each (lexicon, mode), one row per opener."""
    rows = [{"lexicon": p["lexicon"], "mode": p["mode"], "rank": i, "opener": w, "total": t,
             "mean": round(t / p["answers"], 6)}
            for p in proven for i, (w, t) in enumerate(p["top"], 1)]
    return pd.DataFrame(rows, columns=["lexicon", "mode", "rank", "opener", "total", "mean"])


def build_report(input_dir: AnyPath, output_dir: AnyPath, *,
                 title: str | None = None) -> list[Location]:
    """Read every table under ``input_dir``, write the report files into ``output_dir``."""
    from pipelines.report_html import render_html, report_data

    src = location(input_dir)
    if not src.is_dir():
        raise ReportError(f"report input {str(src)!r} is not a directory")
    summaries = read_frame(src, "opener_summaries")
    scores = read_frame(src, "opener_scores")
    verdicts = with_shipped_verdicts(read_frame(src, "hard_verdicts"))
    exact = read_frame(src, "hard_exact")
    if summaries is None and scores is None and verdicts is None and exact is None:
        raise ReportError("no Avro tables (opener_summaries, opener_scores, hard_verdicts, "
                          f"hard_exact) under {str(src)!r}")
    present = [t for t in ("opener_summaries", "opener_scores", "hard_verdicts", "hard_exact",
                           "optimal") if t in tables_in(src)]
    check_one_generation(src, present)
    made_from = sorted({read_manifest(table_dir(src, t), t).generation for t in present})
    files: dict[str, bytes] = {}
    csv = lambda df: df.to_csv(index=False, float_format="%.6f").encode()
    ranks = None
    try:
        counted = _with_exact(verdicts, exact)
        summary = hard_summary(counted) if counted is not None else None
        if summaries is not None and len(summaries):
            ranks = rankings(summaries, scores)
            files["rankings.csv"] = csv(ranks)
            files["worst_games.csv"] = csv(worst_games(summaries))
            pngs = plots(summaries, ranks)
            files.update(pngs)
            title = title or str(src.resolve())  # the run names its output, not its staging area
            proven = proven_rankings(ranks)
            data = report_data(ranks, summaries, verdicts, summary, exact_values(ranks, src), title,
                               proven)
            files["index.html"] = render_html(data, pngs, title)
            if proven:
                files["proven_ranking.csv"] = csv(proven_table(proven))
        if scores is not None and len(scores):
            files["opener_scores.csv"] = csv(score_table(scores))
        files["best_worst.csv"] = csv(best_worst(ranks, scores))
        if verdicts is not None and len(verdicts):
            files["hard_mode.csv"] = csv(hard_table(verdicts))
        if summary is not None:
            files["hard_summary.csv"] = csv(summary)
    except KeyError as exc:
        raise ReportError(f"tables under {str(src)!r} lack column {exc}: not wordle-lab output?") from None
    return _publish(location(output_dir), files, "+".join(made_from) or "manual")


def _publish(out: Location, files: dict[str, bytes], generation: str = "manual") -> list[Location]:
    """Write the report's files, then its ``_manifest.json`` (last; removed first), so
    ``rank --report`` reads only a whole report whose files are the ones written here:
    locally through a temporary directory renamed into place; in an object store each
    object is whole once written, and none is written before all of them are computed."""
    entries = [file_entry(n, d, 0) for n, d in files.items()]
    text = manifest_of("report", entries, generation).to_json().encode()
    if isinstance(out, UrlPath):
        try:
            (out / MANIFEST).unlink(missing_ok=True)
            for name in sorted(files):
                write_whole(out / name, files[name])
            write_whole(out / MANIFEST, text)
            _rerecord(out, generation, text)
        except OSError as exc:
            raise ReportError(f"cannot write the report into {str(out)!r}: {exc}") from None
        return [out / name for name in sorted(files)]
    try:
        out.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".report-", dir=out))
    except OSError as exc:
        if exc.errno in MACHINE_ERRNOS:
            raise
        raise ReportError(f"report output {str(out)!r} is not writable: {exc.strerror or exc}") from None
    try:
        for name, data in files.items():
            (tmp / name).write_bytes(data)
        (out / MANIFEST).unlink(missing_ok=True)
        written: list[Location] = []
        for name in sorted(files):
            os.replace(tmp / name, out / name)
            written.append(out / name)
        (tmp / MANIFEST).write_bytes(text)
        os.replace(tmp / MANIFEST, out / MANIFEST)
        _rerecord(out, generation, text)
        return written
    except OSError as exc:
        if exc.errno in MACHINE_ERRNOS:
            raise  # a full disk is a failure (exit 1), not a usage error
        raise ReportError(f"cannot write the report into {str(out)!r}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _rerecord(out: Location, generation: str, manifest: bytes) -> None:
    """A report rebuilt in place (``report --input OUT`` into ``OUT/report``) replaces the one
    ``OUT/_generation.json`` recorded: record the new one, so readers accept it."""
    import hashlib

    from wordle_core.tables.avro import TableError, read_generation_record

    gpath = out.parent / GENERATION
    try:
        record = read_generation_record(gpath)
    except TableError:
        return  # none, or a damaged one (refused by readers; never sealed again here)
    if out.name not in record["entries"]:
        return
    record["entries"][out.name] = generation
    record.setdefault("manifests", {})[out.name] = hashlib.sha256(manifest).hexdigest()
    write_whole(gpath, sealed_record(record))


def top_table(
    rankings_csv: AnyPath, by: str = "mean", top: int = 10, strategy: str | None = None,
    mode: str | None = None, lexicon: str | None = None,
) -> tuple[pd.DataFrame, tuple[str, str, str]]:
    """The top ``top`` rows of ``rankings.csv`` by a measure, for one (lexicon, strategy, mode)."""
    if by not in MEASURES:
        raise ReportError(f"--by must be one of {', '.join(MEASURES)}")
    p = location(rankings_csv)
    if p.is_dir():
        p = p / "rankings.csv"
    if not p.is_file():
        if (p.parent / "opener_scores.csv").is_file():
            raise ReportError(f"{str(p.parent)!r} has first-guess scores only (opener_scores.csv): "
                              "the ranking needs played games; run `wordle-lab pipeline games` "
                              "into the same --output, then `wordle-lab report` (or `wordle-lab run`)")
        raise ReportError(f"{str(p)!r} does not exist: run `wordle-lab report` "
                          "(or `wordle-lab run`) first")
    _verify_report(p)
    try:
        df = pd.read_csv(io.BytesIO(p.read_bytes()))
    except (OSError, ValueError, pd.errors.ParserError) as exc:
        raise ReportError(f"cannot read {str(p)!r}: {str(exc).splitlines()[0]}") from None
    need = {*GROUP, "opener", f"rank_{by}"}
    if not need <= set(df.columns):
        raise ReportError(f"{str(p)!r} is not a wordle-lab rankings.csv")
    for col, val in (("lexicon", lexicon), ("strategy", strategy), ("mode", mode)):
        if val is not None:
            if val not in set(df[col]):
                raise ReportError(f"no {col} {val!r} in {str(p)!r} (has: {', '.join(sorted(set(df[col])))})")
            df = df[df[col] == val]
    key = tuple(df.sort_values(GROUP).iloc[0][GROUP]) if len(df) else ("", "", "")
    if len(df) == 0:
        raise ReportError(f"{str(p)!r} has no rows")
    if mode is None:  # default: normal mode of the chosen strategy where it exists
        normal = df[(df["lexicon"] == key[0]) & (df["strategy"] == key[1]) & (df["mode"] == "normal")]
        if len(normal):
            key = (key[0], key[1], "normal")
    g = df[(df["lexicon"] == key[0]) & (df["strategy"] == key[1]) & (df["mode"] == key[2])]
    g = g.sort_values([f"rank_{by}", "rank_mean", "opener"]).head(top)
    return g, key


def _verify_report(p: Location) -> None:
    """``p`` must be listed, with its sha256, in its report directory's verified manifest."""
    d = p.parent
    if not (d / MANIFEST).is_file():
        raise ReportError(f"{str(d)!r} has no {MANIFEST}: not a report wordle-lab wrote (or one "
                          "written before reports had manifests); build it again with "
                          "`wordle-lab report`")
    man = verify_dir(d)
    if man.table != "report" or p.name not in {f.name for f in man.files}:
        raise ReportError(f"{str(p)!r} is not listed in the report's {MANIFEST}; build the report "
                          "again with `wordle-lab report`")


def format_top(g: pd.DataFrame, key: tuple[str, str, str], by: str) -> str:
    lines = [f"{key[0]} · {key[1]} · {key[2]} mode — top {len(g)} by {by}",
             f"{'rank':>4}  {'opener':<8} {'mean':>7} {'win≤3%':>7} {'win≤6%':>7} {'max':>4} {'lost':>5}"]
    for _, r in g.iterrows():
        lines.append(f"{int(r[f'rank_{by}']):>4}  {r['opener']:<8} {r['mean_guesses']:>7.4f} "
                     f"{r['win3_pct']:>7.2f} {r['win6_pct']:>7.2f} {int(r['max_guesses']):>4} "
                     f"{int(r['failures']):>5}")
    return "\n".join(lines)


def run(argv: Sequence[str] | None = None) -> int:
    """Run the report job with command-line ``argv`` (default ``sys.argv[1:]``): the
    tables under ``--input`` -> the report under ``--output`` (default INPUT/report);
    prints where the page is. The exit code."""
    p = OneLineParser(prog="wordle-lab report",
                      description="CSV rankings, PNG plots and one HTML page from the pipelines' "
                                  "Avro tables.")
    p.add_argument("--input", required=True, metavar="DIR", help="output directory of the pipelines")
    p.add_argument("--output", metavar="DIR", help="where to write the report (default INPUT/report)")
    ns = p.parse_args(list(sys.argv[1:] if argv is None else argv))
    out = location(ns.output) if ns.output else location(ns.input) / "report"
    files = build_report(ns.input, out)
    page = out.resolve() / "index.html"
    where = page if page.exists() else out.resolve()
    print(f"report: {where} ({len(files)} files: {', '.join(f.name for f in files)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(one_line_errors(lambda: run(sys.argv[1:])))
