// toy-train's board in the page of `toy-train serve` (games::page): the railway as SVG.
// Arezou's stations are squares, Borzou's circles, charging ones have a double border; each
// station is filled by who wins from it with the walk's switches set (blue Arezou, orange
// Borzou); the walk so far is drawn thick and numbered; the tracks out of the train's
// station are coloured by their value and clicked to move. Up to 40 stations are all drawn
// on a circle; on a larger railway, the walk and the stations one track away from it.
"use strict";

window.drawBoard = function (answer, page) {
  const { el, svg } = page;
  const b = answer.board;
  const n = b.arezou.length;
  const onWalk = new Set(b.walk);
  let shown;
  if (n <= 40) {
    shown = [...Array(n).keys()];
  } else {
    const near = new Set(b.walk);
    for (const [u, v] of b.tracks) if (onWalk.has(u)) near.add(v);
    shown = [...near].sort((x, y) => x - y).slice(0, 60);
  }
  const index = new Map(shown.map((s, i) => [s, i]));
  const size = 520;
  const radius = shown.length <= 1 ? 0 : size / 2 - 46;
  const at = (s) => {
    const i = index.get(s);
    const angle = (2 * Math.PI * i) / shown.length - Math.PI / 2;
    return [size / 2 + radius * Math.cos(angle), size / 2 + radius * Math.sin(angle)];
  };
  const walkEdges = new Map();
  b.walk.slice(1).forEach((s, i) => walkEdges.set(`${b.walk[i]}>${s}`, i + 1));
  if (b.closed_at !== null) walkEdges.set(`${b.walk[b.walk.length - 1]}>${b.walk[b.closed_at]}`, b.walk.length);
  const defs = svg("defs", {},
    svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "context-stroke" })));
  const edges = [];
  for (const [u, v] of b.tracks) {
    if (!index.has(u) || !index.has(v)) continue;
    const [x1, y1] = at(u);
    const [x2, y2] = at(v);
    const step = walkEdges.get(`${u}>${v}`);
    const fromTrain = b.train === u;
    const info = fromTrain ? page.move(String(v)) : null;
    const stroke = info ? page.colour(info.value) : step ? "#2a2f36" : "#a7a9ad";
    const width = step ? 4 : info ? 3.5 : 1.3;
    let d;
    if (u === v) {
      // A loop outward, away from the circle's centre.
      const out = Math.atan2(y1 - size / 2, x1 - size / 2) || -Math.PI / 2;
      const p = (angle, r) => [x1 + r * Math.cos(angle), y1 + r * Math.sin(angle)];
      const [a, c1, c2, e] = [p(out - 0.6, 17), p(out - 0.7, 58), p(out + 0.7, 58), p(out + 0.6, 19)];
      d = `M ${a[0]} ${a[1]} C ${c1[0]} ${c1[1]} ${c2[0]} ${c2[1]} ${e[0]} ${e[1]}`;
    } else {
      // A slight curve, so that the tracks u -> v and v -> u do not overlap.
      const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
      const [dx, dy] = [x2 - x1, y2 - y1];
      const len = Math.hypot(dx, dy) || 1;
      const [cx, cy] = [mx - (dy / len) * 18, my + (dx / len) * 18];
      const shorten = 17 / len;
      d = `M ${x1 + dx * shorten} ${y1 + dy * shorten} Q ${cx} ${cy} ${x2 - dx * shorten} ${y2 - dy * shorten}`;
    }
    const attrs = {
      d, fill: "none", stroke, "stroke-width": width, "marker-end": "url(#arrow)",
      class: info ? "track target" : "track", "data-track": `${u}>${v}`,
      opacity: info ? page.opacity(info.value) : null,
    };
    if (info) {
      attrs.onclick = () => page.play(String(v));
      attrs.tabindex = 0;
      attrs.onkeydown = (e) => { if (e.key === "Enter") page.play(String(v)); };
    }
    const title = info ? `to ${v}: ${page.valueText(info.value)}` : step ? `move ${step} of the walk` : `${u} -> ${v}`;
    edges.push(svg("path", attrs, svg("title", {}, title)));
    if (info) {
      // A wide transparent twin that takes the clicks a thin curve would miss.
      edges.push(svg("path", {
        d, fill: "none", stroke: "transparent", "stroke-width": 14, "pointer-events": "stroke",
        class: "track-hit", onclick: () => page.play(String(v)),
      }, svg("title", {}, title)));
    }
    if (step) {
      const out = Math.atan2(y1 - size / 2, x1 - size / 2) || -Math.PI / 2;
      const [lx, ly] = u === v ? [x1 + 52 * Math.cos(out), y1 + 52 * Math.sin(out)] : [(x1 + x2) / 2, (y1 + y2) / 2];
      edges.push(svg("text", { x: lx, y: ly, class: "step", "text-anchor": "middle", "font-size": 12, "font-weight": 700 }, String(step)));
    }
  }
  const nodes = shown.map((s) => {
    const [x, y] = at(s);
    const fill = b.arezou_wins[s] ? "#cfe0fb" : "#fbdcc3";
    const stroke = s === b.train ? "#111" : "#555";
    const width = s === b.train ? 3 : 1.4;
    const shape = (r) => b.arezou[s]
      ? svg("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 3, fill: "none", stroke, "stroke-width": width })
      : svg("circle", { cx: x, cy: y, r, fill: "none", stroke, "stroke-width": width });
    const body = b.arezou[s]
      ? svg("rect", { x: x - 14, y: y - 14, width: 28, height: 28, rx: 3, fill })
      : svg("circle", { cx: x, cy: y, r: 14, fill });
    const info = b.train !== null ? page.move(String(s)) : null;
    const attrs = { class: `station${info ? " target" : ""}`, "data-station": s };
    if (info) attrs.onclick = () => page.play(String(s));
    return svg("g", attrs, body, shape(14), b.charging[s] ? shape(18) : null,
      svg("text", { x, y: y + 4, "text-anchor": "middle", "font-size": 12 }, String(s)),
      svg("title", {}, `${s}: ${b.arezou[s] ? "Arezou's" : "Borzou's"}${b.charging[s] ? ", charging" : ""}; ${b.arezou_wins[s] ? "Arezou" : "Borzou"} wins from it`));
  });
  const picture = svg("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, role: "img", "aria-label": "the railway" }, defs, ...edges, ...nodes);
  const legend = el("p", { class: "legend" },
    "square: Arezou's station; circle: Borzou's; double border: charging; fill: who wins from it (blue Arezou, orange Borzou); thick numbered: the walk; coloured: the tracks you may take, by value",
    n > shown.length ? ` (${shown.length} of ${n} stations shown: the walk and its neighbours)` : "");
  return el("div", {}, picture, legend);
};
