"""Every composite transform under TestPipeline + assert_that, against direct calls."""

from __future__ import annotations

import apache_beam as beam
import numpy as np
import pytest
from apache_beam.options.pipeline_options import PipelineOptions
from apache_beam.testing import test_pipeline as beam_testing
from apache_beam.testing.util import assert_that, equal_to

from pipelines import games, hard, records, scores, transforms
from pipelines import trees as tree_pipeline
from pipelines.orchestration import generation
from pipelines.orchestration.sink import WriteTables, read_table
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.search.openers import compute_opener_scores
from wordle_core.strategies import get_strategy

OPTS = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]


def _pipeline() -> beam_testing.TestPipeline:
    return beam_testing.TestPipeline(options=PipelineOptions(OPTS))


def _expected_trees(lex, rows, strategies, modes):
    mat = pattern_matrix(lex)
    out = []
    for s in strategies:
        for is_hard in sorted({m == "hard" for m in modes}):
            strat = get_strategy(s)
            for r in rows:
                out.append(Tree.build(strat, GameState.new(lex, is_hard, mat), r))
    return out


def test_score_openers(small_lex):
    spec = transforms.LexiconSpec.of(small_lex)
    rows = list(range(0, len(small_lex.guesses), 3))
    sc = compute_opener_scores(small_lex, pattern_matrix(small_lex), np.array(rows))
    expected = [("opener_scores", r) for r in records.score_records(small_lex, np.array(rows), sc)]
    with _pipeline() as p:
        out = p | scores.ScoreOpeners(spec, rows, block=64)
        assert_that(out, equal_to(expected))


def test_opener_summaries(small_lex):
    spec = transforms.LexiconSpec.of(small_lex)
    rows = [small_lex.guess_index[w] for w in small_lex.answers[:4]]
    trees = _expected_trees(small_lex, rows, ["entropy", "minimax"], ["normal", "hard"])
    expected = [("opener_summaries", records.summary_record(t, 3)) for t in trees]
    assert all(sum(r["histogram"]) == len(small_lex.answers) for _, r in expected)
    with _pipeline() as p:
        out = p | games.OpenerSummaries(spec, rows, ["entropy", "minimax"], ["normal", "hard"],
                                             worst_games=3)
        assert_that(out, equal_to(expected))


def test_games_output(small_lex):
    spec = transforms.LexiconSpec.of(small_lex)
    rows = [small_lex.guess_index[small_lex.answers[9]]]
    (tree,) = _expected_trees(small_lex, rows, ["expected-size"], ["normal"])
    expected = [("opener_summaries", records.summary_record(tree))]
    expected += [("games", g) for g in records.game_records(tree)]
    with _pipeline() as p:
        out = p | games.OpenerSummaries(spec, rows, ["expected-size"], ["normal"], games=True)
        assert_that(out, equal_to(expected))


def test_hard_verdicts(small_lex):
    spec = transforms.LexiconSpec.of(small_lex)
    rows = [small_lex.guess_index[w] for w in small_lex.answers[10:13]]
    trees = _expected_trees(small_lex, rows, ["entropy", "partitions"], ["hard"])
    exact = records.exact_hard_verdict(small_lex, 0, pattern_matrix(small_lex), None)
    expected = [("hard_verdicts", records.verdict_record(t, exact)) for t in trees]
    with _pipeline() as p:
        out = p | hard.HardVerdicts(spec, rows, ["entropy", "partitions"])
        assert_that(out, equal_to(expected))


def test_decision_trees(small_lex):
    spec = transforms.LexiconSpec.of(small_lex)
    rows = [small_lex.guess_index[w] for w in small_lex.answers[20:22]]
    trees = _expected_trees(small_lex, rows, ["minimax"], ["normal", "hard"])
    expected = [("trees", records.tree_record(t)) for t in trees]
    with _pipeline() as p:
        out = p | tree_pipeline.DecisionTrees(spec, rows, ["minimax"], ["normal", "hard"])
        assert_that(out, equal_to(expected))


@pytest.mark.parametrize("shards", [1, 3])
def test_write_tables_all_shards_sorted(small_lex, tmp_path, shards):
    spec = transforms.LexiconSpec.of(small_lex)
    rows = list(range(0, 120))
    out_dir = str(tmp_path)
    gen = generation.begin(out_dir, "cfg", small_lex.fingerprint)
    with _pipeline() as p:
        pairs = p | scores.ScoreOpeners(spec, rows, block=50)
        written = pairs | WriteTables(gen.root, ["opener_scores", "trees"], shards)
        assert_that(written | beam.Map(lambda path: path.rsplit("/", 1)[-1]),
                    equal_to([f"{t}-{s:05d}-of-{shards:05d}.avro" for t in ("opener_scores", "trees")
                              for s in range(shards)]))
    assert not (tmp_path / "opener_scores").exists()  # staged only, until the commit
    gen.seal(["opener_scores", "trees"])
    gen.commit(["opener_scores", "trees"])
    recs = read_table(out_dir, "opener_scores")
    assert sorted(r["opener"] for r in recs) == [small_lex.guesses[r] for r in rows]
    assert read_table(out_dir, "trees") == []  # empty table: files exist, no records
    assert not list(tmp_path.glob(".staging-*")) and not list(tmp_path.glob("*/.staging-*"))


def test_hard_verdicts_exact_once_per_opener(small_lex, monkeypatch):
    """The exact search runs once per opener; every strategy's record carries its verdict."""
    calls = []

    def hard_verdict(lexicon, opener_row, matrix, node_budget):
        calls.append(int(opener_row))
        return {"verdict": "feasible" if opener_row % 2 else "infeasible", "seconds": 0.5, "nodes": 9}

    monkeypatch.setattr(records, "hard_verdict", hard_verdict)
    spec = transforms.LexiconSpec.of(small_lex)
    rows = [small_lex.guess_index[w] for w in small_lex.answers[30:32]]
    with _pipeline() as p:
        out = (p | hard.HardVerdicts(spec, rows, ["entropy", "minimax"], exact_node_budget=1234)
               | beam.Map(lambda tr: (tr[1]["opener"], tr[1]["strategy"], tr[1]["exact_verdict"])))
        assert_that(out, equal_to([
            (small_lex.guesses[r], s, "feasible" if r % 2 else "infeasible")
            for r in rows for s in ("entropy", "minimax")]))
    assert sorted(calls) == sorted(rows)


def test_hard_verdict_comes_before_the_trees(small_lex, monkeypatch):
    """A hard-mode opener's verdict is proved before any strategy's tree is built, so the
    positions its proof found lost are known to ``default`` (which then skips wider
    searches there); normal-mode openers ask for no verdict."""
    events = []
    real_verdict, real_build = records.hard_verdict, Tree.build

    def hard_verdict(*args, **kwargs):
        events.append("verdict")
        return real_verdict(*args, **kwargs)

    def build(*args, **kwargs):
        events.append("tree")
        return real_build(*args, **kwargs)

    monkeypatch.setattr(records, "hard_verdict", hard_verdict)
    monkeypatch.setattr(Tree, "build", staticmethod(build))
    spec = transforms.LexiconSpec.of(small_lex)
    fn = transforms.PlayOpenerFn(spec, ["default", "entropy"], ["normal", "hard"],
                                 ["opener_summaries", "hard_verdicts"], exact_node_budget=0)
    fn.setup()
    row = small_lex.guess_index[small_lex.answers[5]]
    assert [t for t, _ in fn.process((row, True))] == ["opener_summaries", "hard_verdicts"] * 2
    assert events == ["verdict", "tree", "tree"]
    events.clear()
    list(fn.process((row, False)))
    assert events == ["tree", "tree"]


def test_exact_hard_verdicts_play_no_strategy(small_lex, monkeypatch):
    """``hard_exact``: one record per opener, its exact verdict (here a real complete search,
    compared with a direct call); no strategy's tree is built."""
    from wordle_core.search.hard import hard_verdict

    def no_tree(*args, **kwargs):
        raise AssertionError("ExactHardVerdicts built a tree")

    monkeypatch.setattr(Tree, "build", no_tree)
    spec = transforms.LexiconSpec.of(small_lex)
    mat = pattern_matrix(small_lex)
    rows = [small_lex.guess_index[w] for w in small_lex.answers[40:44]] + [0]
    want = [(small_lex.guesses[r], "hard", "-", str(hard_verdict(small_lex, r, mat)["verdict"]))
            for r in rows]
    assert {v for *_, v in want} <= {"feasible", "infeasible"}
    with _pipeline() as p:
        out = (p | hard.ExactHardVerdicts(spec, rows, exact_node_budget=0)
               | beam.MapTuple(lambda table, rec: (rec["opener"], rec["mode"], rec["strategy"],
                                                   rec["exact_verdict"]) if table == "hard_exact"
                               else ("wrong table", table, "", "")))
        assert_that(out, equal_to(want))


def test_exact_record_matches_the_schema(small_lex):
    """An ``hard_exact`` record is exactly the schema's fields; it shares the exact fields of
    ``hard_verdicts`` (one search result serves both tables)."""
    from pipelines.schemas import SCHEMAS

    exact = records.exact_hard_verdict(small_lex, 3, pattern_matrix(small_lex), None)
    rec = records.exact_record(small_lex, 3, exact)
    assert list(rec) == [f["name"] for f in SCHEMAS["hard_exact"]["fields"]]
    assert rec["strategy"] == "-" and rec["exact_verdict"] == "unknown"
    verdict_fields = {f["name"] for f in SCHEMAS["hard_verdicts"]["fields"]}
    assert set(rec) <= verdict_fields


def test_play_elements_only_needed_modes():
    assert transforms.play_elements([3, 1], ["normal"], ["hard_exact"]) == [(1, True), (3, True)]
    assert transforms.play_elements([2, 1], ["normal"], ["hard_verdicts"]) == [(1, True), (2, True)]
    assert transforms.play_elements([1], ["normal"], ["opener_summaries", "hard_verdicts"]) == [
        (1, False), (1, True)]
    assert transforms.play_elements([1], ["hard", "normal"], ["trees"]) == [(1, False), (1, True)]


def test_play_order_puts_openers_of_the_same_letters_together():
    """Work items are ordered by each opener's sorted letters, then by row; normal mode first."""
    words = ["slate", "crane", "least", "nacre", "steal", "caner"]
    assert transforms.play_order([0, 1, 2, 3, 4, 5], words) == [1, 3, 5, 0, 2, 4]
    assert transforms.play_order([4, 0, 3], words) == [3, 0, 4]
    assert transforms.play_elements([4, 1, 0], ["normal", "hard"], ["trees"], words) == [
        (1, False), (0, False), (4, False), (1, True), (0, True), (4, True)]
    assert transforms.play_elements([4, 1, 0], ["normal"], ["trees"]) == [(0, False), (1, False), (4, False)]


def test_play_stage_cuts_shards_in_play_order_and_hashes_the_order(tmp_path, monkeypatch):
    """The play stage's shards are slices of the play order, and the order is part of the
    config hash, so a resume never reuses shards that were cut from another order."""
    from pipelines.config import build_config
    from pipelines.orchestration import stages
    from pipelines.orchestration.generation import config_hash

    cfg = build_config(None, lexicon="wordle",
                       output=str(tmp_path), openers="salet,crane,slate", strategies="entropy",
                       modes="normal")
    lex = stages.lexicon_of(cfg)
    rows = [lex.guess_index[w] for w in ("salet", "crane", "slate")]
    gen = stages.open_generation(cfg, None, [], "play:opener_summaries")
    work, _, _ = stages.play_stage(cfg, lex, rows, ["opener_summaries"], gen)
    played = [lex.guesses[r] for shard in work for r, _ in shard]
    assert played == ["crane", "salet", "slate"]
    assert gen.config_hash == config_hash(cfg, "play:opener_summaries", transforms.PLAY_ORDER)
    monkeypatch.setattr(transforms, "PLAY_ORDER", "another")
    assert config_hash(cfg, "play:opener_summaries", transforms.PLAY_ORDER) != gen.config_hash


def test_play_order_changes_no_record(small_lex):
    """The trees do not depend on the order a worker plays its openers in (one memo for
    all of them): the same records in row order and in play order."""
    spec = transforms.LexiconSpec.of(small_lex)
    rows = list(range(0, len(small_lex.guesses), max(1, len(small_lex.guesses) // 12)))
    words = small_lex.guesses
    assert transforms.play_order(rows, words) != sorted(rows)  # (the test means something)

    def play(order):
        fn = transforms.PlayOpenerFn(spec, ["default"], ["normal", "hard"], ["opener_summaries"],
                                     worst_games=3)
        fn.setup()
        for s in fn.strats.values():
            s.reset()
        recs = [rec for r in order for h in (False, True) for _, rec in fn.process((r, h))]
        return sorted(recs, key=lambda rec: (rec["opener"], rec["mode"]))

    assert play(transforms.play_order(rows, words)) == play(sorted(rows))


def test_each_pipeline_module_runs_its_named_composite(small_lex):
    """Each pipeline module hands its stage its own named composite; the main job's several
    tables are one PlayOpeners."""
    from pipelines.config import build_config
    from pipelines.orchestration import stages

    spec = transforms.LexiconSpec.of(small_lex)
    cfg = build_config(None, strategies="entropy", modes="normal,hard")
    picks = {
        "scores": scores.composite(spec, [0, 1]),
        "games": games.composite(cfg.strategies, cfg.modes)(spec, [0, 1]),
        "games+games": games.composite(cfg.strategies, cfg.modes, games=True)(spec, [0, 1]),
        "hard": hard.composite(cfg.strategies)(spec, [0, 1]),
        "hard --exact-only": hard.composite(cfg.strategies, exact_only=True)(spec, [0, 1]),
        "trees": tree_pipeline.composite(cfg.strategies, cfg.modes)(spec, [0, 1]),
        "run": stages.play_composite(cfg, ["opener_summaries", "hard_verdicts"])(spec, [0, 1]),
    }
    assert {k: (label, type(tr).__name__) for k, (label, tr) in picks.items()} == {
        "scores": ("ScoreOpeners", "ScoreOpeners"),
        "games": ("OpenerSummaries", "OpenerSummaries"),
        "games+games": ("OpenerSummaries", "OpenerSummaries"),
        "hard": ("HardVerdicts", "HardVerdicts"),
        "hard --exact-only": ("ExactHardVerdicts", "ExactHardVerdicts"),
        "trees": ("DecisionTrees", "DecisionTrees"),
        "run": ("PlayOpeners", "PlayOpeners"),
    }
    assert type(picks["games"][1]).__module__ == "pipelines.games"
    assert picks["hard --exact-only"][1].fn.strategies == []
    assert picks["games+games"][1].fn.tables == {"opener_summaries", "games"}
    assert picks["run"][1].fn.tables == {"opener_summaries", "hard_verdicts"}
    # (hard mode only, in play order: by each opener's sorted letters)
    want = [(r, True) for r in transforms.play_order([0, 1], small_lex.guesses)]
    assert picks["hard"][1].elements == want


def test_memo_bound_counts_every_strategy_and_mode(small_lex, monkeypatch):
    """A worker's memos are counted together, every strategy and both modes: past the bound
    of the mode it plays (here normal mode, after one hard-mode opener) all of them are
    cleared, and clearing never changes a record."""
    spec = transforms.LexiconSpec.of(small_lex)
    rows = [small_lex.guess_index[w] for w in small_lex.answers[:3]]
    fn = transforms.PlayOpenerFn(spec, ["default"], ["normal", "hard"], ["opener_summaries"],
                                 worst_games=3)
    fn.setup()

    def play(items):
        for s in fn.strats.values():
            s.reset()
        return [rec for item in items for _, rec in fn.process(item)]

    items = [(r, True) for r in rows[:1]] + [(r, False) for r in rows]
    kept = play(items)
    normal = fn.strats[("default", False)]
    assert normal.memo_size() > 0  # under the bound, kept
    monkeypatch.setitem(transforms.MEMO_LIMITS, "normal", normal.memo_size() - 1)
    bounded = play(items)
    assert normal.memo_size() == 0  # cleared on the way: every strategy, both modes
    assert bounded == kept


def test_each_mode_has_its_own_memo_bound(small_lex, monkeypatch):
    """Hard-mode play is bounded by the hard-mode limit (smaller: the verdicts' caches come
    on top), normal-mode play by the normal one; the records are the same either way."""
    spec = transforms.LexiconSpec.of(small_lex)
    rows = [small_lex.guess_index[w] for w in small_lex.answers[:3]]
    fn = transforms.PlayOpenerFn(spec, ["default"], ["hard"], ["opener_summaries"], worst_games=3)
    fn.setup()
    items = [(r, True) for r in rows]
    kept = [rec for item in items for _, rec in fn.process(item)]
    hard = fn.strats[("default", True)]
    size = hard.memo_size()
    assert size > 0
    assert transforms.MEMO_LIMITS["hard"] < transforms.MEMO_LIMITS["normal"]
    hard.reset()
    monkeypatch.setitem(transforms.MEMO_LIMITS, "normal", 10 * size)  # not the one read
    monkeypatch.setitem(transforms.MEMO_LIMITS, "hard", 1)
    bounded = [rec for item in items for _, rec in fn.process(item)]
    assert hard.memo_size() < size  # cleared before the last opener's tree
    assert bounded == kept


def test_a_worker_keeps_the_caches_of_the_mode_it_plays(small_lex, monkeypatch):
    """Moving to the other mode replaces the strategies of the mode left by fresh ones
    (their memos and pair caches go) and, leaving hard mode, forgets the verdicts'
    solver; the records are those of a worker that never switched."""
    from wordle_core.search import hard as hard_search

    spec = transforms.LexiconSpec.of(small_lex)
    rows = [small_lex.guess_index[w] for w in small_lex.answers[:2]]
    fn = transforms.PlayOpenerFn(spec, ["default"], ["normal", "hard"],
                                 ["opener_summaries", "hard_verdicts"], worst_games=3)
    fn.setup()
    forgotten = []
    monkeypatch.setattr(hard_search, "forget_solvers", lambda: forgotten.append(True))
    before = fn.strats[("default", False)]
    switched = [rec for item in [(rows[0], False), (rows[0], True), (rows[1], False), (rows[1], True)]
                for _, rec in fn.process(item)]
    assert fn.strats[("default", False)] is not before  # replaced on the way to hard mode
    assert before.memo_size() > 0  # (it held something to give back)
    assert len(forgotten) == 1  # hard -> normal, once
    assert fn.strats[("default", True)].memo_size() > 0  # the mode it plays now: kept

    fresh = []
    for item in [(rows[0], False), (rows[1], False), (rows[0], True), (rows[1], True)]:
        other = transforms.PlayOpenerFn(spec, ["default"], ["normal", "hard"],
                                        ["opener_summaries", "hard_verdicts"], worst_games=3)
        other.setup()
        fresh += [rec for _, rec in other.process(item)]
    key = lambda rec: (rec["opener"], rec["mode"], rec.get("exact_verdict", ""))
    assert sorted(switched, key=key) == sorted(fresh, key=key)


def test_sink_groups_encoded_records_into_the_same_bytes(small_lex):
    """What crosses the sink's GroupByKey is (sort key, Avro encoding), far smaller than
    the record; the file written from it is byte for byte fastavro's file of the sorted
    records themselves."""
    import hashlib
    import io
    import pickle

    import fastavro

    from pipelines.orchestration import sink
    from pipelines.schemas import SCHEMAS, sort_key

    table = "opener_summaries"
    rows = [small_lex.guess_index[w] for w in small_lex.answers[:5]]
    recs = [records.summary_record(t, 3)
            for t in _expected_trees(small_lex, rows, ["entropy", "minimax"], ["normal", "hard"])]
    key, data = sink.encode_record(table, recs[0])
    assert key == sort_key(table, recs[0])
    assert fastavro.schemaless_reader(io.BytesIO(data), SCHEMAS[table]) == recs[0]
    assert len(data) * 2 < len(pickle.dumps(recs[0], protocol=pickle.HIGHEST_PROTOCOL))
    expected = io.BytesIO()
    fastavro.writer(expected, SCHEMAS[table], sorted(recs, key=lambda r: sort_key(table, r)),
                    codec=sink.CODEC, sync_marker=hashlib.md5(f"wordle-lab:{table}".encode()).digest())
    shuffled = recs[::-1]
    assert sink.encoded_avro_bytes(table, [sink.encode_record(table, r) for r in shuffled]) == \
        expected.getvalue()
    assert sink.avro_bytes(table, shuffled) == expected.getvalue()


def test_write_stage_releases_the_play_caches(small_lex, tmp_path):
    """When a worker starts writing, the strategies' memos and the verdict solver of its
    play are dropped (they are only memory by then); a later play builds them again and
    gives the same records."""
    from wordle_core.search import hard as hard_search

    spec = transforms.LexiconSpec.of(small_lex)
    rows = [small_lex.guess_index[w] for w in small_lex.answers[:3]]
    items = [(r, h) for r in rows for h in (False, True)]

    def play():
        fn = transforms.PlayOpenerFn(spec, ["default", "entropy"], ["normal", "hard"],
                                     ["opener_summaries", "hard_verdicts"], worst_games=3,
                                     exact_node_budget=0)
        fn.setup()
        timeless = [(t, {k: v for k, v in rec.items() if k not in ("exact_seconds", "exact_nodes")})
                    for item in items for t, rec in fn.process(item)]  # (time and memo hits vary)
        return fn, timeless

    fn, first = play()
    assert sum(s.memo_size() for s in fn.strats.values()) > 0  # the caches a play leaves behind
    assert any(rec.get("exact_verdict") == "feasible" for _, rec in first)  # (a solver was made)
    with _pipeline() as p:  # the in-memory runner: the writer's setup runs in this process
        _ = p | beam.Create([("opener_summaries", dict(first[0][1]))]) | \
            WriteTables(str(tmp_path), ["opener_summaries"])
    assert not [k for k in transforms._PROCESS if k[0] == "strategies"]
    assert hard_search.forget_solvers() == 0  # already dropped
    assert sum(s.memo_size() for s in fn.strats.values()) == 0  # the old instances emptied
    assert transforms.release_play_caches() == 0  # nothing left to drop
    _, again = play()
    assert again == first
