"""Old-vs-new benchmark sides: one worker command run under each checkout.

A benchmark that compares this tree with an older checkout runs the same measuring code
(the script's own ``--worker`` entry) once per side, each in a fresh subprocess with
``PYTHONPATH`` set to that side's root, so each side imports its own ``wordle_core``
(the package is installed editable from this tree, so the path decides). The worker
prints one JSON object per line; every other line (progress, JIT noise) is ignored.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def run_side(root: str, script: str, worker_args: list[str]) -> list[dict]:
    """The JSON lines printed by ``script --worker *worker_args`` run under ``root``.

    A failing worker ends the benchmark with its last stderr lines and one line naming
    the script and the side.
    """
    if not (Path(root) / "wordle_core").is_dir():
        raise SystemExit(f"{Path(script).stem}: {root} is not a Wordle Lab checkout")
    env = dict(os.environ, PYTHONPATH=str(root))
    cmd = [sys.executable, str(Path(script).resolve()), "--worker", *worker_args]
    proc = subprocess.run(cmd, env=env, cwd=str(root), capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-2000:])
        raise SystemExit(f"{Path(script).stem}: the side at {root} failed "
                         f"(exit {proc.returncode}): {' '.join(worker_args)[:80]}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
