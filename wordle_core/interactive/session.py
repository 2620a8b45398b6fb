"""The interactive games as pure state machines: ``assist`` and ``play``.

A session takes one input line at a time and returns what to show, as a list of
:class:`Out` items (plain text, coloured tiles, or an error line). It never reads or
prints itself, so tests drive it line by line and the CLI only renders; the same
object serves a terminal, a pipe, or a script.

* :class:`AssistSession` - helper for a real game played elsewhere: it proposes a
  guess; the player types the colours the game showed (``gybbb`` or emoji squares),
  or another word they played plus its colours; ``undo``, ``list``, ``help``, ``quit``.
* :class:`PlaySession` - the player guesses against a hidden answer, or against the
  evil host (:mod:`wordle_core.analysis.evil`), with hard-mode rules enforced.

Bad input (unknown word, malformed or impossible colours, a hard-mode violation)
yields one ``error`` line and leaves the game exactly where it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from wordle_core.analysis.evil import EvilHost
from wordle_core.errors import InconsistentHistoryError, UnknownWordError, WordleError
from wordle_core.game.feedback import parse_feedback, pattern_to_str
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.state import GameState, history_hint, word_hint
from wordle_core.game.tree import Tree
from wordle_core.interactive.suggest import Suggestion, suggest
from wordle_core.strategies.base import Strategy

QUIT = {"quit", "exit", "q", ":q"}
HELP = {"help", "?", "h"}
SHOW_CANDIDATES = 12  # list the candidates when at most this many are left


@dataclass(frozen=True)
class Out:
    """One thing to show: ``kind`` is ``text``, ``tiles`` (word + pattern) or ``error``."""

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
                 top: int = 3) -> None:
        self.lex = lexicon
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
        return suggest(self.state, self.strategy, top=self.top, tree=self.tree, opener=self.opener)

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
            return Reply(out, done=True)
        if new.guesses_left <= 0:
            out.append(text(f"Out of guesses. It was one of: {' '.join(new.candidate_words()[:20])}"))
            return Reply(out, done=True)
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

    def transcript(self) -> list[tuple[str, str]]:
        return self.state.history_words()


def _looks_like_colours(token: str, length: int) -> bool:
    """Was this meant as colours (so the colour error is the useful one)?"""
    letters = sum(c.lower() in "gybx._" or c in "\u2b1b\u2b1c\U0001f7e8\U0001f7e9" for c in token)
    return letters == len(token) or (len(token) == length and letters >= length - 1)


# --- play -----------------------------------------------------------------------------
PLAY_HELP = """\
Type a guess. Colours: green = right place, yellow = elsewhere in the word, gray = not in it.
  help   this text     quit   give up and leave"""


class PlaySession:
    """The player guesses; a fixed answer or the evil host replies (pure: no I/O)."""

    def __init__(self, lexicon: Lexicon, matrix: np.ndarray, *, hard: bool = False,
                 answer: int | None = None, evil: bool = False) -> None:
        if evil == (answer is not None):
            raise ValueError("give exactly one of answer= or evil=True")
        self.lex = lexicon
        self.answer = answer
        self.host = EvilHost(GameState.new(lexicon, hard, matrix)) if evil else None
        self.state = self.host.state if self.host else GameState.new(lexicon, hard, matrix)

    def start(self) -> Reply:
        who = "the evil host (it never commits to an answer)" if self.host else "a hidden answer"
        mode = ", hard mode" if self.state.hard else ""
        return Reply([text(f"{self.lex.name}{mode}: guess the {self.lex.length}-character word "
                           f"in {self.lex.max_guesses} tries against {who}. 'help' for help.")])

    def handle(self, line: str) -> Reply:
        cmd = line.strip()
        low = cmd.lower()
        if not cmd:
            return Reply([text("Type a guess, or 'help'.")])
        if low in QUIT:
            return Reply([text(f"Gave up. {self._reveal()}")], done=True)
        if low in HELP:
            return Reply([text(PLAY_HELP)])
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
        st = self.state
        note = f"{st.turn}/{self.lex.max_guesses}"
        if self.host is not None and not st.solved:
            note += f"  ({_plural(st.n_candidates, 'word')} still in play)"
        out = [tiles(self.lex.guesses[row], pattern, note)]
        if st.solved:
            out.append(text(f"You won in {st.turn}!"))
            return Reply(out, done=True)
        if st.guesses_left <= 0:
            out.append(text(f"Out of guesses. {self._reveal()}"))
            return Reply(out, done=True)
        return Reply(out)

    def _reveal(self) -> str:
        if self.host is None:
            assert self.answer is not None  # (a fixed answer is the one other way to play)
            return f"The answer was {self.lex.answers[self.answer].upper()}."
        words = self.host.state.candidate_words()
        return (f"I never picked one: {_plural(len(words), 'word')} still fit everything I said, "
                f"e.g. {' '.join(w.upper() for w in words[:5])}.")

    def replies(self) -> list[tuple[str, str]]:
        return [(self.lex.guesses[g], pattern_to_str(p, self.lex.length)) for g, p in self.state.history]
