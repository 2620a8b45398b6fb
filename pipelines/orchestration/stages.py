"""How a pipeline's stage runs: validate, select openers, open the generation, resume, run.

Each pipeline module (:mod:`pipelines.scores`, :mod:`~pipelines.games`,
:mod:`~pipelines.hard`, :mod:`~pipelines.trees`) holds its named composite and hands
it here as a :data:`Composite`: a function of the lexicon, the opener rows and the
stage's options (matrix path, progress directory, ``resume=``) returning its label
and the transform. :func:`run_scores` / :func:`run_play` cut the stage's shards, verify
what ``--resume`` may reuse, and run ``pipeline | label >> composite`` through
:func:`pipelines.orchestration.runner.execute`; the composite is built once, with all it
needs, and never changed afterwards.

Everything the user can get wrong (lexicon, strategy names, opener words, output
directory) is checked here, in the driver, before a worker starts, so mistakes are
one line and exit code 2 instead of a worker traceback.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from wordle_core.errors import WordleError
from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.search.openers import top_openers
from wordle_core.strategies import get_strategy

from .. import transforms
from ..config import ConfigError, JobConfig, OpenerSelection
from ..options import check_beam_args
from . import generation
from .generation import Generation, config_hash
from .runner import JobProgress, RunResult, Stage, as_failure, ensure_output, execute, is_dry
from .shards import Resume, ShardStore, cut, verified_reuse
from .warm import WARM_MIN, cache_is_cold, compile_first

PLAY_TABLES = ("opener_summaries", "games", "trees", "hard_verdicts", "hard_exact")

Composite = Callable[..., tuple[str, Any]]
"""A pipeline's named composite, as the stage builds it: ``composite(spec, rows, **options)
-> (label, transform)``; ``options`` are the stage's (``matrix_path``, ``progress_dir``,
``resume``, and for play stages :func:`play_options`)."""


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


# Rough seconds per work item on one core, for the ETA before a stage has measured itself.
SCORE_WEIGHT = 0.0004  # per opener scored
TREE_WEIGHT = {"default": 0.17, "entropy": 0.04, "minimax": 0.04}  # per tree (normal mode)
OTHER_TREE_WEIGHT = 0.08


def _common(cfg: JobConfig, ns: Any) -> dict[str, Any]:
    return {"shards": cfg.shards, "dask_workers": getattr(ns, "dask_workers", None)}


def open_generation(cfg: JobConfig, ns: Any, beam_args: list[str], what: str) -> Generation:
    """The run's generation in ``cfg.output`` (the resumed one with ``--resume``)."""
    check_beam_args(beam_args)  # a bad flag is refused before anything exists on disk
    lex = lexicon_of(cfg)
    chash = config_hash(cfg, what, transforms.PLAY_ORDER)
    if is_dry(beam_args):  # nothing is written: no staging area either
        return Generation(cfg.output, generation.DRY_RUN, chash, lex.fingerprint)
    out = ensure_output(cfg.output) if "://" not in cfg.output else cfg.output
    return generation.begin(out, chash, lex.fingerprint, resume=bool(getattr(ns, "resume", False)),
                            say=_say)


def _say(msg: str) -> None:
    import sys

    sys.stderr.write(f"  {msg}\n")
    sys.stderr.flush()


def score_work(lex: Lexicon, rows: list[int], block: int = 512) -> list[list[list[int]]]:
    """Opener rows -> blocks of ``block`` rows -> shards of blocks."""
    blocks = [rows[i : i + block] for i in range(0, len(rows), block)]
    return cut(blocks)


def score_stage(cfg: JobConfig, lex: Lexicon, gen: Generation) -> tuple[list, ShardStore, Stage]:
    rows = select_rows(lex, cfg.score_openers)
    work = score_work(lex, rows)
    store = ShardStore(gen.shards_dir, "opener_scores", gen.identity)
    done = store.done() if gen.resumed else set()
    reused = sum(len(b) for i in done if i < len(work) for b in work[i])
    return work, store, Stage("opener scores", len(rows), SCORE_WEIGHT, 0, reused)


def run_scores(cfg: JobConfig, composite: Composite, beam_args: list[str], ns: Any = None, *,
               gen: Generation | None = None, progress: JobProgress | None = None) -> RunResult:
    """``opener_scores`` for ``cfg.score_openers`` (default all), vectorised in blocks, resumable:
    ``pipeline | label >> composite(spec, rows, ...)`` (:func:`pipelines.scores.composite`)."""
    lex = lexicon_of(cfg)
    own = gen is None
    if gen is None:
        gen = open_generation(cfg, ns, beam_args, "scores")
    work, store, stage = score_stage(cfg, lex, gen)
    spec = transforms.LexiconSpec.of(lex)
    mpath = getattr(ns, "matrix_path", None)
    reuse = verified_reuse(store, work, store.done()) if gen.resumed else set()
    if progress is None:
        progress = JobProgress([stage], enabled=getattr(ns, "progress", True))
    else:
        progress.add(stage)

    rows = select_rows(lex, cfg.score_openers)

    def build(p, pdir, emit=True):  # the named composite, its shards kept in the generation
        label, transform = composite(spec, rows, matrix_path=mpath, progress_dir=pdir,
                                     resume=Resume(store, frozenset(reuse), emit))
        return p | label >> transform

    with _guard(gen, own):
        res = execute(build, gen, ["opener_scores"], beam_args, progress=progress, stage=stage.name,
                      **_common(cfg, ns))
        res.reused = (len(reuse), len(work))
        if own and not res.dry_run:
            res.files = gen.commit(["opener_scores"])
    return res


def play_stage(cfg: JobConfig, lex: Lexicon, rows: list[int], tables: list[str],
               gen: Generation) -> tuple[list, ShardStore, Stage]:
    elements = transforms.play_elements(rows, list(cfg.modes), tables, lex.guesses)
    work = cut(elements)
    store = ShardStore(gen.shards_dir, "play", gen.identity)
    done = store.done() if gen.resumed else set()
    trees = bool(set(tables) & transforms.TREE_TABLES)
    weight = sum(TREE_WEIGHT.get(s, OTHER_TREE_WEIGHT) for s in cfg.strategies) if trees else 0.0
    if transforms.VERDICT_TABLES & set(tables) and cfg.exact_node_budget is not None:
        weight += 0.4
    reused = sum(len(work[i]) for i in done if i < len(work))
    games = len(cfg.strategies) * len(lex.answers) if trees else 0
    return work, store, Stage("play", len(elements), weight, games, reused)


def run_play(cfg: JobConfig, tables: list[str], composite: Composite, beam_args: list[str],
             ns: Any = None, rows: list[int] | None = None, *, gen: Generation | None = None,
             progress: JobProgress | None = None) -> RunResult:
    """Play every answer from the selected openers: summaries / games / trees / verdicts,
    ``pipeline | label >> composite(spec, rows, ...)`` (e.g. :func:`pipelines.games.composite`)."""
    bad = [t for t in tables if t not in PLAY_TABLES]
    if bad or not tables:
        raise ConfigError(f"nothing to play: tables {tables}")
    lex = lexicon_of(cfg)
    check_strategies(cfg.strategies)
    if rows is None:
        rows = select_rows(lex, cfg.openers, cfg.output)
    own = gen is None
    if gen is None:
        gen = open_generation(cfg, ns, beam_args, "play:" + ",".join(tables))
    spec, mpath = transforms.LexiconSpec.of(lex), getattr(ns, "matrix_path", None)
    work, store, stage = play_stage(cfg, lex, rows, tables, gen)
    reuse = verified_reuse(store, work, store.done()) if gen.resumed else set()
    if progress is None:
        progress = JobProgress([stage], enabled=getattr(ns, "progress", True))
    else:
        progress.add(stage)

    kept = Resume(store, frozenset(reuse))
    options = play_options(cfg, tables, mpath)

    def play(pdir: str | None, resume: Resume) -> tuple[str, Any]:
        return composite(spec, rows, progress_dir=pdir, resume=resume, **options)

    def build(p, pdir, emit=True):  # the named composite, its shards kept in the generation
        label, transform = play(pdir, Resume(store, kept.reuse, emit))
        return p | label >> transform

    def read_back():  # (execute writes the tables from the kept shards, by new workers, on local runs)
        return play(None, kept.read_back(len(work)))[1]

    # a big stage, or any on a cold kernel cache, compiles the kernels once, in a child
    # process, before its workers start; on a cold cache that is a step shown on its own
    first = play(None, Resume())[1].fn
    cold = cache_is_cold(first)
    warm = None
    if stage.items - stage.done >= WARM_MIN or cold:
        show = progress.note if cold else None
        warm = lambda: compile_first(first, show=show)
    with _guard(gen, own):
        res = execute(build, gen, tables, beam_args, progress=progress, stage=stage.name,
                      read_back=read_back, warm=warm, **_common(cfg, ns))
        res.reused = (len(reuse), len(work))
        if own and not res.dry_run:
            res.files = gen.commit(list(tables))
    return res


@contextlib.contextmanager
def _guard(gen: Generation, own: bool):
    """A standalone stage that fails leaves its finished shards for ``--resume``."""
    try:
        yield
    except (WordleError, KeyboardInterrupt):
        if own:
            gen.release()
        raise
    except Exception as exc:  # e.g. disk full while publishing: one line, the trace in a log
        if own:
            gen.release()
        raise as_failure(exc, gen, "publishing failed") from exc


def play_options(cfg: JobConfig, tables: list[str], matrix_path: str | None) -> dict[str, Any]:
    """The options every play composite takes from the config (besides its strategies and
    modes): worst games kept, the exact search's node budget, the matrix, and what
    ``exact_implied_by`` proves feasible (verdict tables only)."""
    return {"worst_games": cfg.worst_games, "exact_node_budget": cfg.exact_node_budget,
            "matrix_path": matrix_path,
            "exact_implied": implied_feasible(cfg) if transforms.VERDICT_TABLES & set(tables) else None}


def play_composite(cfg: JobConfig, tables: list[str]) -> Composite:
    """:class:`~pipelines.transforms.PlayOpeners` writing ``tables`` in one pass over the
    openers (the main job's play stage; each pipeline module has its own composite)."""

    def composite(spec: transforms.LexiconSpec, rows: list[int], **options: Any) -> tuple[str, Any]:
        return "PlayOpeners", transforms.PlayOpeners(spec, rows, list(cfg.strategies), list(cfg.modes),
                                                     list(tables), **options)
    return composite


def implied_feasible(cfg: JobConfig) -> tuple[str, tuple[str, ...]] | None:
    """(source lexicon, openers) that ``exact_implied_by`` proves feasible, or None.

    Sound because the source has the same guesses and a superset of the answers: its
    winning hard-mode strategy from an opener, restricted to our answers, wins every one
    of our games (same feedback, same legal guesses). Checked here, in the driver.
    """
    if not cfg.exact_implied_by:
        return None
    from wordle_core.tables.verdicts import shipped_verdicts

    lex, sup = lexicon_of(cfg), load_lexicon(cfg.exact_implied_by)
    if sup.guesses != lex.guesses or not set(lex.answers) <= set(sup.answers) \
            or sup.max_guesses != lex.max_guesses or sup.name == lex.name:
        raise ConfigError(f"exact_implied_by: {sup.name} must be another lexicon with the same "
                          f"guesses, guess limit and a superset of {lex.name}'s answers")
    table = shipped_verdicts(sup)
    if not table:
        raise ConfigError(f"exact_implied_by: no shipped hard-mode verdicts for {sup.name} "
                          "(wordle-lab pipeline hard --ship)")
    return sup.name, tuple(sorted(w for w, v in table.items() if v == "feasible"))


def tree_cpu(counters: dict[str, int]) -> dict[tuple[str, str], tuple[float, int]]:
    """``{(strategy, mode): (CPU-ms per tree, trees)}`` of the trees a run built (counted
    by :class:`~pipelines.transforms.PlayOpenerFn`; shards reused by ``--resume`` are
    not in it), by strategy, normal mode first."""
    out: dict[tuple[str, str], tuple[float, int]] = {}
    for name, n in counters.items():
        prefix, _, rest = name.partition(":")
        if prefix != transforms.TREE_COUNT or n <= 0:
            continue
        strategy, _, mode = rest.partition(":")
        us = counters.get(transforms.tree_cpu_counter(strategy, mode), 0)
        out[(strategy, mode)] = (us / 1000 / n, n)
    return dict(sorted(out.items(), key=lambda kv: (kv[0][0], kv[0][1] != "normal")))


def describe(res: RunResult, limit: int = 6) -> str:
    """The stage's one-line result; ``limit``: the game's guess limit, for the lost games."""
    if res.dry_run:
        return (f"{', '.join(res.tables)}: {res.runner} job built in {res.seconds:.1f} s "
                "(dry run: not submitted)")
    c = res.counters
    parts = [f"{', '.join(res.tables)}: {len(res.files)} file(s) in {res.seconds:.1f} s on {res.runner}"]
    reused, n = getattr(res, "reused", (0, 0))
    if reused:
        parts.append(f"reused {reused} of {n} finished shards")
    if c.get("games_played"):
        parts.append(f"{c.get('trees_built', 0):,} trees, {c['games_played']:,} games "
                     f"({c['games_played'] / max(res.seconds, 1e-9):,.0f}/s), "
                     f"{c.get('games_failed', 0):,} lost (not solved in {limit})")
        cpu = tree_cpu(c)
        if cpu:
            parts.append("CPU per tree: " + ", ".join(
                f"{s} {m} {ms:,.1f} ms" for (s, m), (ms, _) in cpu.items()))
    elif c.get("openers_done"):  # exact verdicts only: no games
        parts.append(f"{c['openers_done']:,} openers")
    if c.get("openers_scored"):
        parts.append(f"{c['openers_scored']:,} openers scored")
    return "; ".join(parts)
