r"""The main job, ``wordle-lab run``: every pipeline of a config as one run, published together.

The story: one command answers the questions a config asks. It scores the selected
openers (:class:`pipelines.scores.ScoreOpeners`), picks the openers to play from those
scores (``top:N``), plays them once for every table asked
(:class:`pipelines.transforms.PlayOpeners`: summaries, games, trees, hard-mode verdicts
in one pass over the openers), builds the report (:mod:`pipelines.report`) and publishes
everything together (:mod:`pipelines.orchestration.generation`): the output holds
either the previous complete result or this one.

Run it (every flag we do not know goes to Beam; ``--help`` lists ours)::

    # DirectRunner (the default: local processes, one per core)
    wordle-lab run --config configs/quick.yaml --output outputs/quick
    python -m pipelines.analysis --config configs/quick.yaml --output outputs/quick
    # Dask: a local dask.distributed cluster, or your own with --dask_client_address
    python -m pipelines.analysis --config configs/default.yaml --dask-workers 2
    # Dataflow (``pip install -e .[gcp]``; the output on storage every worker sees;
    # --dry_run=True builds every job offline and submits none)
    python -m pipelines.analysis --config configs/quick.yaml --output gs://BUCKET/quick \
        --runner=DataflowRunner --project=PROJECT --region=us-central1 \
        --temp_location=gs://BUCKET/tmp --setup_file=$PWD/pyproject.toml
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from wordle_core.errors import one_line_errors
from wordle_core.files import location

from . import scores
from .config import ConfigError, JobConfig
from .options import config_from
from .orchestration import stages
from .orchestration.entry import guarded, parse_job_args


def _say(msg: str) -> None:
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def main_job(cfg: JobConfig, beam_args: list[str], ns: argparse.Namespace) -> int:
    """Scores -> opener selection -> play (one pipeline, one sink) -> report -> publish -> top 10.

    Everything is staged in one generation (:mod:`pipelines.orchestration.generation`) and
    published together at the end, so the output directory holds either the previous
    complete result or this one, never new tables beside an old report.
    """
    from wordle_core.errors import WordleError
    from wordle_core.game.lexicon import load_lexicon

    from .orchestration.generation import DRY_RUN
    from .orchestration.runner import JobProgress, Stage, as_failure
    from .report import build_report, format_top, top_table

    t0 = time.perf_counter()
    lex = load_lexicon(cfg.lexicon)
    stages.check_strategies(cfg.strategies)  # fail before any work
    for sel in (cfg.openers, cfg.score_openers):
        for w in sel.words:
            lex.guess_id(w)
    gen = stages.open_generation(cfg, ns, beam_args, "run")  # (may refuse: before any banner)
    _say(f"wordle-lab run: {cfg.source} -> {cfg.output}")
    if gen.resumed:
        _say(f"  resuming generation {gen.gen}")
    play_tables = [t for t in stages.PLAY_TABLES if t in cfg.outputs]
    if "hard_verdicts" in play_tables and "hard" not in cfg.modes:
        play_tables.remove("hard_verdicts")  # a hard-mode table: the modes asked for have none
        _say(f"  hard_verdicts left out: it records hard-mode games, and the modes are "
             f"{', '.join(cfg.modes)}")
    guess_n = {"all": len(lex.guesses), "list": len(cfg.openers.words),
               "top": cfg.openers.top + len(cfg.openers.words)}[cfg.openers.kind]
    steps = []
    if "opener_scores" in cfg.outputs:
        steps.append(stages.score_stage(cfg, lex, gen)[2])
    if play_tables:
        steps.append(stages.play_stage(cfg, lex, list(range(guess_n)), play_tables, gen)[2])
        steps[-1].done = 0
    if "report" in cfg.outputs:
        steps.append(Stage("report", 1, 3.0))
    steps.append(Stage("publish", 1, 0.5))
    progress = JobProgress(steps, enabled=getattr(ns, "progress", True))
    if play_tables and not beam_runs_remote(beam_args, ns):
        _compile_kernels(cfg, lex, play_tables, ns, progress)
    try:
        entries: list[str] = []
        if "opener_scores" in cfg.outputs:
            res = stages.run_scores(cfg, scores.composite, beam_args, ns, gen=gen, progress=progress)
            entries.append("opener_scores")
            _say("  " + stages.describe(res))
            checkpoint("after opener_scores")
        if play_tables:
            staged = gen.root if "opener_scores" in cfg.outputs else cfg.output
            rows = stages.select_rows(lex, cfg.openers, staged)
            if play_tables == ["hard_exact"]:
                _say(f"  deciding {len(rows)} openers ({cfg.openers.describe()}) in hard mode "
                     "(exact verdicts, no strategy played)")
            else:
                _say(f"  playing {len(rows)} openers ({cfg.openers.describe()}) x "
                     f"{', '.join(cfg.strategies)} x {', '.join(cfg.modes)}")
            res = stages.run_play(cfg, play_tables, stages.play_composite(cfg, play_tables), beam_args,
                                  ns, rows=rows, gen=gen, progress=progress)
            entries.extend(play_tables)
            _say("  " + stages.describe(res, lex.max_guesses))
            checkpoint("after play")
        if gen.gen == DRY_RUN:  # nothing was computed: no report, nothing to publish
            _say("  dry run: every job built, none submitted; no report, nothing published")
            return 0
        if "report" in cfg.outputs:
            with progress.timed("report"):
                files = build_report(gen.root, gen.stage("report"),
                                     title=str(location(cfg.output).resolve()))
            entries.append("report")
            _say(f"  report: {len(files)} files")
            checkpoint("after report")
        with progress.timed("publish"):
            gen.commit(entries, hook=_commit_hook())
    except (WordleError, KeyboardInterrupt):
        gen.release()
        raise
    except Exception as exc:  # the report or the publication failed (e.g. disk full): one line
        gen.release()
        raise as_failure(exc, gen, "run failed") from exc
    except BaseException:
        gen.release()
        raise
    _say("  " + progress.summary())
    total = time.perf_counter() - t0
    print(f"done in {total:.1f} s ({total / 60:.1f} min)")
    report_dir = location(cfg.output) / "report" if "report" in cfg.outputs else None
    if report_dir is not None:
        page = report_dir.resolve() / "index.html"
        print(f"report: {page if page.exists() else report_dir.resolve()}")
        if (report_dir / "rankings.csv").exists():
            g, key = top_table(report_dir, "mean", cfg.top_report, strategy=cfg.strategies[0],
                               mode=cfg.modes[0], lexicon=lex.name)
            print(format_top(g, key, "mean"))
    return 0


def beam_runs_remote(beam_args: list[str], ns: argparse.Namespace) -> bool:
    """Do the workers run elsewhere (their own disks, their own kernel cache)?"""
    from .options import runner_name
    from .orchestration.runner import is_dry, local_dask_address

    if getattr(ns, "dask_workers", None):
        return False
    args = list(beam_args)
    return is_dry(args) or (runner_name(args) != "DirectRunner" and not local_dask_address(args))


def _compile_kernels(cfg: JobConfig, lex, play_tables: list[str], ns: argparse.Namespace,
                     progress) -> None:
    """On a cold kernel cache, compile what the job's stages call, as a step of its own
    before the first stage (so no ETA includes it); a warm cache skips this."""
    from .orchestration.warm import cache_is_cold, compile_first
    from .transforms import LexiconSpec

    options = stages.play_options(cfg, play_tables, getattr(ns, "matrix_path", None))
    _, play = stages.play_composite(cfg, play_tables)(LexiconSpec.of(lex), [], **options)
    if cache_is_cold(play.fn):
        compile_first(play.fn, show=progress.note)


def _die() -> None:
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def checkpoint(step: str) -> None:
    """A stage boundary of ``run``; ``WORDLE_LAB_KILL_AT=<step>`` kills the run there (tests).

    Steps: ``after opener_scores``, ``after play``, ``after report``, then the
    publication's ``committed``, ``published <entry>`` ... and ``generation``.
    """
    import os

    if os.environ.get("WORDLE_LAB_KILL_AT") == step:
        _die()


def _commit_hook():
    import os

    return checkpoint if os.environ.get("WORDLE_LAB_KILL_AT") else None


@guarded
def run(argv: Sequence[str] | None = None) -> int:
    """The main job (``wordle-lab run``) with command-line ``argv``; the exit code."""
    ns, beam_args = parse_job_args("wordle-lab run", argv, play=True,
                                   about="The main job: opener scores, games, hard verdicts, report, "
                                         "top 10.")
    if not ns.config and not ns.openers:
        raise ConfigError("give --config FILE (e.g. configs/default.yaml) or at least --openers")
    cfg = config_from(ns)
    return main_job(cfg, beam_args, ns)


if __name__ == "__main__":
    # through the package module, so workers unpickle the pipelines' classes (not __main__'s)
    from pipelines.analysis import run as run_packaged

    raise SystemExit(one_line_errors(lambda: run_packaged(sys.argv[1:])))
