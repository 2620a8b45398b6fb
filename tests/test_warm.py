"""A big local play stage compiles the engine's kernels once, in a child process, first.

Checked here: the child plays the stage's own work for one opener and exits cleanly; a
child that fails leaves one log line, prints nothing and does not stop the run; the play
stage warms only when it has at least ``WARM_MIN`` items left to play, only on local
runners, and its tables are byte-identical with and without the warm-up.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pipelines.orchestration import shards, stages, warm
from pipelines.transforms import LexiconSpec, PlayOpenerFn
from wordle_core.cli import main

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=multi_processing",
         "--direct_num_workers=2"]
ARGS = ["pipeline", "games", "--lexicon", "mini-nerdle", "--openers", "top:12",
        "--strategies", "entropy,default", "--modes", "normal,hard", "--no-progress"]


def _fn(strategies: list[str]) -> PlayOpenerFn:
    return PlayOpenerFn(LexiconSpec("mini-nerdle"), strategies, ["normal", "hard"],
                        ["opener_summaries", "hard_verdicts"], exact_node_budget=0)


def test_play_one_plays_the_stage_work_for_one_opener():
    fn = _fn(["default", "entropy"])
    played, process = [], fn.process
    fn.process = lambda element: (played.append(element), process(element))[1]
    warm.play_one(fn)
    # both modes were played, one opener, one step per strategy and mode plus the hard-mode
    # verdict (the steps the cold-cache line counts); the worker then keeps the caches of the
    # mode it played last: `default`'s hard-mode memo holds positions
    assert [h for _, h in played] == [h for h, _ in warm.warm_steps(fn)] == [False, False, True, True, True]
    assert len({r for r, _ in played}) == 1
    assert fn.strategies == ["default", "entropy"]  # restored after the steps
    assert fn.strats[("default", True)].memo_size() > 0
    assert fn.progress_dir is None


def test_compile_first_runs_a_child_and_says_how_long(capfd):
    seconds = warm.compile_first(_fn(["entropy"]))
    assert seconds is not None and seconds > 0
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_a_failing_child_is_one_log_line_and_the_run_goes_on(capfd, caplog):
    with caplog.at_level(logging.INFO, logger="pipelines.orchestration.warm"):
        assert warm.compile_first(_fn(["no-such-strategy"])) is None
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # the child's traceback goes nowhere
    lines = [r.getMessage() for r in caplog.records if r.name == "pipelines.orchestration.warm"]
    assert len(lines) == 1 and "the workers compile them" in lines[0]


def _tables(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.avro"))
            if not any(s.startswith(".") for s in p.relative_to(out).parts)}


def test_big_local_stages_warm_first_with_the_same_tables(tmp_path: Path, monkeypatch):
    calls: list[PlayOpenerFn] = []

    def recorded(fn, **kw):
        calls.append(fn)
        return warm.compile_first(fn)

    monkeypatch.setattr(stages, "compile_first", recorded)
    monkeypatch.setattr(stages, "cache_is_cold", lambda fn: False)  # (a cold cache warms any stage)
    monkeypatch.setattr(stages, "WARM_MIN", 10**9)  # a small stage: no warm-up
    assert main([*ARGS, *LOCAL, "--output", str(tmp_path / "cold")]) == 0
    assert calls == []
    # big means items left to play, not shards: 24 items ((opener, mode) pairs) in 4 shards
    monkeypatch.setattr(stages, "cut", lambda items: shards.cut(items, 4))
    monkeypatch.setattr(stages, "WARM_MIN", 24)
    assert main([*ARGS, *LOCAL, "--output", str(tmp_path / "warm")]) == 0
    assert len(calls) == 1 and set(calls[0].strategies) == {"entropy", "default"}
    cold, warmed = _tables(tmp_path / "cold"), _tables(tmp_path / "warm")
    assert cold and cold == warmed
    # a dry run plays nothing, so it warms nothing
    calls.clear()
    assert main([*ARGS, *LOCAL, "--dry_run=True", "--output", str(tmp_path / "dry")]) == 0
    assert calls == []


def test_a_cold_cache_warms_even_a_small_stage_as_its_own_step(tmp_path: Path, monkeypatch, capsys):
    shown: list[str] = []

    def recorded(fn, show=None, **kw):
        assert show is not None  # the step is shown
        show("compiling kernels, once: 1 of 1 (entropy, normal mode)", False)
        shown.append("warmed")
        return 0.0

    monkeypatch.setattr(stages, "compile_first", recorded)
    monkeypatch.setattr(stages, "cache_is_cold", lambda fn: True)
    monkeypatch.setattr(stages, "WARM_MIN", 10**9)
    args = [a for a in ARGS if a != "--no-progress"]
    assert main([*args, *LOCAL, "--output", str(tmp_path / "out")]) == 0
    assert shown == ["warmed"]
    err = capsys.readouterr().err
    at = err.index("compiling kernels, once: 1 of 1")
    assert "[1/1 play]" in err[at:] and "[1/1 play]" not in err[:at]  # before the stage's line
