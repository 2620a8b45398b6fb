// Wordle Lab report: everything runs from the data inlined in this page (no network).
// The data block is gzip-compressed JSON in base64 (see pipelines/report_html.py).
"use strict";
(function () {
  const ERRORS = [];
  window.addEventListener("error", (e) => ERRORS.push(String(e.message || e)));
  window.addEventListener("unhandledrejection", (e) => ERRORS.push(String(e.reason)));

  const $ = (sel, el) => (el || document).querySelector(sel);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  const fmt = (x, d) => (x === null || x === undefined || Number.isNaN(x) ? "–" : Number(x).toFixed(d));
  const int = (x) => (x === null || x === undefined ? "–" : Number(x).toLocaleString("en-US"));

  let D = null;        // the data
  let R = [];          // one object per ranking row
  let state = {};
  const PAGE = 50;

  async function load() {
    const b64 = $("#data").textContent.trim();
    const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  // Wordle's feedback, repeated letters exact: greens first, then yellows left to right
  // while the answer has unmatched copies (same rule as wordle_core.game.feedback.score).
  function score(guess, answer) {
    const g = [...guess], a = [...answer], out = new Array(g.length).fill("b"), left = {};
    for (let i = 0; i < g.length; i++) {
      if (g[i] === a[i]) out[i] = "g"; else left[a[i]] = (left[a[i]] || 0) + 1;
    }
    for (let i = 0; i < g.length; i++) {
      if (out[i] !== "g" && left[g[i]] > 0) { out[i] = "y"; left[g[i]]--; }
    }
    return out.join("");
  }

  function build(data) {
    const r = data.rows, w = data.words;
    const rows = [];
    for (let i = 0; i < r.g.length; i++) {
      const grp = data.groups[r.g[i]], games = data.games[r.g[i]], hist = r.hist[i];
      const lim = data.limit;
      const solved3 = hist.slice(0, 3).reduce((s, x) => s + x, 0);
      const solvedL = hist.slice(0, lim).reduce((s, x) => s + x, 0);
      rows.push({
        i, g: r.g[i], lexicon: grp[0], strategy: grp[1], mode: grp[2], opener: w[r.o[i]],
        rank: r.rank[i], mean: r.tot[i] / games, tot: r.tot[i], games, w3: 100 * solved3 / games,
        w6: 100 * solvedL / games, max: r.max[i], fail: hist[lim], hist,
        ae: r.ae[i], ent: r.ent[i], exact: r.exact[i], verdict: r.verdict[i],
      });
    }
    return rows;
  }

  // ---- state <-> URL hash -------------------------------------------------
  function parseHash() {
    const p = new URLSearchParams(location.hash.replace(/^#/, ""));
    const first = (k, opts, pref) => (p.has(k) ? p.get(k) : (opts.includes(pref) ? pref : opts[0]));
    const lex = [...new Set(D.groups.map((g) => g[0]))], strat = [...new Set(D.groups.map((g) => g[1]))];
    const modes = [...new Set(D.groups.map((g) => g[2]))];
    return {
      view: p.get("view") || (p.has("opener") ? "opener" : "ranking"),
      opener: (p.get("opener") || "").toLowerCase(),
      lexicon: first("lexicon", lex, lex[0]), strategy: first("strategy", strat, "default"),
      mode: first("mode", modes, "normal"), q: (p.get("q") || "").toLowerCase(),
      wins: p.get("wins") === "1", sort: p.get("sort") || "rank", dir: p.get("dir") === "desc" ? -1 : 1,
      page: Math.max(0, parseInt(p.get("page") || "0", 10) || 0), test: p.get("test"),
    };
  }
  function writeHash() {
    const p = new URLSearchParams();
    if (state.view === "opener") { p.set("opener", state.opener); } else {
      if (state.view !== "ranking") p.set("view", state.view);
      for (const k of ["lexicon", "strategy", "mode"]) p.set(k, state[k]);
      if (state.q) p.set("q", state.q);
      if (state.wins) p.set("wins", "1");
      if (state.sort !== "rank") p.set("sort", state.sort);
      if (state.dir < 0) p.set("dir", "desc");
      if (state.page) p.set("page", String(state.page));
    }
    if (state.test) p.set("test", state.test);
    history.replaceState(null, "", "#" + p.toString());
  }

  // ---- ranking ------------------------------------------------------------
  const COLS = [
    ["rank", "#", "rank within its game, strategy and mode: openers that lose a game come after every opener that wins all, then by mean guesses"],
    ["opener", "opener", "the first guess", "l"],
    ["group", "game · strategy · mode", "lexicon, strategy that chose every later guess, and mode", "l"],
    ["mean", "mean", "mean guesses per game over every answer"],
    ["w3", "win ≤3 %", "games solved in 3 guesses or fewer"],
    ["w6", "win ≤6 %", "games solved within the guess limit"],
    ["max", "max", "longest game"],
    ["fail", "lost", "games lost (not solved in the guess limit, 6 in Wordle)"],
    ["hist", "game lengths", "games solved in 1, 2, … guesses; red: lost (not solved in the limit)", "l"],
    ["ae", "avg elim.", "answers the first guess rules out, on average"],
    ["ent", "entropy", "bits of information in the first guess's feedback"],
    ["exact", "optimum", "proven minimum total guesses from this opener in this mode (where computed; none: proven that no strategy wins every game)"],
    ["verdict", "hard mode: sure win?", "hard mode, whatever this row's mode: can some strategy win every hard-mode game from this opener? (exact search, or a strategy that did)", "l"],
  ];
  const GROUP_ORDER = (x) => x.g;
  function cmp(key) {
    if (key === "opener") return (a, b) => (a.opener < b.opener ? -1 : a.opener > b.opener ? 1 : 0);
    if (key === "group" || key === "rank") return (a, b) => GROUP_ORDER(a) - GROUP_ORDER(b) || a.rank - b.rank;
    if (key === "verdict") return (a, b) => String(a.verdict || "~").localeCompare(String(b.verdict || "~"));
    if (key === "hist") key = "fail";
    return (a, b) => {
      const x = a[key], y = b[key];
      if (x === null && y === null) return 0;
      if (x === null) return 1;  // unknown values last
      if (y === null) return -1;
      return x - y;
    };
  }
  function filtered() {
    const s = state;
    let rows = R.filter((r) => (s.lexicon === "*" || r.lexicon === s.lexicon) && (s.strategy === "*" || r.strategy === s.strategy)
      && (s.mode === "*" || r.mode === s.mode) && (!s.q || r.opener.includes(s.q)) && (!s.wins || r.fail === 0));
    const c = cmp(s.sort), tie = cmp("rank");
    rows = rows.slice().sort((a, b) => s.dir * c(a, b) || tie(a, b) || (a.opener < b.opener ? -1 : 1));
    return rows;
  }
  function spark(hist) {
    const max = Math.max(1, ...hist), n = hist.length, w = 7, h = 18;
    let s = `<svg class="spark" width="${n * (w + 1)}" height="${h}" viewBox="0 0 ${n * (w + 1)} ${h}">`;
    hist.forEach((c, k) => {
      const bh = c ? Math.max(1.5, (h - 1) * Math.log1p(c) / Math.log1p(max)) : 0;
      s += `<rect${k === n - 1 ? ' class="f"' : ""} x="${k * (w + 1)}" y="${h - bh}" width="${w}" height="${bh}"><title>${k === n - 1 ? "not solved" : k + 1 + " guesses"}: ${c}</title></rect>`;
    });
    return s + "</svg>";
  }
  // a verdict in words a player reads right: "infeasible" on a normal-mode row read as "fails"
  function pill(v) { return v ? `<span class="pill ${esc(v)}">${esc((D.labels && D.labels[v]) || v)}</span>` : "–"; }
  function opt(values, cur, all) {
    return [`<option value="*"${cur === "*" ? " selected" : ""}>${all}</option>`]
      .concat(values.map((v) => `<option${v === cur ? " selected" : ""}>${esc(v)}</option>`)).join("");
  }
  function renderRanking() {
    const lex = [...new Set(D.groups.map((g) => g[0]))], strat = [...new Set(D.groups.map((g) => g[1]))];
    const modes = [...new Set(D.groups.map((g) => g[2]))];
    const rows = filtered(), pages = Math.max(1, Math.ceil(rows.length / PAGE));
    state.page = Math.min(state.page, pages - 1);
    const part = rows.slice(state.page * PAGE, (state.page + 1) * PAGE);
    const head = COLS.map(([k, label, tip, cls]) => {
      const sort = state.sort === k ? (state.dir > 0 ? "ascending" : "descending") : "none";
      return `<th data-key="${k}" class="${cls || ""}" title="${esc(tip)}" aria-sort="${sort}">${esc(label)}</th>`;
    }).join("");
    const body = part.map((r) => `<tr class="${r.fail ? "lost" : "won"}" data-opener="${esc(r.opener)}">
      <td class="num">${r.rank}</td><td class="l"><a class="op" href="#opener=${esc(r.opener)}">${esc(r.opener.toUpperCase())}</a></td>
      <td class="l">${esc(r.lexicon)} · ${esc(r.strategy)} · ${esc(r.mode)}</td>
      <td class="num">${fmt(r.mean, 4)}</td><td class="num">${fmt(r.w3, 2)}</td><td class="num">${fmt(r.w6, 2)}</td>
      <td class="num">${r.max}</td><td class="num fail">${r.fail}</td><td class="l">${spark(r.hist)}</td>
      <td class="num">${fmt(r.ae, 1)}</td><td class="num">${fmt(r.ent, 3)}</td><td class="num">${r.exact === -1 ? "none" : int(r.exact)}</td>
      <td class="l">${pill(r.verdict)}</td></tr>`).join("");
    $("#view").innerHTML = `${cards()}
      <div class="controls">
        <label>game<select id="f-lexicon">${opt(lex, state.lexicon, "all games")}</select></label>
        <label>strategy<select id="f-strategy">${opt(strat, state.strategy, "all strategies")}</select></label>
        <label>mode<select id="f-mode">${opt(modes, state.mode, "both modes")}</select></label>
        <label>opener contains<input id="f-q" type="search" placeholder="e.g. sal" value="${esc(state.q)}" autocomplete="off"></label>
        <label class="check"><input id="f-wins" type="checkbox"${state.wins ? " checked" : ""}> only openers that win every game</label>
        <span class="count" id="count">${int(rows.length)} of ${int(R.length)} rows</span>
      </div>
      <table id="ranking"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>
      <div class="pager"><button id="prev"${state.page ? "" : " disabled"}>‹ previous</button>
        <span id="page">page ${state.page + 1} of ${pages}</span>
        <button id="next"${state.page < pages - 1 ? "" : " disabled"}>next ›</button></div>
      <p class="note">Click a column to sort (again to reverse), an opener to see its games. Ranks are within one game,
      strategy and mode: an opener that loses any game ranks after every opener that wins them all, then by mean guesses.</p>`;
    for (const k of ["lexicon", "strategy", "mode"]) {
      $("#f-" + k).addEventListener("change", (e) => { state[k] = e.target.value; state.page = 0; update(); });
    }
    $("#f-q").addEventListener("input", (e) => { state.q = e.target.value.trim().toLowerCase(); state.page = 0; update(true); });
    $("#f-wins").addEventListener("change", (e) => { state.wins = e.target.checked; state.page = 0; update(); });
    $("#ranking thead").addEventListener("click", (e) => {
      const th = e.target.closest("th"); if (!th) return;
      const k = th.dataset.key;
      if (state.sort === k) state.dir = -state.dir; else { state.sort = k; state.dir = ["w3", "w6", "ae", "ent"].includes(k) ? -1 : 1; }
      state.page = 0; update();
    });
    $("#prev").addEventListener("click", () => { state.page--; update(); });
    $("#next").addEventListener("click", () => { state.page++; update(); });
  }
  function cards() {
    const best = [];
    D.groups.forEach((grp, gi) => {
      if (state.lexicon !== "*" && grp[0] !== state.lexicon) return;
      const top = R.find((r) => r.g === gi && r.rank === 1);
      if (top) best.push(`<div class="card"><div class="k">best · ${esc(grp[0])} · ${esc(grp[1])} · ${esc(grp[2])}</div>
        <div class="v"><a class="op" href="#opener=${esc(top.opener)}">${esc(top.opener.toUpperCase())}</a> ${fmt(top.mean, 4)}
        <small>${top.fail ? `<span class="pill loses">${top.fail} lost</span>` : '<span class="pill wins">wins all</span>'}</small></div></div>`);
    });
    for (const p of D.proven) {
      if (state.lexicon !== "*" && p.lexicon !== state.lexicon) continue;
      const [w, total] = p.top[0];
      best.push(`<div class="card"><div class="k">proven best · ${esc(p.lexicon)} · ${esc(p.mode)}</div>
        <div class="v"><a class="op" href="#opener=${esc(w)}">${esc(w.toUpperCase())}</a> ${fmt(total / p.answers, 4)}
        <small><a href="#view=proven">exact, of ${int(p.openers)}</a></small></div></div>`);
    }
    return `<div class="cards">${best.slice(0, 16).join("")}</div>`;
  }

  // ---- one opener ---------------------------------------------------------
  function tiles(word, fb) {
    return `<div class="row">${[...word].map((ch, k) => `<span class="tile ${fb[k]}">${esc(ch)}</span>`).join("")}</div>`;
  }
  function histSvg(hist, lim) {
    const W = 380, H = 150, pad = 22, n = hist.length, bw = (W - pad) / n, max = Math.max(1, ...hist);
    let s = `<svg class="hist" width="${W}" height="${H + 30}" viewBox="0 0 ${W} ${H + 30}" role="img">`;
    hist.forEach((c, k) => {
      const bh = c ? Math.max(2, (H - 18) * c / max) : 0;  // linear: 78 looks like 78 next to 1,224
      const x = pad + k * bw + 4, y = H - bh;
      s += `<rect class="bar${k === lim ? " f" : ""}" x="${x}" y="${y}" width="${bw - 8}" height="${bh}"></rect>`;
      s += `<text x="${x + (bw - 8) / 2}" y="${y - 3}" text-anchor="middle">${c}</text>`;
      s += `<text class="ax" x="${x + (bw - 8) / 2}" y="${H + 14}" text-anchor="middle">${k === lim ? "✗ lost" : k + 1}</text>`;
    });
    s += `<text class="ax" x="${pad}" y="${H + 28}">guesses to solve (✗ = lost: not solved in ${lim})</text>`;
    return s + "</svg>";
  }
  function renderOpener() {
    const w = state.opener, rows = R.filter((r) => r.opener === w);
    if (!rows.length) {
      $("#view").innerHTML = `<h2>No opener ${esc(w.toUpperCase())} in this report</h2><p><a href="#">back to the ranking</a></p>`;
      return;
    }
    const verdict = rows.find((r) => r.verdict) || {};
    const panels = rows.map((r) => {
      const n = R.filter((x) => x.g === r.g).length;
      const games = (D.worst[r.i] || []).map(([a, gs]) => {
        const ans = D.words[a], path = [r.opener, ...gs.map((k) => D.words[k])];
        const solvedIn = path.length, lost = solvedIn > D.limit || path[path.length - 1] !== ans;
        return `<div class="game${lost ? " unsolved" : ""}"><div class="ans">${esc(ans.toUpperCase())} · ${solvedIn} guesses${lost ? " · lost" : ""}</div>
          ${path.map((g) => tiles(g, score(g, ans))).join("")}</div>`;
      }).join("");
      return `<section class="panel" data-group="${r.g}"><h3>${esc(r.lexicon)} · ${esc(r.strategy)} · ${esc(r.mode)} mode</h3>
        <div class="meta">rank <b>${r.rank}</b> of ${int(n)} · mean <b>${fmt(r.mean, 4)}</b> (${int(r.tot)} guesses / ${int(r.games)} games)
        · win ≤3 ${fmt(r.w3, 2)} % · win ≤6 ${fmt(r.w6, 2)} % · max ${r.max} · ${r.fail ? `<span class="pill loses">${r.fail} lost</span>` : '<span class="pill wins">wins every game</span>'}
        ${r.exact === -1 ? " · proven: no strategy wins every game" : r.exact !== null ? ` · proven optimum <b>${int(r.exact)}</b>` : ""}</div>
        ${histSvg(r.hist, D.limit)}
        <div class="meta">worst games (full paths):</div><div class="games">${games || '<span class="note">none recorded</span>'}</div></section>`;
    }).join("");
    const first = rows[0];
    $("#view").innerHTML = `<p><a href="#">‹ back to the ranking</a></p>
      <div class="big">${tiles(w, [...w].map(() => "n"))}</div>
      <h2 id="opener-title">${esc(w.toUpperCase())}</h2>
      <div class="cards"><div class="card"><div class="k">first guess: answers ruled out on average</div><div class="v">${fmt(first.ae, 1)}</div></div>
      <div class="card"><div class="k">first guess: information</div><div class="v">${fmt(first.ent, 3)} <small>bits</small></div></div>
      <div class="card"><div class="k">hard mode: can any strategy win every game?</div><div class="v">${pill(verdict.verdict)}</div>
      ${D.notes && D.notes[w] ? `<div class="note">${esc(D.notes[w])}</div>` : ""}</div></div>
      <div class="panels">${panels}</div>`;
  }

  // ---- hard mode, plots ---------------------------------------------------
  function renderHard() {
    const h = D.hard;
    const hardRows = R.filter((r) => r.mode === "hard" && (state.lexicon === "*" || r.lexicon === state.lexicon));
    const strategies = [...new Set(hardRows.map((r) => r.strategy))];
    const by = new Map();
    for (const r of hardRows) {
      const k = r.lexicon + " " + r.opener;
      if (!by.has(k)) by.set(k, { lexicon: r.lexicon, opener: r.opener, verdict: r.verdict, exact: r.exact, s: {} });
      by.get(k).s[r.strategy] = r;
    }
    const order = { feasible: 0, unknown: 1, infeasible: 2 };
    const best = (o) => Math.min(...Object.values(o.s).map((r) => r.fail * 1000 + r.mean));
    const list = [...by.values()].sort((a, b) => (order[a.verdict] ?? 1) - (order[b.verdict] ?? 1) || best(a) - best(b)
      || (a.opener < b.opener ? -1 : 1));
    const cell = (r) => (!r ? "<td>–</td>" : `<td class="num">${r.fail ? `<span class="pill loses">${r.fail} lost</span>`
      : '<span class="pill wins">wins all</span>'} ${fmt(r.mean, 3)}</td>`);
    const table = hardRows.length ? `<h2>Openers in hard mode (${int(list.length)}; feasible first, then fewest losses, then mean)</h2>
      <table id="hard-table"><thead><tr><th class="l">opener</th><th class="l">game</th><th class="l">can any strategy win all?</th>
      <th>optimum</th>${strategies.map((x) => `<th>${esc(x)}: lost · mean</th>`).join("")}</tr></thead><tbody>
      ${list.slice(0, 100).map((o) => `<tr><td class="l"><a class="op" href="#opener=${esc(o.opener)}">${esc(o.opener.toUpperCase())}</a></td>
        <td class="l">${esc(o.lexicon)}</td><td class="l">${pill(o.verdict)}</td><td class="num">${o.exact === -1 ? "none" : int(o.exact)}</td>
        ${strategies.map((x) => cell(o.s[x])).join("")}</tr>`).join("")}</tbody></table>
      ${list.length > 100 ? `<p class="note">First 100 of ${int(list.length)}; the ranking (mode: hard) has them all.</p>` : ""}` : "";
    $("#view").innerHTML = `<h2>Hard mode: which openers can guarantee a win?</h2>
      <p class="note">NYT hard mode: greens stay in place, yellows must be reused. <b>${esc(D.labels.feasible)}</b>: some strategy wins every
      game from the opener (proven by the exact search, or by a strategy of this run that did); <b>${esc(D.labels.infeasible)}</b>: proven
      that no strategy wins every game; <b>${esc(D.labels.unknown)}</b>: the search's budget ran out or it was not run.</p>
      ${h.length ? "" : "<p>No hard-mode verdicts in this run.</p>"}
      <div class="cards">${h.map((x) => `<div class="card"><div class="k">${esc(x.lexicon)}</div><div class="v">${pill(x.verdict)}
        ${int(x.openers)} <small>of ${int(x.of)} openers</small></div></div>`).join("")}</div>
      ${h.map((x) => `<details class="panel" style="margin-bottom:10px"><summary><b>${esc(x.lexicon)}: ${pill(x.verdict)} ${int(x.openers)} of ${int(x.of)} openers</b></summary>
        <div class="words">${x.words.map((o) => `<a class="op" href="#opener=${esc(o)}">${esc(o)}</a>`).join(" ")}</div></details>`).join("")}
      ${table}`;
  }
  // ---- the proven best openers (shipped `optimal --rank` tables) -------------
  function renderProven() {
    const P = D.proven.filter((p) => state.lexicon === "*" || p.lexicon === state.lexicon);
    const section = (p) => {
      // a strategy's figures compare only when it played every answer the proof covers
      const rows = R.filter((r) => r.lexicon === p.lexicon && r.mode === p.mode && r.games === p.answers);
      const strategies = [...new Set(rows.map((r) => r.strategy))];
      const by = new Map(rows.map((r) => [r.strategy + " " + r.opener, r]));
      const cell = (x, w, total) => {
        const r = by.get(x + " " + w);
        if (!r) return '<td class="num">–</td>';
        const extra = r.tot - total;  // >= 0 for a real run: the proof covers every strategy
        const gap = r.fail ? `<span class="pill loses">${r.fail} lost</span>` : `${extra < 0 ? "-" : "+"}${int(Math.abs(extra))}`;
        return `<td class="num">${fmt(r.mean, 4)} <small>${gap}</small></td>`;
      };
      const worse = p.openers - p.top.length;
      return `<h2>${esc(p.lexicon)} · ${esc(p.mode)} mode: the ${int(p.k)} best openers, proven</h2>
        <p class="note">Exact minimum total guesses over every answer (every allowed guess may be played${p.mode === "hard" ? ", NYT hard-mode rule" : ""}).
        The ${int(p.k)}th total is <b>${int(p.kth)}</b>; each of the other ${int(worse)} openers is proven worse:
        ${int(p.worse_bound)} by a lower bound, ${int(p.worse_exact)} by its exact total${p.no_win ? `, ${int(p.no_win)} because no strategy wins every game` : ""}.
        Proof: ${fmt(p.cpu_seconds / 60, 1)} CPU-min (${fmt(p.seconds / 60, 1)} min), ${esc(p.collected_at)}. ${strategies.length ? "Next to it, this run's strategies from the same opener: mean guesses, and how many guesses more than the optimum in total." : `(This run's strategies did not play all ${int(p.answers)} answers, so their figures are not comparable.)`}</p>
        <table class="proven" data-lexicon="${esc(p.lexicon)}" data-mode="${esc(p.mode)}"><thead><tr><th>#</th><th class="l">opener</th><th>proven total</th><th>proven mean</th>
        ${strategies.map((x) => `<th>${esc(x)}: mean · extra</th>`).join("")}</tr></thead><tbody>
        ${p.top.map(([w, total], i) => `<tr data-opener="${esc(w)}"><td class="num">${i + 1}</td><td class="l"><a class="op" href="#opener=${esc(w)}">${esc(w.toUpperCase())}</a></td>
          <td class="num">${int(total)}</td><td class="num">${fmt(total / p.answers, 4)}</td>
          ${strategies.map((x) => cell(x, w, total)).join("")}</tr>`).join("")}</tbody></table>`;
    };
    $("#view").innerHTML = `<h2>Which opener is best? Proven.</h2>
      ${P.length ? P.map(section).join("") : "<p>No proven ranking ships for the games of this run (wordle-lab optimal --rank K computes one).</p>"}`;
  }
  function renderPlots() {
    $("#view").innerHTML = `<div class="plots">${D.plots.map(([name, what]) =>
      `<h2>${esc(what)}</h2><img alt="${esc(name)}" src="${$("#img-" + name.replace(/\W/g, "_")).textContent.trim()}">`).join("")}</div>`;
  }

  function update(keepFocus) {
    writeHash();
    document.querySelectorAll("nav a").forEach((a) => a.classList.toggle("on", a.dataset.view === state.view));
    const focus = keepFocus && document.activeElement && document.activeElement.id;
    const pos = focus && document.activeElement.selectionStart;
    ({ ranking: renderRanking, opener: renderOpener, hard: renderHard, proven: renderProven, plots: renderPlots }[state.view] || renderRanking)();
    if (focus && $("#" + focus)) { const el = $("#" + focus); el.focus(); if (pos !== null) el.setSelectionRange(pos, pos); }
    check();
  }
  function check() {
    const rows = [...document.querySelectorAll("#ranking tbody tr")].map((tr) => tr.dataset.opener);
    const info = { view: state.view, rows: rows.length, first: rows.slice(0, 10), total: R.length, errors: ERRORS.slice(),
      count: ($("#count") || {}).textContent || "", opener: ($("#opener-title") || {}).textContent || "",
      panels: document.querySelectorAll(".panel[data-group]").length, games: document.querySelectorAll(".game").length,
      sort: state.sort + ":" + (state.dir > 0 ? "asc" : "desc"), ready: performance.now() };
    document.body.dataset.state = JSON.stringify(info);
  }

  // A small harness the browser test drives (#test=1): click the header twice, filter,
  // open the first opener; the steps' states end up in <pre id="test-result">.
  function selfTest() {
    const steps = [];
    const snap = (what) => steps.push(Object.assign({ step: what }, JSON.parse(document.body.dataset.state)));
    snap("start");
    $('#ranking th[data-key="mean"]').click(); snap("sort mean");
    $('#ranking th[data-key="mean"]').click(); snap("sort mean again");
    $('#ranking th[data-key="fail"]').click(); snap("sort lost");
    const q = $("#f-q"); q.value = "ra"; q.dispatchEvent(new Event("input")); snap("filter ra");
    const link = $("#ranking tbody a.op"); const name = link ? link.textContent : "";
    if (link) { location.hash = link.getAttribute("href"); onHash(); }
    snap("open " + name);
    $("#test-result").textContent = JSON.stringify(steps);
  }

  function onHash() { state = parseHash(); update(); }

  load().then((data) => {
    D = data; R = build(data);
    $("#sub").textContent = D.subtitle;
    document.querySelectorAll("nav a").forEach((a) => a.addEventListener("click", (e) => {
      e.preventDefault(); state.view = a.dataset.view; state.page = 0; update();
    }));
    window.addEventListener("hashchange", onHash);
    onHash();
    if (state.test) selfTest();
  }).catch((e) => {
    ERRORS.push(String(e)); console.error(e);
    $("#view").innerHTML = `<h2>This report could not be read</h2><p>${esc(e)}</p>`;
    document.body.dataset.state = JSON.stringify({ errors: ERRORS });
  });
})();
