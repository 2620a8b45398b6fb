"""Old-vs-new benchmark sides: one worker command run under each checkout.

A benchmark that compares this tree with an older checkout runs the same measuring code
(the script's own ``--worker`` entry) once per side, each in a fresh subprocess with
``PYTHONPATH`` set to that side's root, so each side imports its own ``wordle_core``
(the package is installed editable from this tree, so the path decides). The worker
prints one JSON object per line; every other line (progress, JIT noise) is ignored.

:func:`run_side` runs one side's whole worker, then the next side's;
:func:`run_interleaved` keeps a worker per side and hands them the items in turns, so
that both sides meet the same machine item by item (the load of a shared machine drifts
over minutes).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SIDE_ROOT = "WORDLE_LAB_BENCH_ROOT"
"""The environment variable by which ``harness.py --compare`` tells a case which checkout
it measures (each side's root in turn)."""


def code_root(script: str) -> Path:
    """The checkout a benchmark script measures: the side ``harness.py --compare`` runs it
    for (:data:`SIDE_ROOT`), else the script's own tree. A script starts its measuring
    children with it as ``PYTHONPATH`` and working folder: a ``python -c`` or ``-m``
    child puts its working folder first on its path, so both must name the side."""
    return Path(os.environ.get(SIDE_ROOT) or Path(script).resolve().parents[1])


def _check_root(root: str, script: str) -> None:
    """One clear line and exit when ``root`` is not a checkout of this project."""
    if not (Path(root) / "wordle_core").is_dir():
        raise SystemExit(f"{Path(script).stem}: {root} is not a Wordle Lab checkout")


def run_side(root: str, script: str, worker_args: list[str]) -> list[dict]:
    """The JSON lines printed by ``script --worker *worker_args`` run under ``root``.

    A failing worker ends the benchmark with its last stderr lines and one line naming
    the script and the side.
    """
    _check_root(root, script)
    env = dict(os.environ, PYTHONPATH=str(root))
    cmd = [sys.executable, str(Path(script).resolve()), "--worker", *worker_args]
    proc = subprocess.run(cmd, env=env, cwd=str(root), capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-2000:])
        raise SystemExit(f"{Path(script).stem}: the side at {root} failed "
                         f"(exit {proc.returncode}): {' '.join(worker_args)[:80]}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


class Side:
    """A long-lived worker of one side: ``script --serve *serve_args`` under ``root``,
    which reads one item per line on stdin and answers each with one JSON line."""

    def __init__(self, name: str, root: str, script: str, serve_args: list[str]) -> None:
        _check_root(root, script)
        self.name, self.root, self.script = name, root, script
        # (a file, not a pipe, which could fill up and block the worker; closed in close())
        self.err = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115
        env = dict(os.environ, PYTHONPATH=str(root))
        cmd = [sys.executable, str(Path(script).resolve()), "--serve", *serve_args]
        self.proc = subprocess.Popen(cmd, env=env, cwd=str(root), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.err, text=True, bufsize=1)

    def ask(self, item: str) -> dict:
        """The JSON answer to one item (other output lines are skipped)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(item + "\n")
        self.proc.stdin.flush()
        for line in self.proc.stdout:
            if line.startswith("{"):
                return json.loads(line)
        self.err.seek(0)
        sys.stderr.write(self.err.read()[-2000:])
        raise SystemExit(f"{Path(self.script).stem}: the side at {self.root} stopped "
                         f"(exit {self.proc.wait()}) on {item!r}")

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait()
        self.err.close()


def run_interleaved(sides: list[tuple[str, str]], script: str, serve_args: list[str],
                    items: list[str]) -> dict[str, list[dict]]:
    """Each item measured by every side in turn, the sides' order alternating from one
    item to the next: ``{side: [answer per item]}``.

    On a shared machine the load drifts over minutes; one side after the other would
    give each side a different machine, while taking turns item by item gives both
    sides the same conditions, item for item (paired figures).
    """
    for _, root in sides:  # (every side checked before any worker starts)
        _check_root(root, script)
    workers: list[Side] = []
    out: dict[str, list[dict]] = {name: [] for name, _ in sides}
    try:
        workers.extend(Side(name, root, script, serve_args) for name, root in sides)
        for i, item in enumerate(items):
            for w in workers if i % 2 == 0 else workers[::-1]:
                out[w.name].append(w.ask(item))
    finally:
        for w in workers:
            w.close()
    return out
