"""The commands end to end (in-process DirectRunner) and every bad input: one line, exit 2."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from wordle_core.cli import main

LOCAL = ["--runner=DirectRunner", "--direct_running_mode=in_memory", "--no-progress"]


def _err_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("wordle-lab")
    return err[0]


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """One small main job (flags only, no config): scores for all, two openers played."""
    out = tmp_path_factory.mktemp("run")
    rc = main(["run", "--lexicon", "wordle", "--openers", "salet,crane,fuzzy",
               "--strategies", "entropy,minimax", "--modes", "hard", "--output", str(out), *LOCAL])
    assert rc == 0
    return out


def test_run_writes_tables_and_report(run_dir, capsys):
    for table in ("opener_scores", "opener_summaries"):
        assert len(list((run_dir / table).glob(f"{table}-00000-of-00001.avro"))) == 1
    report = run_dir / "report"
    for name in ("rankings.csv", "best_worst.csv", "worst_games.csv", "opener_scores.csv", "index.html",
                 "lengths_top.png", "mean_vs_eliminated.png", "ranking.png"):
        assert (report / name).stat().st_size > 0, name
    rows = list(csv.DictReader((report / "rankings.csv").open()))
    assert {(r["strategy"], r["opener"]) for r in rows} == {
        (s, o) for s in ("entropy", "minimax") for o in ("salet", "crane", "fuzzy")}
    for r in rows:
        assert int(r["games"]) == 2315
        hist = [int(r[f"solved_in_{i}"]) for i in range(1, 7)] + [int(r["unsolved"])]
        assert sum(hist) == 2315 and hist[-1] == int(r["failures"])
        assert sum(i * n for i, n in enumerate(hist[:6], 1)) + 7 * hist[-1] <= int(r["total_guesses"])
    for strategy in ("entropy", "minimax"):  # winners of every game rank first
        loses = [int(r["failures"]) > 0 for r in rows if r["strategy"] == strategy]
        assert loses == sorted(loses)
    scores = list(csv.DictReader((report / "opener_scores.csv").open()))
    assert len(scores) == 12972


def test_rank_prints_table(run_dir, capsys):
    assert main(["rank", "--report", str(run_dir / "report"), "--by", "win6", "--top", "2",
                 "--strategy", "minimax", "--mode", "hard"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("wordle · minimax · hard mode — top 2 by win6")
    assert len(out) == 4
    assert "fuzzy" not in "\n".join(out)  # fuzzy loses the most hard-mode games


def test_report_is_deterministic(run_dir, tmp_path):
    assert main(["report", "--input", str(run_dir), "--output", str(tmp_path)]) == 0
    for f in (run_dir / "report").iterdir():
        if f.name == "_manifest.json":  # the published report's manifest, not a report file
            continue
        assert (tmp_path / f.name).read_bytes() == f.read_bytes(), f.name


def test_the_report_module_is_the_same_job(run_dir, tmp_path):
    """``python -m pipelines.report`` (its ``run(argv)``) writes the bytes ``wordle-lab
    report`` writes; a missing input is one line and exit 2, with nothing written."""
    import subprocess
    import sys

    out = tmp_path / "report"
    done = subprocess.run([sys.executable, "-m", "pipelines.report", "--input", str(run_dir),
                           "--output", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("report: ") and "index.html" in done.stdout
    for f in (run_dir / "report").iterdir():
        if f.name != "_manifest.json":
            assert (out / f.name).read_bytes() == f.read_bytes(), f.name
    bad = subprocess.run([sys.executable, "-m", "pipelines.report", "--input", str(tmp_path / "none"),
                          "--output", str(tmp_path / "bad")], capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    assert "is not a directory" in bad.stderr and not (tmp_path / "bad").exists()


def test_run_is_byte_identical(run_dir, tmp_path):
    assert main(["pipeline", "games", "--lexicon", "wordle", "--openers", "fuzzy,salet,crane",
                 "--strategies", "entropy,minimax",
                 "--modes", "hard", "--output", str(tmp_path), *LOCAL]) == 0
    a = (run_dir / "opener_summaries" / "opener_summaries-00000-of-00001.avro").read_bytes()
    b = (tmp_path / "opener_summaries" / "opener_summaries-00000-of-00001.avro").read_bytes()
    assert a == b


@pytest.mark.parametrize("yaml_text, needle", [
    ("lexicon: [wordle\n", "not valid YAML"),
    ("lexicon: wordle\nstrategys: [entropy]\n", "unknown key(s) strategys"),
    ("- a\n- b\n", "must be a mapping"),
    ("modes: [easy]\n", "unknown easy"),
    ("openers: {top: -3}\n", "'top' must be"),
    ("openers: {top: 5, by: vibes}\n", "'by' must be one of"),
    ("shards: 0\n", "expected a whole number from 1 to"),
])
def test_bad_config(tmp_path, capsys, yaml_text, needle):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(yaml_text)
    out = tmp_path / "out"
    assert main(["run", "--config", str(cfg), "--output", str(out), *LOCAL]) == 2
    assert needle in _err_line(capsys)
    assert not out.exists()


@pytest.mark.parametrize("argv, needle", [
    (["run", "--config", "no/such.yaml"], "does not exist"),
    (["run", "--openers", "salet", "--strategies", "nosuch"], "unknown strategy 'nosuch'"),
    (["run", "--openers", "salet,zzzzz", "--strategies", "entropy"], "'zzzzz' is not an allowed guess"),
    (["run", "--openers", "salet", "--lexicon", "klingon"], "unknown lexicon 'klingon'"),
    (["pipeline", "scores", "--stratgies", "entropy"], "unknown option --stratgies"),
    (["run", "--strategies", "entropy"], "give --config FILE"),
    (["rank", "--report", "no/such/dir"], "does not exist"),
    (["report", "--input", "no/such/dir"], "is not a directory"),
])
def test_bad_arguments(tmp_path, capsys, argv, needle):
    out = tmp_path / "out"
    full = [*argv, "--output", str(out), *LOCAL] if argv[0] in ("run", "pipeline") else argv
    assert main(full) == 2
    assert needle in _err_line(capsys)
    assert not out.exists() or not any(out.iterdir())


def test_unwritable_output(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main(["pipeline", "scores", "--openers", "salet", "--output", str(blocker / "out"), *LOCAL]) == 2
    assert "is not writable" in _err_line(capsys)
    assert main(["report", "--input", str(tmp_path), "--output", str(blocker / "r")]) == 2


def test_corrupt_avro_report(run_dir, tmp_path, capsys):
    import shutil

    src = tmp_path / "in"
    shutil.copytree(run_dir / "opener_scores", src / "opener_scores")
    shutil.copytree(run_dir / "opener_summaries", src / "opener_summaries")
    bad = src / "opener_summaries" / "opener_summaries-00000-of-00001.avro"
    good = bad.read_bytes()
    bad.write_bytes(good[: len(good) // 2])  # truncated
    out = tmp_path / "report"
    assert main(["report", "--input", str(src), "--output", str(out)]) == 2
    assert "does not match its manifest" in _err_line(capsys)
    assert not out.exists()
    bad.write_bytes(b"garbage" * 10)
    assert main(["report", "--input", str(src), "--output", str(out)]) == 2
    assert "does not match its manifest" in _err_line(capsys)
    assert not out.exists()
    (src / "opener_summaries" / "_manifest.json").unlink()  # shard files alone are not a table
    assert main(["report", "--input", str(src), "--output", str(out)]) == 2
    assert "no _manifest.json" in _err_line(capsys)


def test_failed_pipeline_leaves_old_table(run_dir, tmp_path, monkeypatch, capsys):
    """A worker error is one line (exit 1) naming the log with the trace; nothing is published."""
    import shutil

    from pipelines import records

    out = tmp_path / "o"
    shutil.copytree(run_dir / "opener_summaries", out / "opener_summaries")
    before = sorted((p.name, p.read_bytes()) for p in (out / "opener_summaries").iterdir())

    def boom(*a, **k):
        raise RuntimeError("worker failure")

    monkeypatch.setattr(records, "summary_record", boom)
    assert main(["pipeline", "games", "--lexicon", "wordle", "--openers", "salet", "--strategies", "entropy",
                 "--modes", "hard",
                 "--output", str(out), *LOCAL]) == 1
    line = _err_line(capsys)
    assert "RuntimeError: worker failure" in line and "full trace in " in line
    log = Path(line.split("full trace in ", 1)[1])
    assert log.parent.parent.name.startswith(".staging-") and "Traceback" in log.read_text()
    after = sorted((p.name, p.read_bytes()) for p in (out / "opener_summaries").iterdir())
    assert after == before


def test_hard_mode_csv(tmp_path):
    assert main(["pipeline", "hard", "--lexicon", "wordle", "--openers", "salet,fuzzy",
                 "--strategies", "entropy,minimax",
                 "--output", str(tmp_path), *LOCAL]) == 0
    assert main(["report", "--input", str(tmp_path)]) == 0
    rows = list(csv.DictReader((tmp_path / "report" / "hard_mode.csv").open()))
    assert len(rows) == 4
    for r in rows:
        assert (r["wins_all"] == "True") == (r["losses"] == "0")
        assert int(r["max_guesses"]) == len(r["worst_path"].split())
        assert r["worst_path"].split()[-1] == f"{r['worst_answer']}:ggggg"
        same = [x for x in rows if x["opener"] == r["opener"]]
        assert (r["won_by_some_strategy"] == "True") == any(x["wins_all"] == "True" for x in same)
        # the hard pipeline runs the complete exact search by default: always decided,
        # and a strategy that wins every game proves the opener feasible
        assert r["exact_verdict"] in ("feasible", "infeasible") and "complete" in r["exact_note"]
        if r["wins_all"] == "True":
            assert r["exact_verdict"] == "feasible"
    summary = list(csv.DictReader((tmp_path / "report" / "hard_summary.csv").open()))
    won = {r["opener"] for r in rows if r["wins_all"] == "True"}
    by_verdict = {r["verdict"]: r for r in summary}
    assert sum(int(r["openers"]) for r in summary) == 2 == int(summary[0]["of"])
    feasible = set(by_verdict.get("feasible", {"words": ""})["words"].split())
    assert won <= feasible == {r["opener"] for r in rows if r["exact_verdict"] == "feasible"}
    assert "unknown" not in by_verdict


def test_hard_summary_counts_exact_verdicts(tmp_path):
    """With the exact search on, proven-infeasible openers are listed and counted."""
    assert main(["pipeline", "hard", "--lexicon", "nyt", "--openers", "salet,slate,trace",
                 "--strategies", "entropy", "--exact-budget", "200000", "--output", str(tmp_path),
                 *LOCAL]) == 0
    assert main(["report", "--input", str(tmp_path)]) == 0
    summary = {r["verdict"]: r for r in csv.DictReader((tmp_path / "report" / "hard_summary.csv").open())}
    assert summary["infeasible"]["words"] == "slate trace" and summary["infeasible"]["openers"] == "2"
    assert summary["feasible"]["words"] == "salet"


def test_run_config_with_exact_verdicts_only(tmp_path, capsys):
    """A config whose only table is ``hard_exact``: the main job decides each opener and
    plays no strategy; the records agree with the engine's own verdicts, and the report
    counts them."""
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.search.hard import hard_verdict
    from wordle_core.tables.avro import read_records

    cfg = tmp_path / "exact.yaml"
    cfg.write_text(f"lexicon: nyt\noutput: {tmp_path / 'out'}\nopeners: [salet, slate]\n"
                   "outputs: [hard_exact, report]\nexact_hard: true\n")
    assert main(["run", "--config", str(cfg), *LOCAL]) == 0
    err = capsys.readouterr().err
    assert "deciding 2 openers" in err and "playing" not in err
    lex = load_lexicon("nyt")
    recs = read_records(tmp_path / "out", "hard_exact")
    assert [(r["opener"], r["exact_verdict"]) for r in recs] == [
        (w, hard_verdict(lex, lex.guess_id(w))["verdict"]) for w in ("salet", "slate")]
    assert [r["exact_verdict"] for r in recs] == ["feasible", "infeasible"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["_generation.json", "hard_exact",
                                                                     "report"]
    summary = list(csv.DictReader((tmp_path / "out" / "report" / "hard_summary.csv").open()))
    assert [(r["verdict"], r["openers"], r["of"], r["words"]) for r in summary] == [
        ("feasible", "1", "2", "salet"), ("infeasible", "1", "2", "slate")]


def test_modes_flag_without_hard_leaves_the_hard_mode_table_out(tmp_path, capsys):
    """``--modes normal`` over a config that asks for ``hard_verdicts`` plays normal mode
    only: the hard-mode table is left out with one line, not computed behind the user's back."""
    from pipelines.report import read_frame

    cfg = tmp_path / "job.yaml"
    cfg.write_text("lexicon: wordle\nopeners: [salet]\nstrategies: [entropy]\nmodes: [normal, hard]\n"
                   "outputs: [opener_summaries, hard_verdicts]\n")
    out = tmp_path / "out"
    assert main(["run", "--config", str(cfg), "--modes", "normal", "--output", str(out), *LOCAL]) == 0
    err = capsys.readouterr().err
    assert "hard_verdicts left out" in err and "x entropy x normal" in err
    summaries = read_frame(out, "opener_summaries")
    assert summaries is not None and set(summaries["mode"]) == {"normal"}
    assert not (out / "hard_verdicts").exists()
    both = tmp_path / "both"  # the config as written still makes the table
    assert main(["run", "--config", str(cfg), "--output", str(both), *LOCAL]) == 0
    verdicts = read_frame(both, "hard_verdicts")
    assert verdicts is not None and list(verdicts["opener"]) == ["salet"]


def test_a_one_process_direct_runner_gets_one_worker_thread(capsys):
    """``in_memory`` / ``multi_threading`` run the workers as threads of one process, whose
    engine caches are not made for threads: one thread is set, more is refused in one line."""
    from pipelines.options import check_beam_args

    args = check_beam_args(["--direct_running_mode=in_memory"])
    assert args[-1] == "--direct_num_workers=1" and "--direct_running_mode=in_memory" in args
    assert check_beam_args(["--runner=DirectRunner", "--direct_running_mode", "multi_threading",
                            "--direct_num_workers", "1"])[-1] == "--direct_num_workers=1"
    assert "--direct_num_workers=1" not in check_beam_args([])  # processes: one per core
    assert main(["pipeline", "games", "--lexicon", "wordle", "--openers", "salet",
                 "--direct_running_mode=in_memory", "--direct_num_workers=2", "--no-progress"]) == 2
    line = _err_line(capsys)
    assert "--direct_num_workers=2" in line and "multi_processing" in line
