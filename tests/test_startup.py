"""Start-up: the quick commands load none of numpy, numba, the kernels, pandas, fastavro or Beam.

Each case runs in a fresh interpreter (``python -c``) and prints the heavy modules
found in ``sys.modules`` after the command: a module-level import of a kernel or of
pandas anywhere under the CLI's parser or these commands shows up here.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "numba", "llvmlite", "pandas", "fastavro", "apache_beam", "matplotlib",
         "wordle_core.kernels", "wordle_core.search.exact", "wordle_core.search.hard",
         "wordle_core.api.analysis", "wordle_core.tables.load")

PROBE = """
import contextlib, io, json, sys
import wordle_core.cli as cli
out, err = io.StringIO(), io.StringIO()
code = None
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    try:
        code = cli.main({argv!r})
    except SystemExit as exc:
        code = exc.code
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {top!r} or m.startswith({prefixes!r}))
print(json.dumps({{"code": code, "out": out.getvalue(), "err": err.getvalue(), "heavy": heavy}}))
"""


def _run(argv: list[str]) -> dict:
    top = {h for h in HEAVY if "." not in h}
    prefixes = tuple(h for h in HEAVY if "." in h)
    code = PROBE.format(argv=argv, top=top, prefixes=prefixes)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("argv, shows", [
    (["score", "salet", "crane"], "bybyb"),
    (["score", "salet", "crane", "--emoji"], "\u2b1b\U0001f7e8"),
    (["candidates", "--history", "salet:bybgb", "--lexicon", "wordle"], "7 candidates"),
    (["candidates", "--history", "salet:bybgb"], "19 candidates"),
    (["candidates", "--history", "salet:bybgb,brine:bbgby"], "1 candidate\nadieu"),
    (["candidates", "--history", "salet:bybgb,amber:ggggg", "--hard", "--json"], '"solved": true'),
    (["strategies", "--json"], '"name": "entropy"'),
    (["lexicons"], "wordle"),
    (["strategies"], "entropy"),
    (["--help"], "play:"),
    (["--version"], "wordle-lab "),
])
def test_quick_commands_load_nothing_heavy(argv: list[str], shows: str) -> None:
    got = _run(argv)
    assert got["code"] in (0, None), got
    assert shows in got["out"]
    assert got["heavy"] == [], f"{' '.join(argv)} loaded {got['heavy']}"


@pytest.mark.parametrize("argv, says", [
    (["candidates", "--history", "salet:bybgb,brine:bbgby", "--lexicon", "wordle"],
     "it fits nyt2023 (1 answer): try --lexicon nyt2023"),
    (["candidates", "--history", "salet:bybgb,crane:bbbbb", "--hard"], "4th letter must be E"),
    (["candidates", "--history", "zzzzz:bbbbb"], "not an allowed guess"),
])
def test_quick_errors_load_nothing_heavy(argv: list[str], says: str) -> None:
    """A history the game rejects is one line (exit 2), still without numpy: the hint that
    names another game is computed on the word lists too."""
    got = _run(argv)
    assert got["code"] == 2, got
    assert got["err"].count("\n") == 1 and says in got["err"], got
    assert got["heavy"] == [], f"{' '.join(argv)} loaded {got['heavy']}"


def test_import_wordle_core_is_light_and_names_resolve() -> None:
    code = ("import sys, wordle_core as wl; before = 'wordle_core.api' in sys.modules; "
            "print(before, wl.score('speed', 'abide'), 'numba' in sys.modules, "
            "sorted(set(wl.__all__) - set(dir(wl))))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert res.stdout.split() == ["False", "bbyby", "False", "[]"], res.stdout + res.stderr


def test_unknown_attribute_is_an_attribute_error() -> None:
    import wordle_core

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        wordle_core.nope  # noqa: B018


def test_greedy_measure_numbers_match_the_kernel() -> None:
    from wordle_core.kernels import greedy as kernel
    from wordle_core.strategies import greedy

    assert (greedy.ENTROPY, greedy.EXPECTED_SIZE, greedy.MINIMAX, greedy.PARTITIONS) == (
        kernel.ENTROPY, kernel.EXPECTED_SIZE, kernel.MINIMAX, kernel.PARTITIONS)


def test_help_lists_every_command_once_grouped() -> None:
    from wordle_core.cli import HELP_GROUPS, build_parser

    parser = build_parser()
    text = parser.format_help()
    sub = next(a for a in parser._actions if a.dest == "command")
    names = list(sub.choices)
    for name in names:
        assert sum(line.split()[:1] == [name] for line in text.splitlines()) == 1, name
    headings = [h for h, _ in HELP_GROUPS]
    assert headings[:2] == ["play", "analyse"]
    at = [text.index(f"\n{h}:\n") for h in headings]
    assert at == sorted(at)
    assert text.index("\n  play ") < text.index("\n  simulate ") < text.index("\n  run ")


def test_first_suggestion_off_the_opener_table_is_the_computed_one(small_lex):
    """suggest's first guess read off an opener_scores table equals the computed one."""
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.game.state import GameState
    from wordle_core.interactive.suggest import suggest
    from wordle_core.search.openers import compute_opener_scores
    from wordle_core.strategies import get_strategy

    mat = pattern_matrix(small_lex)
    table = compute_opener_scores(small_lex, mat)
    strat = get_strategy("entropy")
    for hard in (False, True):
        state = GameState.new(small_lex, hard, mat)
        for opener in (None, 3):
            a = suggest(state, strat, top=6, opener=opener, first=table).to_dict()
            b = suggest(state, strat, top=6, opener=opener).to_dict()
            assert a == b
    after = GameState.new(small_lex, False, mat).play(0, 5)  # past the first guess: computed
    assert suggest(after, strat, first=table).to_dict() == suggest(after, strat).to_dict()


def test_cold_kernel_cache_is_seen_from_file_names(tmp_path, monkeypatch):
    """Warm only when a warm-up of the same kind finished since the kernels last changed and
    both kernel directories hold compiled code (a fresh checkout used to warm on every run:
    it looked for the buckets package's kernels in the wrong directory)."""
    from pipelines import transforms
    from pipelines.config import build_config
    from pipelines.orchestration import stages, warm
    from wordle_core.game.lexicon import load_lexicon

    def play_fn(strategies: list[str]):
        cfg = dataclasses.replace(build_config(str(ROOT / "configs" / "quick.yaml")),
                                  strategies=tuple(strategies))
        spec = transforms.LexiconSpec.of(load_lexicon("wordle"))
        tables = ["opener_summaries"]
        return stages.play_composite(cfg, tables)(spec, [], **stages.play_options(cfg, tables, None))[1].fn

    kernels, buckets = tmp_path / "kernels", tmp_path / "buckets"
    dirs = (kernels, buckets)
    fn = play_fn(["entropy"])
    assert warm.cache_is_cold(fn, (tmp_path / "missing", tmp_path / "missing"))
    kernels.mkdir()
    buckets.mkdir()
    warm.mark_warm(fn, dirs)
    assert warm.cache_is_cold(fn, dirs)  # a stamp, but no compiled code at all
    (kernels / "walk.walk_tree-53.py311.nbi").write_bytes(b"")
    (buckets / "counts.count_buckets-232.py311.nbi").write_bytes(b"")
    assert not warm.cache_is_cold(fn, dirs)
    assert warm.warm_key(play_fn(["minimax"])) != warm.warm_key(fn)  # other steps: other kernels
    (buckets / "counts.count_buckets-232.py311.nbi").unlink()  # make clean-kernels, half done
    assert warm.cache_is_cold(fn, dirs)
    (buckets / "counts.count_buckets-232.py311.nbi").write_bytes(b"")
    edited = [(name, t + 1, size) if name == "walk.py" else (name, t, size)
              for name, t, size in warm.kernel_sources()]
    assert any(name == "walk.py" for name, _, _ in edited)
    monkeypatch.setattr(warm, "kernel_sources", lambda: edited)
    assert warm.cache_is_cold(fn, dirs)  # a kernel edited since: numba compiles again


def test_warm_up_steps_and_their_lines(tmp_path):
    import io

    from pipelines import transforms
    from pipelines.orchestration.runner import JobProgress, Stage
    from pipelines.orchestration.warm import step_label, warm_steps
    from wordle_core.game.lexicon import load_lexicon

    spec = transforms.LexiconSpec.of(load_lexicon("wordle"))
    fn = transforms.PlayOpenerFn(spec, ["entropy", "minimax"], ["normal", "hard"],
                                 ["opener_summaries", "hard_verdicts"])
    labels = [step_label(h, s) for h, s in warm_steps(fn)]
    assert labels == ["entropy, normal mode", "minimax, normal mode", "hard-mode verdict",
                      "entropy, hard mode", "minimax, hard mode"]
    out = io.StringIO()
    prog = JobProgress([Stage("play", 4), Stage("publish", 1, 0.5)], stream=out)
    prog.note("compiling kernels, once: 1 of 5 (entropy, normal mode)")
    with prog.timed("publish"):
        pass
    lines = out.getvalue().splitlines()
    assert lines[0] == "compiling kernels, once: 1 of 5 (entropy, normal mode)"
    assert lines[-1].split() == ["[2/2", "publish]", "1/1", "100%"]


# --- candidates on the word lists = candidates on the pattern matrix ----------------------
REPEATED = ("eerie", "geese", "speed", "sissy", "llama", "mamma", "error", "three", "abbey", "eaten")


def _histories(lex, rng, n: int) -> list[str]:
    """Histories of 1 to 3 guesses: mostly feedback some answer shows (repeated-letter
    guesses and answers among them), some with random feedback (mostly inconsistent)."""
    from wordle_core.game.feedback import score

    out = []
    for i in range(n):
        answer = rng.choice(lex.answers)
        pool = [w for w in REPEATED if w in lex.guess_index] if i % 3 == 0 else lex.guesses
        guesses = [rng.choice(pool) for _ in range(rng.randint(1, 3))]
        fbs = [score(g, answer) if i % 5 else "".join(rng.choice("byg") for _ in g) for g in guesses]
        out.append(",".join(f"{g}:{f}" for g, f in zip(guesses, fbs, strict=True)))
    return out


def _outcome(make):
    """``to_dict()`` of the position, or the error's type and line."""
    from wordle_core.errors import WordleError

    try:
        return make().to_dict()
    except WordleError as exc:
        return (type(exc).__name__, str(exc))


@pytest.mark.parametrize("name", ["nyt2023", "wordle"])
def test_word_position_is_the_matrix_position(name: str) -> None:
    """``wordle-lab candidates``' numpy-free replay (WordPosition) answers what Position, on
    the pattern matrix, answers: the same candidates, history and solved flag, or the same
    error, on random and repeated-letter histories in both modes."""
    import random

    from wordle_core.api import Position
    from wordle_core.api.word_position import WordPosition
    from wordle_core.game.lexicon import load_lexicon

    lex = load_lexicon(name)
    rng = random.Random(f"word-position-{name}")
    kinds: set[str] = set()
    for history in _histories(lex, rng, 150):
        for hard in (False, True):
            old = _outcome(lambda h=history, m=hard: Position(h, lexicon=lex, hard=m))
            new = _outcome(lambda h=history, m=hard: WordPosition(h, lexicon=lex, hard=m))
            assert new == old, (history, hard)
            kinds.add(old[0] if isinstance(old, tuple) else "ok")
    assert {"ok", "InconsistentHistoryError", "HardModeViolation"} <= kinds
