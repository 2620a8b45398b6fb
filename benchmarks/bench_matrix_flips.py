"""Byte flips in a real matrix cache file: how many does the verified load detect (must be all)?

Builds Wordle's matrix cache in a temporary directory, then N times: flip one byte in
place (random offset, about 10% of them in the 4 KiB header; random non-zero XOR mask),
load it with the per-load check (header + size + CRC-32), restore the byte. Prints
detected / N and the time.

Run: .venv/bin/python benchmarks/bench_matrix_flips.py [N] [--lexicon wordle]
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from wordle_core.game import matrix as mx
from wordle_core.game.lexicon import load_lexicon


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n", nargs="?", type=int, default=1000)
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--seed", type=int, default=14)
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    d = Path(tempfile.mkdtemp(prefix="bench-flips-"))
    try:
        mx.pattern_matrix(lex, directory=d)
        p = mx.matrix_path(lex, d)
        size = p.stat().st_size
        rng = random.Random(args.seed)
        detected = header = 0
        t = time.perf_counter()
        with open(p, "r+b") as fh:
            for _ in range(args.n):
                off = rng.randrange(mx.HEADER_SIZE) if rng.random() < 0.1 else rng.randrange(size)
                header += off < mx.HEADER_SIZE
                fh.seek(off)
                b = fh.read(1)[0]
                fh.seek(off)
                fh.write(bytes([b ^ rng.randrange(1, 256)]))
                fh.flush()
                try:
                    mx.load_cached(p, lex)
                except mx.MatrixCacheError:
                    detected += 1
                fh.seek(off)
                fh.write(bytes([b]))
                fh.flush()
        mx.load_cached(p, lex, full=True)  # the restored file verifies again
        print(f"{lex.name} matrix cache ({size:,} bytes): {detected}/{args.n} random byte flips detected "
              f"({header} in the header), {time.perf_counter() - t:.1f} s")
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
