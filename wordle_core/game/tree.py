"""Decision trees: a deterministic strategy from an opener, played once for all answers.

A deterministic strategy's next guess depends only on the position, so all games
from one opener form a tree: node = position, edge = feedback pattern. Building it
visits every position once (instead of once per game) and every game's length, path
and feedback is read off it. Trees serialise to JSON (nested) and to flat
``(feedback path) -> guess`` rows, which is what the Avro ``trees`` table stores.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np

from wordle_core.errors import WordleError
from wordle_core.game.feedback import all_green, pattern_to_str
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.state import GameState


class Chooser(Protocol):
    """What a tree needs of a strategy (:class:`wordle_core.strategies.Strategy` is one):
    the next guess row for a position; its ``name``, when it has one, labels the tree.

    A chooser may also offer ``tree_arrays(state, opener_row) -> TreeArrays | None``:
    the whole tree at once (the greedy strategies' and ``default``'s compiled walks), which
    :meth:`Tree.build` uses when it is not asked to time each decision.
    """

    def choose(self, state: GameState) -> int: ...


@dataclass(frozen=True)
class TreeArrays:
    """A whole tree as arrays, nodes in :meth:`Tree.build`'s order: per node its guess row,
    parent node (-1: the root), pattern from the parent (-1: the root) and depth (1: the
    root); per answer the node whose guess it is (-1: not a candidate at the root)."""

    guess: np.ndarray
    parent: np.ndarray
    pattern_in: np.ndarray
    depth: np.ndarray
    solved_at: np.ndarray


MAX_DEPTH = 30  # safety cap: a non-splitting guess loop would otherwise never end


@dataclass
class Tree:
    """All games of one (lexicon, strategy, opener, mode), as a tree of positions."""

    lexicon: Lexicon
    strategy: str
    opener: int
    hard: bool
    guess: list[int] = field(default_factory=list)  # per node: guess row
    parent: list[int] = field(default_factory=list)  # per node: parent node (-1 root)
    pattern_in: list[int] = field(default_factory=list)  # per node: pattern from parent
    depth: list[int] = field(default_factory=list)  # per node: 1 for the root
    seconds: list[float] = field(default_factory=list)  # per node: decision time
    children: list[dict[int, int]] = field(default_factory=list)
    solved_at: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))

    # --- building ----------------------------------------------------------------------
    @classmethod
    def build(cls, strategy: Chooser, state: GameState, opener: int | str, timed: bool = True) -> Tree:
        """Play ``strategy`` from ``opener`` against every candidate of ``state``.

        ``timed``: measure each decision (:attr:`seconds`, read by per-game times).
        Without it, a strategy with a compiled walk (``tree_arrays``) builds the whole
        tree in one call, the same nodes in the same order, and ``seconds`` are 0.
        """
        lex = state.lexicon
        opener_row = lex.guess_id(opener) if isinstance(opener, str) else int(opener)
        if state.hard:
            state.constraints.check(lex, opener_row)
        tree = cls(lex, getattr(strategy, "name", str(strategy)), opener_row, state.hard)
        walk = None if timed else getattr(strategy, "tree_arrays", None)
        arrays = walk(state, opener_row) if walk is not None else None
        if arrays is not None:
            return tree._fill(arrays)
        tree.solved_at = np.full(len(lex.answers), -1, dtype=np.int32)
        green = all_green(lex.length)
        # Buckets of one or two answers are played without a state or a strategy call when
        # the strategy uses the base rule there (guess the first candidate): the same nodes
        # in the same order, at a fraction of the cost (most nodes of a tree are such).
        small = _plays_first_candidate(strategy)
        arow = lex.answer_rows
        mat = np.asarray(state.matrix)
        # (state or None for a small bucket, guess, parent, pattern in, seconds, small bucket, turn)
        stack: list[tuple[GameState | None, int, int, int, float, np.ndarray | None, int]] = [
            (state, opener_row, -1, -1, 0.0, None, state.turn)]
        while stack:
            st, guess, parent, pat_in, secs, few, turn = stack.pop()
            node = tree._add(guess, parent, pat_in, secs)
            if turn + 1 > MAX_DEPTH:
                raise WordleError(
                    f"strategy {tree.strategy} made no progress after {MAX_DEPTH} guesses"
                )
            if st is None:  # guess = few[0], a candidate: it solves few[0]; few[1] comes next
                assert few is not None  # (a small bucket travels with every stateless entry)
                tree.solved_at[few[0]] = node
                if few.shape[0] == 2:
                    nxt_pat = int(mat[guess, few[1]])
                    stack.append((None, int(arow[few[1]]), node, nxt_pat, 0.0, few[1:], turn + 1))
                continue
            if st.hard:
                st.constraints.check(lex, guess)
            buckets = _split(st.matrix, guess, st.candidates)
            for pat, bucket in sorted(buckets.items(), reverse=True):
                if pat == green:
                    tree.solved_at[bucket] = node
                    continue
                if small and bucket.shape[0] <= 2:
                    stack.append((None, int(arow[bucket[0]]), node, pat, 0.0, bucket, turn + 1))
                    continue
                child = st.apply(guess, pat)
                t0 = time.perf_counter()
                nxt = strategy.choose(child)
                stack.append((child, nxt, node, pat, time.perf_counter() - t0, None, turn + 1))
        return tree

    def _fill(self, arrays: TreeArrays) -> Tree:
        """This (empty) tree's nodes from ``arrays``."""
        self.guess = arrays.guess.tolist()
        self.parent = arrays.parent.tolist()
        self.pattern_in = arrays.pattern_in.tolist()
        self.depth = arrays.depth.tolist()
        self.seconds = [0.0] * len(self.guess)
        self.children = [{} for _ in self.guess]
        for node, (par, pat) in enumerate(zip(self.parent, self.pattern_in, strict=True)):
            if par >= 0:
                self.children[par][pat] = node
        self.solved_at = arrays.solved_at.astype(np.int32)
        return self

    def _add(self, guess: int, parent: int, pat_in: int, secs: float) -> int:
        self.guess.append(int(guess))
        self.parent.append(parent)
        self.pattern_in.append(pat_in)
        self.depth.append(1 if parent < 0 else self.depth[parent] + 1)
        self.seconds.append(secs)
        self.children.append({})
        if parent >= 0:
            self.children[parent][pat_in] = len(self.guess) - 1
        return len(self.guess) - 1

    # --- reading games ------------------------------------------------------------------
    @property
    def answers(self) -> np.ndarray:
        """Answer ids this tree covers (all candidates of the root position)."""
        return np.flatnonzero(self.solved_at >= 0)

    def lengths(self) -> np.ndarray:
        """Guesses used per covered answer (same order as :attr:`answers`)."""
        d = np.asarray(self.depth)
        return d[self.solved_at[self.answers]]

    def longest_games(self, k: int) -> list[int]:
        """Answer ids of the ``k`` longest games, longest first, ties alphabetical."""
        answers = self.answers
        order = np.lexsort((answers, -self.lengths()))
        return [int(answers[i]) for i in order[:k]]

    def path(self, answer: int) -> list[tuple[int, int]]:
        """The game for ``answer``: [(guess row, pattern), ...] ending all-green."""
        node = int(self.solved_at[answer])
        if node < 0:
            raise WordleError(f"answer {self.lexicon.answers[answer]!r} is not in this tree")
        out = [(self.guess[node], all_green(self.lexicon.length))]
        while self.parent[node] >= 0:
            pat = self.pattern_in[node]
            node = self.parent[node]
            out.append((self.guess[node], pat))
        return out[::-1]

    def path_seconds(self, answer: int) -> float:
        """Decision time along the game's path: what solving that game alone costs."""
        node = int(self.solved_at[answer])
        total = 0.0
        while node >= 0:
            total += self.seconds[node]
            node = self.parent[node]
        return total

    def next_guess(self, patterns: list[int]) -> int | None:
        """The tree's guess after the feedback sequence ``patterns`` (None: not covered)."""
        node = 0
        for p in patterns:
            node = self.children[node].get(int(p), -1)
            if node < 0:
                return None
        return self.guess[node]

    # --- serialisation ------------------------------------------------------------------
    def rows(self) -> list[tuple[str, str]]:
        """Flat ``(feedback path, guess word)`` rows; path = patterns joined by ``,``."""
        L = self.lexicon
        paths: list[str] = []
        out = []
        for node, g in enumerate(self.guess):
            if self.parent[node] < 0:
                p = ""
            else:
                prev = paths[self.parent[node]]
                pat = pattern_to_str(self.pattern_in[node], L.length)
                p = f"{prev},{pat}" if prev else pat
            paths.append(p)
            out.append((p, L.guesses[g]))
        return out

    def to_dict(self) -> dict[str, object]:
        L = self.lexicon

        def nest(node: int) -> dict[str, object]:
            d: dict[str, object] = {"guess": L.guesses[self.guess[node]]}
            if self.children[node]:
                d["next"] = {
                    pattern_to_str(p, L.length): nest(c)
                    for p, c in sorted(self.children[node].items())
                }
            return d

        return {
            "lexicon": L.name, "strategy": self.strategy, "hard": self.hard,
            "opener": L.guesses[self.opener], "root": nest(0),
        }

    def save_json(self, path: str | Path) -> None:
        from wordle_core.files import atomic_write_text

        atomic_write_text(Path(path), json.dumps(self.to_dict(), indent=1))

    @classmethod
    def from_rows(
        cls, lexicon: Lexicon, rows: list[tuple[str, str]], strategy: str = "table",
        hard: bool = False, matrix: np.ndarray | None = None,
    ) -> Tree:
        """Rebuild a tree from flat rows (e.g. a ``trees`` Avro table) and re-solve leaves."""
        from wordle_core.game.feedback import parse_feedback

        by_path = {p: w for p, w in rows}
        if "" not in by_path:
            raise WordleError("tree table has no root row (empty path)")
        tree = cls(lexicon, strategy, lexicon.guess_id(by_path[""]), hard)
        tree.solved_at = np.full(len(lexicon.answers), -1, dtype=np.int32)
        ids: dict[str, int] = {}
        for p in sorted(by_path, key=lambda s: (s.count(",") if s else -1, s)):
            g = lexicon.guess_id(by_path[p])
            if p == "":
                ids[p] = tree._add(g, -1, -1, 0.0)
                continue
            head, _, last = p.rpartition(",")
            if head not in ids:
                raise WordleError(f"tree table row {p!r} has no parent row")
            ids[p] = tree._add(g, ids[head], parse_feedback(last, lexicon.length), 0.0)
        state = GameState.new(lexicon, hard, matrix)
        _mark_solved(tree, state)
        return tree

    @classmethod
    def load_json(cls, lexicon: Lexicon, path: str | Path, matrix: np.ndarray | None = None) -> Tree:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise WordleError(f"cannot read tree {str(path)!r}: {exc}") from None
        rows: list[tuple[str, str]] = []

        def walk(d: dict, prefix: str) -> None:
            rows.append((prefix, d["guess"]))
            for pat, child in d.get("next", {}).items():
                walk(child, f"{prefix},{pat}" if prefix else pat)

        walk(data["root"], "")
        return cls.from_rows(lexicon, rows, data.get("strategy", "table"),
                             bool(data.get("hard")), matrix)


def _plays_first_candidate(strategy: object) -> bool:
    """Whether ``strategy`` plays the first candidate with one or two left (the base rule).

    True when its ``choose`` is ``Strategy.choose`` itself (read by name: the game layer
    does not import the strategies), i.e. not overridden by the class or an instance.
    """
    fn = type(strategy).__dict__.get("choose") or getattr(type(strategy), "choose", None)
    return (getattr(fn, "__module__", None) == "wordle_core.strategies.base"
            and getattr(fn, "__qualname__", None) == "Strategy.choose"
            and "choose" not in getattr(strategy, "__dict__", {}))


def _mark_solved(tree: Tree, state: GameState) -> None:
    """Walk every answer down a loaded tree; fails loudly if the tree does not cover it."""
    green = all_green(tree.lexicon.length)
    stack = [(0, state.candidates)]
    while stack:
        node, cands = stack.pop()
        for pat, bucket in _split(state.matrix, tree.guess[node], cands).items():
            if pat == green:
                tree.solved_at[bucket] = node
            else:
                child = tree.children[node].get(pat)
                if child is None:
                    word = tree.lexicon.answers[int(bucket[0])]
                    raise WordleError(f"tree does not cover answer {word!r}")
                stack.append((child, bucket))


def build_tree(strategy: Chooser, lexicon: Lexicon, opener: str | int, hard: bool = False,
               matrix: np.ndarray | None = None) -> Tree:
    return Tree.build(strategy, GameState.new(lexicon, hard, matrix), opener)


def _split(matrix: np.ndarray, guess: int, candidates: np.ndarray) -> dict[int, np.ndarray]:
    """:func:`wordle_core.kernels.buckets.split_by_pattern`, imported on first use (numba)."""
    from wordle_core.kernels.buckets import split_by_pattern

    return split_by_pattern(matrix, guess, candidates)
