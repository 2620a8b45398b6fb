"""suggest: numbers, ranking, agreement with the strategies, and answering from a tree table."""

from __future__ import annotations

import json

import numpy as np
import pytest
from _solver_cli import cli, run_main, write_lexicon

from wordle_core.game.feedback import score
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.interactive.suggest import suggest, tree_guess
from wordle_core.strategies import get_strategy
from wordle_core.tables.load import load_tree_file


def _node_history(tree: Tree, node: int) -> list[tuple[int, int]]:
    hist = []
    while tree.parent[node] >= 0:
        hist.append((tree.guess[tree.parent[node]], tree.pattern_in[node]))
        node = tree.parent[node]
    return hist[::-1]


def _state_at(lex, mat, hist, hard=False):
    st = GameState.new(lex, hard, mat)
    for g, p in hist:
        st = st.apply(g, p)
    return st


@pytest.fixture(scope="module")
def saved_tree(small_lex, tmp_path_factory):
    mat = pattern_matrix(small_lex)
    tree = Tree.build(get_strategy("entropy"), GameState.new(small_lex, False, mat), "salet"
                      if "salet" in small_lex.guess_index else small_lex.guesses[0])
    path = tmp_path_factory.mktemp("trees") / "tree.json"
    tree.save_json(path)
    return tree, path


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("name", ["entropy", "expected-size", "minimax", "partitions"])
def test_computed_pick_equals_strategy_choose(small_lex, name, hard):
    """The fused kernel path picks exactly what the strategy's own choose() picks."""
    mat = pattern_matrix(small_lex)
    rng = np.random.default_rng(7)
    for _ in range(12):
        answer = int(rng.integers(len(small_lex.answers)))
        st = GameState.new(small_lex, hard, mat)
        for _ in range(3):
            st = st.play(int(rng.choice(st.legal_rows)), answer)
            if st.solved:
                break
            fresh = get_strategy(name)
            got = suggest(st, get_strategy(name), top=3)
            assert got.source == "computed"
            assert small_lex.guess_index[got.best] == fresh.choose(st)
            assert got.options[0].pick


def test_numbers_are_brute_force_correct(small_lex):
    mat = pattern_matrix(small_lex)
    st = GameState.new(small_lex, False, mat).play(0, 5)
    res = suggest(st, get_strategy("entropy"), top=6)
    cands = st.candidate_words()
    for o in res.options:
        groups: dict[str, int] = {}
        for a in cands:
            fb = score(o.word, a)
            groups[fb] = groups.get(fb, 0) + 1
        sizes = np.array(list(groups.values()), dtype=float)
        n = len(cands)
        assert o.buckets == len(groups)
        assert o.largest_bucket == sizes.max()
        assert o.expected_remaining == pytest.approx((sizes**2).sum() / n, abs=1e-3)
        assert o.entropy_bits == pytest.approx(-(sizes / n * np.log2(sizes / n)).sum(), abs=1e-3)
        assert o.can_be_answer == (o.word in cands)
    # ranking after the pick: entropy (+ win chance) descending
    keys = [o.entropy_bits + (1 / n if o.can_be_answer else 0) for o in res.options[1:]]
    assert keys == sorted(keys, reverse=True)


def test_answers_from_the_table_and_matches_computed(small_lex, saved_tree):
    tree, path = saved_tree
    mat = pattern_matrix(small_lex)
    loaded = load_tree_file(small_lex, path, matrix=mat)
    checked = 0
    for node in range(len(loaded.guess)):
        st = _state_at(small_lex, mat, _node_history(loaded, node))
        via_table = suggest(st, get_strategy("entropy"), top=1, tree=loaded)
        computed = suggest(st, get_strategy("entropy"), top=1)
        assert via_table.source == "table"
        assert computed.source in ("computed",) or st.turn == 0
        if st.turn:
            assert via_table.best == computed.best
        checked += 1
    assert checked == len(tree.guess) > 50


def test_table_is_really_used(small_lex, saved_tree):
    """A tampered table: suggest must return the table's (different) word, not compute."""
    _, path = saved_tree
    mat = pattern_matrix(small_lex)
    loaded = load_tree_file(small_lex, path, matrix=mat)
    pat, node = next((p, c) for p, c in loaded.children[0].items() if loaded.children[c])
    st = GameState.new(small_lex, False, mat).apply(loaded.opener, pat)
    computed = suggest(st, get_strategy("entropy"), top=1).best
    other = next(w for w in small_lex.guesses if w != computed)
    loaded.guess[node] = small_lex.guess_index[other]
    res = suggest(st, get_strategy("entropy"), top=3, tree=loaded)
    assert res.source == "table"
    assert res.best == other != computed
    assert res.options[0].pick and not any(o.pick for o in res.options[1:])


def test_table_not_used_off_its_path(small_lex, saved_tree):
    tree, _ = saved_tree
    mat = pattern_matrix(small_lex)
    other_opener = next(w for w in small_lex.guesses if small_lex.guess_index[w] != tree.opener)
    answer = next(i for i, w in enumerate(small_lex.answers) if w != other_opener)
    st = GameState.new(small_lex, False, mat).play(small_lex.guess_index[other_opener], answer)
    assert tree_guess(tree, st) is None
    assert suggest(st, get_strategy("entropy"), tree=tree).source == "computed"
    hard = GameState.new(small_lex, True, mat)
    assert tree_guess(tree, hard) is None  # a normal-mode tree never answers hard mode


def test_hard_mode_options_are_legal(small_lex):
    mat = pattern_matrix(small_lex)
    st = GameState.new(small_lex, True, mat).play(0, 3)
    res = suggest(st, get_strategy("entropy"), top=10)
    for o in res.options:
        assert st.constraints.violation(small_lex, small_lex.guess_index[o.word]) is None


def test_solved_and_deterministic(small_lex):
    mat = pattern_matrix(small_lex)
    a = small_lex.answers[4]
    st = GameState.new(small_lex, False, mat).play(small_lex.guess_index[a], 4)
    assert suggest(st, get_strategy("entropy")).source == "solved"
    st2 = GameState.new(small_lex, False, mat).play(1, 9)
    one = suggest(st2, get_strategy("entropy"), top=8).to_dict()
    two = suggest(st2, get_strategy("entropy"), top=8).to_dict()
    assert one == two


def test_cli_suggest_from_tree_file(small_lex, saved_tree, tmp_path):
    tree, path = saved_tree
    lexflags = write_lexicon(small_lex, tmp_path)
    opener = small_lex.guesses[tree.opener]
    pat = next(iter(tree.children[0]))
    from wordle_core.game.feedback import pattern_to_str

    hist = f"{opener}:{pattern_to_str(pat, 5)}"
    base = ["suggest", *lexflags, "--strategy", "entropy",
            "--history", hist, "--json"]
    with_tree = cli(*base, "--tree", str(path))
    without = cli(*base)
    assert with_tree.returncode == 0, with_tree.stderr
    a, b = json.loads(with_tree.stdout), json.loads(without.stdout)
    assert a["source"] == "table" and b["source"] == "computed"
    assert a["options"][0]["word"] == b["options"][0]["word"]
    assert a["options"][0]["word"] == small_lex.guesses[tree.guess[tree.children[0][pat]]]


@pytest.mark.parametrize("args, needle", [
    (["--history", "salet:bbbb"], "4 colours"),
    (["--history", "zzzzz:bbbbb"], "not an allowed guess"),
    (["--history", "salet"], "WORD:FEEDBACK"),
    (["--history", "salet:bybgb,crane:bbbbb"], "no nyt2023 answer fits"),
    (["--history", "salet:bybgb,crane:bbbbb", "--lexicon", "wordle"], "no wordle answer fits"),
    (["--top", "0"], "at least 1"),
    (["--strategy", "nope"], "unknown strategy"),
    (["--lexicon", "klingon"], "unknown lexicon"),
    (["--tree", "/nonexistent.json"], "does not exist"),
    (["--history", "salet:bqbgb"], "bad feedback"),
])
def test_cli_bad_input_one_line(args, needle, capsys):
    code, _, err = run_main(["suggest", *args], capsys)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_bad_input_in_a_real_process():
    r = cli("suggest", "--history", "salet:bqbgb")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "wordle-lab: error: bad feedback 'bqbgb': use g (green), y (yellow), b (gray) " \
        "or the emoji squares\n"


def test_suggest_from_a_trees_avro_table(small_lex, tmp_path, capsys):
    """The pipeline's ``trees`` Avro table: covered positions come from it, and agree."""
    records = pytest.importorskip("pipelines.records")
    schemas = pytest.importorskip("pipelines.schemas")
    import fastavro

    mat = pattern_matrix(small_lex)
    flags = write_lexicon(small_lex, tmp_path)
    from wordle_core.game.lexicon import Lexicon

    lex = Lexicon.from_files(flags[1], flags[3])  # the name the CLI will see
    trees = [Tree.build(get_strategy("entropy"), GameState.new(lex, False, pattern_matrix(lex)), op)
             for op in (lex.guesses[0], lex.guesses[9])]
    import io

    from wordle_core.tables.avro import write_table

    buf = io.BytesIO()
    fastavro.writer(buf, schemas.SCHEMAS["trees"], [records.tree_record(t) for t in trees])
    write_table(tmp_path / "out" / "trees", "trees",
                {"trees-00000-of-00001.avro": (buf.getvalue(), len(trees))})
    tree = trees[1]
    node = next(c for c in tree.children[0].values() if tree.children[c])
    pat = tree.pattern_in[node]
    from wordle_core.game.feedback import pattern_to_str

    hist = f"{lex.guesses[tree.opener]}:{pattern_to_str(pat, 5)}"
    base = ["suggest", *flags, "--strategy", "entropy", "--history", hist, "--json", "--top", "1"]
    code, out, err = run_main([*base, "--tree", str(tmp_path / "out")], capsys)
    assert code == 0, err
    via_table = json.loads(out)
    code, out, _ = run_main(base, capsys)
    computed = json.loads(out)
    assert via_table["source"] == "table" and computed["source"] == "computed"
    assert via_table["options"][0]["word"] == computed["options"][0]["word"] == lex.guesses[tree.guess[node]]
    # an opener the table does not hold: computed, with a note, not an error
    other = f"{lex.guesses[5]}:{pattern_to_str(int(mat[5, 0]), 5)}"
    code, out, err = run_main(["suggest", *flags, "--strategy", "entropy", "--history", other, "--json",
                               "--tree", str(tmp_path / "out")], capsys)
    assert code == 0 and json.loads(out)["source"] == "computed" and "no tree opening" in err


def test_first_guess_shows_shipped_exact_totals(small_lex, monkeypatch) -> None:
    """With an exact table for the lexicon, each first-guess option says what it is worth."""
    import wordle_core.tables.exact as exact_tables
    from wordle_core.search.exact import INF, ExactSolver

    s = ExactSolver(small_lex)
    state = GameState.new(small_lex)
    first = suggest(state, get_strategy("entropy"), top=4)
    words = [o.word for o in first.options]
    assert all(o.optimal == "" for o in first.options)  # no table for this lexicon
    known = {w: s.opener_value(small_lex.guess_id(w)) for w in words[:2]}
    table = {w: (v if v < INF else None) for w, v in known.items()}
    monkeypatch.setattr(exact_tables, "shipped_exact", lambda lexicon, mode: table)
    res = suggest(state, get_strategy("entropy"), top=4)
    got = {o.word: (o.optimal, o.optimal_total) for o in res.options}
    for w in words[:2]:
        assert got[w] == ("proven", known[w])
    assert all(got[w] == ("unknown", None) for w in words[2:])
    later = suggest(state.apply(small_lex.guess_id(words[0]), 0), get_strategy("entropy"), top=2)
    assert all(o.optimal == "" for o in later.options)  # only the first guess


def test_shipped_tables_agree_with_the_search(wordle) -> None:
    """Spot-check the package's exact tables (when shipped) against a fresh proof."""
    from wordle_core.search.exact import ExactSolver
    from wordle_core.tables.exact import shipped_values

    table = shipped_values("wordle", "normal")
    if not table:
        pytest.skip("no exact table shipped for wordle normal")
    cheapest = sorted(table, key=lambda w: (table[w] is None, table[w] or 0))[:1]
    s = ExactSolver(wordle)
    for w in cheapest:
        assert s.opener_value(wordle.guess_id(w)) == table[w]
