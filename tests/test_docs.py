"""The documentation: generated pages current, no history in the user's path, the site builds.

* ``docs/reference/{cli,tables,config}.md`` are generated (``python docs/gen_reference.py``)
  from the argparse parser, the Avro schemas and the config loader; a flag, column or key
  added without regenerating them fails here.
* README.md and every page under docs/ but docs/notes/ carry no commit hashes and no dates:
  history (old -> new figures, run logs) lives in docs/notes/ and CHANGELOG.md.
* ``mkdocs build --strict`` passes (a broken link or reference fails it), and the rendered home
  page and command reference are checked in headless Chromium. Both are skipped, with the
  reason, where MkDocs (the ``docs`` extra) or Chromium (``.ci/install-browser``) is missing.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from _report_data import browse, chromium

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _gen():
    spec = importlib.util.spec_from_file_location("gen_reference", DOCS / "gen_reference.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_generated_reference_pages_are_current():
    from pipelines.orchestration import entry

    parser_class = entry.OneLineParser
    gen = _gen()
    assert gen.stale() == [], "run: python docs/gen_reference.py"
    # reading the pipelines' parsers leaves them as they were (the rest of the suite parses)
    assert entry.OneLineParser is parser_class
    cli = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    # every command and every pipeline has its section, with its flags
    for heading in ("## `run`", "### `pipeline games`", "## `suggest`", "### `cache info`"):
        assert heading in cli, heading
    assert "`--resume`" in cli and "`--exact-only`" in cli
    tables = (DOCS / "reference" / "tables.md").read_text(encoding="utf-8")
    from pipelines.schemas import TABLES
    for name in TABLES:
        assert f"## `{name}`" in tables
    assert "| `worst_games[].answer` |" in tables  # nested records are spelled out


def test_every_config_key_is_described():
    from pipelines.config import _KEYS
    assert set(_gen().CONFIG_KEYS) == set(_KEYS)


def user_pages() -> list[Path]:
    """The pages a user reads: the README and docs/ without the notes."""
    pages = [p for p in DOCS.rglob("*.md") if "notes" not in p.relative_to(DOCS).parts]
    return [ROOT / "README.md", *sorted(pages)]


HASH = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b")
DATE = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b")


def test_no_commit_hashes_or_dates_in_user_docs():
    found = [f"{p.relative_to(ROOT)}:{n}: {m.group(0)}" for p in user_pages()
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             for m in (*HASH.finditer(line), *DATE.finditer(line))]
    assert found == [], "history belongs in docs/notes/: " + "; ".join(found[:10])
    # the patterns themselves work
    assert HASH.search("at `9e61a8f`") and not HASH.search("deadbeef") and not HASH.search("1234567")
    assert DATE.search("on 2026-12-05") and not DATE.search("12,972")


def test_user_docs_stay_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
    for page in (DOCS / "explanation").glob("*.md"):
        assert len(page.read_text(encoding="utf-8").splitlines()) <= 300, page.name


def _mkdocs_missing() -> str | None:
    for mod in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        if importlib.util.find_spec(mod.split(".")[0]) is None:
            return f"{mod} is not installed (pip install -e '.[docs]')"
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    reason = _mkdocs_missing()
    if reason:
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("site")
    res = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert res.returncode == 0, res.stderr[-3000:]
    return out


def test_site_builds_strict(site):
    for page in ("index.html", "tutorial/index.html", "reference/cli/index.html",
                 "reference/tables/index.html", "reference/python-api/index.html", "results/index.html",
                 "explanation/exact-search/index.html"):
        assert (site / page).is_file(), page
    assert (site / "img" / "report-ranking.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    api = (site / "reference" / "python-api" / "index.html").read_text(encoding="utf-8")
    assert "wordle_core.api.simulate" in api  # mkdocstrings rendered the docstrings
    assert not (site / "gen_reference.py").exists()  # the scripts beside the pages are not published
    assert (site / "notes" / "index.html").is_file()


def _browser(url: str, *extra: str) -> str:
    """Headless Chromium's stdout for ``url`` (the shared runner of the HTML tests)."""
    return browse(url, *extra)[0]


@pytest.mark.skipif(chromium() is None, reason="chromium is not installed (run .ci/install-browser)")
def test_rendered_pages_in_headless_chromium(site, tmp_path):
    home = _browser((site / "index.html").as_uri(), "--dump-dom")
    assert "<title>Wordle Lab</title>" in home
    for text in ("Find your way", "Tutorial", "Results", 'src="img/report-ranking.png"'):
        assert text in home, text
    assert 'data-md-component="navigation"' in home or "md-nav" in home  # the theme's script ran
    cli = _browser((site / "reference" / "cli" / "index.html").as_uri(), "--dump-dom")
    assert 'id="pipeline-games"' in cli and "--exact-only" in cli
    shots = Path(os.environ.get("WORDLE_LAB_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    for name, page in (("docs-home.png", "index.html"), ("docs-cli.png", "reference/cli/index.html")):
        shot = shots / name
        _browser((site / page).as_uri(), f"--screenshot={shot}", "--window-size=1280,1000",
                 "--hide-scrollbars")
        data = shot.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20000, name
