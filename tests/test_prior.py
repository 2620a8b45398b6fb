"""The frequency prior and weighted partition scores: kernel vs brute force, strategies, report."""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np
import pytest

from tests.reference_buckets import bucket_stats_numpy
from wordle_core.cli import main
from wordle_core.errors import WordleError
from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.kernels.buckets import weighted_stats
from wordle_core.strategies import get_strategy
from wordle_core.strategies.prior import answer_prior, prior_effect, weighted_success


@pytest.fixture(scope="module")
def small_all(small_lex) -> Lexicon:
    """Every guess of the small lexicon may be the answer (seed 002's setting, small)."""
    words = list(small_lex.guesses)
    return Lexicon.build("small-all", words, words)


def test_uniform_weights_reproduce_the_unweighted_kernel(small_lex):
    mat = pattern_matrix(small_lex)
    rows = np.arange(len(small_lex.guesses))
    rng = np.random.default_rng(0)
    for n in (1, 2, 5, 47, 48, 120, len(small_lex.answers)):
        cands = np.sort(rng.choice(len(small_lex.answers), n, replace=False))
        ref = bucket_stats_numpy(mat, None, cands, small_lex.n_patterns)
        h, sq, mx = weighted_stats(mat, rows, cands, np.ones(n), small_lex.n_patterns)
        np.testing.assert_allclose(h, ref.entropy, atol=1e-12)
        np.testing.assert_array_equal(sq, ref.sum_sq)
        np.testing.assert_array_equal(mx, ref.largest)


def test_weighted_kernel_matches_brute_force(small_lex):
    mat = pattern_matrix(small_lex)
    rng = np.random.default_rng(1)
    cands = np.sort(rng.choice(len(small_lex.answers), 60, replace=False))
    w = rng.random(60) + 0.01
    rows = rng.choice(len(small_lex.guesses), 25, replace=False)
    h, sq, mx = weighted_stats(mat, rows, cands, w, small_lex.n_patterns)
    for i, g in enumerate(rows):
        mass: dict[int, float] = defaultdict(float)
        for c, wc in zip(cands, w, strict=True):
            mass[int(mat[g, c])] += wc
        p = np.array(list(mass.values())) / w.sum()
        assert h[i] == pytest.approx(-(p * np.log2(p)).sum(), abs=1e-12)
        assert sq[i] == pytest.approx(sum(m * m for m in mass.values()), rel=1e-12)
        assert mx[i] == pytest.approx(max(mass.values()), rel=1e-12)


def test_frequency_prior_is_a_distribution_that_prefers_common_words(wordle):
    p = answer_prior(wordle, "frequency")
    assert p.shape == (len(wordle.answers),)
    assert p.sum() == pytest.approx(1.0)
    assert (p > 0).all()
    idx = wordle.answer_index
    assert p[idx["about"]] > 100 * p[idx["fjord"]] > 0
    assert np.allclose(answer_prior(wordle, "uniform"), 1 / len(wordle.answers))
    with pytest.raises(WordleError):
        answer_prior(wordle, "zipf")
    with pytest.raises(WordleError):
        answer_prior(load_lexicon("primel"), "frequency")


def test_uniform_prior_strategy_chooses_like_entropy(small_lex):
    mat = pattern_matrix(small_lex)
    ent = get_strategy("entropy")
    uni = get_strategy("prior-entropy", prior="uniform")
    root = GameState.new(small_lex, False, mat)
    assert uni.choose(root) == ent.choose(root)
    first = ent.choose(root)
    for pat in sorted({int(x) for x in mat[first]})[:40]:
        st = root.apply(first, pat)
        assert uni.choose(st) == ent.choose(st), pat


def test_frequency_prior_guesses_the_likelier_of_two(wordle):
    from wordle_core.kernels.buckets import split_by_pattern

    root = GameState.new(wordle)
    salet = wordle.guess_id("salet")
    p = answer_prior(wordle, "frequency")
    groups = split_by_pattern(root.matrix, salet, root.candidates)
    pairs = [(pat, b) for pat, b in groups.items() if len(b) == 2]
    assert len(pairs) > 5
    for pat, bucket in pairs[:10]:
        st = root.apply(salet, pat)
        likelier = int(bucket[np.argmax(p[bucket])]) if p[bucket[0]] != p[bucket[1]] else int(bucket[0])
        assert get_strategy("prior-entropy").choose(st) == int(wordle.answer_rows[likelier])


def test_prior_effect_report_counts_both_ways(small_all):
    rep = prior_effect(small_all, "entropy")
    assert [r["prior"] for r in rep["runs"]] == ["uniform", "frequency"]
    for r in rep["runs"]:
        dist = {int(k): v for k, v in r["guess_distribution"].items()}
        assert sum(dist.values()) == len(small_all.answers)
        assert r["solved_unweighted"] == pytest.approx(
            sum(v for k, v in dist.items() if k <= 6) / len(small_all.answers))
        assert 0 < r["solved_weighted"] <= 1
    # The frequency-weighted solver needs fewer guesses on frequency-weighted answers.
    uni, fr = rep["runs"]
    assert fr["mean_guesses_weighted"] < uni["mean_guesses_weighted"]
    lengths = np.array([1, 6, 7, 3])
    assert weighted_success(lengths, np.arange(4), np.array([0.1, 0.2, 0.3, 0.4]), 6) == pytest.approx(0.7)


def test_prior_effect_cli(small_all, tmp_path, capsys):
    f = tmp_path / "words.txt"
    f.write_text("\n".join(small_all.answers))
    assert main(["prior-effect", "--answers", str(f), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert len(rep["runs"]) == 2 and rep["answers"] == len(small_all.answers)
    assert main(["prior-effect", "--lexicon", "primel"]) == 2
    assert "English" in capsys.readouterr().err


def test_threaded_and_single_threaded_kernels_agree_exactly(wordle):
    from wordle_core.kernels import buckets

    mat = np.asarray(pattern_matrix(wordle))
    rows = np.arange(len(wordle.guesses), dtype=np.int64)
    cands = np.arange(0, len(wordle.answers), 2, dtype=np.int64)
    w = answer_prior(wordle, "frequency")[cands]
    outs = []
    for kernel in (buckets._weighted_serial, buckets._weighted_parallel):
        h, sq, mx = (np.empty(len(rows)) for _ in range(3))
        kernel(mat, rows, cands, w, wordle.n_patterns, h, sq, mx)
        outs.append((h, sq, mx))
    for a, b in zip(*outs, strict=True):
        assert np.array_equal(a, b)
    assert len(rows) * len(cands) >= buckets._WEIGHTED_PARALLEL_CELLS  # the public call uses threads


def test_prior_flag_on_review_and_tree(wordle, tmp_path, capsys):
    from wordle_core.strategies.prior import strategy_with_prior

    assert strategy_with_prior("entropy", None).name == "entropy"
    s = strategy_with_prior("entropy", "frequency")
    assert s.name == "prior-entropy" and s.options["prior"] == "frequency"
    with pytest.raises(WordleError):
        strategy_with_prior("minimax", "frequency")
    assert main(["review", "--history", "salet:bbbbb,corny:bbbbb", "--strategy", "entropy",
                 "--prior", "frequency", "--json"]) == 0
    rev = json.loads(capsys.readouterr().out)
    st = GameState.from_history(wordle, [("salet", "bbbbb")])
    assert rev["strategy"] == "prior-entropy (prior=frequency)"
    assert rev["steps"][1]["best_guess"] == wordle.guesses[s.choose(st)]
    out = tmp_path / "t.csv"
    assert main(["tree", "--strategy", "entropy", "--prior", "frequency", "--format", "csv",
                 "--no-table", "-o", str(out)]) == 0
    assert out.read_text().count("\n") == len(wordle.answers) + 1
