"""Pattern-matrix build and cached-load times (targets: build <= 3 s, cached load <= 0.2 s).

Load is timed three ways in the same run, each best of ``--repeat`` on a warm page cache:

* old: the pre-v2 cache, a bare ``.npy`` memory-mapped with no check at all;
* new: the v2 cache as every load reads it (header checks + CRC-32 of the whole payload,
  which detects every single changed byte);
* full: the same plus SHA-256 of the payload (what ``cache info --verify`` and every
  write do; not done per load, this line shows why).

Run: .venv/bin/python benchmarks/bench_matrix.py [--lexicon wordle]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from wordle_core import load_lexicon
from wordle_core.game.matrix import _LOADED, compute_patterns, load_cached, matrix_path, pattern_matrix


def _best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        _LOADED.clear()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    _ = lex.guess_codes
    builds = []
    for _ in range(min(args.repeat, 3)):
        t = time.perf_counter()
        mat = compute_patterns(lex.guess_codes, lex.answer_codes)
        builds.append(time.perf_counter() - t)
    with tempfile.TemporaryDirectory() as tmp:
        pattern_matrix(lex, directory=tmp)  # write the v2 cache
        old = Path(tmp) / "old.npy"
        np.save(old, mat)
        touch = lambda m: int(np.asarray(m[:, 0]).sum())

        t_old = _best(lambda: touch(np.load(old, mmap_mode="r")), args.repeat)
        t_new = _best(lambda: touch(pattern_matrix(lex, directory=tmp)), args.repeat)
        t_full = _best(lambda: touch(load_cached(matrix_path(lex, Path(tmp)), lex, full=True)), args.repeat)
        assert np.array_equal(np.asarray(pattern_matrix(lex, directory=tmp)), mat)
    print(f"lexicon {lex.name}: {mat.shape[0]:,} x {mat.shape[1]:,} {mat.dtype} "
          f"({mat.nbytes / 2**20:.1f} MiB)")
    print(f"build (vectorised numpy): best {min(builds):.3f} s  [target <= 3 s]")
    print(f"cached load, old (bare .npy mmap, no check):      {t_old * 1000:8.2f} ms")
    print(f"cached load, new (header + CRC-32, every load):   {t_new * 1000:8.2f} ms  "
          f"(new/old {t_new / t_old:.1f}x)  [target <= 200 ms]")
    print(f"cached load + SHA-256 (write / cache info --verify): {t_full * 1000:5.2f} ms  "
          f"(full/new {t_full / t_new:.1f}x)")


if __name__ == "__main__":
    main()
