"""Answer likelihoods: a prior over answers from word frequencies, and weighted scores.

Why: in the ``*-all`` lexicons every one of 14,855 guesses may be the answer (seed
002's setting, where its solver solved only 91.5% within 6). Real answers are
common words; a solver that knows ``syver`` is unlikely spends its guesses on the
words people actually play. WordleBot and weekendwordle weight answers this way.

The prior (``frequency``) is ``wordfreq.word_frequency(word, "en")`` (data shipped
in the package, nothing downloaded at run time) plus a floor of half the smallest
non-zero frequency in the list, so that words wordfreq has never seen keep a small
chance instead of becoming impossible. ``uniform`` gives every answer weight 1.
Weights are normalised to sum to 1 over the lexicon's answers.

Weighted partition scores generalise the bucket counts to bucket *masses* (the
prior summed over the candidates in a bucket): entropy ``-Σ p_b log2 p_b`` with
``p_b = mass_b / total``, expected remaining mass ``Σ mass_b² / total``. They are
computed by :func:`wordle_core.kernels.buckets.weighted_stats` (one pass per guess
row, no 243-wide temporary per guess), which with uniform weights gives the
unweighted statistics of :func:`wordle_core.kernels.buckets.bucket_stats` (tested).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from wordle_core.errors import WordleError
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.state import GameState
from wordle_core.strategies.base import Strategy, candidate_mask, register

PRIORS = ("uniform", "frequency")


_PRIORS: dict[tuple[str, str], np.ndarray] = {}


def _build_prior(answers: tuple[str, ...], alphabet: str, kind: str) -> np.ndarray:
    if kind == "uniform":
        w = np.ones(len(answers))
    elif kind == "frequency":
        if not set(alphabet) <= set("abcdefghijklmnopqrstuvwxyz"):
            raise WordleError("the frequency prior needs an English word lexicon (letters a-z)")
        from wordfreq import word_frequency

        w = np.array([word_frequency(a, "en") for a in answers], dtype=np.float64)
        nonzero = w[w > 0]
        floor = nonzero.min() / 2 if nonzero.size else 1.0
        w = w + floor
    else:
        raise WordleError(f"unknown prior {kind!r}; choose one of {', '.join(PRIORS)}")
    w = w / w.sum()
    w.setflags(write=False)
    return w


def answer_prior(lexicon: Lexicon, kind: str = "frequency") -> np.ndarray:
    """Probability of each answer (aligned with ``lexicon.answers``), summing to 1.

    Built once per (lexicon content, prior) and process; strategies call this per move.
    """
    key = (lexicon.fingerprint, kind)
    hit = _PRIORS.get(key)
    if hit is None:
        hit = _PRIORS[key] = _build_prior(lexicon.answers, lexicon.alphabet, kind)
    return hit


class PriorStrategy(Strategy):
    """Partition strategy over bucket masses under an answer prior (option ``prior``)."""

    def prior(self, state: GameState) -> np.ndarray:
        return answer_prior(state.lexicon, str(self.options.get("prior", "frequency")))

    def choose(self, state: GameState) -> int:
        if state.n_candidates == 0:
            raise ValueError("no candidates left")
        if state.n_candidates <= 2:
            # Two left: guess the likelier one (ties: alphabetical, i.e. lower row).
            w = self.prior(state)[state.candidates]
            rows = state.candidate_rows
            order = np.lexsort((rows, -w))
            return int(rows[order[0]])
        return super().choose(state)

    def _scores(self, state: GameState) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        from wordle_core.kernels.buckets import weighted_stats

        rows = state.legal_rows
        w = self.prior(state)[state.candidates]
        h, sq, _ = weighted_stats(state.matrix, rows, state.candidates, w, state.lexicon.n_patterns)
        total = w.sum()
        # Chance that the guess is the answer now: its own prior mass among the candidates.
        win = np.zeros(len(state.lexicon.guesses))
        win[state.candidate_rows] = w / total
        return rows, h, sq / total, win[rows]


@register
class PriorEntropy(PriorStrategy):
    name = "prior-entropy"
    summary = "entropy over the answer prior (option prior=frequency|uniform) plus P(win now)"
    source = "WordleBot / weekendwordle idea; wordfreq frequencies"

    def _choose(self, state: GameState) -> int:
        rows, h, _, win = self._scores(state)
        is_cand = candidate_mask(state, rows)
        key = np.round(-(h + win), 9)
        return int(rows[np.lexsort((np.arange(len(rows)), ~is_cand, key))[0]])


@register
class PriorExpectedSize(PriorStrategy):
    name = "prior-expected-size"
    summary = "minimise the expected remaining prior mass (option prior=frequency|uniform)"
    source = "WordleBot's 'expected remaining' with likely answers weighted up"

    def _choose(self, state: GameState) -> int:
        rows, _, exp, _ = self._scores(state)
        is_cand = candidate_mask(state, rows)
        key = np.round(exp, 12)
        return int(rows[np.lexsort((np.arange(len(rows)), ~is_cand, key))[0]])


def weighted_success(lengths: np.ndarray, answers: np.ndarray, weights: np.ndarray, limit: int) -> float:
    """Share of games solved within ``limit``, each answer counted by its weight."""
    w = weights[answers]
    return float(w[lengths <= limit].sum() / w.sum())


class _Counting:
    """Wraps a strategy to tick a progress bar once per decided position."""

    def __init__(self, strategy: Strategy, bar) -> None:
        self.strategy, self.bar, self.name = strategy, bar, strategy.name

    def choose(self, state: GameState) -> int:
        if self.bar is not None:
            self.bar.update(1)
        return self.strategy.choose(state)


def prior_effect(
    lexicon: Lexicon, strategy: str = "entropy", opener: str | None = None, hard: bool = False,
    matrix: np.ndarray | None = None, progress: bool = False,
) -> dict[str, Any]:
    """Solve every answer with the uniform and the frequency prior; count both ways.

    For each solver prior the report gives the share of answers solved within the
    guess limit counted two ways: unweighted (every answer once, "Wordle Solver KT"'s count)
    and weighted by the frequency prior (how often a player would win if answers
    were drawn by how common the words are). The opener is the strategy's own choice
    at the empty board unless ``opener`` is given (then both runs use it).
    """
    import time

    from wordle_core.game.tree import Tree
    from wordle_core.strategies import get_strategy

    if strategy not in ("entropy", "expected-size"):
        raise WordleError("--prior works with the entropy and expected-size strategies")
    freq = answer_prior(lexicon, "frequency")
    root = GameState.new(lexicon, hard, matrix)
    runs = []
    for kind in PRIORS:
        t0 = time.perf_counter()
        strat = get_strategy(f"prior-{strategy}", prior=kind)
        first = lexicon.guess_id(opener) if opener else strat.choose(root)
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(desc=f"prior={kind}: positions", unit="pos", leave=False, file=sys.stderr)
        try:
            tree = Tree.build(_Counting(strat, bar), root, first)
        finally:
            if bar is not None:
                bar.close()
        answers = tree.answers
        lengths = tree.lengths()
        w = freq[answers]
        runs.append({
            "prior": kind,
            "strategy": f"prior-{strategy}",
            "opener": lexicon.guesses[first],
            "mean_guesses": float(lengths.mean()),
            "mean_guesses_weighted": float((w * lengths).sum() / w.sum()),
            "solved_unweighted": float((lengths <= lexicon.max_guesses).mean()),
            "solved_weighted": weighted_success(lengths, answers, freq, lexicon.max_guesses),
            "max_guesses": int(lengths.max()),
            "guess_distribution": {str(k): int(v) for k, v in enumerate(np.bincount(lengths)) if v},
            "seconds": round(time.perf_counter() - t0, 2),
        })
    return {"lexicon": lexicon.name, "hard": hard, "limit": lexicon.max_guesses,
            "answers": len(lexicon.answers), "runs": runs}


def strategy_with_prior(name: str, prior: str | None) -> Strategy:
    """The strategy a command runs for ``--strategy NAME --prior KIND``.

    Without a prior (or ``uniform`` on a non-prior strategy) this is the plain registry
    strategy; with one, ``entropy`` / ``expected-size`` become their weighted versions
    ``prior-entropy`` / ``prior-expected-size`` with that prior.
    """
    from wordle_core.strategies import get_strategy

    if prior is None:
        return get_strategy(name)
    if prior not in PRIORS:
        raise WordleError(f"unknown prior {prior!r}; choose one of {', '.join(PRIORS)}")
    base = name.removeprefix("prior-")
    if base not in ("entropy", "expected-size"):
        raise WordleError(f"--prior works with the entropy and expected-size strategies, not {name!r}")
    return get_strategy(f"prior-{base}", prior=prior)
