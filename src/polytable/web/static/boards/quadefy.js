// Quadefy board: a 3D view of the 4x4x4 cube (SVG, turned by dragging, by the arrow buttons or the arrow keys)
// and a layer view (four 4x4 plans, floor first). Choose a block and one of its rotations; squares a legal
// placement of it can cover are tinted; tap one to see such a placement as a ghost (tap again for the next);
// Place confirms. The remaining blocks of both players are listed. The bonus puzzle sits below: choose a
// pattern, build it by hand, or ask for the solver's answer. Dark and light blocks differ by fill and
// lettering, never by colour alone.
import { h, s } from "../dom.js";
import { t } from "../i18n.js";
import * as generic from "./generic.js";

const OWN = [{ fill: "#3b3b58", ink: "#fff", edge: "#111" }, { fill: "#f3dfb5", ink: "#222", edge: "#8a6d2f" }];
let tables = null;
let loading = null;
function loadTables() {
  if (!loading) loading = fetch("/api/boards/quadefy").then((r) => r.json()).then((d) => { tables = d; return d; });
  return loading;
}
const idx = (x, y, z) => x + 4 * y + 16 * z;
const cellText = (i) => `${"abcd"[i % 4]}${Math.floor(i / 4) % 4 + 1}.${Math.floor(i / 16) + 1}`;

function parseMove(text) {
  const m = /^(\w{1,2}) r(\d+) @ ([a-d])(\d)\.(\d)$/.exec(text);
  if (!m || !tables) return null;
  const b = tables.blocks.find((q) => q.name === m[1]);
  const o = b && b.orients[Number(m[2])];
  if (!o) return null;
  const ax = m[3].charCodeAt(0) - 97, ay = Number(m[4]) - 1, az = Number(m[5]) - 1;
  return { text, block: m[1], r: Number(m[2]), cells: o.map(([x, y, z]) => idx(x + ax, y + ay, z + az)) };
}

export function render(el, ctx) {
  const part = ctx.part;
  const v = part && part.view;
  if (!v || !v.cells || !v.in_hand) { generic.render(el, ctx); return; }
  if (!tables) {
    generic.render(el, ctx);
    loadTables().then(() => render(el, ctx)).catch(() => {});
    return;
  }
  const me = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat;
  let st = el._qd;
  if (!st || st.seat !== ctx.seat) st = el._qd = { seat: ctx.seat, version: -1, block: null, r: null, cell: null, i: 0, yaw: 35, pitch: 30 };
  if (st.version !== ctx.msg.version) {
    if (st.version >= 0 && ctx.announce) {
      const e = ctx.msg.history[ctx.msg.history.length - 1];
      if (e && e.player >= 0) ctx.announce(t("qd.announce", { name: ctx.seatName(e.player), move: e.action }));
    }
    st.version = ctx.msg.version; st.cell = null; st.i = 0;
  }
  const legal = (part.to_act ? part.legal || [] : []).map(parseMove).filter(Boolean);
  const hand = me !== null ? v.in_hand[me] : [];
  if (part.to_act) {
    if (!st.block || !hand.includes(st.block)) st.block = hand[0] || null;
  }
  const mineLegal = legal.filter((p) => p.block === st.block);
  const rots = [...new Set(mineLegal.map((p) => p.r))].sort((a, b) => a - b);
  if (!rots.includes(st.r)) st.r = rots.length ? rots[0] : null;
  const options = mineLegal.filter((p) => p.r === st.r);
  const reach = new Set(options.flatMap((p) => p.cells));
  const under = st.cell !== null ? options.filter((p) => p.cells.includes(st.cell)) : [];
  const ghost = under.length ? under[st.i % under.length] : null;

  const onCell = (i) => {
    if (!part.to_act) return;
    if (st.cell === i) st.i += 1; else { st.cell = i; st.i = 0; }
    render(el, ctx);
  };
  const layers = layerView(v.cells, { ghost: ghost ? ghost.cells : [], reach, cursor: st.cell, onCell, id: "qd-layers",
    mover: me ?? 0 });
  const cube = cubeView(v.cells, ghost ? ghost.cells : [], me ?? 0, st, () => render(el, ctx), "qd-3d");

  const blockBtns = h("div", { class: "row", role: "group", "aria-label": t("qd.yourBlocks") }, hand.map((b) =>
    h("button", { type: "button", class: `secondary blockbtn${st.block === b ? " chosen" : ""}`, "aria-pressed": st.block === b ? "true" : "false",
      "data-block": b, disabled: !part.to_act, onclick: () => { st.block = b; st.r = null; st.cell = null; render(el, ctx); } }, b)));
  const rotIdx = rots.indexOf(st.r);
  const rotRow = part.to_act ? h("div", { class: "row" },
    h("button", { type: "button", class: "secondary", id: "qd-rot-prev", disabled: rots.length < 2,
      onclick: () => { st.r = rots[(rotIdx - 1 + rots.length) % rots.length]; st.cell = null; render(el, ctx); } }, `◀ ${t("qd.rotation")}`),
    h("span", { id: "qd-rot" }, rots.length ? t("qd.rotOf", { i: rotIdx + 1, n: rots.length, places: options.length }) : t("qd.noPlace")),
    h("button", { type: "button", class: "secondary", id: "qd-rot-next", disabled: rots.length < 2,
      onclick: () => { st.r = rots[(rotIdx + 1) % rots.length]; st.cell = null; render(el, ctx); } }, `${t("qd.rotation")} ▶`),
    h("button", { type: "button", id: "qd-place", disabled: !ghost, onclick: () => ghost && ctx.play(ghost.text) },
      ghost ? t("qd.placeAt", { move: ghost.text }) : t("qd.place"))) : null;
  const remaining = h("div", { class: "help", id: "qd-remaining" }, v.in_hand.map((bs, p) => h("div", {},
    h("span", { class: "swatch", style: `background:${OWN[p].fill};color:${OWN[p].ink}` }, p ? "L" : "D"),
    ` ${ctx.seatName(p)} (${t(p ? "qd.light" : "qd.dark")}): ${bs.join(" ") || "—"}`)));
  const info = h("p", { class: "help", id: "qd-info", "aria-live": "polite" },
    !part.to_act ? "" : ghost ? `${ghost.text} (${st.i % under.length + 1}/${under.length})`
      : st.cell !== null ? t("qd.noneHere") : t("qd.help"));
  const puzzle = puzzlePanel(el);
  generic.render(el, { ...ctx, hideText: true }, h("div", {}, remaining, h("div", { class: "qd-views" }, cube, layers), info,
    part.to_act ? blockBtns : null, rotRow, puzzle));
  if (el._generic && ghost) el._generic.input.value = ghost.text;
}

// Four 4x4 plans, layer 1 (the floor) first; row 4 at the top of each, columns a-d left to right.
function layerView(cells, { ghost = [], reach = new Set(), cursor = null, onCell = null, id, mover = 0, tint = null }) {
  const C = 22, gap = 12;
  const g = new Set(ghost);
  const out = [];
  for (let z = 0; z < 4; z++) {
    const ox = (z % 2) * (4 * C + gap) + 14, oy = Math.floor(z / 2) * (4 * C + gap + 14) + 14;
    out.push(s("text", { x: ox, y: oy - 3, "font-size": 10, fill: "#444" }, t("qd.layer", { n: z + 1 })));
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) {
      const i = idx(x, y, z);
      const c = cells[i];
      const px = ox + x * C, py = oy + (3 - y) * C;
      let fill = "#fff";
      if (c) fill = OWN[c.owner].fill;
      else if (tint && tint.has(i)) fill = "#9a9ab0";
      else if (reach.has(i)) fill = "#dff3e4";
      out.push(s("rect", { x: px, y: py, width: C, height: C, fill, stroke: "#999", "data-i": i, class: "cell",
        role: onCell ? "button" : undefined, tabindex: onCell ? 0 : undefined,
        "aria-label": `${cellText(i)}: ${c ? `${t(c.owner ? "qd.light" : "qd.dark")} ${c.block}` : t("qd.empty")}` }));
      if (c) out.push(s("text", { x: px + C / 2, y: py + C * 0.68, "text-anchor": "middle", "font-size": 10, fill: OWN[c.owner].ink, "pointer-events": "none" }, c.block));
      if (g.has(i)) out.push(s("rect", { x: px + 2, y: py + 2, width: C - 4, height: C - 4, fill: OWN[mover].fill, opacity: 0.6, stroke: "#e63946",
        "stroke-width": 2.5, "pointer-events": "none", class: "ghost" }));
      if (cursor === i) out.push(s("rect", { x: px, y: py, width: C, height: C, fill: "none", stroke: "#f1c453", "stroke-width": 3, "pointer-events": "none" }));
    }
  }
  const svg = s("svg", { viewBox: `0 0 ${8 * C + gap + 28} ${8 * C + gap + 44}`, class: "qd-layers", id, role: "group", "aria-label": t("qd.layersLabel") }, out);
  if (onCell) {
    svg.addEventListener("click", (e) => { const i = e.target.getAttribute && e.target.getAttribute("data-i"); if (i !== null && i !== undefined) onCell(Number(i)); });
    svg.addEventListener("keydown", (e) => {
      const i = e.target.getAttribute && e.target.getAttribute("data-i");
      if (i === null || i === undefined) return;
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onCell(Number(i)); document.querySelector(`#${id} [data-i='${i}']`)?.focus(); }
    });
  }
  return svg;
}

// The cube in 3D: every filled cell (and the ghost) as a cube; faces turned away are dropped and the rest
// painted back to front. Turn it by dragging or with the buttons / arrow keys.
function cubeView(cells, ghost, mover, st, redraw, id) {
  const yaw = (st.yaw * Math.PI) / 180, pitch = (st.pitch * Math.PI) / 180;
  const S = 26;
  const proj = ([X, Y, Z]) => {
    const x = X - 2, y = Y - 2, z = Z - 2;
    const x1 = x * Math.cos(yaw) - z * Math.sin(yaw), z1 = x * Math.sin(yaw) + z * Math.cos(yaw);
    const y2 = y * Math.cos(pitch) - z1 * Math.sin(pitch), z2 = y * Math.sin(pitch) + z1 * Math.cos(pitch);
    return [x1 * S, -y2 * S, z2];
  };
  const faces = [];
  const FACES = [[[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], [[0, 0, 1], [0, 1, 1], [1, 1, 1], [1, 0, 1]],
    [[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 0, 1]], [[1, 0, 0], [1, 0, 1], [1, 1, 1], [1, 1, 0]],
    [[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 0, 0]], [[0, 1, 0], [1, 1, 0], [1, 1, 1], [0, 1, 1]]];
  const g = new Set(ghost);
  const draw = (i, style, extra) => {
    const x = i % 4, y = Math.floor(i / 4) % 4, z = Math.floor(i / 16);
    for (const [fi, f] of FACES.entries()) {
      // world: X = column, Y = layer (up), Z = row (row 1 at the front)
      const pts = f.map(([a, b, c]) => proj([x + a, z + b, 4 - (y + c)]));
      const [ax, ay] = pts[0], [bx, by] = pts[1], [cx, cy] = pts[2];
      if ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax) >= 0) continue; // faces away from the viewer
      const depth = pts.reduce((d, p) => d + p[2], 0) / 4;
      faces.push({ depth, el: s("polygon", { points: pts.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" "),
        fill: style.fill, stroke: style.edge, "stroke-width": 1, opacity: extra ? 0.7 : 1, "fill-opacity": fi >= 4 ? 1 : 0.88 }) });
    }
  };
  cells.forEach((c, i) => { if (c) draw(i, OWN[c.owner], false); });
  for (const i of g) draw(i, { fill: "#e63946", edge: "#7a0c14" }, true);
  faces.sort((a, b) => a.depth - b.depth);
  const floor = [[0, 0, 0], [4, 0, 0], [4, 0, 4], [0, 0, 4]].map(proj).map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");
  const svg = s("svg", { viewBox: "-100 -100 200 200", class: "qd-3d", id, tabindex: 0, role: "img",
    "aria-label": t("qd.cubeLabel", { n: cells.filter(Boolean).length }) },
  s("polygon", { points: floor, fill: "#e8e8e0", stroke: "#999" }), faces.map((f) => f.el));
  let drag = null;
  svg.addEventListener("pointerdown", (e) => { drag = [e.clientX, e.clientY, st.yaw, st.pitch]; svg.setPointerCapture?.(e.pointerId); });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) return;
    st.yaw = drag[2] + (e.clientX - drag[0]) * 0.6;
    st.pitch = Math.max(-10, Math.min(85, drag[3] + (e.clientY - drag[1]) * 0.4));
    const fresh = cubeView(cells, ghost, mover, st, redraw, id);
    svg.replaceChildren(...fresh.childNodes);
  });
  const stop = () => { drag = null; };
  svg.addEventListener("pointerup", stop);
  svg.addEventListener("pointercancel", stop);
  svg.addEventListener("keydown", (e) => {
    const d = { ArrowLeft: [-15, 0], ArrowRight: [15, 0], ArrowUp: [0, 10], ArrowDown: [0, -10] }[e.key];
    if (!d) return;
    e.preventDefault();
    st.yaw += d[0]; st.pitch = Math.max(-10, Math.min(85, st.pitch + d[1]));
    const fresh = cubeView(cells, ghost, mover, st, redraw, id);
    svg.replaceChildren(...fresh.childNodes);
  });
  const turn = (dy) => () => { st.yaw += dy; redraw(); };
  return h("div", { class: "qd-3dbox" }, svg, h("div", { class: "row" },
    h("button", { type: "button", class: "secondary", "aria-label": t("qd.turnLeft"), onclick: turn(-30) }, "⟲"),
    h("button", { type: "button", class: "secondary", "aria-label": t("qd.turnRight"), onclick: turn(30) }, "⟳")));
}

// The bonus puzzle: build a pattern with both colours' eight blocks (checked here against the pattern: this
// is a solitaire puzzle with nothing to hide), or ask the server's solver for its answer.
function puzzlePanel(el) {
  const ps = el._qdp || (el._qdp = { name: tables.patterns[0].name, cells: Array(64).fill(null), colour: 0, block: "I", r: 0, answer: null, open: false, yaw: 35, pitch: 30 });
  const pat = tables.patterns.find((p) => p.name === ps.name) || tables.patterns[0];
  const dark = new Set(pat.dark);
  const box = h("details", { class: "card", id: "qd-puzzle", open: ps.open });
  box.addEventListener("toggle", () => { ps.open = box.open; });
  const redraw = () => { ps.open = box.open; const fresh = puzzlePanel(el); box.replaceWith(fresh); };
  const used = new Set(ps.cells.filter(Boolean).filter((c) => c.owner === ps.colour).map((c) => c.block));
  const shown = ps.answer ? ps.answer.cells : ps.cells;
  const onCell = (i) => {
    if (ps.answer) return;
    if (ps.cells[i]) { // tap a placed block to take it back
      const { owner, block } = ps.cells[i];
      ps.cells = ps.cells.map((c) => (c && c.owner === owner && c.block === block ? null : c));
      redraw();
      return;
    }
    const b = tables.blocks.find((q) => q.name === ps.block);
    const o = b.orients[ps.r % b.orients.length];
    // The placement of this rotation that covers the tapped cell with its first fitting cube.
    for (const [cx, cy, cz] of o) {
      const x0 = i % 4 - cx, y0 = Math.floor(i / 4) % 4 - cy, z0 = Math.floor(i / 16) - cz;
      const cells = o.map(([x, y, z]) => [x + x0, y + y0, z + z0]);
      if (cells.some(([x, y, z]) => x < 0 || y < 0 || z < 0 || x > 3 || y > 3 || z > 3)) continue;
      const ids = cells.map(([x, y, z]) => idx(x, y, z));
      if (ids.some((j) => ps.cells[j] || dark.has(j) !== (ps.colour === 0))) continue;
      if (used.has(ps.block)) { ps.msg = t("qd.pzUsed", { block: ps.block }); redraw(); return; }
      ids.forEach((j) => { ps.cells[j] = { owner: ps.colour, block: ps.block }; });
      ps.msg = ps.cells.every(Boolean) ? t("qd.pzSolved") : "";
      redraw();
      return;
    }
    ps.msg = t("qd.pzNoFit");
    redraw();
  };
  const layers = layerView(shown, { tint: dark, onCell, id: "qd-pz-layers" });
  const cube = cubeView(shown, [], 0, ps, redraw, "qd-pz-3d");
  const select = h("select", { id: "qd-pattern", "aria-label": t("qd.pattern") }, tables.patterns.map((p) =>
    h("option", { value: p.name, selected: p.name === ps.name }, `${p.name} — ${p.note}`)));
  select.addEventListener("change", () => { ps.name = select.value; ps.cells = Array(64).fill(null); ps.answer = null; ps.msg = ""; redraw(); });
  const answerBtn = h("button", { type: "button", id: "qd-solve", class: "secondary", onclick: async () => {
    if (ps.answer) { ps.answer = null; redraw(); return; }
    try {
      const r = await fetch(`/api/puzzle/quadefy?pattern=${encodeURIComponent(ps.name)}`);
      const a = await r.json();
      if (!r.ok) throw new Error(a.error);
      ps.answer = a;
      ps.msg = a.solved ? t("qd.pzAnswer", { nodes: a.nodes.join(" + ") }) : t("qd.pzImpossible");
    } catch (e) { ps.msg = String(e.message || e); }
    redraw();
  } }, ps.answer ? t("qd.pzHide") : t("qd.pzShow"));
  const b = tables.blocks.find((q) => q.name === ps.block);
  const controls = h("div", { class: "row" },
    h("button", { type: "button", class: "secondary", id: "qd-pz-colour", onclick: () => { ps.colour = 1 - ps.colour; redraw(); } },
      t("qd.pzColour", { c: t(ps.colour ? "qd.light" : "qd.dark") })),
    tables.blocks.map((q) => h("button", { type: "button", class: `secondary blockbtn${q.name === ps.block ? " chosen" : ""}`,
      "aria-pressed": q.name === ps.block ? "true" : "false", disabled: used.has(q.name),
      onclick: () => { ps.block = q.name; ps.r = 0; redraw(); } }, q.name)),
    h("button", { type: "button", class: "secondary", onclick: () => { ps.r = (ps.r + 1) % b.orients.length; redraw(); } },
      `${t("qd.rotation")} ${ps.r % b.orients.length + 1}/${b.orients.length}`),
    h("button", { type: "button", class: "secondary", onclick: () => { ps.cells = Array(64).fill(null); ps.msg = ""; redraw(); } }, t("qd.pzClear")));
  box.append(h("summary", { class: "button secondary" }, t("qd.puzzle")), h("p", { class: "help" }, t("qd.pzHelp")), select,
    h("div", { class: "qd-views" }, cube, layers), h("p", { class: "help", id: "qd-pz-msg", "aria-live": "polite" }, ps.msg || ""),
    controls, answerBtn);
  return box;
}
