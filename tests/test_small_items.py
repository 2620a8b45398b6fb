"""The issue's small items, each as a user meets it: the strategies table's alignment,
`rank --proven --top 3` wording, `rank --exact --worst` ties, `simulate --tree` timing,
`pipeline scores` saying where it wrote with the top openers, `rank` after scores only,
and `report` naming index.html."""

from __future__ import annotations

import re

from _report_data import synthetic_tables, write_tables
from _solver_cli import cli, run_main, write_lexicon

from wordle_core.game.lexicon import load_lexicon


def test_strategies_table_is_aligned_for_long_names(capsys):
    code, out, _ = run_main(["strategies"], capsys)
    assert code == 0
    lines = out.splitlines()
    names = [line.split()[0] for line in lines]
    assert max(map(len, names)) >= 19  # the long names the issue saw misaligned
    starts = {len(line) - len(line[len(name):].lstrip()) for line, name in zip(lines, names, strict=True)}
    assert len(starts) == 1  # every summary starts in the same column


def test_rank_proven_top_3_says_what_is_shown(capsys):
    code, out, _ = run_main(["rank", "--proven", "--lexicon", "wordle", "--top", "3"], capsys)
    assert code == 0
    last = out.splitlines()[-1]
    assert last.startswith("the best 3 of the proven top 100; the 100th total is ")
    assert "openers outside the top 100 are proven worse" in last
    assert "the other" not in last


def test_rank_exact_worst_says_the_tie(capsys):
    argv = ["rank", "--exact", "--lexicon", "wordle", "--worst", "--mode", "hard", "--top", "5"]
    code, out, _ = run_main(argv, capsys)
    assert code == 0
    m = re.search(r"([\d,]+) openers tie for last place \(no guaranteed win\); the first 5 alphabetically:",
                  out)
    assert m and int(m.group(1).replace(",", "")) > 5
    rows = [line.split()[1] for line in out.splitlines()[-5:]]
    assert rows == sorted(rows) and all("no win" in line for line in out.splitlines()[-5:])


def test_simulate_from_a_saved_tree_says_so_not_zero_ms(small_lex, tmp_path):
    flags = write_lexicon(small_lex, tmp_path)
    tree = tmp_path / "tree.json"
    first = cli("simulate", *flags, "--strategy", "entropy", "--opener", small_lex.guesses[0],
                "--save-tree", str(tree))
    assert first.returncode == 0, first.stderr
    assert re.search(r"\(\d+\.\d{3} ms/game\)", first.stdout)
    again = cli("simulate", *flags, "--strategy", "entropy", "--tree", str(tree))
    assert again.returncode == 0, again.stderr
    assert "(played from the saved tree)" in again.stdout and "ms/game" not in again.stdout
    assert "lost 0 (not solved in 6)" in again.stdout


def test_pipeline_scores_result_names_the_table_and_top_openers(tmp_path):
    from pipelines.config import build_config
    from pipelines.scores import scores_result

    lex = load_lexicon("wordle")
    recs = [{"lexicon": "wordle", "mode": "normal", "strategy": "-", "opener": w,
             "avg_eliminated": float(i % 977), "avg_remaining": float(1000 - i % 977),
             "entropy_bits": (i % 613) / 100, "largest_bucket": 2000 - i % 1500, "buckets": i % 150,
             "is_answer": w in lex.answer_index} for i, w in enumerate(lex.guesses)]
    write_tables(tmp_path, {"opener_scores": recs})
    text = scores_result(build_config(None, output=str(tmp_path), lexicon="wordle"))
    lines = text.splitlines()
    assert lines[0] == f"opener_scores: {(tmp_path / 'opener_scores').resolve()}"
    best = max(range(len(recs)), key=lambda i: (recs[i]["avg_eliminated"], -i))
    assert lines[1].startswith(f"  top 5 by avg eliminated: {lex.guesses[best].upper()} 976.0")
    assert len(lines) == 5


def test_rank_after_scores_only_says_what_is_missing(tmp_path, capsys):
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "opener_scores.csv").write_text("lexicon,opener\n")
    code, _, err = run_main(["rank", "--report", str(tmp_path / "report")], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "first-guess scores only" in err and "pipeline games" in err


def test_report_names_index_html(tmp_path, capsys):
    write_tables(tmp_path, synthetic_tables(["salet", "crane", "trace"], ["entropy"], ["normal"],
                                            games=100))
    code, out, _ = run_main(["report", "--input", str(tmp_path)], capsys)
    assert code == 0
    assert out.startswith(f"report: {(tmp_path / 'report' / 'index.html').resolve()} (")
