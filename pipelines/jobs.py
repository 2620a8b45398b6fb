"""The pipelines as functions of a :class:`JobConfig`: validate, select openers, run.

Everything the user can get wrong (lexicon, strategy names, opener words, output
directory) is checked here, in the driver, before a worker starts, so mistakes are
one line and exit code 2 instead of a worker traceback.
"""

from __future__ import annotations

import contextlib
from typing import Any

from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.search.openers import top_openers
from wordle_core.strategies import get_strategy

from . import transforms
from .config import ConfigError, JobConfig, OpenerSelection
from .runner import RunResult, execute

PLAY_TABLES = ("opener_summaries", "games", "trees", "hard_verdicts")


def lexicon_of(cfg: JobConfig) -> Lexicon:
    return load_lexicon(cfg.lexicon)


def check_strategies(names: tuple[str, ...]) -> None:
    for n in names:
        get_strategy(n)  # raises UnknownStrategyError with the list of names


def select_rows(lex: Lexicon, sel: OpenerSelection, output: str | None = None) -> list[int]:
    """Guess rows of an opener selection; top-N reads ``opener_scores`` Avro when present."""
    if sel.kind == "all":
        return list(range(len(lex.guesses)))
    extras = [lex.guess_id(w) for w in sel.words]  # unknown word -> clear error
    if sel.kind == "list":
        return sorted(set(extras))
    scores = None
    if output and sel.top:
        from wordle_core.tables.load import TableError, load_opener_scores

        with contextlib.suppress(TableError):  # no complete table there yet: computed instead
            scores = load_opener_scores(lex, output)
    top = [lex.guess_index[w] for w in top_openers(lex, sel.top, sel.by, scores)] if sel.top else []
    return sorted(set(top) | set(extras))


def _common(cfg: JobConfig, ns: Any) -> dict[str, Any]:
    return {
        "shards": cfg.shards,
        "progress": getattr(ns, "progress", True),
        "dask_workers": getattr(ns, "dask_workers", None),
    }


def run_scores(cfg: JobConfig, beam_args: list[str], ns: Any = None) -> RunResult:
    """``opener_scores`` for ``cfg.score_openers`` (default all), vectorised in blocks."""
    lex = lexicon_of(cfg)
    rows = select_rows(lex, cfg.score_openers)
    spec = transforms.LexiconSpec.of(lex)
    mpath = getattr(ns, "matrix_path", None)

    def build(p, pdir):
        return p | "ScoreOpeners" >> transforms.ScoreOpeners(spec, rows, matrix_path=mpath, progress_dir=pdir)

    return execute(build, cfg.output, ["opener_scores"], beam_args, total=len(rows),
                   desc="opener scores", **_common(cfg, ns))


def run_play(cfg: JobConfig, tables: list[str], beam_args: list[str], ns: Any = None,
             rows: list[int] | None = None) -> RunResult:
    """Play every answer from the selected openers: summaries / games / trees / verdicts."""
    bad = [t for t in tables if t not in PLAY_TABLES]
    if bad or not tables:
        raise ConfigError(f"nothing to play: tables {tables}")
    lex = lexicon_of(cfg)
    check_strategies(cfg.strategies)
    if rows is None:
        rows = select_rows(lex, cfg.openers, cfg.output)
    label, play = play_transform(transforms.LexiconSpec.of(lex), rows, cfg, tables,
                                 getattr(ns, "matrix_path", None))
    n_items = len(play.elements)

    def build(p, pdir):
        play.fn.progress_dir = pdir
        return p | label >> play

    return execute(build, cfg.output, tables, beam_args, total=n_items,
                   desc=f"{len(rows)} openers x {len(cfg.strategies)} strategies", **_common(cfg, ns))


def play_transform(spec: transforms.LexiconSpec, rows: list[int], cfg: JobConfig, tables: list[str],
                   matrix_path: str | None) -> tuple[str, transforms.PlayOpeners]:
    """The named composite transform that writes ``tables``, with its label.

    ``OpenerSummaries`` (+ games), ``HardVerdicts`` or ``DecisionTrees``; the main job,
    which writes several kinds in one pass over the openers, uses ``PlayOpeners``.
    """
    s, m = list(cfg.strategies), list(cfg.modes)
    kw: dict[str, Any] = {"worst_games": cfg.worst_games, "exact_node_budget": cfg.exact_node_budget,
                          "matrix_path": matrix_path}
    if "opener_summaries" in tables and set(tables) <= {"opener_summaries", "games"}:
        return "OpenerSummaries", transforms.OpenerSummaries(spec, rows, s, m, games="games" in tables, **kw)
    if list(tables) == ["hard_verdicts"]:
        return "HardVerdicts", transforms.HardVerdicts(spec, rows, s, **kw)
    if list(tables) == ["trees"]:
        return "DecisionTrees", transforms.DecisionTrees(spec, rows, s, m, **kw)
    return "PlayOpeners", transforms.PlayOpeners(spec, rows, s, m, tables, **kw)


def describe(res: RunResult) -> str:
    if res.dry_run:
        return (f"{', '.join(res.tables)}: {res.runner} job built in {res.seconds:.1f} s "
                "(dry run: not submitted)")
    c = res.counters
    parts = [f"{', '.join(res.tables)}: {len(res.files)} file(s) in {res.seconds:.1f} s on {res.runner}"]
    if c.get("games_played"):
        parts.append(f"{c.get('trees_built', 0):,} trees, {c['games_played']:,} games "
                     f"({c['games_played'] / max(res.seconds, 1e-9):,.0f}/s), "
                     f"{c.get('games_failed', 0):,} over the limit")
    if c.get("openers_scored"):
        parts.append(f"{c['openers_scored']:,} openers scored")
    return "; ".join(parts)
