"""Make a lexicon's pattern matrix and put it where cloud workers read it (``--matrix-path``).

Workers of a remote runner (Dataflow) have no local matrix cache: without ``--matrix-path``
each worker computes the matrix itself when it starts (about a second per worker for
``wordle``, more for larger lexicons). With it, every worker reads this one file. The file
is the local cache's format (``.wlm``: a header with the lexicon's fingerprint and a
checksum), which each worker verifies before use, so a matrix of other word lists, or a
damaged upload, is refused instead of silently used::

    python -m pipelines.matrix --lexicon wordle --output gs://BUCKET/wordle.wlm
    wordle-lab run --config configs/full.yaml --output gs://BUCKET/wordle \\
        --matrix-path gs://BUCKET/wordle.wlm --runner=DataflowRunner ...

The output may be any ``FileSystems`` location (``gs://``, ``s3://``) or a local path.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from wordle_core.errors import OneLineParser, one_line_errors

from .config import ConfigError


def make_matrix_file(lexicon: str, output: str) -> int:
    """Write ``lexicon``'s matrix in the cache format to ``output``; the bytes written."""
    from wordle_core.files import write_whole
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import SUFFIX, pattern_matrix, read_matrix, save_matrix

    if not output.endswith(SUFFIX):
        raise ConfigError(f"--output {output!r}: a matrix file is named *{SUFFIX}")
    lex = load_lexicon(lexicon)
    with tempfile.TemporaryDirectory(prefix="wordle-lab-matrix-") as d:
        tmp = Path(d) / f"{lex.name}{SUFFIX}"
        save_matrix(pattern_matrix(lex), tmp, lex)
        data = tmp.read_bytes()
    read_matrix(data, lex, where=output)  # what every worker will check
    write_whole(output, data)
    return len(data)


def main(argv: Sequence[str] | None = None) -> int:
    p = OneLineParser(prog="python -m pipelines.matrix", description=__doc__.split("\n")[0])
    p.add_argument("--lexicon", default="wordle", help="built-in lexicon (default wordle)")
    p.add_argument("--output", required=True, metavar="PATH",
                   help="where to write it: gs://BUCKET/NAME.wlm, or a local NAME.wlm")
    ns = p.parse_args(list(sys.argv[1:] if argv is None else argv))
    n = make_matrix_file(ns.lexicon, ns.output)
    print(f"matrix: {ns.lexicon} -> {ns.output} ({n:,} bytes); give it to the pipelines as "
          f"--matrix-path {ns.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(one_line_errors(lambda: main(sys.argv[1:]), prog="pipelines.matrix"))
