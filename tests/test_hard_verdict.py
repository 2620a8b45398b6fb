"""Exact hard-mode feasibility: checked against an independent brute-force search,
against the issue's published verdicts on the full ``nyt`` lexicon, and by replaying
witness trees game by game with the engine's own hard-mode rules."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from conftest import trap_lexicon

from wordle_core.game.feedback import all_green
from wordle_core.game.lexicon import Lexicon, load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.rules import HardConstraints
from wordle_core.game.state import GameState
from wordle_core.kernels.buckets import split_by_pattern
from wordle_core.search.hard import FEASIBLE, INFEASIBLE, UNKNOWN, HardSolver, hard_verdict


def brute_force_feasible(lex: Lexicon, opener: int) -> bool:
    """Reference: plain AND-OR over GameState (engine legality), exact-key memo only."""
    memo: dict = {}
    green = all_green(lex.length)

    def node(state: GameState, k: int) -> bool:
        if state.n_candidates == 1:
            return k >= 1
        if k <= 1:
            return False
        key = (state.key(), k)
        if key in memo:
            return memo[key]
        res = any(guess_wins(state, int(g), k) for g in state.legal_rows)
        memo[key] = res
        return res

    def guess_wins(state: GameState, g: int, k: int) -> bool:
        for pat in split_by_pattern(state.matrix, g, state.candidates):
            if pat != green and not node(state.apply(g, pat), k - 1):
                return False
        return True

    return guess_wins(GameState.new(lex, hard=True), opener, lex.max_guesses)


def replay_witness(lex: Lexicon, tree: dict) -> int:
    """Play every answer down a witness tree with GameState (checks hard-mode legality)."""
    worst = 0
    root = GameState.new(lex, hard=True)
    for a in range(len(lex.answers)):
        st, node = root, tree
        depth = 0
        while not st.solved and depth < lex.max_guesses:
            depth += 1
            st = st.play(lex.guess_id(node["guess"]), a)  # raises on an illegal guess
            if not st.solved:
                node = node["next"][st.history_words()[-1][1]]
        assert st.solved, lex.answers[a]
        worst = max(worst, depth)
    return worst


@pytest.fixture(scope="module")
def tiny3() -> Lexicon:
    """80 answers / 200 guesses and only 3 guesses: a mix of feasible and infeasible openers."""
    full = load_lexicon("wordle")
    answers = list(full.answers[5::29][:80])
    extra = [w for w in full.guesses[3::61] if w not in set(answers)][:120]
    return Lexicon.build("tiny3", answers, answers + extra, max_guesses=3)


def test_matches_brute_force_on_small_lexicon(tiny3: Lexicon) -> None:
    verdicts = []
    for row in range(0, len(tiny3.guesses), 4):
        fast = hard_verdict(tiny3, row, pattern_matrix(tiny3))["verdict"]
        ref = brute_force_feasible(tiny3, row)
        assert fast == (FEASIBLE if ref else INFEASIBLE), tiny3.guesses[row]
        verdicts.append(fast)
    # the comparison is only meaningful if both outcomes occur
    assert FEASIBLE in verdicts and INFEASIBLE in verdicts


def test_kernel_and_numpy_paths_agree(small_lex: Lexicon) -> None:
    lex = Lexicon.build("small4", small_lex.answers, small_lex.guesses, max_guesses=4)
    mat = pattern_matrix(lex)
    rows = list(range(0, len(lex.guesses), 37))
    got = []
    for use_kernel in (True, False):
        solver = HardSolver(lex, mat, use_kernel=use_kernel)
        out = []
        for r in rows:
            res = solver.guess_wins(np.arange(len(lex.answers)), HardConstraints(), 4, r)
            assert res.verdict in (FEASIBLE, INFEASIBLE)
            out.append(res.feasible)
        got.append(out)
    assert got[0] == got[1]
    assert any(got[0]) and not all(got[0])


def test_witness_tree_replays_within_limit(small_lex: Lexicon) -> None:
    lex = Lexicon.build("small5", small_lex.answers, small_lex.guesses, max_guesses=4)
    found = 0
    for row in range(0, len(lex.guesses), 53):
        res = hard_verdict(lex, row, pattern_matrix(lex), witness=True)
        if res["verdict"] == FEASIBLE:
            assert replay_witness(lex, res["tree"]) <= 4
            found += 1
    assert found >= 2


def test_unknown_when_budget_runs_out() -> None:
    lex = load_lexicon("nyt")
    res = hard_verdict(lex, lex.guess_id("crate"), node_budget=5)
    assert res["verdict"] == UNKNOWN and res["nodes"] > 5


def test_buckets_by_rounds_change_no_verdict(traps: Lexicon) -> None:
    """An opener's buckets tried by rounds of growing node budgets (a round stopped half
    way, its nodes left unstored) give every verdict of the one-pass search, with 5 and
    6 guesses; with a first round of one node the rounds really stop searches (the node
    counts differ), and with the default first round these small buckets never do."""
    stopped = 0
    for limit in (5, 6):
        lex = Lexicon.build(f"traps{limit}", traps.answers, traps.guesses, max_guesses=limit)
        mat = pattern_matrix(lex)
        everyone = np.arange(len(lex.answers))
        for r in range(0, len(lex.guesses), 5):
            one_pass = HardSolver(lex, mat, by_rounds=False).guess_wins(everyone, HardConstraints(), limit, r)
            rounds = HardSolver(lex, mat, first_round=1).guess_wins(everyone, HardConstraints(), limit, r)
            default = HardSolver(lex, mat).guess_wins(everyone, HardConstraints(), limit, r)
            assert one_pass.verdict == rounds.verdict == default.verdict, lex.guesses[r]
            assert default.nodes == one_pass.nodes
            stopped += rounds.nodes != one_pass.nodes
    assert stopped > 0


@pytest.mark.slow
def test_rounds_prove_needs_by_its_cheap_bucket() -> None:
    """NEEDS cannot guarantee a hard-mode win on today's game: after its ``bybyb``
    (244 answers, tried first) and after ``yybyb`` (33) no strategy wins. The rounds
    prove it by the small bucket (the one-pass search spent about 37 CPU-s on the
    large one, and found the same verdict)."""
    lex = load_lexicon("nyt2023")
    res = hard_verdict(lex, lex.guess_id("needs"))
    assert res["verdict"] == INFEASIBLE
    assert res["nodes"] < 5_000, res


@pytest.mark.slow
@pytest.mark.parametrize("word,expected", [
    ("salet", FEASIBLE), ("crane", FEASIBLE), ("crate", FEASIBLE),
    ("slate", INFEASIBLE), ("trace", INFEASIBLE), ("raise", INFEASIBLE),
    ("arose", INFEASIBLE), ("soare", INFEASIBLE),
])
def test_issue_verdicts_on_nyt(word: str, expected: str) -> None:
    lex = load_lexicon("nyt")
    res = hard_verdict(lex, lex.guess_id(word), witness=True)
    assert res["verdict"] == expected
    if expected == FEASIBLE:
        assert replay_witness(lex, res["tree"]) == 6  # SALET etc. need all 6 in hard mode


def _cli(*args: str) -> subprocess.CompletedProcess:
    code = "from wordle_core.cli import entry; entry()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)


def test_cli_json_and_errors(tmp_path) -> None:
    r = _cli("hard-verdict", "--lexicon", "nyt", "--opener", "TRACE", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert set(out) == {"lexicon", "opener", "verdict", "seconds", "nodes", "source"}  # HardVerdict's
    assert out["opener"] == "trace" and out["verdict"] == INFEASIBLE and out["lexicon"] == "nyt"
    bad = _cli("hard-verdict", "--lexicon", "nyt", "--opener", "zzzzz")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    wit = tmp_path / "w.json"
    nowit = _cli("hard-verdict", "--lexicon", "nyt", "--opener", "slate", "--witness", str(wit))
    assert nowit.returncode == 2 and not wit.exists()


def test_fewer_answers_never_turn_feasible_into_infeasible(tiny3: Lexicon) -> None:
    """The full-opener run reuses wordle's feasible verdicts for nyt (answers subset)."""
    sub = Lexicon.build("tiny3-sub", tiny3.answers[::2], tiny3.guesses, max_guesses=3)
    assert sub.guesses == tiny3.guesses
    both = []
    for row in range(0, len(tiny3.guesses), 5):
        big = hard_verdict(tiny3, row, pattern_matrix(tiny3))["verdict"]
        small = hard_verdict(sub, row, pattern_matrix(sub))["verdict"]
        if big == FEASIBLE:
            assert small == FEASIBLE, tiny3.guesses[row]
        both.append((big, small))
    assert (INFEASIBLE, FEASIBLE) in both  # the subset really is easier somewhere


@pytest.fixture(scope="module")
def traps() -> Lexicon:
    """Trap-rich lexicon (see :func:`conftest.trap_lexicon`): hard-mode verdicts with 5
    guesses are mixed."""
    return trap_lexicon()


def test_kernel_levels_agree_with_numpy_path(traps: Lexicon) -> None:
    """Positions with 4 guesses left go to solve_four (which runs the 3-left test below
    it with a shared splitter cache), 3 left to solve_three; the plain numpy recursion
    must decide every position the same way."""
    lex = traps
    mat = pattern_matrix(lex)
    fast, slow = HardSolver(lex, mat), HardSolver(lex, mat, use_kernel=False)
    cands = np.arange(len(lex.answers))
    got = []
    for r in range(0, len(lex.guesses), 23):
        for k in (4, 5):
            a = fast.guess_wins(cands, HardConstraints(), k, r)
            b = slow.guess_wins(cands, HardConstraints(), k, r)
            assert a.verdict == b.verdict, (lex.guesses[r], k)
            got.append((k, a.verdict))
    assert {v for k, v in got if k == 5} == {FEASIBLE, INFEASIBLE}


def test_kernel_caches_kept_across_nodes_change_no_result(traps: Lexicon) -> None:
    """solve_four's splitter and 3-left caches outlive a call (the search keeps one set for
    every node and opener): on every 4-left position after one guess of the trap lexicon,
    one shared set of caches gives exactly the guess (or loss) that fresh caches give, and
    saves work."""
    from wordle_core.kernels.hard import NO_LIMIT, HardGame, kernel_caches, solve_four

    lex = traps
    s = HardSolver(lex, pattern_matrix(lex))  # the kernel's arrays, as the search passes them
    mat, L = s.mat, lex.length
    shared = kernel_caches(1 << 12)  # small: entries are replaced too
    results, work = [], [0, 0]
    for r in range(0, len(lex.guesses), 9):
        pats = mat[r]  # guesses x answers: the pattern of each answer id
        for p in np.unique(pats):
            S = np.flatnonzero(pats == p).astype(np.int32)
            if len(S) < 5 or p == all_green(L):
                continue
            cons = HardConstraints().add(s.codes[r], int(p))
            legal = np.ascontiguousarray(cons.legal_rows(lex), dtype=np.int32)
            greens, need = cons.arrays(L, len(lex.alphabet))
            is_row = np.zeros(len(lex.guesses), np.uint8)
            is_row[lex.answer_rows[S]] = 1
            game = HardGame(mat, s.mt, s.codes, s.counts, s.digits, int(s.green), s.cap, s.arow)
            got = []
            for i, caches in enumerate((shared, kernel_caches(1 << 12))):
                core = np.zeros(len(S), np.uint8)
                g, w = solve_four(game, S, legal, greens, need, is_row, legal, core, caches, NO_LIMIT)
                got.append(int(g))
                work[i] += int(w)
            assert got[0] == got[1], (lex.guesses[r], int(p))
            results.append(got[0] >= 0)
    assert len(results) >= 40 and True in results and False in results
    assert work[0] < work[1]


def test_traps_witnesses_replay_and_losses_match_brute_force(traps: Lexicon) -> None:
    """Checkable verdicts where the fast paths run (capacity bound, solve_four, lost cores):
    every feasible witness with 5 guesses replays game by game under the engine's rules;
    on a tiny trap lexicon with 4 guesses the brute-force AND-OR search agrees with every
    verdict, infeasible ones included."""
    mat = pattern_matrix(traps)
    five = Lexicon.build("traps5", traps.answers, traps.guesses, max_guesses=5)
    fed = 0
    for row in range(0, len(five.guesses), 37):
        res = hard_verdict(five, row, pattern_matrix(five), witness=True)
        assert res["verdict"] in (FEASIBLE, INFEASIBLE)
        if res["verdict"] == FEASIBLE:
            assert replay_witness(five, res["tree"]) <= 5
            fed += 1
    assert fed >= 2
    full = load_lexicon("wordle")
    groups: dict[str, list[str]] = {}
    for w in full.answers:
        for i in range(5):
            groups.setdefault(w[:i] + "*" + w[i + 1:], []).append(w)
    words: list[str] = []
    for _, g in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        words += [w for w in g if w not in words][:4]  # traps of four: ?ATCH-like sets
        if len(words) >= 30:
            break
    tiny = Lexicon.build("traps-tiny", words, words + list(full.guesses[11::701]), max_guesses=4)
    seen = set()
    for row in range(0, len(tiny.guesses), 3):
        fast = hard_verdict(tiny, row, pattern_matrix(tiny))["verdict"]
        assert fast == (FEASIBLE if brute_force_feasible(tiny, row) else INFEASIBLE), tiny.guesses[row]
        seen.add(fast)
    assert seen == {FEASIBLE, INFEASIBLE}
    del mat


def test_lost_cores_refute_larger_nodes_and_change_no_verdict(traps: Lexicon) -> None:
    """A 4-left loss leaves a core (LostCores) that refutes later nodes containing it
    under tighter obligations: with the trap lexicon's 5 guesses, the solver that reuses
    cores gives every opener the verdict of one that never does, reuses some, and
    expands fewer nodes; every core is itself lost, checked by a fresh solver."""
    five = Lexicon.build("traps5", traps.answers, traps.guesses, max_guesses=5)
    mat5 = pattern_matrix(five)
    with_cores, without = HardSolver(five, mat5), HardSolver(five, mat5, use_cores=False)
    everyone = np.arange(len(five.answers))
    nodes = [0, 0]
    for r in range(0, len(five.guesses), 7):
        a = with_cores.guess_wins(everyone, HardConstraints(), 5, r)
        b = without.guess_wins(everyone, HardConstraints(), 5, r)
        assert a.verdict == b.verdict, five.guesses[r]
        nodes[0] += a.nodes
        nodes[1] += b.nodes
    assert with_cores.cores.hits > 0 and len(without.cores) == 0
    assert nodes[0] < nodes[1]
    check = HardSolver(five, mat5, use_cores=False)
    for core, cons, k in list(with_cores.cores)[:40]:
        assert check.solve_position(core, cons, k).verdict == INFEASIBLE


def test_every_loss_carries_a_core_that_is_lost_on_its_own(traps: Lexicon) -> None:
    """Every loss the search records (memo entries and kept cores) names a subset of its
    answers that a fresh solver proves lost with the same guesses and obligations: the
    unions built above the compiled levels (the numpy path builds them at every level)
    and the capacity rule's first answers beyond what fits. The numpy path, which
    builds them everywhere, gives the kernel path's verdicts."""
    five = Lexicon.build("traps5", traps.answers, traps.guesses, max_guesses=5)
    mat5 = pattern_matrix(five)
    plain, compiled = HardSolver(five, mat5, use_kernel=False), HardSolver(five, mat5)
    everyone = np.arange(len(five.answers))
    for r in range(0, len(five.guesses), 29):
        assert plain.guess_wins(everyone, HardConstraints(), 5, r).verdict == \
            compiled.guess_wins(everyone, HardConstraints(), 5, r).verdict, five.guesses[r]
    losses = [(np.frombuffer(key, plain._key_dtype), e) for key, entries in plain.memo.items()
              for e in entries if e.guess < 0]
    assert losses and any(len(e.core) < len(ids) for ids, e in losses)  # some cores are smaller
    check = HardSolver(five, mat5, use_cores=False)
    for ids, e in losses[::max(1, len(losses) // 40)]:
        assert np.isin(e.core, ids).all()
        assert check.solve_position(e.core, e.cons, e.k).verdict == INFEASIBLE
    kept = list(plain.cores)
    assert kept and all(k >= 4 for _, _, k in kept)
    for core, cons, k in kept[:20]:
        assert check.solve_position(core, cons, k).verdict == INFEASIBLE


def test_lost_cores_keep_at_most_their_limit() -> None:
    """At the limit the older half of the cores goes; the newest still refute."""
    from wordle_core.search.hard import LostCores

    cores = LostCores(20, limit=4)
    for first in range(6):
        cores.add(np.array([first, first + 10], np.int32), HardConstraints(), 4)
    assert len(cores) <= 4
    assert not cores.covers(np.array([0, 10], np.int32), HardConstraints(), 4)
    assert cores.covers(np.array([5, 7, 15], np.int32), HardConstraints(), 4)
    with pytest.raises(ValueError, match="limit"):
        LostCores(20, limit=1)


def test_capacity_bound_patterns() -> None:
    """The capacity bound's pattern counts, by enumeration with the real feedback rule:
    with all but f positions known green, a guess shows at most R(f) non-winning
    patterns: R(1) = 1 (green or gray only), R(2) = 6."""
    from itertools import product

    from wordle_core.game.feedback import score
    from wordle_core.kernels.hard import capacity_table

    letters = "abct"
    for free, r_expected in ((1, 1), (2, 6)):
        fixed = "tc"[: 5 - free] if free >= 3 else ("tcab"[: 5 - free])
        worst = 0
        words = ["".join(p) + fixed for p in product(letters, repeat=free)]
        for g in words:
            pats = {score(g, a) for a in words} - {"g" * 5}
            worst = max(worst, len(pats))
        assert worst == r_expected
        cap = capacity_table(5, 4)
        assert cap[free, 1] == 1 and cap[free, 2] == 1 + r_expected


def test_a_bounded_memo_evicts_and_changes_no_verdict(tiny3: Lexicon) -> None:
    """The memo keeps at most ``memo_limit`` positions (the older half goes at the limit):
    a solver whose memo is evicted over and over gives every opener the verdict of one
    that never forgets, and shares one obligations object per distinct value."""
    mat = pattern_matrix(tiny3)
    roomy, tight = HardSolver(tiny3, mat), HardSolver(tiny3, mat, memo_limit=8)
    everyone = np.arange(len(tiny3.answers))
    got = {name: [s.guess_wins(everyone, HardConstraints(), 3, r).verdict
                  for r in range(len(tiny3.guesses))]
           for name, s in (("roomy", roomy), ("tight", tight))}
    assert got["roomy"] == got["tight"]
    assert {FEASIBLE, INFEASIBLE} <= set(got["roomy"])
    assert roomy.evictions == 0 and tight.evictions > 0
    assert len(tight.memo) <= 8 < len(roomy.memo)
    cons = [e.cons for entries in roomy.memo.values() for e in entries]
    assert len({id(c) for c in cons}) == len(set(cons)) < len(cons)
    with pytest.raises(ValueError, match="memo_limit"):
        HardSolver(tiny3, mat, memo_limit=1)


def test_recall_answers_only_what_is_proved_and_searches_nothing(traps: Lexicon) -> None:
    """``recall`` (rules and memo, no search) never contradicts the search, expands no node,
    leaves the memo as it was, and after the search knows every position it stored."""
    lex = traps
    mat = pattern_matrix(lex)
    solver = HardSolver(lex, mat)
    everyone = np.arange(len(lex.answers))
    positions = []
    for r in range(0, len(lex.guesses), 37):
        pats = mat[r]
        for p in np.unique(pats):
            sub = everyone[pats == p]
            if len(sub) > 1 and p != lex.n_patterns - 1:
                positions.append((sub, HardConstraints().add(lex.guess_codes[r], int(p))))
    assert len(positions) > 50
    seen = set()
    for k in (2, 3, 4):
        for sub, cons in positions:
            memo, nodes = len(solver.memo), solver.nodes
            before = solver.recall(sub, cons, k)
            assert (len(solver.memo), solver.nodes) == (memo, nodes)
            truth = solver.solve_position(sub, cons, k).verdict
            assert before in (truth, UNKNOWN), (len(sub), k)
            assert solver.recall(sub, cons, k) == truth  # decided by a rule or now in the memo
            seen.add((before, truth))
    assert {(UNKNOWN, FEASIBLE), (UNKNOWN, INFEASIBLE), (INFEASIBLE, INFEASIBLE)} <= seen


def test_progress_bars_follow_the_answers_and_guesses_and_change_nothing(traps: Lexicon,
                                                                          monkeypatch) -> None:
    """``progress=True`` (the ``hard-verdict`` command's) draws one bar over the answers
    after the opener and one over the guesses tried at each bucket searched below it; the
    verdicts and node counts are those of a search without bars."""
    import wordle_core.search.hard as hard

    bars: list[list] = []

    class Bar:
        def __init__(self, total: int, desc: str, unit: str) -> None:
            self.record = [total, desc, unit, 0, False]
            bars.append(self.record)

        def update(self, n: int = 1) -> None:
            self.record[3] += n

        def close(self) -> None:
            self.record[4] = True

    monkeypatch.setattr(hard, "_bar", Bar)
    six = Lexicon.build("traps6", traps.answers, traps.guesses, max_guesses=6)
    mat = pattern_matrix(six)
    everyone = np.arange(len(six.answers))
    inner = 0
    for r in range(0, len(six.guesses), 41):
        bars.clear()
        shown = HardSolver(six, mat).guess_wins(everyone, HardConstraints(), 6, r, progress=True)
        plain = HardSolver(six, mat).guess_wins(everyone, HardConstraints(), 6, r)
        assert (shown.verdict, shown.nodes) == (plain.verdict, plain.nodes)
        top = [b for b in bars if b[2] == "ans"]
        assert len(top) == 1 and top[0][:2] == [len(six.answers), six.guesses[r]]
        assert 0 < top[0][3] <= len(six.answers)
        if shown.feasible:  # every bucket reached
            assert top[0][3] == len(six.answers)
        tried = [b for b in bars if b[2] == "guess"]
        assert all(b[1] == "guesses tried" and b[3] <= b[0] for b in tried)
        assert all(b[4] for b in bars)  # every bar closed
        inner += len(tried)
    assert inner > 0
