// The page of `PROBLEM serve` (games/src/page.rs says what it does): the state in the URL
// fragment, one query a position to POST /api/query, and the board drawn by the game's
// board.js (window.drawBoard).
"use strict";

const SVG = "http://www.w3.org/2000/svg";

/** An element: el("p", {class: "x"}, "text", child, ...). */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  return fill(node, attrs, children);
}

/** An SVG element, as el. */
function svg(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

const $ = (id) => document.getElementById(id);

/** What the fragment holds: the input (null: the server's), game, moves, side, seed. */
const state = { input: null, game: 1, moves: [], side: null, seed: 1 };
/** The server's input and problem. */
let served = { problem: "", input: "" };
/** Answers by query, so that the chart and undo ask each position once. */
const answers = new Map();
/** The latest answer drawn. */
let shown = null;
let renderToken = 0;
let autoTimer = null;

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  state.input = params.has("input") ? params.get("input") : null;
  state.game = Math.max(1, parseInt(params.get("game") || "1", 10) || 1);
  try {
    const moves = JSON.parse(params.get("moves") || "[]");
    state.moves = Array.isArray(moves) ? moves.map(String) : [];
  } catch (e) {
    state.moves = [];
  }
  state.side = params.get("side");
  state.seed = parseInt(params.get("seed") || "1", 10) || 1;
}

function hashOf() {
  const params = new URLSearchParams();
  if (state.input !== null) params.set("input", state.input);
  params.set("game", String(state.game));
  if (state.side) params.set("side", state.side);
  if (state.seed !== 1) params.set("seed", String(state.seed));
  params.set("moves", JSON.stringify(state.moves));
  return "#" + params.toString();
}

/** Writes the state into the URL: a new history entry when `push`, else in place. */
function writeHash(push) {
  const url = location.pathname + location.search + hashOf();
  if (push) history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

async function ask(moves) {
  const input = state.input === null ? served.input : state.input;
  const query = { input, game: state.game, moves };
  const key = JSON.stringify(query);
  if (answers.has(key)) return answers.get(key);
  const reply = await fetch("api/query", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: key,
  });
  const answer = await reply.json();
  if (!reply.ok) throw new Error(answer.error || reply.statusText);
  answers.set(key, answer);
  return answer;
}

/** Best first: wins fastest, then the highest probability, then losses slowest. */
function rank(value) {
  const far = value.remoteness === null ? 1e9 : value.remoteness;
  if (value.kind === "win") return [0, far];
  if (value.kind === "chance") return [1, -value.probability];
  return [2, -far];
}

function compareValues(a, b) {
  const [x, y] = [rank(a), rank(b)];
  return x[0] - y[0] || x[1] - y[1];
}

function valueText(value) {
  if (value.kind === "chance") return value.probability.toFixed(4);
  return value.remoteness === null ? value.kind : `${value.kind} in ${value.remoteness}`;
}

/** A value's colour: win green, lose red, a probability between them. */
function colour(value) {
  const p = value.kind === "win" ? 1 : value.kind === "lose" ? 0 : value.probability;
  return `hsl(${Math.round(120 * p)}, 62%, 36%)`;
}

/** Paler the further the end: a win or loss in r moves. */
function opacity(value) {
  if (value.kind === "chance" || value.remoteness === null) return 1;
  return (0.4 + 0.6 / (1 + value.remoteness / 8)).toFixed(3);
}

/** Whose moves the page makes: "watch" both, "both" none, else the side's opponent. */
function mode() {
  if (state.side === "watch" || state.side === "both") return state.side;
  return "play";
}

function mySide(answer) {
  if (mode() === "play") return state.side || answer.side;
  return answer.players[0];
}

/** `answer`'s value for `player`. */
function valueFor(answer, player) {
  const v = answer.side_value;
  if (player === answer.side) return v;
  const flip = { win: "lose", lose: "win", chance: "chance" }[v.kind];
  return { kind: flip, remoteness: v.remoteness, probability: 1 - v.probability };
}

/** A seeded draw in [0, 1) for chance at the `n`-th move (mulberry32). */
function random(n) {
  let t = (state.seed * 1000003 + n * 7919 + 1) >>> 0;
  t = (t + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function roll(answer) {
  const x = random(state.moves.length);
  let total = 0;
  for (const c of answer.chances) {
    total += c.probability;
    if (x < total) return c.move;
  }
  return answer.chances[answer.chances.length - 1].move;
}

function sortedMoves(answer) {
  return answer.moves.slice().sort((a, b) => compareValues(a.value, b.value));
}

/** Plays `text`: a person's move pushes a history entry, perfect play's replaces it. */
function play(text, push = true) {
  state.moves = state.moves.concat([text]);
  writeHash(push);
  render();
}

/** The page's own move, if it makes one here: perfect play's, or chance's roll. */
function autoMove(answer) {
  if (answer.turn === "over") return null;
  if (answer.turn === "chance") return mode() === "both" ? null : roll(answer);
  if (mode() === "both") return null;
  if (mode() === "play" && answer.turn === mySide(answer)) return null;
  return sortedMoves(answer)[0].move;
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

async function render() {
  const token = ++renderToken;
  clearTimeout(autoTimer);
  // The number of moves of the position the page rests at, empty while a query or a move of
  // its own is pending: what a test (or any script driving the page) waits for.
  document.body.dataset.rest = "";
  let answer;
  try {
    answer = await ask(state.moves);
  } catch (e) {
    if (token === renderToken) showError(`cannot show this position: ${e.message}`);
    return;
  }
  if (token !== renderToken) return;
  showError("");
  shown = answer;
  draw(answer);
  drawChart(token);
  const next = autoMove(answer);
  if (next === null) document.body.dataset.rest = String(state.moves.length);
  if (next !== null) {
    const wait = mode() === "watch" ? 700 : 150;
    autoTimer = setTimeout(() => play(next, mode() === "watch"), wait);
  }
}

function draw(answer) {
  document.title = `${answer.problem} against perfect play`;
  $("problem").textContent = answer.problem;
  const game = $("game");
  game.max = String(answer.games);
  game.value = String(answer.game);
  const side = $("side");
  const options = answer.players.concat(["watch", "both"]);
  const labels = { watch: "neither: watch perfect play", both: "both sides" };
  side.replaceChildren(...options.map((o) => el("option", { value: o }, labels[o] || o)));
  side.value = state.side || answer.side;
  const me = mySide(answer);
  let status;
  if (answer.turn === "over") {
    const result = mode() === "play" ? (answer.winner === me ? "; you win" : "; you lose") : "";
    status = `game over: ${answer.winner} wins${result}`;
  } else if (answer.turn === "chance") {
    status = "chance moves";
  } else {
    const who = mode() === "play" ? (answer.turn === me ? " (you)" : " (perfect play)") : "";
    status = `${answer.turn} to move${who}`;
  }
  const v = valueFor(answer, me);
  $("status").replaceChildren(
    el("span", {}, status),
    " · ",
    el("span", { class: "value", style: `color: ${colour(v)}` }, `${valueText(v)} for ${me}`),
  );
  $("drawn").textContent = answer.position;
  const board = $("board");
  if (typeof window.drawBoard === "function") {
    board.replaceChildren(window.drawBoard(answer, pageApi(answer)));
  } else {
    board.replaceChildren(el("pre", {}, answer.position));
  }
  const mine = mode() === "both" || (mode() === "play" && answer.turn === me);
  const list = $("moves");
  const moves = sortedMoves(answer);
  $("moves-title").textContent = answer.turn === "chance" ? "chance's moves" : "moves, best first";
  const items = moves.map((m, i) =>
    el("li", {},
      el("button", {
        class: "move", "data-move": m.move, "data-kind": m.value.kind, disabled: !mine,
        style: `background: ${colour(m.value)}; opacity: ${opacity(m.value)}`,
        title: i < 9 ? `key ${i + 1}` : null,
        onclick: () => play(m.move),
      }, el("span", { class: "text" }, m.shown), el("span", { class: "worth" }, valueText(m.value)))));
  const chances = answer.chances.map((c) =>
    el("li", {},
      el("button", {
        class: "move chance", "data-move": c.move, disabled: mode() !== "both",
        onclick: () => play(c.move),
      }, el("span", { class: "text" }, c.shown), el("span", { class: "worth" }, `p ${c.probability.toFixed(4)}`))));
  list.replaceChildren(...items, ...chances);
  $("chance-controls").hidden = !(answer.turn === "chance" && mode() === "both");
  $("played").textContent = state.moves.length ? `moves so far: ${state.moves.join(", ")}` : "";
}

/** What a board script gets (games/src/page.rs). */
function pageApi(answer) {
  return {
    el,
    svg,
    colour,
    opacity,
    valueText,
    move: (text) => answer.moves.find((m) => m.move === text) || null,
    play: (text) => {
      const me = mySide(answer);
      if (mode() === "both" || (mode() === "play" && answer.turn === me)) play(text);
    },
  };
}

/** The chart of the value so far for the person's side (or the first player's). */
async function drawChart(token) {
  const prefixes = [];
  try {
    for (let n = 0; n <= state.moves.length; n++) {
      prefixes.push(await ask(state.moves.slice(0, n)));
      if (token !== renderToken) return;
    }
  } catch (e) {
    return;
  }
  const me = mySide(prefixes[prefixes.length - 1]);
  const values = prefixes.map((a) => valueFor(a, me));
  const chance = values.some((v) => v.kind === "chance");
  const far = Math.max(1, ...values.map((v) => (v.remoteness === null ? 1 : v.remoteness)));
  // Up is good for `me`: a probability, or a win (the sooner, the higher), against a loss.
  const height = (v) => {
    if (chance) return v.probability;
    const r = v.remoteness === null ? far : v.remoteness;
    return v.kind === "win" ? 0.5 + 0.5 * (1 - r / (far + 1)) : 0.5 * (r / (far + 1));
  };
  const [w, h, pad] = [400, 120, 8];
  const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (v) => h - pad - height(v) * (h - 2 * pad);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const chart = $("chart");
  chart.replaceChildren(
    svg("line", { x1: pad, x2: w - pad, y1: h / 2, y2: h / 2, class: "axis" }),
    svg("text", { x: pad, y: 14, class: "label" }, chance ? `${me} wins: 1` : `${me} wins`),
    svg("text", { x: pad, y: h - 2, class: "label" }, chance ? "0" : `${me} loses`),
    svg("polyline", { points, class: "line" }),
    ...values.map((v, i) => svg("circle", { cx: x(i), cy: y(v), r: 3, fill: colour(v) },
      svg("title", {}, `after ${i} moves: ${valueText(v)} for ${me}`))),
  );
  chart.setAttribute("data-points", String(values.length));
}

function restart() {
  state.moves = [];
  writeHash(true);
  render();
}

function hint() {
  if (!shown) return;
  const best = sortedMoves(shown)[0];
  for (const b of document.querySelectorAll("button.move")) {
    b.classList.toggle("hint", best !== undefined && b.dataset.move === best.move);
  }
}

function wire() {
  $("undo").addEventListener("click", () => history.back());
  $("hint").addEventListener("click", hint);
  $("restart").addEventListener("click", restart);
  $("roll").addEventListener("click", () => shown && play(roll(shown)));
  $("game").addEventListener("change", (e) => {
    state.game = Math.max(1, parseInt(e.target.value, 10) || 1);
    restart();
  });
  $("side").addEventListener("change", (e) => {
    state.side = e.target.value;
    writeHash(true);
    render();
  });
  const toggle = $("input-toggle");
  toggle.addEventListener("click", () => {
    const box = $("input-box");
    box.hidden = !box.hidden;
    toggle.setAttribute("aria-expanded", String(!box.hidden));
    if (!box.hidden) $("input").value = state.input === null ? served.input : state.input;
  });
  $("input-load").addEventListener("click", () => {
    state.input = $("input").value;
    state.game = 1;
    restart();
  });
  $("input-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) $("input").value = await file.text();
  });
  window.addEventListener("popstate", () => {
    readHash();
    render();
  });
  window.addEventListener("hashchange", () => {
    readHash();
    render();
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "u") history.back();
    else if (e.key === "h") hint();
    else if (e.key === "r") restart();
    else if (/^[1-9]$/.test(e.key)) {
      const buttons = [...document.querySelectorAll("button.move:not([disabled])")];
      const chosen = buttons[Number(e.key) - 1];
      if (chosen) chosen.click();
    }
  });
}

async function start() {
  wire();
  try {
    const reply = await fetch("api/input");
    served = await reply.json();
  } catch (e) {
    showError(`cannot reach the server: ${e.message}`);
    return;
  }
  readHash();
  writeHash(false);
  render();
}

window.addEventListener("load", start);
