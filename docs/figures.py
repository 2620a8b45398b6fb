"""The hand-made figures of the explanation pages, as static SVG: run `python docs/figures.py`."""

from pathlib import Path

IMG = Path(__file__).resolve().parent / "img"
G, Y, B, E = "#6aaa64", "#c9b458", "#787c7e", "#d3d6da"
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


def tiles(x, y, word, colours, size=26, gap=3):
    out = []
    for i, (ch, c) in enumerate(zip(word, colours, strict=True)):
        fill = {"g": G, "y": Y, "b": B, "e": "#ffffff"}[c]
        stroke = E if c == "e" else fill
        tc = "#1a1a1b" if c == "e" else "#ffffff"
        xx = x + i * (size + gap)
        out.append(f'<rect x="{xx}" y="{y}" width="{size}" height="{size}" fill="{fill}" stroke="{stroke}" '
                   f'stroke-width="2"/><text x="{xx + size / 2}" y="{y + size * 0.72}" font-size="16" '
                   f'font-weight="bold" text-anchor="middle" fill="{tc}">{ch}</text>')
    return "".join(out)


def text(x, y, t, colour="#555", bold=False, anchor="start"):
    b = ' font-weight="bold"' if bold else ""
    return f'<text x="{x}" y="{y}" font-size="13" fill="{colour}"{b} text-anchor="{anchor}">{t}</text>'


w, h = 660, 250
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" {FONT}>',
       f'<rect width="{w}" height="{h}" fill="#ffffff"/>',
       text(20, 24, "Hard mode: every guess must keep _IGHT", "#1a1a1b", True),
       text(360, 24, "Normal mode: any allowed guess", "#1a1a1b", True)]
for i, word in enumerate(["FIGHT", "LIGHT", "MIGHT", "NIGHT", "RIGHT", "SIGHT"]):
    svg.append(tiles(20, 38 + i * 30, word, "bgggg"))
    svg.append(text(178, 38 + i * 30 + 19, f"guess {i + 1}"))
svg.append(tiles(20, 222, "TIGHT", "eeeee"))
svg.append(text(178, 241, "7th guess: lost", "#c0392b", True))
svg.append(tiles(360, 38, "FIGHT", "bgggg"))
svg.append(text(518, 57, "6 words left"))
svg.append(tiles(360, 68, "NORMS", "bbbyb"))
svg.append(text(518, 87, "tests N, R, M, S"))
svg.append(tiles(360, 98, "MIGHT", "ggggg"))
svg.append(text(518, 117, "solved in 3"))
svg.append(text(360, 160, "NORMS leaves at most two words"))
svg.append(text(360, 178, "(LIGHT or TIGHT), so every game"))
svg.append(text(360, 196, "ends within four guesses."))
svg.append("</svg>")
(IMG / "hard-mode-trap.svg").write_text("\n".join(svg) + "\n", encoding="utf-8")


def box(x, y, bw, bh, lines, fill, stroke, dash=False):
    d = ' stroke-dasharray="5,4"' if dash else ""
    out = [f'<rect x="{x}" y="{y}" width="{bw}" height="{bh}" rx="6" fill="{fill}" stroke="{stroke}" '
           f'stroke-width="1.5"{d}/>']
    out += [text(x + bw / 2, y + 20 + i * 17, ln, "#1a1a1b", i == 0, "middle") for i, ln in enumerate(lines)]
    return "".join(out)


def arrow(x1, y1, x2, y2):
    return (f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#555" stroke-width="1.3" '
            'marker-end="url(#a)"/>')


w, h = 720, 290
s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" {FONT}>',
     f'<rect width="{w}" height="{h}" fill="#ffffff"/>',
     '<defs><marker id="a" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto">'
     '<path d="M0,0 L8,4 L0,8 z" fill="#555"/></marker></defs>',
     box(240, 10, 240, 44, ["a position", "n candidates, d guesses left"], "#eef2f8", "#4a6fa5")]
cols = [(15, ["guess 1", "bound 60", "searched: 63"], "#e8f4e5", "#6aaa64", False),
        (195, ["guess 2", "bound 61", "searched: 62 (best)"], "#e8f4e5", "#6aaa64", False),
        (375, ["guess 3", "bound 62", "cut: cannot beat 62"], "#f6f6f6", "#999", True),
        (555, ["every other guess", "bound 62 or more", "cut, never searched"], "#f6f6f6", "#999", True)]
for x, lines, fill, stroke, dash in cols:
    s.append(arrow(360, 54, x + 75, 96))
    s.append(box(x, 98, 150, 66, lines, fill, stroke, dash))
notes = ["Guesses are sorted by a lower bound (3n - buckets, one less for a possible answer) and searched",
         "in that order. Once the next bound reaches the best total found, every guess left is proven no",
         "better without being searched. Inside a guess, buckets are searched largest first, and the guess",
         "is dropped as soon as its guesses so far plus the bounds of its buckets left reach the best.",
         "(The numbers are an illustration.)"]
s += [text(20, 196 + i * 19, ln, "#1a1a1b") for i, ln in enumerate(notes)]
s.append("</svg>")
(IMG / "exact-search-bounds.svg").write_text("\n".join(s) + "\n", encoding="utf-8")
