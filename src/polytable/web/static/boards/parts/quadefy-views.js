// The two drawings of the Quadefy cube, shared by the board and its bonus puzzle: the layer view (four 4x4
// plans) and the 3D view (SVG, turned by dragging, the arrow buttons or the arrow keys).
import { h, s } from "../../dom.js";
import { t } from "../../i18n.js";
import { OWN, idx, cellText } from "../../lib/quadefy.js";

// Four 4x4 plans, layer 1 (the floor) first; row 4 at the top of each, columns a-d left to right.
export function layerView(
  cells,
  { ghost = [], reach = new Set(), cursor = null, onCell = null, id, mover = 0, tint = null },
) {
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
export function cubeView(cells, ghost, mover, st, redraw, id, pick = null) {
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
