"""``benchmarks/function_sizes.py``: the longest functions and the largest parameter counts,
read from the source with ``ast`` (nothing imported)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from function_sizes import functions, main  # noqa: E402


def test_function_sizes_reads_every_definition(tmp_path: Path) -> None:
    """Lines from ``def`` to the last line, every kind of parameter, nested functions too."""
    (tmp_path / "m.py").write_text(
        "def f(a, /, b, *c, d, **e):\n    '''doc'''\n    return 1\n\n\n"
        "class K:\n    def g(self):\n        def h():\n            pass\n        return h\n")
    got = {f.name: (f.length, f.params) for f in functions(tmp_path)}
    assert got == {"f": (3, 5), "g": (4, 1), "h": (2, 0)}


def test_function_sizes_prints_both_tables_and_refuses_a_missing_folder(capsys) -> None:
    assert main(["wordle_core/kernels", "--top", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("wordle_core/kernels: longest") and len(out) == 6
    assert "most parameters" in out[3]
    assert main(["no-such-folder"]) == 2
    assert capsys.readouterr().err.strip() == "function_sizes: no folder 'no-such-folder' in " + str(ROOT)
