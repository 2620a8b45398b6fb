"""MkDocs hook: leave out of the nav the how-to pages that other work has not written yet.

The nav names them so they appear as soon as they exist; while one is absent, `mkdocs build
--strict` would fail on the missing file, so it is dropped here. Any other missing page still
fails the build.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

OPTIONAL_PAGES = {
    "how-to/play-today.md", "how-to/cloud-storage.md", "how-to/run-on-dask.md",
    "how-to/run-on-dataflow.md", "how-to/play-and-assist.md", "how-to/trust-and-verification.md",
}


def _prune(items: list[Any], docs: Path) -> list[Any]:
    out = []
    for item in items:
        if isinstance(item, dict):
            (title, value), = item.items()
            if isinstance(value, list):
                out.append({title: _prune(value, docs)})
                continue
            page = value
        else:
            page = item
        if isinstance(page, str) and page in OPTIONAL_PAGES and not (docs / page).exists():
            continue
        out.append(item)
    return out


def on_config(config: Any) -> Any:
    config["nav"] = _prune(config["nav"], Path(config["docs_dir"]))
    return config
