// The board page of `othello web`: it draws the state the server sends, turns clicks into
// requests, and listens to the session's event stream for the running search's progress.
// It keeps no timer: an open page waits for events and costs nothing.
"use strict";

const START_OBF = "---------------------------OX------XO--------------------------- X";
const $ = (id) => document.getElementById(id);
const files = "abcdefgh";

let cfg = null;       // /api/config
let st = null;        // the last state from the server
let session = "";
let stream = null;    // EventSource
let gen = 0;          // counts user actions; answers to older ones are dropped
let hintLines = null; // {ply, lines} of the latest hint search of the current position
let hintSearch = 0;   // id of the hint search being shown
let hintDone = 0;     // id of the last hint search whose final answer came
let editing = null;   // the squares being set up, or null
let analysing = false;

function squareName(i) { return files[i % 8] + (Math.floor(i / 8) + 1); }
function fmt(x) { const s = (x >= 0 ? "+" : "") + x.toFixed(2); return s === "-0.00" ? "+0.00" : s; }
function showError(msg) { $("error").textContent = msg || ""; }

async function api(name, body) {
  const res = await fetch("/api/" + name, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(Object.assign({ session }, body || {})),
  });
  const data = await res.json().catch(() => ({ error: "bad answer from the server" }));
  if (res.status === 404 && name !== "new" && st) {
    // The session expired: start it again from the game the page shows.
    await newSession({ obf: st.start, moves: st.transcript });
    return null;
  }
  if (!res.ok) { const e = new Error(data.error || res.statusText); e.status = res.status; throw e; }
  return data;
}

let clockLeft = null; // seconds the engine has left on its game clock, null for none

function resetClock() {
  const m = Number($("clock").value) || 0;
  clockLeft = m > 0 ? m * 60 : null;
  showClock();
}

function showClock() {
  $("clockleft").textContent = clockLeft === null ? "" : `(${Math.floor(clockLeft / 60)}:${String(Math.floor(clockLeft % 60)).padStart(2, "0")} left)`;
}

function searchParams(engineMove) {
  const p = { level: Number($("level").value), time: Number($("time").value) || 0 };
  if ($("sel").value !== "") p.sel = Number($("sel").value);
  if (engineMove && clockLeft !== null) p.clock = Math.max(clockLeft, 0);
  return p;
}

async function newSession(body) {
  const s = await api("new", Object.assign({ session: "" }, body));
  session = s.session;
  hintSearch = hintDone = 0; // a new session numbers its searches from 1
  openStream();
  setState(s);
}

function openStream() {
  if (stream) stream.close();
  stream = new EventSource("/api/events?session=" + encodeURIComponent(session));
  stream.addEventListener("search", (e) => onProgress(JSON.parse(e.data)));
  stream.addEventListener("analysis", (e) => onAnalysis(JSON.parse(e.data)));
}

function onProgress(p) {
  if (!st || p.ply !== st.ply) return;
  if (p.kind === "hint") {
    // An iteration's event may come after the search's final answer: it is older.
    if (p.search < hintSearch || p.search === hintDone) return;
    hintSearch = p.search;
    hintLines = { ply: p.ply, lines: p.lines };
    drawHints();
    showHintInfo(p);
  } else if (p.kind === "go" && p.lines.length) {
    const l = p.lines[0];
    $("thinking").textContent = `engine: ${l.move} ${fmt(l.score)} ${l.depth}  ${p.nodes} nodes ${(p.speed / 1e6).toFixed(2)} Mn/s\npv ${l.pv.join(" ")}`;
  }
}

function onAnalysis(a) {
  if (!st || !analysing) return;
  if (a.ply < st.evals.length) {
    st.evals[a.ply] = { known: true, score: a.eval, label: "analysis" };
    drawGraph();
  }
  $("anaprogress").textContent = `analysed ${a.done} of ${a.total} positions`;
}

function showHintInfo(p) {
  if (!p.lines.length) { $("hintinfo").textContent = ""; return; }
  const best = p.lines[0];
  $("hintinfo").dataset.final = p.final ? "1" : "";
  let text = `${best.depth}  ${p.nodes} nodes  ${(p.speed / 1e6).toFixed(2)} M nodes/s\n`;
  for (const l of p.lines.slice(0, 6)) text += `${l.move} ${l.wld ? wldText(l.score) : fmt(l.score)}  ${l.pv.join(" ")}\n`;
  $("hintinfo").textContent = text;
}

function wldText(x) { return x > 0 ? "win" : x < 0 ? "loss" : "draw"; }

function setState(s) {
  if (!s) return;
  const moved = !st || st.ply !== s.ply || st.obf !== s.obf;
  st = s;
  if (moved) { hintLines = null; $("hintinfo").textContent = ""; }
  updateURL();
  render();
}

function updateURL() {
  const q = new URLSearchParams();
  if (st.start !== START_OBF) q.set("obf", st.start);
  if (st.transcript) q.set("moves", st.transcript);
  const url = location.pathname + (q.toString() ? "?" + q.toString() : "");
  history.replaceState(null, "", url);
}

function buildBoard() {
  const b = $("board");
  b.appendChild(document.createElement("div"));
  for (let c = 0; c < 8; c++) {
    const d = document.createElement("div");
    d.className = "coord"; d.textContent = files[c]; b.appendChild(d);
  }
  for (let r = 0; r < 8; r++) {
    const d = document.createElement("div");
    d.className = "coord"; d.textContent = r + 1; b.appendChild(d);
    for (let c = 0; c < 8; c++) {
      const sq = document.createElement("div");
      sq.className = "sq";
      sq.dataset.square = files[c] + (r + 1);
      sq.addEventListener("click", () => onSquare(r * 8 + c));
      b.appendChild(sq);
    }
  }
}

function squareEl(name) { return document.querySelector(`[data-square="${name}"]`); }

function render() {
  const cells = editing || st.board;
  for (let i = 0; i < 64; i++) {
    const el = squareEl(squareName(i));
    if (cells[i]) el.dataset.disc = cells[i]; else delete el.dataset.disc;
    el.classList.remove("legal", "last");
    el.classList.toggle("editing", !!editing);
    delete el.dataset.legal;
  }
  if (!editing) {
    for (const m of st.legal) { const el = squareEl(m); el.classList.add("legal"); el.dataset.legal = "true"; }
    if (st.last) squareEl(st.last).classList.add("last");
  }
  drawHints();
  let status;
  if (editing) status = "setting up: click squares to change them";
  else if (st.over) status = `game over: black ${st.black}, white ${st.white} (${st.result > 0 ? "black wins" : st.result < 0 ? "white wins" : "draw"})`;
  else status = `${st.toMove} to move — black ${st.black}, white ${st.white}`;
  $("status").textContent = status;
  drawBook();
  drawMoves();
  drawGraph();
}

function drawHints() {
  document.querySelectorAll(".hint").forEach((h) => h.remove());
  document.querySelectorAll("[data-hint]").forEach((el) => delete el.dataset.hint);
  if (editing || !$("hints").checked || !st || st.over) return;
  let lines = hintLines && hintLines.ply === st.ply ? hintLines.lines : null;
  let book = false;
  if (!lines && st.book && st.book.length) {
    lines = st.book.map((b) => ({ move: b.move, score: b.score, label: "book" }));
    book = true;
  }
  if (!lines) return;
  const best = Math.max(...lines.map((l) => l.score));
  for (const l of lines) {
    const el = squareEl(l.move);
    if (!el || el.dataset.disc) continue;
    const h = document.createElement("div");
    h.className = "hint" + (l.score === best ? " best" : "") + (book ? " book" : "");
    const v = l.wld ? wldText(l.score) : (l.score >= 0 ? "+" : "") + l.score.toFixed(l.exact ? 0 : 1);
    h.innerHTML = `<span></span><small></small>`;
    h.firstChild.textContent = v;
    h.lastChild.textContent = l.label;
    el.appendChild(h);
    el.dataset.hint = v;
  }
}

function drawBook() {
  if (!st.book || !st.book.length) { $("bookinfo").textContent = cfg && cfg.book ? "out of the book" : "no book"; return; }
  $("bookinfo").textContent = "book: " + st.book.map((b) => `${b.move} ${fmt(b.score)}${b.exact ? " exact" : ""}`).join(", ");
}

function mistake(m) { return m.loss !== null && m.loss !== undefined && m.loss >= 2; }

function drawMoves() {
  const box = $("moves");
  box.textContent = "";
  st.moves.forEach((m, i) => {
    const s = document.createElement("span");
    let t = `${i + 1}.${m.move}`;
    if (m.loss !== null && m.loss !== undefined && m.loss > 0) t += `(-${m.loss.toFixed(1)}${m.best ? " " + m.best : ""})`;
    s.textContent = t;
    s.dataset.ply = i + 1;
    if (i + 1 === st.ply) s.classList.add("cur");
    if (i + 1 > st.ply) s.classList.add("after");
    if (mistake(m)) s.classList.add("mistake");
    s.addEventListener("click", () => seek(i + 1));
    box.appendChild(s);
  });
}

function drawGraph() {
  const g = $("graph");
  const W = 610, H = 170, pad = 5;
  const n = Math.max(st.evals.length - 1, 1);
  const xs = (i) => pad + (W - 2 * pad) * i / Math.max(n, 20);
  const ys = (v) => H / 2 - (H / 2 - pad) * Math.max(-32, Math.min(32, v)) / 32;
  let svg = `<line x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}" stroke="#aaa"/>`;
  let path = "";
  const pts = [];
  st.evals.forEach((e, i) => {
    if (!e.known) return;
    path += (path ? "L" : "M") + xs(i).toFixed(1) + "," + ys(e.score).toFixed(1);
    const bad = i > 0 && st.moves[i - 1] && mistake(st.moves[i - 1]);
    pts.push(`<circle data-ply="${i}" cx="${xs(i).toFixed(1)}" cy="${ys(e.score).toFixed(1)}" r="4" class="${bad ? "mistake" : ""}${i === st.ply ? " cur" : ""}" fill="#246"><title>${i}: ${fmt(e.score)} ${e.label}</title></circle>`);
  });
  if (path) svg += `<path d="${path}" fill="none" stroke="#246" stroke-width="1.5"/>`;
  svg += `<line x1="${xs(st.ply)}" y1="0" x2="${xs(st.ply)}" y2="${H}" stroke="#e9a"/>`;
  g.innerHTML = svg + pts.join("");
  g.querySelectorAll("circle").forEach((c) => c.addEventListener("click", () => seek(Number(c.dataset.ply))));
}

function engineToMove() {
  const side = $("side").value;
  return !editing && st && !st.over && side === st.toMove;
}

// next starts what the new position calls for: the engine's move, or the hints.
function next() {
  if (engineToMove()) engineMove();
  else if ($("hints").checked && !st.over && !editing) hint();
}

async function act(f) {
  const my = ++gen;
  showError("");
  try {
    const s = await f();
    if (my !== gen || !s) return;
    setState(s.state || s);
    next();
  } catch (e) {
    if (my === gen && e.status !== 409) showError(e.message);
    else if (my === gen && e.status === 409 && !/stopped/.test(e.message)) showError(e.message);
  }
}

async function engineMove() {
  const my = gen;
  $("thinking").textContent = "engine thinking…";
  const t0 = performance.now();
  try {
    const r = await api("go", searchParams(true));
    if (clockLeft !== null) { clockLeft = Math.max(0, clockLeft - (performance.now() - t0) / 1000); showClock(); }
    if (!r || my !== gen) return;
    const l = r.lines && r.lines[0];
    if (l) $("thinking").textContent = `engine played ${l.move} ${fmt(l.score)} (${l.depth})${r.nodes ? `, ${r.nodes} nodes` : ""}`;
    setState(r.state);
    next();
  } catch (e) {
    if (my === gen && !/stopped/.test(e.message)) showError(e.message);
  }
}

async function hint() {
  const my = gen;
  try {
    const r = await api("hint", searchParams());
    if (!r || my !== gen || r.ply !== st.ply) return;
    hintSearch = hintDone = r.search;
    hintLines = { ply: r.ply, lines: r.lines };
    const s = r.state;
    st.evals = s.evals;
    drawHints();
    showHintInfo(r);
    drawGraph();
  } catch (e) {
    if (my === gen && !/stopped/.test(e.message)) showError(e.message);
  }
}

function onSquare(i) {
  if (editing) {
    editing[i] = editing[i] === "" ? "black" : editing[i] === "black" ? "white" : "";
    render();
    return;
  }
  const name = squareName(i);
  if (!st.legal.includes(name) || engineToMove()) return;
  act(() => api("move", { move: name }));
}

function seek(ply) { act(() => api("seek", { ply })); }

function editOBF() {
  return editing.map((c) => (c === "black" ? "X" : c === "white" ? "O" : "-")).join("") + " " + $("edside").value;
}

function setEditing(on) {
  editing = on ? st.board.slice() : null;
  if (on) $("edside").value = st.toMove === "white" ? "O" : "X";
  $("editbar").hidden = !on;
  $("edit").hidden = on;
  if (on) { gen++; api("stop").catch(() => {}); }
  render();
}

async function init() {
  buildBoard();
  cfg = await (await fetch("/api/config")).json();
  cfg.levels.forEach((l, i) => $("level").add(new Option(l.name, i)));
  $("level").value = cfg.level;
  $("sel").add(new Option("the level's", ""));
  for (let s = 0; s <= cfg.maxSel; s++) $("sel").add(new Option(s === 0 ? "0 (exact depths)" : String(s), s));
  $("time").value = cfg.time || 0;
  document.title = cfg.name;
  const q = new URLSearchParams(location.search);
  try {
    await newSession({ obf: q.get("obf") || "", moves: q.get("moves") || "" });
  } catch (e) {
    showError("the URL's game: " + e.message);
    await newSession({});
  }
  if (q.get("side")) $("side").value = q.get("side");
  if (q.get("hints") === "1") $("hints").checked = true;
  $("new").onclick = () => { resetClock(); act(() => api("new", {})); };
  $("clock").onchange = resetClock;
  $("undo").onclick = () => act(async () => {
    let s = await api("undo");
    // Against the engine, undo goes back to the player's own move.
    while (s && $("side").value === s.toMove && !s.over && s.ply > 0) {
      try { s = await api("undo"); } catch (e) { break; }
    }
    return s;
  });
  $("redo").onclick = () => act(() => api("redo"));
  $("stop").onclick = () => { gen++; api("stop").catch(() => {}); };
  $("swap").onclick = () => {
    const s = $("side");
    if (s.value === "none") s.value = st.toMove;
    else s.value = s.value === "black" ? "white" : "black";
    gen++;
    next();
  };
  $("side").onchange = () => { gen++; next(); };
  $("hints").onchange = () => { hintLines = null; render(); if ($("hints").checked) { gen++; next(); } else api("stop").catch(() => {}); };
  $("level").onchange = $("sel").onchange = $("time").onchange = () => { if ($("hints").checked) { gen++; next(); } };
  $("load").onclick = () => act(() => api("new", { text: $("io").value }));
  $("file").onchange = async () => {
    const f = $("file").files[0];
    if (!f) return;
    $("io").value = await f.text();
    act(() => api("new", { text: $("io").value }));
  };
  $("showobf").onclick = () => { $("io").value = st.obf; };
  $("showtr").onclick = () => { $("io").value = st.transcript; };
  $("showggf").onclick = () => { $("io").value = st.ggf; };
  $("copy").onclick = () => {
    $("io").select();
    if (navigator.clipboard) navigator.clipboard.writeText($("io").value).catch(() => document.execCommand("copy"));
    else document.execCommand("copy");
  };
  $("analyze").onclick = async () => {
    const my = ++gen;
    analysing = true;
    $("anaprogress").textContent = "analysing…";
    try {
      const r = await api("analyze", searchParams());
      if (r && my === gen) {
        setState(r.state);
        const bad = r.state.moves.filter(mistake).length;
        $("anaprogress").textContent = `analysed: ${bad} mistake${bad === 1 ? "" : "s"} of 2 discs or more`;
      }
    } catch (e) {
      if (my === gen) { showError(e.message); $("anaprogress").textContent = ""; }
    } finally { analysing = false; }
  };
  $("edit").onclick = () => setEditing(true);
  $("edcancel").onclick = () => setEditing(false);
  $("edclear").onclick = () => { editing = editing.map(() => ""); render(); };
  $("edstart").onclick = () => { editing = Array.from(START_OBF.slice(0, 64), (c) => (c === "X" ? "black" : c === "O" ? "white" : "")); render(); };
  $("eddone").onclick = () => {
    const obf = editOBF();
    act(async () => { const s = await api("new", { obf }); setEditing(false); return s; });
  };
  // A page that goes away stops its search and closes its stream: the browser may keep the
  // page (and its connections) for the back button, and a few such streams would take every
  // connection the browser allows to the server.
  addEventListener("pagehide", () => {
    if (stream) { stream.close(); stream = null; }
    navigator.sendBeacon("/api/stop", JSON.stringify({ session }));
  });
  addEventListener("pageshow", (e) => { if (e.persisted) { openStream(); act(() => api("state")); } });
  next();
}

init().catch((e) => showError(e.message));
