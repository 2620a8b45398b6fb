"""Synthetic pipeline tables for the report tests: any number of openers, fast to make.

The games are not played: each opener gets a random (seeded) game-length histogram
and worst games whose feedback is Wordle's real feedback for the guesses shown, so
the report's tables, plots and HTML can be tested at full size (12,972 openers x
several strategies x both modes) in seconds.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from pipelines.orchestration.sink import avro_bytes, shard_name
from wordle_core.game.feedback import score

_score = cache(score)


def _game(rng: np.random.Generator, words: list[str], opener: str, n: int) -> dict:
    # Worst games concentrate on a few answers (the -ATCH, -OUND families): draw the
    # answers and middle guesses from small pools, as real runs do.
    answer = words[int(rng.integers(min(len(words), 300)))]
    middle = [words[int(rng.integers(min(len(words), 120)))] for _ in range(n - 2)]
    guesses = [opener, *middle, answer] if n > 1 else [answer]
    return {"answer": answer, "n_guesses": n, "guesses": guesses,
            "feedback": [_score(g, answer) for g in guesses], "solved": n <= 6}


def synthetic_tables(openers: list[str], strategies: list[str], modes: list[str], *,
                     games: int = 2315, lexicon: str = "wordle", worst: int = 5,
                     seed: int = 0) -> dict[str, list[dict]]:
    """Records of opener_summaries, opener_scores and hard_verdicts (see the module doc)."""
    rng = np.random.default_rng(seed)
    summaries, verdicts, scores = [], [], []
    for opener in openers:
        scores.append({"lexicon": lexicon, "mode": "normal", "strategy": "-", "opener": opener,
                       "avg_eliminated": float(rng.uniform(1500, 2250)),
                       "avg_remaining": float(rng.uniform(60, 800)),
                       "entropy_bits": float(rng.uniform(3, 6)),
                       "largest_bucket": int(rng.integers(150, 1400)),
                       "buckets": int(rng.integers(20, 160)), "is_answer": bool(rng.integers(2))})
    for strategy in strategies:
        for mode in modes:
            for opener in openers:
                p = rng.dirichlet([0.2, 3, 25, 28, 8, 1.5, 0.6, 0.2])
                hist = rng.multinomial(games, p).tolist()
                if rng.random() < 0.5:  # half the openers win every game
                    hist[5] += hist[6] + hist[7]
                    hist[6] = hist[7] = 0
                while hist and hist[-1] == 0:
                    hist.pop()
                total = sum((i + 1) * n for i, n in enumerate(hist))
                longest = len(hist)
                worst_games = [_game(rng, openers, opener, max(1, longest - (k % 2)))
                               for k in range(worst)]
                failures = sum(hist[6:])
                summaries.append({
                    "lexicon": lexicon, "mode": mode, "strategy": strategy, "opener": opener,
                    "games": games, "total_guesses": total, "mean_guesses": total / games,
                    "histogram": hist, "max_guesses": longest, "failures": failures,
                    "win_in_3_rate": sum(hist[:3]) / games, "win_in_6_rate": sum(hist[:6]) / games,
                    "tree_nodes": int(rng.integers(500, 3000)), "worst_games": worst_games})
                if mode == "hard":
                    verdicts.append({
                        "lexicon": lexicon, "mode": mode, "strategy": strategy, "opener": opener,
                        "wins_all": failures == 0, "losses": failures, "max_guesses": longest,
                        "worst_game": worst_games[0],
                        "exact_verdict": ("feasible", "infeasible", "unknown")[int(rng.integers(3))],
                        "exact_note": "synthetic", "exact_seconds": 0.0, "exact_nodes": 0})
    return {"opener_summaries": summaries, "opener_scores": scores, "hard_verdicts": verdicts}


def write_tables(out: Path, tables: dict[str, list[dict]]) -> Path:
    """Write the tables as one-shard Avro under ``out`` (the pipelines' layout)."""
    for table, records in tables.items():
        if not records:
            continue
        from wordle_core.tables.avro import write_table

        write_table(Path(out) / table, table,  # published: with its manifest, as the pipelines do
                    {shard_name(table, 0, 1): (avro_bytes(table, records), len(records))})
    return Path(out)


def chromium() -> str | None:
    """The headless browser the HTML tests use (``.ci/install-browser`` installs it)."""
    import shutil

    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def browse(url: str, *extra: str, timeout: float = 180) -> tuple[str, list[str], float]:
    """Run headless Chromium once on ``url``: (stdout, the page's console lines, wall seconds).

    A fresh profile, no network services; ``--enable-logging=stderr`` makes Chromium
    print every console message and uncaught error as an ``INFO:CONSOLE`` line.
    """
    import os
    import subprocess
    import tempfile
    import time

    exe = chromium()
    assert exe is not None
    with tempfile.TemporaryDirectory(prefix="wordle-lab-chromium-") as profile:
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0",
               f"--user-data-dir={profile}", *extra, url]
        t0 = time.perf_counter()
        res = subprocess.run(cmd, capture_output=True, timeout=timeout, check=False,
                             env={**os.environ, "HOME": profile})
        wall = time.perf_counter() - t0
    err = res.stderr.decode(errors="replace")
    assert res.returncode == 0, err[-2000:]
    console = [line for line in err.splitlines() if ":CONSOLE" in line]
    return res.stdout.decode(errors="replace"), console, wall
