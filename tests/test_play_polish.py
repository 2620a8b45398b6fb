"""play and assist, a player's polish: the keyboard of used letters, hint, undo, the share
grid and the review line, and what the start line says (driven as pure sessions)."""

from __future__ import annotations

from _solver_cli import cli, write_lexicon

from wordle_core.cli.common import render, render_keyboard
from wordle_core.game.feedback import parse_feedback, score
from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.interactive.session import AssistSession, PlaySession, keyboard, share_grid
from wordle_core.strategies import get_strategy


def _texts(reply) -> list[str]:
    return [o.text for o in reply.out]


def _play(lex, answer_word: str, **kw) -> PlaySession:
    return PlaySession(lex, pattern_matrix(lex), answer=lex.answer_id(answer_word), **kw)


def test_keyboard_marks_each_letter_by_its_best_colour(small_lex):
    lex = load_lexicon("wordle")
    hist = [(lex.guess_id(w), parse_feedback(score(w, "cigar"), 5)) for w in ("salet", "crane")]
    kb = keyboard(lex, hist)
    assert kb.kind == "keyboard" and kb.word == "qwertyuiop|asdfghjkl|zxcvbnm"
    state = dict(zip(kb.word.replace("|", ""), kb.text.replace("|", ""), strict=True))
    # salet: a yellow; s l e t gray. crane: c green, r yellow, a yellow, n e gray
    assert state["c"] == "g" and state["a"] == "y" and state["r"] == "y"
    assert all(state[c] == "b" for c in "slten")
    assert all(state[c] == "." for c in "qwyuiopdfghjkzxvbm")
    plain = render_keyboard(kb.word, kb.text, colour=False)
    assert "[C]" in plain and "(a)" in plain and "(r)" in plain and " · " in plain and " q " in plain
    assert "\x1b[30;42m C \x1b[0m" in render_keyboard(kb.word, kb.text, colour=True)


def test_keyboard_of_a_digit_game_lists_its_symbols():
    lex = Lexicon.build("digits", ["12345", "67890", "13579"])
    kb = keyboard(lex, [(lex.guess_id("12345"), parse_feedback("gbbbb", 5))])
    assert kb.word == "0123456789" and kb.text[1] == "g" and kb.text[2] == "b" and kb.text[0] == "."


def test_play_shows_the_keyboard_after_each_guess(small_lex):
    p = _play(small_lex, small_lex.answers[5])
    r = p.handle(small_lex.guesses[0])
    assert [o.kind for o in r.out] == ["tiles", "keyboard"]


def test_answer_given_is_not_called_hidden(small_lex):
    word = small_lex.answers[3]
    chosen = _play(small_lex, word, answer_known=True).start().out[0].text
    hidden = _play(small_lex, word).start().out[0].text
    assert "hidden" not in chosen and "--answer" in chosen and word.upper() not in chosen
    assert "against a hidden answer" in hidden


def test_undo_takes_back_the_guess_and_is_counted(small_lex):
    answer = small_lex.answers[10]
    p = _play(small_lex, answer, review="")
    assert p.handle("undo").out[0].kind == "error"  # nothing to undo yet
    p.handle(small_lex.guesses[0])
    p.handle(small_lex.guesses[1])
    r = p.handle("undo")
    assert p.state.turn == 1 and "back to guess 2" in r.out[0].text and r.out[1].kind == "keyboard"
    assert p.state.history[0][0] == small_lex.guess_index[small_lex.guesses[0]]
    r = p.handle(answer)
    assert r.done and p.state.turn == 2
    assert "small 2/6 (1 undo)" in _texts(r)


def test_undo_against_the_evil_host_restores_its_words(small_lex):
    p = PlaySession(small_lex, pattern_matrix(small_lex), evil=True, review="")
    p.handle(small_lex.guesses[0])
    left = p.state.n_candidates
    p.handle(small_lex.guesses[1])
    p.handle("undo")
    assert p.state.n_candidates == left and p.host.state is p.state


def test_hint_names_a_legal_guess_and_is_counted(small_lex):
    answer = small_lex.answers[20]
    p = _play(small_lex, answer, hint_strategy=get_strategy("entropy"), review="")
    p.handle(small_lex.guesses[0])
    r = p.handle("hint")
    n = p.state.n_candidates
    assert r.out[0].kind == "text" and r.out[0].text.startswith(f"Hint: {n:,} words still fit")
    word = r.out[0].text.split(" would play ")[1].split()[0].lower()
    assert word in small_lex.guess_index and p.state.turn == 1  # a hint plays nothing
    r = p.handle(answer)
    assert any(t.endswith("(1 hint)") for t in _texts(r))
    assert _play(small_lex, answer).handle("hint").out[0].kind == "error"  # no strategy: no hints


def test_win_ends_with_share_grid_and_review_line(small_lex):
    answer = small_lex.answers[30]
    p = _play(small_lex, answer)
    first = small_lex.guesses[0]
    p.handle(first)
    r = p.handle(answer)
    texts = _texts(r)
    at = texts.index("small 2/6")
    assert texts[at + 1] == "" and texts[at + 2] == "".join(
        {"g": "\U0001f7e9", "y": "\U0001f7e8", "b": "\u2b1b"}[c] for c in score(first, answer))
    assert texts[at + 3] == "\U0001f7e9" * 5
    review = [t for t in texts if t.startswith("Review: skill ")]
    assert len(review) == 1 and f"--history {first}:{score(first, answer)},{answer}:ggggg" in review[0]


def test_loss_and_hard_mode_share_as_x_and_star():
    grid = share_grid("wordle", [(0, 0)] * 6, 5, 6, solved=False, hard=True)
    assert grid[0].text == "wordle X/6*" and len(grid) == 8


def test_assist_ends_the_same_way(small_lex):
    answer = small_lex.answers[40]
    s = AssistSession(small_lex, pattern_matrix(small_lex), get_strategy("entropy"), opener=0)
    s.start()
    for _ in range(8):
        r = s.handle(score(s.advice.best, answer))
        if r.done:
            break
    texts = _texts(r)
    assert f"small {s.state.turn}/6" in texts and any(t.startswith("Review: skill") for t in texts)
    assert texts[-1].startswith("Review: skill")


def test_cli_play_transcript_has_keyboard_hint_undo_and_grid(small_lex, tmp_path):
    flags = write_lexicon(small_lex, tmp_path)
    ans = small_lex.answers[99]
    first, second = small_lex.guesses[1], small_lex.guesses[2]
    script = f"{first}\nhint\n{second}\nundo\n{ans}\n"
    r = cli("play", *flags, "--answer", ans, input_text=script)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "hidden" not in out.splitlines()[0]
    assert "Hint: " in out and "Undone; back to guess 2 of 6." in out
    assert "You won in 2!" in out and "(1 hint, 1 undo)" in out and "Review: skill" in out
    assert out.count("\n    ") >= 3  # the keyboard's rows under the tiles
    assert render  # the CLI renders through cli.common.render (imported above)


def test_the_documented_play_transcript_is_what_play_prints():
    """docs/how-to/play-and-assist.md pastes a real `play` session: the same inputs, piped
    in, print it again line for line (the inputs are the lines after each `> ` prompt)."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs/how-to/play-and-assist.md").read_text("utf-8")
    m = re.search(r"<!-- transcript: (.+?) -->\n```\n(.*?)\n```", page, re.S)
    assert m, "the transcript block is missing from play-and-assist.md"
    argv, shown = m.group(1).split(), m.group(2)
    inputs = [line[2:] for line in shown.splitlines() if line.startswith("> ")]
    assert inputs[:2] == ["salet", "hint"] and "undo" in inputs
    r = cli(*argv, input_text="".join(f"{w}\n" for w in inputs), timeout=600)
    assert r.returncode == 0, r.stderr
    lines = shown.splitlines()  # (the page shows stderr's error lines where they came)
    assert r.stdout.splitlines() == [t for t in lines if not t.startswith("error: ")]
    assert r.stderr.splitlines() == [t for t in lines if t.startswith("error: ")] != []
