"""Progress bars of the long searches (the exact ranking, the hard-mode verdicts), on stderr.

One look for all of them: tqdm with rate and ETA, redrawn in place on a terminal, one
line every 30 s in a log (not a TTY), plain ASCII there.
"""

from __future__ import annotations

from typing import Any


def progress_bar(total: int, desc: str, unit: str = "op", *, transient: bool = False,
                 delay: float = 0.0) -> Any:
    """A tqdm bar over ``total`` ``unit`` on stderr. ``transient``: gone when closed (a
    bar under another one), else kept on a terminal; ``delay``: seconds before it first
    shows (a quick search draws nothing)."""
    import sys

    from tqdm import tqdm

    tty = sys.stderr.isatty()
    return tqdm(total=total, desc=desc, unit=unit, leave=tty and not transient, file=sys.stderr,
                mininterval=0.5 if tty else 30.0, ascii=not tty, delay=delay)
