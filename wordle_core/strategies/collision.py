"""The "collision breaker" of "Winning Wordle's Hard Mode", attempts 1, 3 and 4.

Hard mode's trap is a *collision set*: words that differ in one position only
(``*ATCH`` = HATCH, WATCH, CATCH, ...). Once four letters are green every legal guess
keeps them, so each guess can rule out one word of the set; a set larger than the
guesses left loses. The article "fractures" every word into its five wildcard *shards*
(``TEACH`` -> ``*EACH``, ``T*ACH``, ...) and groups the possible answers by shard.

* ``collision-filter`` (attempt 1): play the fallback strategy, but never a word with
  a shard whose set is larger than the guesses left (nor, for a word that cannot be
  the answer, a set exactly as large). When the filter removes every legal guess it
  is switched off for that turn (the article's "graceful" fix for its crash); words
  that would reveal nothing are dropped from the kept list first, so the fallback
  can never loop on an uninformative word.
* ``collision-breaker-3`` (attempt 3): while any collision set of the candidates has
  at least ``guesses left`` words, score each legal guess by the *worst* bucket's
  total collision size (sets of at least ``guesses left - 1`` words inside the
  bucket, i.e. the guesses left after this one); play the smallest score, ties by the
  fallback. With no such set left, play the fallback.
* ``collision-breaker`` (attempt 4, the article's winner): the same with every
  threshold lowered by one (``size >= max_size - 1``), which breaks sets earlier.

The *fallback* (the article's normal-mode scorer from an earlier post we do not have)
is the ``partitions`` strategy by default: the most distinct feedback patterns, which
like the article's fallback opens with TRACE. Remaining ties: a possible answer, then
alphabetical (the project's rule). Option ``fallback=NAME`` picks another strategy.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from wordle_core.game.lexicon import Lexicon
from wordle_core.game.state import GameState
from wordle_core.strategies.base import Strategy, candidate_mask, register
from wordle_core.strategies.greedy import pick_lexicographic

_CELLS = 8_000_000  # guesses x shards x patterns per counting block (memory bound)


@lru_cache(maxsize=8)  # per lexicon: a few kept
def shard_keys(lexicon: Lexicon) -> np.ndarray:
    """(n_guesses, length) int64: each word's shard keys (position i replaced by a wildcard).

    A key is the word in base ``|alphabet| + 1`` with the wildcard as the extra digit,
    so two words share a key iff they agree everywhere except position i.
    """
    codes = lexicon.guess_codes.astype(np.int64)
    base = len(lexicon.alphabet) + 1
    L = codes.shape[1]
    weights = base ** np.arange(L - 1, -1, -1, dtype=np.int64)
    word = codes @ weights
    wild = base - 1
    return np.stack([word + (wild - codes[:, i]) * weights[i] for i in range(L)], axis=1)


def collision_sets(lexicon: Lexicon, cands: np.ndarray, min_size: int) -> dict[int, np.ndarray]:
    """Shard key -> candidate ids sharing it, for sets of at least ``min_size`` words."""
    keys = shard_keys(lexicon)[lexicon.answer_rows[cands]]  # (n, L)
    flat = keys.ravel()
    owner = np.repeat(np.arange(len(cands)), keys.shape[1])
    order = np.argsort(flat, kind="stable")
    fs = flat[order]
    cuts = np.flatnonzero(np.diff(fs)) + 1
    starts = np.concatenate(([0], cuts))
    ends = np.append(cuts, len(fs))
    out = {}
    for s, e in zip(starts, ends, strict=True):
        if e - s >= max(min_size, 1):
            out[int(fs[s])] = cands[owner[order[s:e]]]
    return out


def shard_text(lexicon: Lexicon, key: int) -> str:
    """``GRA*E``-style text of a shard key (for reports and tests)."""
    base = len(lexicon.alphabet) + 1
    chars = []
    for _ in range(lexicon.length):
        key, d = divmod(key, base)
        chars.append("*" if d == base - 1 else lexicon.alphabet[d].upper())
    return "".join(reversed(chars))


def worst_bucket_collisions(
    matrix: np.ndarray, rows: np.ndarray, sets: list[np.ndarray], min_size: int, n_patterns: int
) -> np.ndarray:
    """Per guess row: max over its buckets of the summed sizes of collision sets >= ``min_size``.

    A set inside a bucket is the part of a set of the whole candidate list that shows
    the same pattern, so only the candidate list's sets of at least ``min_size``
    words can matter; they are counted per (guess, set, pattern) in one ``bincount``
    per block of guesses.
    """
    if not sets or len(rows) == 0:
        return np.zeros(len(rows), dtype=np.int64)
    members = np.concatenate(sets)
    set_id = np.repeat(np.arange(len(sets)), [len(s) for s in sets])
    n_sets = len(sets)
    width = n_sets * n_patterns
    step = max(1, _CELLS // width)
    out = np.empty(len(rows), dtype=np.int64)
    for lo in range(0, len(rows), step):
        r = rows[lo : lo + step]
        block = np.asarray(matrix[r][:, members]).astype(np.int64)
        keys = block + (set_id * n_patterns)[None, :] + (np.arange(len(r)) * width)[:, None]
        c = np.bincount(keys.ravel(), minlength=len(r) * width).reshape(len(r), n_sets, n_patterns)
        c = np.where(c >= max(min_size, 1), c, 0).sum(axis=1)
        out[lo : lo + step] = c.max(axis=1)
    return out


class _CollisionBase(Strategy):
    depth_sensitive = True  # thresholds depend on the guesses left
    offset = 1  # how much lower than "guesses left" a set counts (attempt 4: 1)

    def fallback_pick(self, state: GameState, rows: np.ndarray) -> int:
        """The fallback's choice among ``rows`` (default: most distinct patterns)."""
        from wordle_core.kernels.buckets import bucket_stats

        name = str(self.options.get("fallback", "partitions"))
        is_cand = candidate_mask(state, rows)
        if name == "partitions":
            st = bucket_stats(state.matrix, rows, state.candidates, state.lexicon.n_patterns)
            return int(rows[pick_lexicographic([-st.buckets, st.sum_sq], is_cand)])
        from wordle_core.strategies import get_strategy

        # Another registered strategy: ask it, restricted to ``rows``.
        sub = get_strategy(name)
        best = sub.choose(state)
        return best if best in set(rows.tolist()) else int(rows[pick_lexicographic([~is_cand], is_cand)])


@register
class CollisionBreaker(_CollisionBase):
    name = "collision-breaker"
    summary = "hard mode: break shard collision sets first (size >= left-1), then partitions"
    source = "\"Winning Wordle's Hard Mode\", attempt 4"

    def _choose(self, state: GameState) -> int:
        rows = state.legal_rows
        left = state.guesses_left
        lex = state.lexicon
        off = int(self.options.get("offset", self.offset))
        if not collision_sets(lex, state.candidates, left - off):
            return self.fallback_pick(state, rows)
        sets = list(collision_sets(lex, state.candidates, left - 1 - off).values())
        score = worst_bucket_collisions(state.matrix, rows, sets, left - 1 - off, lex.n_patterns)
        tied = rows[score == score.min()]
        return self.fallback_pick(state, tied)


@register
class CollisionBreaker3(CollisionBreaker):
    name = "collision-breaker-3"
    summary = "hard mode: break collision sets of size >= guesses left first, then partitions"
    source = "\"Winning Wordle's Hard Mode\", attempt 3"
    offset = 0


@register
class CollisionFilter(_CollisionBase):
    name = "collision-filter"
    summary = "hard mode: partitions, avoiding words in collision sets larger than the guesses left"
    source = "\"Winning Wordle's Hard Mode\", attempt 1"

    def _choose(self, state: GameState) -> int:
        from wordle_core.kernels.buckets import bucket_stats

        rows = state.legal_rows
        left = state.guesses_left
        lex = state.lexicon
        sets = collision_sets(lex, state.candidates, 1)
        sizes = {k: len(v) for k, v in sets.items()}
        avoid = np.array([k for k, s in sizes.items() if s > left], dtype=np.int64)
        avoid_np = np.array([k for k, s in sizes.items() if s == left], dtype=np.int64)
        keys = shard_keys(lex)[rows]
        bad = np.isin(keys, avoid).any(axis=1)
        bad |= np.isin(keys, avoid_np).any(axis=1) & ~candidate_mask(state, rows)
        keep = rows[~bad]
        if len(keep):
            # A kept word must still tell candidates apart (or be one): otherwise the
            # fallback could repeat an uninformative word forever.
            st = bucket_stats(state.matrix, keep, state.candidates, lex.n_patterns)
            keep = keep[(st.buckets > 1) | candidate_mask(state, keep)]
        return self.fallback_pick(state, keep if len(keep) else rows)
