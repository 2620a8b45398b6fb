"""Review a played game guess by guess, the way WordleBot does: skill and luck.

For every guess of a finished (or abandoned) game the review gives the candidates
before and after, the guess's expected remaining candidates and expected
information against the best guess at that point (the registry strategy's choice,
``get_strategy(name).choose(state)``: the same call ``suggest`` makes), a skill and
a luck score, and how many guesses the best strategy would still have needed.

Formulas (documented because players compare them):

* **value** of a guess = expected information in bits + P(the guess is the answer)
  (``H + [guess is a candidate] / n``), the measure the entropy strategies maximise.
* **skill** (0-99) = ``99`` when you played the best guess; otherwise
  ``floor(99 * min(1, value(yours) / value(best)))``. A guess that can only be worse
  than useless (value 0) scores 0; one as informative as the best scores 99 even if
  the strategy would have played another word.
* **luck** (0-99) = ``round(99 * (P(bucket larger than yours) + P(bucket equal) / 2))``
  over the candidates before the guess (each equally likely): the percentile of the
  bucket you landed in, small buckets lucky. Solving the game counts as a bucket of
  size 0. 50 = as expected.
* **best_would_need**: guesses the best strategy needs from the position *before*
  this guess to finish (for the real answer when the game was solved; the mean over
  the candidates when it was not).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, cast

import numpy as np

from wordle_core.errors import WordleError
from wordle_core.game.feedback import all_green, parse_feedback, pattern_to_str
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.kernels.buckets import bucket_counts, bucket_stats
from wordle_core.strategies import Strategy, get_strategy

MAX_PLAYOUT = 30


@dataclass
class ReviewStep:
    """One guess of the reviewed game."""

    turn: int
    guess: str
    feedback: str
    candidates_before: int
    candidates_after: int
    your_expected_remaining: float
    your_entropy: float
    best_guess: str
    best_expected_remaining: float
    best_entropy: float
    skill: int
    luck: int
    best_would_need: float


def guess_value(entropy: float, is_candidate: bool, n: int) -> float:
    """Expected information plus the chance to win now (see module docstring)."""
    return entropy + (1.0 / n if is_candidate else 0.0)


def skill_score(your_value: float, best_value: float, played_best: bool) -> int:
    """0-99: how close your guess's value came to the best guess's value."""
    if played_best:
        return 99
    if best_value <= 0.0:
        return 99 if your_value >= best_value else 0
    return math.floor(99 * min(1.0, max(0.0, your_value / best_value)) + 1e-9)


def luck_score(bucket_sizes: np.ndarray, actual: int, solved: bool) -> int:
    """0-99 percentile of your bucket among the candidates' buckets (smaller = luckier)."""
    sizes = bucket_sizes[bucket_sizes > 0]
    n = sizes.sum()
    mine = 0 if solved else actual
    # Each candidate lands in a bucket of size s with probability s/n; a solved game's
    # own bucket (the answer, size 1) counts as size 0.
    if solved:
        larger = n - 1.0
        equal = 1.0
    else:
        larger = float((sizes * (sizes > mine)).sum())
        equal = float((sizes * (sizes == mine)).sum())
    return round(99 * (larger + equal / 2) / n)


def _playout(strategy, state: GameState, answer: int) -> int:
    """Guesses the strategy needs from ``state`` to solve ``answer``."""
    st = state
    for k in range(1, MAX_PLAYOUT + 1):
        st = st.play(strategy.choose(st), answer)
        if st.solved:
            return k
    raise WordleError(f"strategy made no progress after {MAX_PLAYOUT} guesses")


def review_game(
    lexicon: Lexicon,
    history: list[tuple[str, str]],
    strategy: str | Strategy = "entropy",
    hard: bool = False,
    matrix: np.ndarray | None = None,
) -> dict[str, object]:
    """Review ``[(word, feedback), ...]``; returns a JSON-ready dict with one step per guess."""
    if not history:
        raise WordleError("the history is empty: give at least one WORD:FEEDBACK")
    mat = pattern_matrix(lexicon) if matrix is None else matrix
    strat = get_strategy(strategy) if isinstance(strategy, str) else strategy
    options = getattr(strat, "options", {})
    name = strat.name + (f" (prior={options['prior']})" if "prior" in options else "")
    green = all_green(lexicon.length)
    parsed = [(lexicon.guess_id(w), parse_feedback(fb, lexicon.length)) for w, fb in history]
    for i, (_, pat) in enumerate(parsed[:-1]):
        if pat == green:
            raise WordleError(f"guess {i + 1} already solved the game; nothing may follow it")
    final = GameState.new(lexicon, hard, mat)
    for row, pat in parsed:
        final = final.apply(row, pat)  # validates words, feedback and hard-mode rules
    solved = final.solved
    answer = int(final.candidates[0]) if solved else None

    state = GameState.new(lexicon, hard, mat)
    steps: list[ReviewStep] = []
    for turn, (row, pat) in enumerate(parsed, 1):
        n = state.n_candidates
        best = int(strat.choose(state))
        stats = bucket_stats(mat, np.array([row, best]), state.candidates, lexicon.n_patterns)
        is_cand = np.isin([row, best], state.candidate_rows)
        yours_v = guess_value(float(stats.entropy[0]), bool(is_cand[0]), n)
        best_v = guess_value(float(stats.entropy[1]), bool(is_cand[1]), n)
        sizes = bucket_counts(mat, row, state.candidates, lexicon.n_patterns)
        after = state.apply(row, pat)
        if answer is not None:
            need: float = float(_playout(strat, state, answer))
        else:
            tree = Tree.build(strat, state, best)
            need = float(tree.lengths().mean())
        steps.append(ReviewStep(
            turn=turn,
            guess=lexicon.guesses[row],
            feedback=pattern_to_str(pat, lexicon.length),
            candidates_before=n,
            candidates_after=0 if pat == green else after.n_candidates,
            your_expected_remaining=round(float(stats.expected_size[0]), 4),
            your_entropy=round(float(stats.entropy[0]), 4),
            best_guess=lexicon.guesses[best],
            best_expected_remaining=round(float(stats.expected_size[1]), 4),
            best_entropy=round(float(stats.entropy[1]), 4),
            skill=skill_score(yours_v, best_v, row == best),
            luck=luck_score(sizes, int(sizes[pat]), pat == green),
            best_would_need=round(need, 4),
        ))
        state = after
    return {
        "lexicon": lexicon.name,
        "strategy": name,
        "hard": hard,
        "solved": solved,
        "answer": lexicon.answers[answer] if answer is not None else None,
        "guesses": len(parsed),
        "skill": round(float(np.mean([s.skill for s in steps]))),
        "luck": round(float(np.mean([s.luck for s in steps]))),
        "steps": [asdict(s) for s in steps],
    }


def format_review(review: dict[str, object]) -> str:
    """The terminal report: one block per guess."""
    lines = []
    mode = "hard" if review["hard"] else "normal"
    head = f"{review['lexicon']} · best = {review['strategy']} · {mode} mode"
    lines.append(head)
    for s in cast("list[dict[str, Any]]", review["steps"]):
        best = "(the best guess)" if s["guess"] == s["best_guess"] else f"best {s['best_guess'].upper()}"
        lines.append(
            f"{s['turn']}. {s['guess'].upper()} {s['feedback']}  skill {s['skill']:>2}  luck {s['luck']:>2}  "
            f"{s['candidates_before']:,} -> {s['candidates_after']:,} left"
        )
        lines.append(
            f"   yours: {s['your_expected_remaining']:.1f} expected left, {s['your_entropy']:.2f} bits;  "
            f"{best}: {s['best_expected_remaining']:.1f} expected, {s['best_entropy']:.2f} bits;  "
            f"best needs {s['best_would_need']:g} from here"
        )
    verdict = f"solved {str(review['answer']).upper()} in {review['guesses']}" if review["solved"] \
        else f"not solved after {review['guesses']}"
    lines.append(f"{verdict} · skill {review['skill']} · luck {review['luck']}")
    return "\n".join(lines)
