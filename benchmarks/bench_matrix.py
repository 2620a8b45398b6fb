"""Pattern-matrix build and cached-load times (targets: build <= 3 s, cached load <= 0.2 s).

Run: .venv/bin/python benchmarks/bench_matrix.py [--lexicon wordle]
"""

from __future__ import annotations

import argparse
import tempfile
import time

import numpy as np

from wordle_core import load_lexicon
from wordle_core.game.matrix import _LOADED, compute_patterns, pattern_matrix


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    _ = lex.guess_codes
    builds = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        mat = compute_patterns(lex.guess_codes, lex.answer_codes)
        builds.append(time.perf_counter() - t)
    with tempfile.TemporaryDirectory() as tmp:
        pattern_matrix(lex, directory=tmp)  # write the cache
        loads = []
        for _ in range(args.repeat):
            _LOADED.clear()
            t = time.perf_counter()
            cached = pattern_matrix(lex, directory=tmp)
            _ = int(np.asarray(cached[:, 0]).sum())  # touch it
            loads.append(time.perf_counter() - t)
        assert np.array_equal(np.asarray(cached), mat)
    print(f"lexicon {lex.name}: {mat.shape[0]:,} x {mat.shape[1]:,} {mat.dtype} "
          f"({mat.nbytes / 2**20:.1f} MiB)")
    print(f"build (vectorised numpy): best {min(builds):.3f} s of {args.repeat}  [target <= 3 s]")
    print(f"cached load (mmap):       best {min(loads) * 1000:.2f} ms of {args.repeat}  [target <= 200 ms]")


if __name__ == "__main__":
    main()
