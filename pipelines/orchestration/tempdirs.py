"""One private temporary directory per pipeline run, removed on every exit path.

Beam's portable DirectRunner, its job service and the loopback environment each make a
directory with :func:`tempfile.mkdtemp` and leave it behind (two empty ``/tmp/tmp*`` and
a ``/tmp/beam-temp*`` per local run); Dask makes its worker spaces there too. While a
pipeline runs, :func:`private_tempdir` points ``tempfile`` and ``$TMPDIR`` (inherited by
worker processes) at ``<tmp>/wordle-lab-tmp-<pid>-XXXX`` and removes that whole tree
afterwards, whether the run succeeded, failed or was interrupted. A run killed outright
(SIGKILL) cannot clean up; the next run removes the directories of processes that no
longer exist.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

PREFIX = "wordle-lab-tmp-"
_NAME = re.compile(rf"{re.escape(PREFIX)}(\d+)-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True


def sweep(base: str | Path) -> list[Path]:
    """Remove ``wordle-lab-tmp-<pid>-*`` directories under ``base`` whose process is gone."""
    removed = []
    with contextlib.suppress(OSError):
        for p in Path(base).iterdir():
            m = _NAME.match(p.name)
            if m and p.is_dir() and not _alive(int(m.group(1))):
                shutil.rmtree(p, ignore_errors=True)
                removed.append(p)
    return removed


@contextlib.contextmanager
def private_tempdir() -> Iterator[str]:
    """A fresh temporary directory that ``tempfile`` and child processes use until exit."""
    base = tempfile.gettempdir()
    sweep(base)
    d = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=base)
    old_env, old_dir = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"], tempfile.tempdir = d, d
    try:
        yield d
    finally:
        tempfile.tempdir = old_dir
        if old_env is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = old_env
        shutil.rmtree(d, ignore_errors=True)
