"""The interactive games as pure state machines: ``assist`` and ``play``.

A session takes one input line at a time and returns what to show, as a list of
:class:`Out` items (plain text, coloured tiles, or an error line). It never reads or
prints itself, so tests drive it line by line and the CLI only renders; the same
object serves a terminal, a pipe, or a script.

* :class:`AssistSession` - helper for a real game played elsewhere: it proposes a
  guess; the player types the colours the game showed (``gybbb`` or emoji squares),
  or another word they played plus its colours; ``undo``, ``list``, ``help``, ``quit``.
* :class:`PlaySession` - the player guesses against a hidden answer, or against the
  evil host (:mod:`wordle_core.analysis.evil`), with hard-mode rules enforced; after
  each guess the keyboard of used letters; ``hint``, ``undo``, ``help``, ``quit``.

Both end the same way: the share grid (the emoji rows, as the NYT's share button gives
them) and the review line (skill and luck, :mod:`wordle_core.analysis.review`).

Bad input (unknown word, malformed or impossible colours, a hard-mode violation)
yields one ``error`` line and leaves the game exactly where it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from wordle_core.errors import InconsistentHistoryError, UnknownWordError, WordleError
from wordle_core.game.feedback import (
    GREEN,
    YELLOW,
    int_to_digits,
    parse_feedback,
    pattern_to_emoji,
    pattern_to_str,
)
from wordle_core.game.history import history_hint, word_hint
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.interactive.suggest import Suggestion, suggest
from wordle_core.search.openers import OpenerScores
from wordle_core.strategies.base import Strategy

if TYPE_CHECKING:
    from wordle_core.analysis.evil import EvilHost

QUIT = {"quit", "exit", "q", ":q"}
HELP = {"help", "?", "h"}
SHOW_CANDIDATES = 12  # list the candidates when at most this many are left


@dataclass(frozen=True)
class Out:
    """One thing to show: ``kind`` is ``text``, ``tiles`` (word + pattern), ``keyboard``
    or ``error``.

    A ``keyboard``'s ``word`` is its keys, rows separated by ``|``; its ``text`` gives each
    key's state at the same position: ``g`` green, ``y`` yellow, ``b`` gray (not in the
    word), ``.`` not played yet (``|`` between rows).
    """

    kind: str
    text: str = ""
    word: str = ""
    pattern: int = -1


def text(s: str) -> Out:
    return Out("text", s)


def error(s: str) -> Out:
    return Out("error", s)


def tiles(word: str, pattern: int, note: str = "") -> Out:
    return Out("tiles", note, word, pattern)


@dataclass
class Reply:
    """A session's answer to one line: what to show and whether the session is over."""

    out: list[Out] = field(default_factory=list)
    done: bool = False


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


QWERTY = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


def keyboard(lexicon: Lexicon, history: tuple[tuple[int, int], ...] | list[tuple[int, int]]) -> Out:
    """The keyboard of used letters after ``history`` ((guess row, pattern) pairs).

    A key shows the best it has been: green over yellow over gray. Letters use the
    QWERTY rows; other alphabets (digits, equations) their symbols in order, ten a row.
    """
    best: dict[str, int] = {}
    for row, pat in history:
        for ch, d in zip(lexicon.guesses[row], int_to_digits(pat, lexicon.length), strict=True):
            best[ch] = max(best.get(ch, -1), d)
    alphabet = lexicon.alphabet
    if set(alphabet) <= set("".join(QWERTY)):
        rows = list(QWERTY)
    else:
        rows = [alphabet[i:i + 10] for i in range(0, len(alphabet), 10)]
    mark = {GREEN: "g", YELLOW: "y", 0: "b"}
    states = "|".join("".join(mark[best[c]] if c in best else "." for c in r) for r in rows)
    return Out("keyboard", states, "|".join(rows))


def share_grid(title: str, history: list[tuple[int, int]] | tuple[tuple[int, int], ...],
               length: int, max_guesses: int, solved: bool, hard: bool) -> list[Out]:
    """The share text, as the NYT's share button gives it: ``title 4/6`` (``X/6`` when
    lost, ``*`` in hard mode), a blank line, then one emoji row per guess."""
    score = str(len(history)) if solved else "X"
    rows = [pattern_to_emoji(p, length) for _, p in history]
    return [text(f"{title} {score}/{max_guesses}{'*' if hard else ''}"), text(""),
            *(text(r) for r in rows)]


def review_line(lexicon: Lexicon, state: GameState, strategy: Strategy | str = "entropy") -> Out:
    """One line: the game's skill and luck (0-99, WordleBot-style, against ``strategy``) and
    the command that prints the whole review."""
    from wordle_core.analysis.review import review_game

    words = state.history_words()
    history = ",".join(f"{w}:{f}" for w, f in words)
    name = strategy if isinstance(strategy, str) else strategy.name
    rev = review_game(lexicon, words, strategy, state.hard, state.matrix)
    hard = " --hard" if state.hard else ""
    lex = "" if lexicon.name == "wordle" else f" --lexicon {lexicon.name}"
    return text(f"Review: skill {rev['skill']}/99, luck {rev['luck']}/99 against {name} "
                f"(every guess: wordle-lab review{lex}{hard} --history {history})")


# --- assist ---------------------------------------------------------------------------
ASSIST_HELP = """\
Type what the game showed for the proposed guess:
  gybbb            colours: g green, y yellow, b (or x, .) gray; or paste the emoji squares
  WORD gybbb       you played WORD instead (WORD:gybbb works too)
  WORD             you played WORD instead; you will be asked for its colours
  undo             take back the last guess     list   show the candidates left
  help             this text                    quit   leave"""


class AssistSession:
    """Live assistant for a game played elsewhere (pure: no I/O)."""

    def __init__(self, lexicon: Lexicon, matrix: np.ndarray, strategy: Strategy, *,
                 hard: bool = False, tree: Tree | None = None, opener: int | None = None,
                 top: int = 3, first: OpenerScores | None = None, review: str = "entropy") -> None:
        self.lex = lexicon
        self.first = first  # the opener table: the first proposal without the kernels
        self.review = review  # the strategy the closing review line compares with ("" none)
        self.strategy = strategy
        self.tree = tree
        self.opener = opener
        self.top = top
        self.states = [GameState.new(lexicon, hard, matrix)]
        self.pending: str | None = None  # a word the player played instead of the proposal
        self.advice: Suggestion = self._advise()

    @property
    def state(self) -> GameState:
        return self.states[-1]

    def _advise(self) -> Suggestion:
        return suggest(self.state, self.strategy, top=self.top, tree=self.tree, opener=self.opener,
                       first=self.first)

    def start(self) -> Reply:
        mode = "hard mode" if self.state.hard else "normal mode"
        head = text(f"{self.lex.name} ({mode}): {_plural(self.state.n_candidates, 'possible answer')}. "
                    "Type 'help' for the commands.")
        return Reply([head, *self._proposal()])

    def _proposal(self) -> list[Out]:
        a = self.advice
        if not a.options:
            return []
        best = a.options[0]
        if a.remaining == 1:
            return [text(f"It must be {best.word.upper()}. Play it and type its colours.")]
        lines = [text(f"Try {best.word.upper()}  ({best.entropy_bits:.2f} bits, "
                      f"{best.expected_remaining:.1f} left on average, at most {best.largest_bucket})"
                      + ("  [from table]" if a.source == "table" else ""))]
        others = [o.word.upper() for o in a.options[1:]]
        if others:
            lines.append(text("  also good: " + ", ".join(others)))
        return lines

    def handle(self, line: str) -> Reply:
        cmd = line.strip()
        low = cmd.lower()
        if not cmd:
            return Reply([text(self._prompt_hint())])
        if low in QUIT:
            return Reply([text("Bye.")], done=True)
        if low in HELP:
            return Reply([text(ASSIST_HELP)])
        if low == "undo":
            return self._undo()
        if low in ("list", "ls"):
            words = self.state.candidate_words()
            shown = " ".join(words[:200]) + (" ..." if len(words) > 200 else "")
            return Reply([text(f"{_plural(len(words), 'candidate')}: {shown}")])
        try:
            word, fb = self._parse(cmd)
        except UnknownWordError as exc:  # a word of another built-in game: say which
            hint = word_hint(self.lex, exc.word, as_answer=exc.as_answer) if exc.word else None
            return Reply([error(hint or str(exc))])
        except WordleError as exc:
            return Reply([error(str(exc))])
        if fb is None:  # a word alone: remember it and ask for its colours
            self.pending = word
            return Reply([text(f"OK, you played {word.upper()}. What colours did it get?")])
        return self._apply(word, fb)

    def _prompt_hint(self) -> str:
        word = self.pending or self.advice.best or "?"
        example = "gy".ljust(self.lex.length, "b")
        return f"Type the colours for {word.upper()} (e.g. {example}), or 'help'."

    def _parse(self, cmd: str) -> tuple[str, int | None]:
        """(word, pattern or None) from one input line; raises WordleError with the reason."""
        L = self.lex
        try:  # the whole line as colours (emoji may come with spaces between them)
            pat = parse_feedback(cmd, L.length)
        except WordleError as fb_err:
            parts = cmd.replace(":", " ").split()
            if len(parts) == 2:
                return L.normalise(parts[0]), parse_feedback(parts[1], L.length)
            if len(parts) == 1:
                if parts[0].lower() in L.guess_index or parts[0] in L.guess_index:
                    word = L.normalise(parts[0])
                    if self.state.hard:
                        self.state.constraints.check(L, L.guess_index[word])
                    return word, None
                if _looks_like_colours(parts[0], L.length):
                    raise fb_err from None
                raise WordleError(
                    f"{parts[0]!r} is neither colours like {'gybbb'[:L.length]}... nor an allowed "
                    f"{L.name} guess; type 'help'"
                ) from None
            raise WordleError(f"cannot read {cmd!r}: type the colours, or WORD COLOURS; 'help'") from None
        best = self.pending or self.advice.best
        if best is None:
            raise WordleError("the game is over; type 'undo' or 'quit'")
        return best, pat

    def _apply(self, word: str, pattern: int) -> Reply:
        L = self.lex
        try:
            new = self.state.apply(L.guess_index[word], pattern)
        except InconsistentHistoryError as exc:  # it may be a game of another built-in list
            played = [*self.state.history_words(), (word, pattern_to_str(pattern, L.length))]
            return Reply([error(history_hint(L, played) or str(exc))])
        except WordleError as exc:
            return Reply([error(str(exc))])
        self.states.append(new)
        self.pending = None
        out = [tiles(word, pattern, f"guess {new.turn}")]
        if new.solved:
            self.advice = self._advise()
            out.append(text(f"Solved in {new.turn} guess{'' if new.turn == 1 else 'es'}!"))
            return Reply(out + self._ending(), done=True)
        if new.guesses_left <= 0:
            out.append(text(f"Out of guesses. It was one of: {' '.join(new.candidate_words()[:20])}"))
            return Reply(out + self._ending(), done=True)
        self.advice = self._advise()
        n = new.n_candidates
        left = _plural(n, "candidate") + " left"
        if 1 < n <= SHOW_CANDIDATES:
            left += ": " + " ".join(w.upper() for w in new.candidate_words())
        out.append(text(left))
        out.extend(self._proposal())
        return Reply(out)

    def _undo(self) -> Reply:
        if self.pending is not None:
            word, self.pending = self.pending, None
            return Reply([text(f"Forgot {word.upper()}."), *self._proposal()])
        if len(self.states) == 1:
            return Reply([error("nothing to undo")])
        self.states.pop()
        self.advice = self._advise()
        return Reply([text(f"Undone; back to {_plural(self.state.n_candidates, 'candidate')}."),
                      *self._proposal()])

    def _ending(self) -> list[Out]:
        st = self.state
        out = [text(""), *share_grid(self.lex.name, st.history, self.lex.length, self.lex.max_guesses,
                                     st.solved, st.hard)]
        if self.review:
            out += [text(""), review_line(self.lex, st, self.review)]
        return out

    def transcript(self) -> list[tuple[str, str]]:
        return self.state.history_words()


def _looks_like_colours(token: str, length: int) -> bool:
    """Was this meant as colours (so the colour error is the useful one)?"""
    letters = sum(c.lower() in "gybx._" or c in "\u2b1b\u2b1c\U0001f7e8\U0001f7e9" for c in token)
    return letters == len(token) or (len(token) == length and letters >= length - 1)


# --- play -----------------------------------------------------------------------------
PLAY_HELP = """\
Type a guess. Colours: green = right place, yellow = elsewhere in the word, gray = not in it.
The keyboard under each guess shows every letter's best colour so far: [G]reen, (y)ellow,
· gray (not in the word), plain = not tried yet.
  hint   a good next guess (counted in the share line)
  undo   take back the last guess (counted in the share line)
  help   this text     quit   give up and leave"""

HINT = {"hint", "hint?"}


class PlaySession:
    """The player guesses; a fixed answer or the evil host replies (pure: no I/O).

    ``answer_known``: the player chose the answer (``play --answer``), so the game does
    not call it hidden. ``hint_strategy``: what ``hint`` asks (none: no hints).
    ``review``: the strategy the closing review line compares with ("" for none).
    """

    def __init__(self, lexicon: Lexicon, matrix: np.ndarray, *, hard: bool = False,
                 answer: int | None = None, evil: bool = False, answer_known: bool = False,
                 hint_strategy: Strategy | None = None, review: str = "entropy") -> None:
        if evil == (answer is not None):
            raise ValueError("give exactly one of answer= or evil=True")
        self.lex = lexicon
        self.answer = answer
        self.answer_known = answer_known
        self.hint_strategy = hint_strategy
        self.review = review
        self.hints = 0
        self.undos = 0
        self.host: EvilHost | None = None
        if evil:
            from wordle_core.analysis.evil import EvilHost  # the kernels: only the evil host needs them

            self.host = EvilHost(GameState.new(lexicon, hard, matrix))
        self.state = self.host.state if self.host else GameState.new(lexicon, hard, matrix)
        self.states = [self.state]  # every position so far, for undo

    def start(self) -> Reply:
        if self.host:
            who = " against the evil host (it never commits to an answer)"
        elif self.answer_known:
            who = " (the answer you chose with --answer)"
        else:
            who = " against a hidden answer"
        mode = ", hard mode" if self.state.hard else ""
        return Reply([text(f"{self.lex.name}{mode}: guess the {self.lex.length}-character word "
                           f"in {self.lex.max_guesses} tries{who}. 'help' for help, 'hint', 'undo'.")])

    def handle(self, line: str) -> Reply:
        cmd = line.strip()
        low = cmd.lower()
        if not cmd:
            return Reply([text("Type a guess, or 'help'.")])
        if low in QUIT:
            out = [text(f"Gave up. {self._reveal()}")]
            if self.state.turn and self.review:
                out.append(review_line(self.lex, self.state, self.review))
            return Reply(out, done=True)
        if low in HELP:
            return Reply([text(PLAY_HELP)])
        if low in HINT:
            return self._hint()
        if low == "undo":
            return self._undo()
        try:
            row = self.lex.guess_id(cmd)
            if self.state.hard:
                self.state.constraints.check(self.lex, row)
        except WordleError as exc:
            return Reply([error(str(exc))])
        if self.host is not None:
            pattern = self.host.guess(row)
            self.state = self.host.state
        else:
            pattern = int(self.state.matrix[row, self.answer])
            self.state = self.state.apply(row, pattern)
        self.states.append(self.state)
        st = self.state
        note = f"{st.turn}/{self.lex.max_guesses}"
        if self.host is not None and not st.solved:
            note += f"  ({_plural(st.n_candidates, 'word')} still in play)"
        out = [tiles(self.lex.guesses[row], pattern, note)]
        if st.solved:
            out.append(text(f"You won in {st.turn}!"))
            return Reply(out + self._ending(), done=True)
        if st.guesses_left <= 0:
            out.append(text(f"Out of guesses. {self._reveal()}"))
            return Reply(out + self._ending(), done=True)
        out.append(keyboard(self.lex, st.history))
        return Reply(out)

    def _hint(self) -> Reply:
        if self.hint_strategy is None:
            return Reply([error("no hints in this game")])
        from wordle_core.interactive.suggest import suggest

        best = suggest(self.state, self.hint_strategy, top=1).options[0]
        self.hints += 1
        n = self.state.n_candidates
        fits = f"{_plural(n, 'word')} still fit{'s' if n == 1 else ''}"
        if self.host is not None:
            fits = f"{_plural(n, 'word')} still in play"
        return Reply([text(f"Hint: {fits}; {self.hint_strategy.name} would play {best.word.upper()} "
                           f"({best.entropy_bits:.2f} bits, at most {best.largest_bucket} left after it).")])

    def _undo(self) -> Reply:
        if len(self.states) == 1:
            return Reply([error("nothing to undo")])
        self.states.pop()
        self.state = self.states[-1]
        if self.host is not None:
            self.host.state = self.state
        self.undos += 1
        back = f"Undone; back to guess {self.state.turn + 1} of {self.lex.max_guesses}."
        return Reply([text(back), keyboard(self.lex, self.state.history)])

    def _ending(self) -> list[Out]:
        st = self.state
        title = self.lex.name + (" (evil host)" if self.host is not None else "")
        extras = [_plural(n, w) for n, w in ((self.hints, "hint"), (self.undos, "undo")) if n]
        grid = share_grid(title, st.history, self.lex.length, self.lex.max_guesses, st.solved, st.hard)
        if extras:
            grid[0] = text(f"{grid[0].text} ({', '.join(extras)})")
        out = [text(""), *grid]
        if self.review:
            out += [text(""), review_line(self.lex, st, self.review)]
        return out

    def _reveal(self) -> str:
        if self.host is None:
            assert self.answer is not None  # (a fixed answer is the one other way to play)
            return f"The answer was {self.lex.answers[self.answer].upper()}."
        words = self.host.state.candidate_words()
        return (f"I never picked one: {_plural(len(words), 'word')} still fit everything I said, "
                f"e.g. {' '.join(w.upper() for w in words[:5])}.")

    def replies(self) -> list[tuple[str, str]]:
        return [(self.lex.guesses[g], pattern_to_str(p, self.lex.length)) for g, p in self.state.history]
