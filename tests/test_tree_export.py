"""Tree export: CSV/dot/HTML content, the trees Avro table, and the page in headless Chromium."""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import fastavro
import pytest
from _report_data import browse, chromium

from wordle_core.cli import main
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.strategies import get_strategy
from wordle_core.tables.export import subtree_sizes, to_csv, to_dot, to_html, tree_from_tables

# The fields of the pipeline's ``trees`` schema (pipelines/schemas.py) that the reader
# uses, inlined so this test checks the reader against that layout on its own.
TREES_SCHEMA = {
    "type": "record", "name": "DecisionTree", "namespace": "org.wordlelab.v1",
    "fields": [
        {"name": "lexicon", "type": "string"}, {"name": "mode", "type": "string"},
        {"name": "strategy", "type": "string"}, {"name": "opener", "type": "string"},
        {"name": "nodes", "type": {"type": "array", "items": {
            "type": "record", "name": "TreeNode",
            "fields": [{"name": "path", "type": "string"}, {"name": "guess", "type": "string"}]}}},
    ],
}


@pytest.fixture(scope="module")
def small_tree(small_lex) -> Tree:
    mat = pattern_matrix(small_lex)
    root = GameState.new(small_lex, False, mat)
    strat = get_strategy("entropy")
    return Tree.build(strat, root, strat.choose(root))


@pytest.fixture(scope="module")
def wordle_tree(wordle) -> Tree:
    return Tree.build(get_strategy("entropy"), GameState.new(wordle), "salet")


def test_csv_paths_replay_to_their_answers(small_lex, small_tree):
    rows = list(csv.DictReader(io.StringIO(to_csv(small_tree))))
    assert len(rows) == len(small_lex.answers)
    for r in rows:
        hist = [tuple(x.split(":")) for x in r["path"].split(",")]
        st = GameState.from_history(small_lex, hist)
        assert st.solved and st.candidate_words() == [r["answer"]]
        assert int(r["guesses"]) == len(hist)


def test_dot_has_every_node_and_edge(small_tree):
    text = to_dot(small_tree)
    nodes = re.findall(r"^  n(\d+) \[label=", text, re.M)
    edges = re.findall(r"^  n(\d+) -> n(\d+) \[label=\"([byg]+)\"\];", text, re.M)
    assert len(nodes) == len(small_tree.guess)
    assert len(edges) == len(small_tree.guess) - 1
    assert text.startswith("digraph") and text.rstrip().endswith("}")
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg"], input=text.encode(), check=True, capture_output=True, timeout=60)


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.answers: list[str] = []
        self.depth = 0
        self.max_depth = 0

    def handle_starttag(self, tag, attrs):
        d = dict(attrs)
        if "data-answer" in d:
            self.answers.append(d["data-answer"])
        if tag == "details":
            self.depth += 1
            self.max_depth = max(self.max_depth, self.depth)

    def handle_endtag(self, tag):
        if tag == "details":
            self.depth -= 1


def test_html_lists_every_answer_once_and_is_balanced(small_lex, small_tree):
    page = to_html(small_tree)
    p = _Collect()
    p.feed(page)
    assert sorted(p.answers) == sorted(small_lex.answers)
    assert p.depth == 0 and p.max_depth == int(small_tree.lengths().max()) - 1
    assert "http://" not in page and "https://" not in page  # self-contained
    sizes = subtree_sizes(small_tree)
    assert sizes[0] == len(small_lex.answers)


def test_tree_command_reads_the_avro_table(wordle, wordle_tree, tmp_path, capsys):
    rows = wordle_tree.rows()
    import io

    from wordle_core.tables.avro import write_table

    table = tmp_path / "trees-00000-of-00001.avro"
    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(TREES_SCHEMA), [
        {"lexicon": "wordle", "mode": "normal", "strategy": "entropy", "opener": "crane", "nodes": []},
        {"lexicon": "wordle", "mode": "normal", "strategy": "entropy", "opener": "salet",
         "nodes": [{"path": p, "guess": g} for p, g in rows]},
    ])
    write_table(tmp_path, "trees", {table.name: (buf.getvalue(), 2)})  # published: with its manifest
    loaded = tree_from_tables(wordle, [table], "entropy", False, "salet")
    assert loaded is not None and to_csv(loaded) == to_csv(wordle_tree)
    assert tree_from_tables(wordle, [table], "entropy", True, "salet") is None
    out = tmp_path / "t.csv"
    assert main(["tree", "--lexicon", "wordle", "--strategy", "entropy", "--opener", "salet",
                 "--format", "csv", "--table", str(tmp_path), "-o", str(out)]) == 0
    assert "read from the trees table" in capsys.readouterr().err
    assert out.read_text() == to_csv(wordle_tree)
    assert main(["tree", "--strategy", "entropy", "--table", str(tmp_path / "none"), "--format", "csv"]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["tree", "--strategy", "entropy", "--format", "svg"])
    assert exc.value.code == 2


def _browser(url: str, *extra: str) -> str:
    """Headless Chromium's stdout for ``url`` (the shared runner of the HTML tests)."""
    return browse(url, *extra)[0]


def _check(dom: str) -> dict[str, str]:
    m = re.search(r'data-check="([^"]*)"', dom)
    assert m, "the page's script did not run (no data-check attribute)"
    return dict(kv.split(":", 1) for kv in m.group(1).split(";"))


@pytest.mark.skipif(chromium() is None, reason="chromium is not installed (run .ci/install-browser)")
def test_html_tree_in_headless_chromium(wordle_tree, tmp_path):
    page = tmp_path / "salet-tree.html"
    page.write_text(to_html(wordle_tree), encoding="utf-8")
    url = page.resolve().as_uri()
    # A known path: SALET -> ... -> REBUS. Collapsed, REBUS is in the page but not visible.
    before = _check(_browser(url + "#probe=rebus", "--dump-dom"))
    assert before == {"root": "1", "answer": "rebus", "found": "1", "visible": "0"}
    dom = _browser(url + "#answer=rebus", "--dump-dom")
    assert _check(dom) == {"root": "1", "answer": "rebus", "found": "1", "visible": "1"}
    # The page spells the path out on top: every guess of the game, REBUS last.
    path = wordle_tree.path(wordle_tree.lexicon.answer_index["rebus"])
    crumb = re.search(r'<div id="path">(.*?)</div>', dom, re.S).group(1)
    assert f"<b>REBUS</b> in {len(path)}" in crumb
    words = ["".join(re.findall(r'class="t [byg]">(\w)</span>', chunk)) for chunk in crumb.split("→")]
    assert words == [wordle_tree.lexicon.guesses[g].upper() for g, _ in path]
    missing = _check(_browser(url + "#answer=zzzzz", "--dump-dom"))
    assert missing["found"] == "0" and missing["root"] == "1"
    shot_dir = Path(os.environ.get("WORDLE_LAB_SCREENSHOTS", tmp_path))
    shot_dir.mkdir(parents=True, exist_ok=True)
    shot = shot_dir / "tree-salet-rebus.png"
    _browser(url + "#answer=rebus", f"--screenshot={shot}", "--window-size=1100,900", "--hide-scrollbars")
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


def test_exports_are_byte_identical_across_builds(small_lex, small_tree):
    mat = pattern_matrix(small_lex)
    again = Tree.build(get_strategy("entropy"), GameState.new(small_lex, False, mat),
                       small_tree.opener)
    for fn in (to_csv, to_dot, to_html):
        assert fn(again) == fn(small_tree)
