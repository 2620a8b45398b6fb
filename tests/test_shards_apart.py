"""The play keeps its shards and fresh workers write the tables from them.

A local run of ``wordle-lab run`` / ``pipeline ...`` is two pipelines: the first
computes the shards not yet finished and keeps each in its file, emitting nothing; the
second reads every shard back and writes the tables, in new worker processes (so the
tables' grouping does not come on top of the play's memos). Checked here: what each
pipeline emits (``TestPipeline`` + ``assert_that``), that the reader's processes are
not the play's, and that the tables are byte-identical to a run that writes them from
the play's own output.
"""

from __future__ import annotations

import os
from pathlib import Path

import apache_beam as beam
from apache_beam.options.pipeline_options import PipelineOptions
from apache_beam.testing.test_pipeline import TestPipeline as BeamTestPipeline
from apache_beam.testing.util import BeamAssertException, assert_that, equal_to

from pipelines.orchestration import stages
from pipelines.orchestration.shards import ResumableShards, ShardStore, Work, cut
from wordle_core.cli import main

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=multi_processing",
         "--direct_num_workers=2"]


class _Square(Work):
    """A toy stage: item -> ("squares", (item, item ** 2, pid of the worker that computed it))."""

    def process(self, item: int):
        yield "squares", (item, item * item, os.getpid())


def _no_pid(pairs):
    return sorted((t, r[:2]) for t, r in pairs)


def test_emit_false_keeps_the_shards_and_read_back_emits_them(tmp_path: Path):
    store = ShardStore(str(tmp_path), "toy")
    work = cut(list(range(12)), 4)  # 4 shards of 3 items
    # shard 1 finished earlier, with values the DoFn would not give: it must be kept as is
    store.write(1, [("squares", (i, -1, 0)) for i in work[1]], work[1])
    plan = ResumableShards(store, work, _Square(), reuse={1}, emit=False)
    with BeamTestPipeline() as p:
        out = p | plan
        assert_that(out, equal_to([]))
    assert store.done() == {0, 1, 2, 3}
    assert store.read(1) == [("squares", (i, -1, 0)) for i in work[1]]
    expected = [("squares", (i, -1 if i in work[1] else i * i)) for i in range(12)]
    with BeamTestPipeline() as p:
        back = p | plan.read_back() | beam.combiners.ToList() | beam.Map(_no_pid)
        assert_that(back, equal_to([sorted(expected)]))


def test_a_missing_shard_file_is_computed_again_when_read_back(tmp_path: Path):
    store = ShardStore(str(tmp_path), "toy")
    work = cut(list(range(6)), 3)
    plan = ResumableShards(store, work, _Square(), reuse=set(), emit=False)
    with BeamTestPipeline() as p:
        _ = p | plan
    os.remove(store.path(2))
    with BeamTestPipeline() as p:
        back = p | plan.read_back() | beam.combiners.ToList() | beam.Map(_no_pid)
        assert_that(back, equal_to([sorted(("squares", (i, i * i)) for i in range(6))]))
    assert store.done() == {0, 1, 2}


def _tag_reader(pair):
    computed_by = pair[1][2]
    return computed_by, os.getpid()


def _disjoint(pids):
    computed = {c for c, _ in pids}
    read = {r for _, r in pids}
    if len(pids) != 8 or computed & read:
        raise BeamAssertException(f"computed by {computed}, read back by {read}")


def test_the_reading_workers_are_not_the_computing_ones(tmp_path: Path, monkeypatch):
    # (the worker processes import this module to run its toy DoFn)
    here = str(Path(__file__).resolve().parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])))
    store = ShardStore(str(tmp_path), "toy")
    work = cut(list(range(8)), 4)
    plan = ResumableShards(store, work, _Square(), reuse=set(), emit=False)
    with beam.Pipeline(options=PipelineOptions(LOCAL)) as p:
        _ = p | plan
    with beam.Pipeline(options=PipelineOptions(LOCAL)) as p:
        pids = p | plan.read_back() | beam.Map(_tag_reader)
        assert_that(pids, _disjoint)


def _tables(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.avro"))
            if not any(s.startswith(".") for s in p.relative_to(out).parts)}


def test_tables_written_apart_are_byte_identical(tmp_path: Path, monkeypatch):
    args = ["pipeline", "games", "--lexicon", "mini-nerdle", "--openers", "top:12",
            "--strategies", "entropy,default", "--modes", "normal,hard", "--no-progress", *LOCAL]
    assert main([*args, "--output", str(tmp_path / "apart")]) == 0

    real = stages.execute

    def together(*a, **kw):  # the play's own output goes to the sink, as before
        kw.pop("apart", None)
        return real(*a, **kw)

    monkeypatch.setattr(stages, "execute", together)
    assert main([*args, "--output", str(tmp_path / "together")]) == 0
    apart, together_ = _tables(tmp_path / "apart"), _tables(tmp_path / "together")
    assert apart and apart == together_
