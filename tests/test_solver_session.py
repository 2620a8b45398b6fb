"""assist and play: the pure sessions line by line, and the CLI driven through a pipe."""

from __future__ import annotations

import numpy as np
import pytest
from _solver_cli import cli, run_main, write_lexicon

from wordle_core.cli.common import render
from wordle_core.game.feedback import parse_feedback, score
from wordle_core.game.matrix import pattern_matrix
from wordle_core.interactive.session import AssistSession, PlaySession
from wordle_core.strategies import get_strategy


def _assist(lex, **kw):
    return AssistSession(lex, pattern_matrix(lex), get_strategy("entropy"), opener=kw.pop("opener", 0), **kw)


def play_assisted(session: AssistSession, answer: str, max_turns: int = 12) -> list[str]:
    """Follow the assistant's proposals, typing the colours the real game would show."""
    lines = []
    for _ in range(max_turns):
        guess = session.advice.best
        fb = score(guess, answer)
        lines.append(fb)
        reply = session.handle(fb)
        if reply.done:
            return lines
    raise AssertionError("assist did not finish")


@pytest.mark.parametrize("k", [0, 57, 133, 299])
def test_assist_reaches_the_answer(small_lex, k):
    answer = small_lex.answers[k]
    s = _assist(small_lex)
    s.start()
    play_assisted(s, answer)
    assert s.state.solved and s.state.history_words()[-1][0] == answer
    assert s.state.turn <= 6


def test_assist_other_word_forms_and_undo(small_lex):
    answer = small_lex.answers[10]
    s = _assist(small_lex)
    w1, w2 = small_lex.guesses[5], small_lex.guesses[77]
    r = s.handle(w1)  # played something else: asks for its colours
    assert not r.done and "What colours" in r.out[0].text and s.pending == w1
    s.handle(score(w1, answer))
    assert s.state.history_words() == [(w1, score(w1, answer))]
    s.handle(f"{w2}:{score(w2, answer)}")
    assert s.state.turn == 2
    n2 = s.state.n_candidates
    s.handle("undo")
    assert s.state.turn == 1 and s.state.n_candidates >= n2
    s.handle(f"{w2.upper()} {score(w2, answer).upper()}")
    assert s.state.turn == 2 and s.state.n_candidates == n2
    assert answer in s.state.candidate_words()


def test_assist_emoji_input(small_lex):
    s = _assist(small_lex)
    guess = s.advice.best
    emoji = "🟩🟨⬛⬛⬜"
    fb = score(guess, small_lex.answers[0])
    code = parse_feedback(emoji, 5)
    before = s.state
    r = s.handle(" ".join(emoji))
    assert s.state is not before or r.out[0].kind == "error"  # accepted, or impossible -> error
    s2 = _assist(small_lex)
    em = fb.replace("g", "🟩").replace("y", "🟨").replace("b", "⬛")
    s2.handle(em)
    assert s2.state.history[-1][1] == parse_feedback(fb, 5)
    assert code == parse_feedback("gybbb", 5)


@pytest.mark.parametrize("line, needle", [
    ("bbqbb", "bad feedback"), ("bbbbbb", "6 colours"), ("zzzzz", "neither colours"),
    ("a b c", "cannot read"), ("undo", "nothing to undo"), ("abbey bbbbb bbbbb", "cannot read"),
])
def test_assist_bad_input_keeps_the_game(small_lex, line, needle):
    s = _assist(small_lex)
    s.handle(score(s.advice.best, small_lex.answers[3]))
    s.handle("undo")
    before = (s.state.history, s.state.n_candidates, s.advice.best)
    r = s.handle(line)
    assert not r.done and len(r.out) == 1 and r.out[0].kind == "error"
    assert needle in r.out[0].text
    assert (s.state.history, s.state.n_candidates, s.advice.best) == before


def test_assist_impossible_feedback(small_lex):
    s = _assist(small_lex)
    g = s.advice.best
    s.handle(score(g, small_lex.answers[0]))
    r = s.handle(f"{g} ggggg") if g not in small_lex.answer_index else s.handle(f"{g} bbbbb")
    assert r.out[0].kind == "error" and "no small answer fits" in r.out[0].text
    assert s.state.turn == 1


def test_assist_hard_mode_rejects_illegal_word(small_lex):
    s = _assist(small_lex, hard=True)
    answer = small_lex.answers[20]
    s.handle(score(s.advice.best, answer))
    cons = s.state.constraints
    bad = next(w for w in small_lex.guesses if cons.violation(small_lex, small_lex.guess_index[w]))
    r = s.handle(bad)
    assert r.out[0].kind == "error" and "hard mode" in r.out[0].text
    r = s.handle(f"{bad} bbbbb")
    assert r.out[0].kind == "error" and "hard mode" in r.out[0].text
    assert s.state.turn == 1
    for o in s.advice.options:
        assert cons.violation(small_lex, small_lex.guess_index[o.word]) is None


def test_play_fixed_answer(small_lex):
    mat = pattern_matrix(small_lex)
    answer = 42
    p = PlaySession(small_lex, mat, answer=answer)
    w = small_lex.guesses[0]
    r = p.handle(w)
    assert r.out[0].kind == "tiles" and r.out[0].pattern == parse_feedback(score(w, small_lex.answers[42]), 5)
    assert p.handle("nope!").out[0].kind == "error"
    assert p.state.turn == 1
    r = p.handle(small_lex.answers[42].upper())
    assert r.done and any("won in 2" in o.text for o in r.out)


def test_play_runs_out_and_reveals(small_lex):
    p = PlaySession(small_lex, pattern_matrix(small_lex), answer=1)
    guesses = [w for w in small_lex.guesses if w != small_lex.answers[1]][:6]
    for w in guesses[:-1]:
        assert not p.handle(w).done
    r = p.handle(guesses[-1])
    assert r.done and any(small_lex.answers[1].upper() in o.text for o in r.out)


def test_play_hard_mode_enforced(small_lex):
    p = PlaySession(small_lex, pattern_matrix(small_lex), answer=7, hard=True)
    p.handle(small_lex.guesses[2])
    cons = p.state.constraints
    bad = next((w for w in small_lex.guesses if cons.violation(small_lex, small_lex.guess_index[w])), None)
    if bad is None:
        pytest.skip("first guess revealed nothing")
    r = p.handle(bad)
    assert r.out[0].kind == "error" and "hard mode" in r.out[0].text and p.state.turn == 1


def test_play_evil_is_consistent(small_lex):
    p = PlaySession(small_lex, pattern_matrix(small_lex), evil=True)
    said = []
    for w in small_lex.guesses[::97][:6]:
        r = p.handle(w)
        said.append((w, r.out[0].pattern))
        fits = [a for a in small_lex.answers
                if all(parse_feedback(score(g, a), 5) == pat for g, pat in said)]
        assert fits == p.state.candidate_words()
        if r.done:
            break
    assert any("never picked" in o.text for o in p.handle("quit").out) or p.state.solved


def test_render_plain_and_colour():
    from wordle_core.interactive.session import tiles

    out = tiles("crane", parse_feedback("gybbb", 5), "1/6")
    assert render(out, False) == "  CRANE gybbb  🟩🟨⬛⬛⬛  1/6"
    assert "\x1b[30;42m C \x1b[0m" in render(out, True)


# --- the CLI through a pipe -------------------------------------------------------------------
def _expected_transcript(session, lines: list[str]) -> str:
    """What the CLI prints on a pipe for ``lines``: prompt + echoed input + replies (stdout)."""
    out = [render(o, False) for o in session.start().out if o.kind != "error"]
    for line in lines:
        out.append(f"> {line}")
        r = session.handle(line)
        out.extend(render(o, False) for o in r.out if o.kind != "error")
        if r.done:
            break
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("k", [3, 150, 288])
def test_cli_assist_scripted_game(small_lex, tmp_path, k):
    """A whole game through the pipe, with a typo and an undo; stdout must be exactly the
    transcript the pure session produces, and the error goes to stderr as one line."""
    from wordle_core.game.lexicon import Lexicon

    flags = write_lexicon(small_lex, tmp_path)
    lex = Lexicon.from_files(flags[1], flags[3])  # what the CLI loads (custom name)
    answer = lex.answers[k]
    lines = play_assisted(_assist(lex, opener=0), answer)
    script = ["help", "zzzzz", lines[0], "undo", *lines]
    r = cli("assist", *flags, "--strategy", "entropy", "--opener", lex.guesses[0],
            input_text="\n".join(script) + "\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout == _expected_transcript(_assist(lex, opener=0), script)
    assert f"Solved in {len(lines)} guess" in r.stdout
    assert r.stderr == f"error: 'zzzzz' is neither colours like gybbb... nor an allowed {lex.name} guess; " \
        "type 'help'\n"


def test_cli_play_through_pipe(small_lex, tmp_path):
    flags = write_lexicon(small_lex, tmp_path)
    ans = small_lex.answers[99]
    first = small_lex.guesses[1]
    r = cli("play", *flags, "--answer", ans, input_text=f"{first}\nqqqqqq\n{ans}\n")
    assert r.returncode == 0
    assert f"  {first.upper()} {score(first, ans)}" in r.stdout
    assert "You won in 2!" in r.stdout
    assert r.stderr.count("\n") == 1 and "qqqqqq" in r.stderr


def test_cli_play_evil_and_seed_reproducible(small_lex, tmp_path):
    flags = write_lexicon(small_lex, tmp_path)
    words = "\n".join(small_lex.guesses[::50][:6]) + "\n"
    a = cli("play", *flags, "--evil", input_text=words)
    b = cli("play", *flags, "--evil", input_text=words)
    assert a.returncode == 0 and a.stdout == b.stdout and "still in play" in a.stdout
    s1 = cli("play", *flags, "--seed", "5", input_text="quit\n")
    s2 = cli("play", *flags, "--seed", "5", input_text="quit\n")
    assert s1.stdout == s2.stdout and "The answer was" in s1.stdout


@pytest.mark.parametrize("args, needle", [
    (["play", "--answer", "zzzzz"], "not an allowed guess"),
    (["play", "--answer", "salet", "--evil"], "not allowed with"),
    (["play", "--seed", "x"], "invalid int"),
    (["assist", "--opener", "qqqqq"], "not an allowed guess"),
    (["assist", "--top", "-1"], "at least 1"),
    (["evil-solve", "--lexicon", "nope"], "unknown lexicon"),
    (["play", "--answers", "/nonexistent"], "does not exist"),
])
def test_cli_bad_flags_one_line(args, needle, capsys):
    code, _, err = run_main(args, capsys)
    assert code == 2
    assert needle in err and len(err.strip().splitlines()) == 1


def test_cli_eof_and_empty_lines_are_fine(small_lex, tmp_path):
    flags = write_lexicon(small_lex, tmp_path)
    r = cli("assist", *flags, "--strategy", "entropy", input_text="\n\n")
    assert r.returncode == 0 and "Type the colours" in r.stdout


def test_seeded_answers_differ():
    rng = [int(np.random.default_rng(s).integers(2315)) for s in range(5)]
    assert len(set(rng)) > 1


@pytest.mark.parametrize("k", [0, 101, 205])
def test_assist_and_play_on_mini_nerdle(k):
    """Equations (digits and operators, six characters) through the same sessions and CLI."""
    from wordle_core.game.lexicon import load_lexicon

    lex = load_lexicon("mini-nerdle")
    answer = lex.answers[k]
    s = _assist(lex)
    lines = play_assisted(s, answer)
    assert s.state.solved and s.state.history_words()[-1][0] == answer
    r = cli("assist", "--lexicon", "mini-nerdle", "--strategy", "entropy", "--opener", lex.guesses[0],
            input_text="\n".join(["gybbbbb", *lines]) + "\n")
    assert r.returncode == 0 and f"Solved in {len(lines)} guess" in r.stdout
    assert "7 colours, expected 6" in r.stderr
    p = cli("play", "--lexicon", "mini-nerdle", "--answer", answer,
            input_text=f"{lex.guesses[0]}\n{answer}\n")
    assert p.returncode == 0 and "You won in" in p.stdout



def test_sessions_never_crash_on_any_line(small_lex):
    """Fuzz: any typed line gives a reply (maybe an error), never an exception."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as hst

    mat = pattern_matrix(small_lex)
    alphabet = hst.sampled_from(list("gybx._:?!  ") + list("abcdeklmnorstu") + ["🟩", "🟨", "⬛", "\t", "é"])
    words = hst.sampled_from([*small_lex.guesses[:40], "undo", "help", "list", "quit", ""])
    line = hst.one_of(hst.text(alphabet, max_size=14), words,
                      hst.tuples(words, hst.text(hst.sampled_from("gybx"), min_size=4, max_size=6))
                      .map(" ".join))

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(hst.lists(line, max_size=8), hst.booleans())
    def run(lines, hard):
        a = AssistSession(small_lex, mat, get_strategy("entropy"), hard=hard, opener=0)
        p = PlaySession(small_lex, mat, hard=hard, evil=True)
        for text_line in lines:
            for s in (a, p):
                r = s.handle(text_line)
                assert isinstance(r.out, list)
                for o in r.out:
                    render(o, False)
        assert a.state.n_candidates >= 1 and p.state.n_candidates >= 1

    run()
