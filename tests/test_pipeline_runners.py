"""Same pipeline, other runners: Dask (LocalCluster on 127.0.0.1) and a Dataflow dry run."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pipelines import scores
from pipelines.config import build_config
from pipelines.options import DASK_RUNNER
from pipelines.orchestration import stages
from pipelines.orchestration.runner import dask_partitions, local_dask_cluster

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory"]
TABLES = ["opener_summaries", "hard_verdicts", "trees"]


def _cfg(out):
    return build_config(None, lexicon="wordle",
                        output=str(out), openers="salet,fuzzy,queue", score_openers="top:40+fuzzy",
                        strategies="entropy,minimax", modes="hard", worst_games=3)


def _files(out):
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.avro"))}


def test_dask_equals_direct_runner(tmp_path):
    """Byte-identical Avro from the DirectRunner and from Dask workers, the work spread
    over several partitions (as ``--dask-workers`` spreads it)."""
    direct, dask = tmp_path / "direct", tmp_path / "dask"
    for out, args in ((direct, LOCAL), (dask, None)):
        cfg = _cfg(out)
        if args is None:
            with local_dask_cluster(2) as address:
                args = [f"--runner={DASK_RUNNER}", f"--dask_client_address={address}",
                        *dask_partitions([], workers=2)]
                assert address.startswith("tcp://127.0.0.1:")
                from distributed import Client

                with Client(address) as client:  # the nanny's malloc-trim setting is off
                    env = client.run(lambda: __import__("os").environ.get("MALLOC_TRIM_THRESHOLD_"))
                assert len(env) == 2 and set(env.values()) == {None}
                scores.score(cfg, args, None)
                stages.run_play(cfg, TABLES, stages.play_composite(cfg, TABLES), args, None)
        else:
            scores.score(cfg, args, None)
            stages.run_play(cfg, TABLES, stages.play_composite(cfg, TABLES), args, None)
    a, b = _files(direct), _files(dask)
    assert sorted(a) == ["hard_verdicts/hard_verdicts-00000-of-00001.avro",
                         "opener_scores/opener_scores-00000-of-00001.avro",
                         "opener_summaries/opener_summaries-00000-of-00001.avro",
                         "trees/trees-00000-of-00001.avro"]
    from wordle_core.tables.load import read_avro_records

    assert len(read_avro_records([direct / "opener_summaries/opener_summaries-00000-of-00001.avro"])) == 6
    assert len(read_avro_records([direct / "opener_scores/opener_scores-00000-of-00001.avro"])) == 41
    assert a == b


def test_a_local_cluster_gets_partitions_for_every_worker():
    """Beam's Dask runner would put up to 128 shards into one partition (one worker)."""
    assert dask_partitions([], workers=2) == ["--dask_npartitions=4"]
    assert dask_partitions([], workers=1) == ["--dask_npartitions=2"]
    assert dask_partitions(["--dask_partition_size=8"], workers=2) == []
    assert dask_partitions(["--dask_npartitions=7"], workers=2) == []


def test_dataflow_job_builds_offline():
    pytest.importorskip("apache_beam.runners.dataflow.dataflow_runner")
    pytest.importorskip("google.cloud.storage")
    cfg = build_config(None, lexicon="wordle",
                       output="gs://wordle-lab-example/out", openers="salet", strategies="entropy",
                       modes="hard")
    ns = SimpleNamespace(matrix_path="gs://wordle-lab-example/patterns.npy", progress=True, dask_workers=None)
    tables = ["opener_summaries", "hard_verdicts"]
    res = stages.run_play(cfg, tables, stages.play_composite(cfg, tables), [
        "--runner=DataflowRunner", "--project=wordle-lab-example", "--region=us-central1",
        "--temp_location=gs://wordle-lab-example/tmp", "--dry_run=True"], ns)
    assert res.dry_run and res.runner == "DataflowRunner" and res.files == []
    names = {t.unique_name for t in res.beam_result.job.proto_pipeline.components.transforms.values()}
    assert {"PlayOpeners/Shards", "PlayOpeners/Spread", "PlayOpeners/Work",
            "WriteTables/GroupShards", "WriteTables/WriteShards"} <= names
