// Forma's board drawing (SVG, no state): player colours and patterns, the cells with what fills them, the
// coordinates, and the bridges. Colours are never the only signal: letters, patterns and marker shapes too.
import { s } from "../../dom.js";
import { t } from "../../i18n.js";
import { col, cellName, cellLook, parseCell } from "../../lib/forma.js";

export const COLORS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7"]; // Okabe-Ito: colour-blind safe
export const MARKS = ["●", "■", "▲", "◆"];
export const LETTERS = ["A", "B", "C", "D"];
export const CELL = 24;
export const PAD = 22;

/** The x of column x and the y of row ``row`` on an n x n board (row 1 at the bottom). */
export const X = (x) => PAD + x * CELL;
export const Y = (row, n) => PAD + (n - 1 - row) * CELL;

/** The fill patterns: one per player (stripes for every second one) and the hatching of a bad ghost. */
export function patternDefs() {
  return s(
    "defs",
    {},
    COLORS.map((c, p) =>
      s(
        "pattern",
        {
          id: `fm-pat${p}`,
          width: 6,
          height: 6,
          patternUnits: "userSpaceOnUse",
          patternTransform: p % 2 ? "rotate(45)" : "",
        },
        s("rect", { width: 6, height: 6, fill: c }),
        p % 2 ? s("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#fff", "stroke-width": 1.5, opacity: 0.55 }) : null,
      ),
    ),
    s(
      "pattern",
      { id: "fm-bad", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 6, height: 6, fill: "#d55e00", opacity: 0.35 }),
      s("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#d55e00", "stroke-width": 3 }),
    ),
  );
}

/** The coordinates and the n x n cells with their pieces, obstacles, tower, markers, fresh and last marks
 * (``sets``: see lib/forma.js's cellLook). With ``onCell`` a tap on a square calls it with the square's name
 * (bound when drawn; data-cell only names the square for the tests). */
export function cellLayer(n, sets, onCell = null) {
  const out = coordLabels(n);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const c = cellName(x, y);
      const look = cellLook(c, sets);
      out.push(cellSquare(c, X(x), Y(y, n), look.fill, onCell), ...cellMarks(look, X(x), Y(y, n)));
    }
  }
  return out;
}

// The column letters above and below the board and the row numbers on its left.
function coordLabels(n) {
  const out = [];
  const label = (x, y, anchor, text) => s("text", { x, y, class: "coord", "text-anchor": anchor }, text);
  for (let x = 0; x < n; x++) {
    out.push(label(X(x) + CELL / 2, PAD - 6, "middle", col(x)));
    out.push(label(X(x) + CELL / 2, PAD + n * CELL + 15, "middle", col(x)));
  }
  for (let y = 0; y < n; y++) out.push(label(PAD - 4, Y(y, n) + CELL * 0.7, "end", String(y + 1)));
  return out;
}

// One square at (x, y), a tap on it naming it to ``onCell``.
function cellSquare(c, x, y, fill, onCell) {
  const box = { x, y, width: CELL, height: CELL, fill, stroke: "#c8c8c8" };
  return s("rect", { ...box, "data-cell": c, class: "cell", onclick: onCell ? () => onCell(c) : null });
}

// What is drawn on a square at (x, y) (none of it takes taps): the tower or an obstacle's cross, the fresh
// ring, the set-up dot, a marker's shape, the last move's outline.
function cellMarks(look, x, y) {
  const off = { "pointer-events": "none" };
  const mid = { x: x + CELL / 2, cx: x + CELL / 2, cy: y + CELL / 2 };
  const out = [];
  if (look.tower) {
    const d = `M${x + 5} ${y + CELL - 4} h${CELL - 10} l-3 -${CELL - 10} h-${CELL - 16} z`;
    out.push(s("path", { d, fill: "#fff", stroke: look.closed ? "#009e73" : "#333", "stroke-width": 2, ...off }));
  } else if (look.obstacle) {
    const at = { x: mid.x, y: y + CELL * 0.7, "text-anchor": "middle", fill: "#fff", "font-size": 12 };
    out.push(s("text", { ...at, ...off }, "✕"));
  }
  if (look.fresh) {
    const ring = { cx: mid.cx, cy: mid.cy, r: CELL * 0.48, fill: "none", stroke: "#000", "stroke-width": 2.5 };
    out.push(s("circle", { ...ring, "stroke-dasharray": "3 2", class: "fresh", ...off }));
  }
  if (look.allowed) {
    out.push(s("circle", { cx: mid.cx, cy: mid.cy, r: 3, fill: "#009e73", class: "allowed", ...off }));
  }
  if (look.marker !== undefined) {
    const q = look.marker;
    const at = { x: mid.x, y: y + CELL * 0.72, "text-anchor": "middle", "font-size": 15, fill: COLORS[q] };
    out.push(s("text", { ...at, stroke: "#000", "stroke-width": 0.6, ...off, class: "marker" }, MARKS[q]));
  }
  if (look.last) {
    const box = { x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, fill: "none", stroke: "#222" };
    out.push(s("rect", { ...box, "stroke-width": 2.5, "stroke-dasharray": "4 2", ...off }));
  }
  return out;
}

// Bridges: a line through the cells of each one, in the owner's colour over a white halo, with the
// owner's letter in a circle at both ends (so colour is not the only cue); those the last move scored
// are thicker and haloed yellow, and those the previewed placement would add are dashed.
export function bridgeShape(cells, p, kind, n, seatName) {
  const centre = (c) => {
    const xy = parseCell(c);
    return xy ? [X(xy[0]) + CELL / 2, Y(xy[1], n) + CELL / 2] : null;
  };
  const pts = cells.map(centre).filter(Boolean);
  if (pts.length < 2) return null;
  const fresh = kind === "fresh",
    would = kind === "would";
  const g = [...bridgeLines(pts.map((q) => q.join(",")).join(" "), COLORS[p], fresh, would), ...bridgeEnds(pts, p)];
  const label = t("forma.bridgeOf", { name: seatName(p), from: cells[0], to: cells[cells.length - 1] });
  return s(
    "g",
    {
      class: `bridge${fresh ? " fresh" : ""}${would ? " would" : ""}`,
      "data-player": p,
      "data-cells": cells.join(" "),
      "pointer-events": "none",
      role: "img",
      "aria-label": label,
    },
    s("title", {}, label),
    g,
  );
}

// A bridge's line: a halo when it is fresh, a white casing, the player's colour (dashed when it would come).
function bridgeLines(points, color, fresh, would) {
  const line = { points, fill: "none", "stroke-linejoin": "round", "stroke-linecap": "round" };
  const halo = s("polyline", { ...line, stroke: "#f1c453", "stroke-width": 14, opacity: 0.9, class: "halo" });
  return [
    fresh ? halo : null,
    s("polyline", { ...line, stroke: "#fff", "stroke-width": fresh ? 9 : 7, opacity: 0.9 }),
    s("polyline", {
      ...line,
      stroke: color,
      "stroke-width": fresh ? 5 : 3.5,
      "stroke-dasharray": would ? "6 4" : null,
    }),
  ].filter(Boolean);
}

// A bridge's two ends: a ring in the player's colour around the player's letter.
function bridgeEnds(pts, p) {
  const text = { "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#000" };
  return [pts[0], pts[pts.length - 1]].flatMap(([x, y]) => [
    s("circle", { cx: x, cy: y, r: 8, fill: "#fff", stroke: COLORS[p], "stroke-width": 2.5 }),
    s("text", { x, y: y + 4, ...text }, LETTERS[p]),
  ]);
}

/** A piece drawn small (the tray): its cells in one colour. */
export function mini(cells, color) {
  const xs = cells.map((c) => c[0]),
    ys = cells.map((c) => -c[1]);
  const x0 = Math.min(...xs),
    y0 = Math.min(...ys);
  const size = 8;
  return s(
    "svg",
    { viewBox: `-1 -1 ${5 * size + 2} ${5 * size + 2}`, width: 34, height: 34, "aria-hidden": "true" },
    cells.map(([x, y]) =>
      s("rect", { x: (x - x0) * size, y: (-y - y0) * size, width: size, height: size, fill: color, stroke: "#fff" }),
    ),
  );
}
