// Quadefy board: a 3D view of the 4x4x4 cube (SVG, turned by dragging, by the arrow buttons or the arrow keys)
// and a layer view (four 4x4 plans, floor first). Choose a block and one of its rotations; squares a legal
// placement of it can cover are tinted; tap one to see such a placement as a ghost (tap again for the next);
// Place confirms. A tap on the 3D view chooses a cell too (see cubeView). The remaining blocks of both players
// are listed. The bonus puzzle sits below: choose a pattern, build it by hand (the engine checks it), or ask
// for the solver's answer. Dark and light blocks differ by fill and lettering, never by colour alone.
import { h, s } from "../dom.js";
import { t, tError } from "../i18n.js";
import * as generic from "./generic.js";

const OWN = [
  { fill: "#3b3b58", ink: "#fff", edge: "#111" },
  { fill: "#f3dfb5", ink: "#222", edge: "#8a6d2f" },
];
let tables = null;
let loading = null;
function loadTables() {
  if (!loading)
    loading = fetch("/api/boards/quadefy")
      .then((r) => r.json())
      .then((d) => {
        tables = d;
        return d;
      });
  return loading;
}
const idx = (x, y, z) => x + 4 * y + 16 * z;
const cellText = (i) => `${"abcd"[i % 4]}${(Math.floor(i / 4) % 4) + 1}.${Math.floor(i / 16) + 1}`;

function parseMove(text) {
  const m = /^(\w{1,2}) r(\d+) @ ([a-d])(\d)\.(\d)$/.exec(text);
  if (!m || !tables) return null;
  const b = tables.blocks.find((q) => q.name === m[1]);
  const o = b && b.orients[Number(m[2])];
  if (!o) return null;
  const ax = m[3].charCodeAt(0) - 97,
    ay = Number(m[4]) - 1,
    az = Number(m[5]) - 1;
  return { text, block: m[1], r: Number(m[2]), cells: o.map(([x, y, z]) => idx(x + ax, y + ay, z + az)) };
}

export function render(el, ctx) {
  const part = ctx.part;
  const v = part && part.view;
  if (!v || !v.cells || !v.in_hand) {
    generic.render(el, ctx);
    return;
  }
  if (!tables) {
    generic.render(el, ctx);
    loadTables()
      .then(() => render(el, ctx))
      .catch(() => {});
    return;
  }
  const me = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat;
  let st = el._qd;
  if (!st || st.seat !== ctx.seat)
    st = el._qd = { seat: ctx.seat, version: -1, block: null, r: null, cell: null, i: 0, yaw: 35, pitch: 30 };
  if (st.version !== ctx.msg.version) {
    if (st.version >= 0 && ctx.announce) {
      const e = ctx.msg.history[ctx.msg.history.length - 1];
      if (e && e.player >= 0) ctx.announce(t("qd.announce", { name: ctx.seatName(e.player), move: e.action }));
    }
    st.version = ctx.msg.version;
    st.cell = null;
    st.i = 0;
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
    if (st.cell === i) st.i += 1;
    else {
      st.cell = i;
      st.i = 0;
    }
    render(el, ctx);
  };
  const layers = layerView(v.cells, {
    ghost: ghost ? ghost.cells : [],
    reach,
    cursor: st.cell,
    onCell,
    id: "qd-layers",
    mover: me ?? 0,
  });
  const cube = cubeView(
    v.cells,
    ghost ? ghost.cells : [],
    me ?? 0,
    st,
    () => render(el, ctx),
    "qd-3d",
    part.to_act ? { reach, cursor: st.cell, onCell } : null,
  );

  const blockBtns = h(
    "div",
    { class: "row", role: "group", "aria-label": t("qd.yourBlocks") },
    hand.map((b) =>
      h(
        "button",
        {
          type: "button",
          class: `secondary blockbtn${st.block === b ? " chosen" : ""}`,
          "aria-pressed": st.block === b ? "true" : "false",
          "data-block": b,
          disabled: !part.to_act,
          onclick: () => {
            st.block = b;
            st.r = null;
            st.cell = null;
            render(el, ctx);
          },
        },
        b,
      ),
    ),
  );
  const rotIdx = rots.indexOf(st.r);
  const rotRow = part.to_act
    ? h(
        "div",
        { class: "row" },
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            id: "qd-rot-prev",
            disabled: rots.length < 2,
            onclick: () => {
              st.r = rots[(rotIdx - 1 + rots.length) % rots.length];
              st.cell = null;
              render(el, ctx);
            },
          },
          `◀ ${t("qd.rotation")}`,
        ),
        h(
          "span",
          { id: "qd-rot" },
          rots.length ? t("qd.rotOf", { i: rotIdx + 1, n: rots.length, places: options.length }) : t("qd.noPlace"),
        ),
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            id: "qd-rot-next",
            disabled: rots.length < 2,
            onclick: () => {
              st.r = rots[(rotIdx + 1) % rots.length];
              st.cell = null;
              render(el, ctx);
            },
          },
          `${t("qd.rotation")} ▶`,
        ),
        h(
          "button",
          { type: "button", id: "qd-place", disabled: !ghost, onclick: () => ghost && ctx.play(ghost.text) },
          ghost ? t("qd.placeAt", { move: ghost.text }) : t("qd.place"),
        ),
      )
    : null;
  const remaining = h(
    "div",
    { class: "help", id: "qd-remaining" },
    v.in_hand.map((bs, p) =>
      h(
        "div",
        {},
        h("span", { class: "swatch", style: `background:${OWN[p].fill};color:${OWN[p].ink}` }, p ? "L" : "D"),
        ` ${ctx.seatName(p)} (${t(p ? "qd.light" : "qd.dark")}): ${bs.join(" ") || "—"}`,
      ),
    ),
  );
  const info = h(
    "p",
    { class: "help", id: "qd-info", "aria-live": "polite" },
    !part.to_act
      ? ""
      : ghost
        ? `${ghost.text} (${(st.i % under.length) + 1}/${under.length})`
        : st.cell !== null
          ? t("qd.noneHere")
          : t("qd.help"),
  );
  const puzzle = puzzlePanel(el);
  generic.render(
    el,
    { ...ctx, hideText: true },
    h(
      "div",
      {},
      remaining,
      h("div", { class: "qd-views" }, cube, layers),
      info,
      part.to_act ? blockBtns : null,
      rotRow,
      puzzle,
    ),
  );
  if (el._generic && ghost) el._generic.input.value = ghost.text;
}

// Four 4x4 plans, layer 1 (the floor) first; row 4 at the top of each, columns a-d left to right.
function layerView(cells, { ghost = [], reach = new Set(), cursor = null, onCell = null, id, mover = 0, tint = null }) {
  const C = 22,
    gap = 12;
  const g = new Set(ghost);
  const out = [];
  for (let z = 0; z < 4; z++) {
    const ox = (z % 2) * (4 * C + gap) + 14,
      oy = Math.floor(z / 2) * (4 * C + gap + 14) + 14;
    out.push(s("text", { x: ox, y: oy - 3, "font-size": 10, fill: "#444" }, t("qd.layer", { n: z + 1 })));
    for (let y = 0; y < 4; y++)
      for (let x = 0; x < 4; x++) {
        const i = idx(x, y, z);
        const c = cells[i];
        const px = ox + x * C,
          py = oy + (3 - y) * C;
        let fill = "#fff";
        if (c) fill = OWN[c.owner].fill;
        else if (tint && tint.has(i)) fill = "#9a9ab0";
        else if (reach.has(i)) fill = "#dff3e4";
        out.push(
          s("rect", {
            x: px,
            y: py,
            width: C,
            height: C,
            fill,
            stroke: "#999",
            "data-i": i,
            class: "cell",
            role: onCell ? "button" : undefined,
            tabindex: onCell ? 0 : undefined,
            "aria-label": `${cellText(i)}: ${c ? `${t(c.owner ? "qd.light" : "qd.dark")} ${c.block}` : t("qd.empty")}`,
          }),
        );
        if (c)
          out.push(
            s(
              "text",
              {
                x: px + C / 2,
                y: py + C * 0.68,
                "text-anchor": "middle",
                "font-size": 10,
                fill: OWN[c.owner].ink,
                "pointer-events": "none",
              },
              c.block,
            ),
          );
        if (g.has(i))
          out.push(
            s("rect", {
              x: px + 2,
              y: py + 2,
              width: C - 4,
              height: C - 4,
              fill: OWN[mover].fill,
              opacity: 0.6,
              stroke: "#e63946",
              "stroke-width": 2.5,
              "pointer-events": "none",
              class: "ghost",
            }),
          );
        if (cursor === i)
          out.push(
            s("rect", {
              x: px,
              y: py,
              width: C,
              height: C,
              fill: "none",
              stroke: "#f1c453",
              "stroke-width": 3,
              "pointer-events": "none",
            }),
          );
      }
  }
  const svg = s(
    "svg",
    {
      viewBox: `0 0 ${8 * C + gap + 28} ${8 * C + gap + 44}`,
      class: "qd-layers",
      id,
      role: "group",
      "aria-label": t("qd.layersLabel"),
    },
    out,
  );
  if (onCell) {
    svg.addEventListener("click", (e) => {
      const i = e.target.getAttribute && e.target.getAttribute("data-i");
      if (i !== null && i !== undefined) onCell(Number(i));
    });
    svg.addEventListener("keydown", (e) => {
      const i = e.target.getAttribute && e.target.getAttribute("data-i");
      if (i === null || i === undefined) return;
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        onCell(Number(i));
        document.querySelector(`#${id} [data-i='${i}']`)?.focus();
      }
    });
  }
  return svg;
}

// The cube in 3D: every filled cell (and the ghost) as a cube; faces turned away are dropped and the rest
// painted back to front. Turn it by dragging or with the buttons / arrow keys. With ``pick`` (the player's
// turn) a tap chooses a cell as in the layer view: a floor square, the cell beyond a face of a placed cube
// (tap the top of a block to go on it), or one of the dots that mark the cells a legal placement of the
// chosen block can cover; a ghost face repeats its cell (the next placement). A tap is a press and release
// that moved less than a few pixels, so dragging still turns the cube; Place confirms.
const NEXT = [
  [0, -1, 0],
  [0, 1, 0],
  [-1, 0, 0],
  [1, 0, 0],
  [0, 0, -1],
  [0, 0, 1],
]; // the cell beyond each face
function cubeView(cells, ghost, mover, st, redraw, id, pick = null) {
  const yaw = (st.yaw * Math.PI) / 180,
    pitch = (st.pitch * Math.PI) / 180;
  const S = 26;
  const proj = ([X, Y, Z]) => {
    const x = X - 2,
      y = Y - 2,
      z = Z - 2;
    const x1 = x * Math.cos(yaw) - z * Math.sin(yaw),
      z1 = x * Math.sin(yaw) + z * Math.cos(yaw);
    const y2 = y * Math.cos(pitch) - z1 * Math.sin(pitch),
      z2 = y * Math.sin(pitch) + z1 * Math.cos(pitch);
    return [x1 * S, -y2 * S, z2];
  };
  const faces = [];
  const FACES = [
    [
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [0, 1, 0],
    ],
    [
      [0, 0, 1],
      [0, 1, 1],
      [1, 1, 1],
      [1, 0, 1],
    ],
    [
      [0, 0, 0],
      [0, 1, 0],
      [0, 1, 1],
      [0, 0, 1],
    ],
    [
      [1, 0, 0],
      [1, 0, 1],
      [1, 1, 1],
      [1, 1, 0],
    ],
    [
      [0, 0, 0],
      [0, 0, 1],
      [1, 0, 1],
      [1, 0, 0],
    ],
    [
      [0, 1, 0],
      [1, 1, 0],
      [1, 1, 1],
      [0, 1, 1],
    ],
  ];
  const g = new Set(ghost);
  const inside = (x, y, z) => x >= 0 && y >= 0 && z >= 0 && x < 4 && y < 4 && z < 4;
  const pts2 = (pts) => pts.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");
  const draw = (i, style, extra) => {
    const x = i % 4,
      y = Math.floor(i / 4) % 4,
      z = Math.floor(i / 16);
    for (const [fi, f] of FACES.entries()) {
      // world: X = column, Y = layer (up), Z = row (row 1 at the front)
      const pts = f.map(([a, b, c]) => proj([x + a, z + b, 4 - (y + c)]));
      const [ax, ay] = pts[0],
        [bx, by] = pts[1],
        [cx, cy] = pts[2];
      if ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax) >= 0) continue; // faces away from the viewer
      const depth = pts.reduce((d, p) => d + p[2], 0) / 4;
      const [dx, dy, dz] = NEXT[fi];
      const beyond = extra ? i : inside(x + dx, y + dy, z + dz) ? idx(x + dx, y + dy, z + dz) : null;
      faces.push({
        depth,
        el: s("polygon", {
          points: pts2(pts),
          fill: style.fill,
          stroke: style.edge,
          "stroke-width": 1,
          opacity: extra ? 0.7 : 1,
          "fill-opacity": fi >= 4 ? 1 : 0.88,
          class: extra ? "ghost3d" : null,
          "data-i": pick && beyond !== null ? beyond : null,
        }),
      });
    }
  };
  cells.forEach((c, i) => {
    if (c) draw(i, OWN[c.owner], false);
  });
  for (const i of g) draw(i, { fill: "#e63946", edge: "#7a0c14" }, true);
  if (pick) {
    // dots on the empty cells a placement of the chosen block can cover (a ring on the chosen cell)
    for (const i of new Set([...pick.reach, ...(pick.cursor !== null ? [pick.cursor] : [])])) {
      if (cells[i] || g.has(i)) continue;
      const [px, py, pz] = proj([(i % 4) + 0.5, Math.floor(i / 16) + 0.5, 4 - ((Math.floor(i / 4) % 4) + 0.5)]);
      const here = i === pick.cursor;
      faces.push({
        depth: pz,
        el: s("circle", {
          cx: px.toFixed(1),
          cy: py.toFixed(1),
          r: here ? 6 : 4.5,
          class: `target${here ? " cursor" : ""}`,
          fill: pick.reach.has(i) ? "#2a9d8f" : "#fff",
          stroke: here ? "#f1c453" : "#fff",
          "stroke-width": here ? 3 : 1.2,
          "data-i": i,
        }),
      });
    }
  }
  faces.sort((a, b) => a.depth - b.depth);
  const floor = [
    [0, 0, 0],
    [4, 0, 0],
    [4, 0, 4],
    [0, 0, 4],
  ].map(proj);
  const squares = [];
  if (pick) {
    // the floor as 16 squares, each the cell on it
    for (let y = 0; y < 4; y++)
      for (let x = 0; x < 4; x++) {
        squares.push(
          s("polygon", {
            points: pts2(
              [
                [x, 0, 4 - y],
                [x + 1, 0, 4 - y],
                [x + 1, 0, 3 - y],
                [x, 0, 3 - y],
              ].map(proj),
            ),
            fill: "none",
            stroke: "#d0d0c4",
            "stroke-width": 0.6,
            "pointer-events": "all",
            "data-i": idx(x, y, 0),
            class: "floor",
          }),
        );
      }
  }
  const svg = s(
    "svg",
    {
      viewBox: "-100 -100 200 200",
      class: "qd-3d",
      id,
      tabindex: 0,
      role: "img",
      "aria-label": t("qd.cubeLabel", { n: cells.filter(Boolean).length }) + (pick ? ` ${t("qd.cubeTap")}` : ""),
    },
    s("polygon", { points: pts2(floor), fill: "#e8e8e0", stroke: "#999" }),
    squares,
    faces.map((f) => f.el),
  );
  let drag = null;
  svg.addEventListener("pointerdown", (e) => {
    const at = e.target && e.target.getAttribute ? e.target.getAttribute("data-i") : null;
    drag = [e.clientX, e.clientY, st.yaw, st.pitch, at, false];
    svg.setPointerCapture?.(e.pointerId);
  });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) return;
    if (!drag[5] && Math.hypot(e.clientX - drag[0], e.clientY - drag[1]) < 6) return; // still a tap
    drag[5] = true;
    st.yaw = drag[2] + (e.clientX - drag[0]) * 0.6;
    st.pitch = Math.max(-10, Math.min(85, drag[3] + (e.clientY - drag[1]) * 0.4));
    svg.replaceChildren(...cubeView(cells, ghost, mover, st, redraw, id, pick).querySelector("svg").childNodes);
  });
  svg.addEventListener("pointerup", (e) => {
    const d = drag;
    drag = null;
    if (d && !d[5] && pick && d[4] !== null && d[4] !== undefined) {
      e.preventDefault();
      pick.onCell(Number(d[4]));
    }
  });
  const stop = () => {
    drag = null;
  };
  svg.addEventListener("pointercancel", stop);
  svg.addEventListener("keydown", (e) => {
    const d = { ArrowLeft: [-15, 0], ArrowRight: [15, 0], ArrowUp: [0, 10], ArrowDown: [0, -10] }[e.key];
    if (!d) return;
    e.preventDefault();
    st.yaw += d[0];
    st.pitch = Math.max(-10, Math.min(85, st.pitch + d[1]));
    svg.replaceChildren(...cubeView(cells, ghost, mover, st, redraw, id, pick).querySelector("svg").childNodes);
  });
  const turn = (dy) => () => {
    st.yaw += dy;
    redraw();
  };
  return h(
    "div",
    { class: "qd-3dbox" },
    svg,
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", class: "secondary", "aria-label": t("qd.turnLeft"), onclick: turn(-30) }, "⟲"),
      h("button", { type: "button", class: "secondary", "aria-label": t("qd.turnRight"), onclick: turn(30) }, "⟳"),
    ),
  );
}

// One problem the engine found with a puzzle built by hand, in the page's language.
function why(p) {
  const c = { colour: t(p.colour ? "qd.light" : "qd.dark"), block: p.block, cells: p.cells };
  if (p.reason === "uncovered") return t("qd.pzWhyUncovered", { n: p.n });
  if (p.reason === "blocks") return t("qd.pzWhyBlocks", c);
  if (p.reason === "overlap") return t("qd.pzWhyOverlap", c);
  if (p.reason === "colour") return t("qd.pzWhyColour", c);
  if (p.reason === "shape") return t("qd.pzWhyShape", c);
  return p.text || p.reason;
}

// The bonus puzzle: build a pattern with both colours' eight blocks, or ask the server's solver for its
// answer. The page keeps blocks off the other colour's squares as they go down (a solitaire puzzle has
// nothing to hide), but only the engine says "solved": a full cube, or any build on "Check with the rules",
// goes to POST /api/puzzle/quadefy/check.
function puzzlePanel(el) {
  const ps =
    el._qdp ||
    (el._qdp = {
      name: tables.patterns[0].name,
      cells: Array(64).fill(null),
      colour: 0,
      block: "I",
      r: 0,
      answer: null,
      open: false,
      yaw: 35,
      pitch: 30,
    });
  const pat = tables.patterns.find((p) => p.name === ps.name) || tables.patterns[0];
  const dark = new Set(pat.dark);
  const box = h("details", { class: "card", id: "qd-puzzle", open: ps.open });
  box.addEventListener("toggle", () => {
    ps.open = box.open;
  });
  ps.box = box;
  const redraw = () => {
    // the panel now on the page: an answer may come after other redraws
    const cur = ps.box && ps.box.isConnected ? ps.box : box;
    ps.open = cur.open;
    cur.replaceWith(puzzlePanel(el));
  };
  const used = new Set(
    ps.cells
      .filter(Boolean)
      .filter((c) => c.owner === ps.colour)
      .map((c) => c.block),
  );
  const shown = ps.answer ? ps.answer.cells : ps.cells;
  const onCell = (i) => {
    if (ps.answer) return;
    if (ps.cells[i]) {
      // tap a placed block to take it back
      const { owner, block } = ps.cells[i];
      ps.cells = ps.cells.map((c) => (c && c.owner === owner && c.block === block ? null : c));
      ps.verdict = null;
      ps.msg = "";
      redraw();
      return;
    }
    const b = tables.blocks.find((q) => q.name === ps.block);
    const o = b.orients[ps.r % b.orients.length];
    // The placement of this rotation that covers the tapped cell with its first fitting cube.
    for (const [cx, cy, cz] of o) {
      const x0 = (i % 4) - cx,
        y0 = (Math.floor(i / 4) % 4) - cy,
        z0 = Math.floor(i / 16) - cz;
      const cells = o.map(([x, y, z]) => [x + x0, y + y0, z + z0]);
      if (cells.some(([x, y, z]) => x < 0 || y < 0 || z < 0 || x > 3 || y > 3 || z > 3)) continue;
      const ids = cells.map(([x, y, z]) => idx(x, y, z));
      if (ids.some((j) => ps.cells[j] || dark.has(j) !== (ps.colour === 0))) continue;
      if (used.has(ps.block)) {
        ps.msg = t("qd.pzUsed", { block: ps.block });
        redraw();
        return;
      }
      ids.forEach((j) => {
        ps.cells[j] = { owner: ps.colour, block: ps.block };
      });
      ps.msg = "";
      ps.verdict = null;
      if (ps.cells.every(Boolean)) check();
      else redraw(); // a full cube goes to the engine before "solved"
      return;
    }
    ps.msg = t("qd.pzNoFit");
    redraw();
  };
  // The engine's verdict (POST /api/puzzle/quadefy/check): only it may say "solved"; the page's own checks
  // above only keep obviously wrong blocks out.
  const check = async () => {
    const groups = new Map();
    ps.cells.forEach((c, i) => {
      if (c) {
        const k = `${c.owner}:${c.block}`;
        if (!groups.has(k)) groups.set(k, { colour: c.owner, block: c.block, cells: [] });
        groups.get(k).cells.push(i);
      }
    });
    const asked = JSON.stringify(ps.cells);
    ps.verdict = "pending";
    ps.msg = t("qd.pzChecking");
    redraw();
    try {
      const r = await fetch("/api/puzzle/quadefy/check", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ pattern: ps.name, blocks: [...groups.values()] }),
      });
      const a = await r.json();
      if (!r.ok) throw new Error(tError(a) || String(r.status));
      if (JSON.stringify(ps.cells) !== asked) return; // changed meanwhile: that verdict is stale
      ps.verdict = a.valid ? "ok" : "bad";
      ps.msg = a.valid
        ? t("qd.pzSolved")
        : t("qd.pzRejected", { reason: (a.problems || []).map(why).join("; ") || a.reasons.join("; ") });
    } catch (e) {
      ps.verdict = "bad";
      ps.msg = String(e.message || e);
    }
    redraw();
  };
  const layers = layerView(shown, { tint: dark, onCell, id: "qd-pz-layers" });
  const cube = cubeView(shown, [], 0, ps, redraw, "qd-pz-3d");
  const select = h(
    "select",
    { id: "qd-pattern", "aria-label": t("qd.pattern") },
    tables.patterns.map((p) => h("option", { value: p.name, selected: p.name === ps.name }, `${p.name} — ${p.note}`)),
  );
  select.addEventListener("change", () => {
    ps.name = select.value;
    ps.cells = Array(64).fill(null);
    ps.answer = null;
    ps.msg = "";
    ps.verdict = null;
    redraw();
  });
  const answerBtn = h(
    "button",
    {
      type: "button",
      id: "qd-solve",
      class: "secondary",
      onclick: async () => {
        if (ps.answer) {
          ps.answer = null;
          redraw();
          return;
        }
        try {
          const r = await fetch(`/api/puzzle/quadefy?pattern=${encodeURIComponent(ps.name)}`);
          const a = await r.json();
          if (!r.ok) throw new Error(tError(a));
          ps.answer = a;
          ps.msg = a.solved ? t("qd.pzAnswer", { nodes: a.nodes.join(" + ") }) : t("qd.pzImpossible");
        } catch (e) {
          ps.msg = String(e.message || e);
        }
        redraw();
      },
    },
    ps.answer ? t("qd.pzHide") : t("qd.pzShow"),
  );
  const b = tables.blocks.find((q) => q.name === ps.block);
  const controls = h(
    "div",
    { class: "row" },
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        id: "qd-pz-colour",
        onclick: () => {
          ps.colour = 1 - ps.colour;
          redraw();
        },
      },
      t("qd.pzColour", { c: t(ps.colour ? "qd.light" : "qd.dark") }),
    ),
    tables.blocks.map((q) =>
      h(
        "button",
        {
          type: "button",
          class: `secondary blockbtn${q.name === ps.block ? " chosen" : ""}`,
          "aria-pressed": q.name === ps.block ? "true" : "false",
          disabled: used.has(q.name),
          "data-pzblock": q.name,
          onclick: () => {
            ps.block = q.name;
            ps.r = 0;
            redraw();
          },
        },
        q.name,
      ),
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        id: "qd-pz-rot",
        "data-r": ps.r % b.orients.length,
        onclick: () => {
          ps.r = (ps.r + 1) % b.orients.length;
          redraw();
        },
      },
      `${t("qd.rotation")} ${(ps.r % b.orients.length) + 1}/${b.orients.length}`,
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        onclick: () => {
          ps.cells = Array(64).fill(null);
          ps.msg = "";
          ps.verdict = null;
          redraw();
        },
      },
      t("qd.pzClear"),
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        id: "qd-pz-check",
        disabled: !!ps.answer || !ps.cells.some(Boolean),
        onclick: check,
      },
      t("qd.pzCheck"),
    ),
  );
  box.append(
    h("summary", { class: "button secondary" }, t("qd.puzzle")),
    h("p", { class: "help" }, t("qd.pzHelp")),
    select,
    h("div", { class: "qd-views" }, cube, layers),
    h(
      "p",
      {
        class: `help${ps.verdict === "ok" ? " pz-ok" : ps.verdict === "bad" ? " pz-bad" : ""}`,
        id: "qd-pz-msg",
        "aria-live": "polite",
        "data-verdict": ps.verdict || "",
      },
      ps.verdict === "ok" ? "✓ " : ps.verdict === "bad" ? "✕ " : "",
      ps.msg || "",
    ),
    controls,
    answerBtn,
  );
  return box;
}
