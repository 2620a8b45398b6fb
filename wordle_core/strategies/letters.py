"""The letter strategies of davidly/wordle's letter-splitting post, and the baselines.

``letter-split`` (the letter-splitting post): among the words that fit every clue, score each letter by
how evenly it splits them (a letter in half the words is a binary search step; one in
none or all tells nothing), ignoring positions already green, and score each word by
its letters, counting a repeated letter only once (its later copies get the lowest
score). Play the best-scoring candidate.

``worst`` plays the lowest-scoring candidate under the same measure (the post's "bad
word choices"), ``random`` a uniformly random candidate. Both only ever guess words
that fit the clues, as the post did. ``random`` is deterministic per position: its
generator is seeded from the option ``seed`` and the position itself, so a tree of
random choices is still reproducible.
"""

from __future__ import annotations

import zlib

import numpy as np

from wordle_core.game.feedback import GREEN, int_to_digits
from wordle_core.game.state import GameState
from wordle_core.strategies.base import Strategy, register


def green_positions(state: GameState) -> np.ndarray:
    """Boolean per position: already shown green in the history."""
    L = state.lexicon.length
    known = np.zeros(L, dtype=bool)
    for _, pat in state.history:
        known |= np.array(int_to_digits(pat, L)) == GREEN
    return known


def letter_split_scores(state: GameState) -> np.ndarray:
    """The letter-splitting post's score of every candidate (higher = splits the candidates better)."""
    codes = state.lexicon.answer_codes[state.candidates]  # (n, L)
    n, L = codes.shape
    open_pos = ~green_positions(state)
    alpha = len(state.lexicon.alphabet)
    present = np.zeros((n, alpha), dtype=bool)
    rows = np.arange(n)
    for pos in np.flatnonzero(open_pos):
        present[rows, codes[:, pos]] = True
    frac = present.mean(axis=0)
    letter_score = 1.0 - np.abs(2.0 * frac - 1.0)  # 1 at half the words, 0 at none/all
    # First copy of each letter (in open positions) counts; later copies score 0.
    first = np.ones((n, L), dtype=bool)
    for i in range(1, L):
        first[:, i] = ~(codes[:, :i] == codes[:, i : i + 1]).any(axis=1)
    contrib = letter_score[codes] * (first & open_pos[None, :])
    return contrib.sum(axis=1)


@register
class LetterSplit(Strategy):
    name = "letter-split"
    summary = "candidate whose letters best halve the candidates (repeats score lowest)"
    source = "davidly/wordle's letter-splitting post"

    def _choose(self, state: GameState) -> int:
        s = np.round(letter_split_scores(state), 9)
        return int(state.candidate_rows[int(np.lexsort((np.arange(len(s)), -s))[0])])


@register
class Worst(Strategy):
    name = "worst"
    summary = "candidate with the worst letter-split score (baseline)"
    source = "davidly/wordle's letter-splitting post"

    def _choose(self, state: GameState) -> int:
        s = np.round(letter_split_scores(state), 9)
        return int(state.candidate_rows[int(np.lexsort((np.arange(len(s)), s))[0])])


@register
class RandomCandidate(Strategy):
    name = "random"
    summary = "uniformly random candidate, seeded per position (baseline)"
    source = "davidly/wordle's letter-splitting post"

    def _choose(self, state: GameState) -> int:
        seed = int(self.options.get("seed", 0))
        h = zlib.crc32(state.candidates.tobytes(), zlib.crc32(str(state.turn).encode()))
        rng = np.random.default_rng([seed, h])
        return int(state.candidate_rows[int(rng.integers(state.n_candidates))])
