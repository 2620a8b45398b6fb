"""Every quick shell example in README.md runs, so the examples cannot rot.

What is checked: each line starting with ``wordle-lab`` inside a fenced ```` ```sh ````
block runs in-process (``wordle_core.cli.main``) in an empty directory and exits 0.
The README marks the rest for this checker:

* ``[--flag VALUE]`` optional parts: the command runs without them and with all of them;
* a trailing ``# → TEXT`` comment: the command's output must be exactly ``TEXT``;
* a trailing comment containing ``needs:`` (e.g. ``# needs: a finished quick run``): skipped,
  the example depends on outputs the checker does not make;
* ``<!-- readme-check: skip (reason) -->`` on the line before a fence: the whole block is
  skipped (minutes-long jobs such as ``make run``).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from wordle_core.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"


def examples(text: str) -> list[tuple[int, str, str | None]]:
    """(line number, command, expected output or None) of every checked example."""
    out = []
    lines = text.splitlines()
    in_block, skip_block = False, False
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            if not in_block and line.strip() == "```sh":
                in_block = True
                skip_block = n >= 2 and lines[n - 2].strip().startswith("<!-- readme-check: skip")
            elif in_block:
                in_block = False
            continue
        if not in_block or skip_block or not line.startswith("wordle-lab "):
            continue
        cmd, _, comment = line.partition(" #")
        comment = comment.strip()
        if "needs:" in comment:
            continue
        expected = comment[1:].strip() if comment.startswith("→") else None
        out.append((n, cmd.strip(), expected))
    return out


def variants(cmd: str) -> list[list[str]]:
    """The command without its ``[...]`` optional parts and with all of them."""
    bare = re.sub(r"\s*\[[^\]]*\]", "", cmd)
    full = re.sub(r"\[([^\]]*)\]", r"\1", cmd)
    return [shlex.split(v)[1:] for v in dict.fromkeys([bare, full])]


CASES = [(n, argv, expected) for n, cmd, expected in examples(README.read_text(encoding="utf-8"))
         for argv in variants(cmd)]


def test_the_checker_finds_the_examples():
    text = README.read_text(encoding="utf-8")
    assert len(CASES) >= 10
    assert any(argv[0] == "candidates" for _, argv, _ in CASES)
    # the checker itself: markers are honoured
    sample = ("```sh\nwordle-lab score a b   # → bbyby\nwordle-lab x   # needs: a run\n```\n"
              "<!-- readme-check: skip (slow) -->\n```sh\nwordle-lab run\n```\n")
    assert examples(sample) == [(2, "wordle-lab score a b", "bbyby")]
    assert variants("wordle-lab s [--hard] [--save-tree t.json]") == [["s"], ["s", "--hard", "--save-tree",
                                                                             "t.json"]]
    assert "wordle-lab" in text


@pytest.mark.parametrize("line, argv, expected", CASES, ids=[f"L{n}:{' '.join(a)}" for n, a, _ in CASES])
def test_readme_example_runs(line, argv, expected, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WORDLE_LAB_OUTPUTS", str(tmp_path / "outputs"))
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 0, f"README line {line}: `wordle-lab {' '.join(argv)}` exited {rc}: {err.strip()}"
    assert out.strip(), f"README line {line} printed nothing"
    if expected is not None:
        assert out.strip() == expected, f"README line {line}"


JARGON = re.compile(r"\b[Ss]eeds? 00\d|\b[Ii]ssues? \d+\b")


def test_no_internal_jargon_in_user_text(capsys):
    """Users never heard of "seed 002" or "issue 6": docs, docstrings and CLI tables say what
    the idea is."""
    root = README.parent
    code = [p for pkg in ("wordle_core", "pipelines", "benchmarks")
            for p in sorted((root / pkg).rglob("*.py"))]
    data = sorted((root / "wordle_core" / "data").rglob("*.md"))
    for path in [README, *sorted((root / "docs").rglob("*.md")), *sorted((root / "configs").glob("*.yaml")),
                 *code, *data]:  # docstrings, help texts and Avro schema docs are user text too
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not JARGON.search(line), f"{path.name}:{n}: {line.strip()}"
    for argv in (["strategies"], ["strategies", "--json"], ["lexicons"], ["lexicons", "--json"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert not JARGON.search(out), (argv, JARGON.search(out).group(0))
