"""The report job: Avro tables -> pandas -> CSV rankings and PNG plots.

Reads the tables with fastavro (Beam 2.77's ``ReadFromAvro`` crashes on Dask, and the
report is small enough for one process), aggregates with pandas and writes:

* ``rankings.csv`` — every played opener per (lexicon, strategy, mode): games, mean
  guesses, win-in-3 %, win-in-6 %, max, failures, its first-guess scores, and its
  rank per measure (1 = best; ties share the best rank) — the tables of seeds 001/003;
* ``opener_scores.csv`` — every scored opener with its rank per first-guess score;
* ``best_worst.csv`` — the best and worst 10 openers per measure, strategy and mode;
* ``hard_summary.csv`` — per lexicon: how many openers can / cannot guarantee a
  hard-mode win (exact verdict, or a strategy that won every game), and which;
* ``hard_mode.csv`` — per opener x strategy: does it win every hard-mode game (seed
  000's question), losses, worst game, whether any strategy in the run wins them all
  (a constructive proof of feasibility), and the exact verdict;
* ``worst_games.csv`` — the longest games with full paths;
* ``lengths_top.png``, ``mean_vs_eliminated.png``, ``ranking.png``.

Everything is computed in memory first and written to a temporary directory, then
renamed into place, so a bad input leaves no partial report behind.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from wordle_core.errors import WordleError
from wordle_core.tables.load import read_avro_records, table_files

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
GROUP = ["lexicon", "strategy", "mode"]


class ReportError(WordleError):
    """Input tables the report cannot use."""


def read_frame(input_dir: str | Path, table: str) -> pd.DataFrame | None:
    files = table_files(input_dir, table)
    if not files:
        return None
    return pd.DataFrame(read_avro_records(files))


def _rank(df: pd.DataFrame, col: str, higher: bool, by: list[str]) -> pd.Series:
    return df.groupby(by)[col].rank(method="min", ascending=not higher).astype(int)


def rankings(summaries: pd.DataFrame, scores: pd.DataFrame | None) -> pd.DataFrame:
    df = summaries.copy()
    df["win3_pct"] = (df["win_in_3_rate"] * 100).round(4)
    df["win6_pct"] = (df["win_in_6_rate"] * 100).round(4)
    df["mean_guesses"] = df["mean_guesses"].round(6)
    cols = [*GROUP, "opener", "games", "total_guesses", "mean_guesses", "win3_pct", "win6_pct",
            "max_guesses", "failures"]
    df = df[cols]
    if scores is not None and len(scores):
        sc = scores[["lexicon", "opener", "avg_eliminated", "entropy_bits"]].copy()
        sc["avg_eliminated"] = sc["avg_eliminated"].round(6)
        sc["entropy_bits"] = sc["entropy_bits"].round(6)
        df = df.merge(sc, on=["lexicon", "opener"], how="left")
    for name, (col, higher) in MEASURES.items():
        df[f"rank_{name}"] = _rank(df, col, higher, GROUP)
    if "avg_eliminated" in df:
        df["rank_avg_eliminated"] = _rank(df, "avg_eliminated", True, GROUP)
    return df.sort_values([*GROUP, "rank_mean", "opener"]).reset_index(drop=True)


def score_table(scores: pd.DataFrame) -> pd.DataFrame:
    df = scores.drop(columns=["mode", "strategy"]).copy()
    for name, (col, higher) in SCORE_MEASURES.items():
        df[f"rank_{name}"] = _rank(df, col, higher, ["lexicon"])
    return df.sort_values(["lexicon", "rank_avg_eliminated", "opener"]).reset_index(drop=True)


def best_worst(ranks: pd.DataFrame | None, scores: pd.DataFrame | None, n: int = 10) -> pd.DataFrame:
    rows = []

    def take(group: pd.DataFrame, key: tuple, measure: str, col: str, higher: bool) -> None:
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


def _path(game: dict) -> str:
    return " ".join(f"{g}:{f}" for g, f in zip(game["guesses"], game["feedback"], strict=True))


def hard_table(verdicts: pd.DataFrame) -> pd.DataFrame:
    df = verdicts.copy()
    df["worst_answer"] = df["worst_game"].map(lambda g: g["answer"])
    df["worst_path"] = df["worst_game"].map(_path)
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


def worst_games(summaries: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for _, r in summaries.iterrows():
        for g in r["worst_games"]:
            rows.append({"lexicon": r["lexicon"], "strategy": r["strategy"], "mode": r["mode"],
                         "opener": r["opener"], "answer": g["answer"], "n_guesses": g["n_guesses"],
                         "solved": g["solved"], "path": _path(g)})
    df = pd.DataFrame(rows, columns=[*GROUP, "opener", "answer", "n_guesses", "solved", "path"])
    return df.sort_values([*GROUP, "n_guesses", "opener", "answer"],
                          ascending=[True, True, True, False, True, True]).reset_index(drop=True)


def _png(fig) -> bytes:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def plots(summaries: pd.DataFrame, ranks: pd.DataFrame, top: int = 5) -> dict[str, bytes]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = sorted(ranks.groupby(GROUP).groups)
    out: dict[str, bytes] = {}
    # 1. game-length histograms of the top openers per (strategy, mode)
    fig, axes = plt.subplots(len(groups), 1, figsize=(8, 2.8 * len(groups)), squeeze=False)
    for ax, key in zip(axes[:, 0], groups, strict=True):
        g = ranks.set_index(GROUP).loc[[key]].sort_values(["rank_mean", "opener"]).head(top)
        sub = summaries.set_index([*GROUP, "opener"])
        width = 0.8 / max(len(g), 1)
        for i, opener in enumerate(g["opener"]):
            hist = sub.loc[(*key, opener), "histogram"]
            xs = np.arange(1, len(hist) + 1) + (i - len(g) / 2) * width
            ax.bar(xs, hist, width=width, label=f"{opener} ({g.iloc[i]['mean_guesses']:.3f})")
        ax.set_title(f"{key[0]} · {key[1]} · {key[2]}: game lengths of the top {len(g)} openers")
        ax.set_xlabel("guesses")
        ax.set_ylabel("games")
        ax.legend(fontsize=7)
    fig.tight_layout()
    out["lengths_top.png"] = _png(fig)
    # 2. mean guesses against avg eliminated
    if "avg_eliminated" in ranks:
        fig, ax = plt.subplots(figsize=(7, 5))
        for key in groups:
            g = ranks.set_index(GROUP).loc[[key]]
            ax.scatter(g["avg_eliminated"], g["mean_guesses"], s=10, label=" · ".join(key[1:]))
        ax.set_xlabel("avg eliminated by the opener (seed 002)")
        ax.set_ylabel("mean guesses over all answers")
        ax.set_title("Does a better first-guess score give shorter games?")
        ax.legend(fontsize=7)
        fig.tight_layout()
        out["mean_vs_eliminated.png"] = _png(fig)
    # 3. ranking chart: best 20 by mean guesses per (strategy, mode)
    fig, axes = plt.subplots(1, len(groups), figsize=(3.6 * len(groups), 6), squeeze=False)
    for ax, key in zip(axes[0], groups, strict=True):
        g = ranks.set_index(GROUP).loc[[key]].sort_values(["rank_mean", "opener"]).head(20)
        ax.barh(g["opener"][::-1], g["mean_guesses"][::-1])
        lo = float(g["mean_guesses"].min())
        ax.set_xlim(lo - 0.05, float(g["mean_guesses"].max()) + 0.02)
        ax.set_title(f"{key[1]} · {key[2]}", fontsize=9)
        ax.set_xlabel("mean guesses")
        ax.tick_params(axis="y", labelsize=7)
    fig.tight_layout()
    out["ranking.png"] = _png(fig)
    return out


def build_report(input_dir: str | Path, output_dir: str | Path) -> list[Path]:
    """Read every table under ``input_dir``, write the report files into ``output_dir``."""
    src = Path(input_dir)
    if not src.is_dir():
        raise ReportError(f"report input {str(src)!r} is not a directory")
    summaries = read_frame(src, "opener_summaries")
    scores = read_frame(src, "opener_scores")
    verdicts = read_frame(src, "hard_verdicts")
    if summaries is None and scores is None and verdicts is None:
        raise ReportError("no Avro tables (opener_summaries, opener_scores, hard_verdicts) "
                          f"under {str(src)!r}")
    files: dict[str, bytes] = {}
    csv = lambda df: df.to_csv(index=False, float_format="%.6f").encode()
    ranks = None
    try:
        if summaries is not None and len(summaries):
            ranks = rankings(summaries, scores)
            files["rankings.csv"] = csv(ranks)
            files["worst_games.csv"] = csv(worst_games(summaries))
            files.update(plots(summaries, ranks))
        if scores is not None and len(scores):
            files["opener_scores.csv"] = csv(score_table(scores))
        files["best_worst.csv"] = csv(best_worst(ranks, scores))
        if verdicts is not None and len(verdicts):
            files["hard_mode.csv"] = csv(hard_table(verdicts))
            files["hard_summary.csv"] = csv(hard_summary(verdicts))
    except KeyError as exc:
        raise ReportError(f"tables under {str(src)!r} lack column {exc}: not wordle-lab output?") from None
    return _publish(Path(output_dir), files)


def _publish(out: Path, files: dict[str, bytes]) -> list[Path]:
    try:
        out.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".report-", dir=out))
    except OSError as exc:
        raise ReportError(f"report output {str(out)!r} is not writable: {exc.strerror or exc}") from None
    try:
        for name, data in files.items():
            (tmp / name).write_bytes(data)
        written = []
        for name in sorted(files):
            os.replace(tmp / name, out / name)
            written.append(out / name)
        return written
    except OSError as exc:
        raise ReportError(f"cannot write the report into {str(out)!r}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def top_table(
    rankings_csv: str | Path, by: str = "mean", top: int = 10, strategy: str | None = None,
    mode: str | None = None, lexicon: str | None = None,
) -> tuple[pd.DataFrame, tuple[str, str, str]]:
    """The top ``top`` rows of ``rankings.csv`` by a measure, for one (lexicon, strategy, mode)."""
    if by not in MEASURES:
        raise ReportError(f"--by must be one of {', '.join(MEASURES)}")
    p = Path(rankings_csv)
    if p.is_dir():
        p = p / "rankings.csv"
    try:
        df = pd.read_csv(p)
    except FileNotFoundError:
        raise ReportError(f"{str(p)!r} does not exist: run `wordle-lab report` "
                          "(or `wordle-lab run`) first") from None
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
    return g, key  # type: ignore[return-value]


def format_top(g: pd.DataFrame, key: tuple[str, str, str], by: str) -> str:
    lines = [f"{key[0]} · {key[1]} · {key[2]} mode — top {len(g)} by {by}",
             f"{'rank':>4}  {'opener':<8} {'mean':>7} {'win≤3%':>7} {'win≤6%':>7} {'max':>4} {'fail':>5}"]
    for _, r in g.iterrows():
        lines.append(f"{int(r[f'rank_{by}']):>4}  {r['opener']:<8} {r['mean_guesses']:>7.4f} "
                     f"{r['win3_pct']:>7.2f} {r['win6_pct']:>7.2f} {int(r['max_guesses']):>4} "
                     f"{int(r['failures']):>5}")
    return "\n".join(lines)
