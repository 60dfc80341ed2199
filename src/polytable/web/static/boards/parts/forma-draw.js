// Forma's board drawing (SVG, no state): player colours and patterns, the cells with what fills them, the
// coordinates, and the bridges. Colours are never the only signal: letters, patterns and marker shapes too.
import { s } from "../../dom.js";
import { t } from "../../i18n.js";
import { col, cellName, parseCell } from "../../lib/forma.js";

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

/** The coordinates and the n x n cells with their pieces, obstacles, tower, markers, fresh and last marks. */
export function cellLayer(n, { owner, marker, obstacles, closed, tower, fresh, allowed, last }) {
  const out = [];
  const Yn = (row) => Y(row, n);
  for (let x = 0; x < n; x++) {
    out.push(s("text", { x: X(x) + CELL / 2, y: PAD - 6, class: "coord", "text-anchor": "middle" }, col(x)));
    out.push(
      s("text", { x: X(x) + CELL / 2, y: PAD + n * CELL + 15, class: "coord", "text-anchor": "middle" }, col(x)),
    );
  }
  for (let y = 0; y < n; y++) {
    out.push(s("text", { x: PAD - 4, y: Yn(y) + CELL * 0.7, class: "coord", "text-anchor": "end" }, String(y + 1)));
  }
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const c = cellName(x, y);
      const p = owner.get(c);
      let fill = "#fff";
      if (p !== undefined) fill = `url(#fm-pat${p})`;
      else if (obstacles.has(c)) fill = closed.has(c) ? "#555" : "#8a8a8a";
      else if (c === tower) fill = "#fff";
      out.push(
        s("rect", {
          x: X(x),
          y: Yn(y),
          width: CELL,
          height: CELL,
          fill,
          stroke: "#c8c8c8",
          "data-cell": c,
          class: "cell",
        }),
      );
      if (c === tower) {
        out.push(
          s("path", {
            d: `M${X(x) + 5} ${Yn(y) + CELL - 4} h${CELL - 10} l-3 -${CELL - 10} h-${CELL - 16} z`,
            fill: "#fff",
            stroke: closed.has(c) ? "#009e73" : "#333",
            "stroke-width": 2,
            "pointer-events": "none",
          }),
        );
      } else if (obstacles.has(c)) {
        out.push(
          s(
            "text",
            {
              x: X(x) + CELL / 2,
              y: Yn(y) + CELL * 0.7,
              "text-anchor": "middle",
              fill: "#fff",
              "font-size": 12,
              "pointer-events": "none",
            },
            "✕",
          ),
        );
      }
      if (fresh && fresh.has(c)) {
        out.push(
          s("circle", {
            cx: X(x) + CELL / 2,
            cy: Yn(y) + CELL / 2,
            r: CELL * 0.48,
            fill: "none",
            stroke: "#000",
            "stroke-width": 2.5,
            "stroke-dasharray": "3 2",
            class: "fresh",
            "pointer-events": "none",
          }),
        );
      }
      if (allowed.has(c)) {
        out.push(
          s("circle", {
            cx: X(x) + CELL / 2,
            cy: Yn(y) + CELL / 2,
            r: 3,
            fill: "#009e73",
            class: "allowed",
            "pointer-events": "none",
          }),
        );
      }
      if (marker.has(c)) {
        const q = marker.get(c);
        out.push(
          s(
            "text",
            {
              x: X(x) + CELL / 2,
              y: Yn(y) + CELL * 0.72,
              "text-anchor": "middle",
              "font-size": 15,
              fill: COLORS[q],
              stroke: "#000",
              "stroke-width": 0.6,
              "pointer-events": "none",
              class: "marker",
            },
            MARKS[q],
          ),
        );
      }
      if (last.has(c)) {
        out.push(
          s("rect", {
            x: X(x) + 1.5,
            y: Yn(y) + 1.5,
            width: CELL - 3,
            height: CELL - 3,
            fill: "none",
            stroke: "#222",
            "stroke-width": 2.5,
            "stroke-dasharray": "4 2",
            "pointer-events": "none",
          }),
        );
      }
    }
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
  const points = pts.map((q) => q.join(",")).join(" ");
  const fresh = kind === "fresh",
    would = kind === "would";
  const g = [];
  if (fresh)
    g.push(
      s("polyline", {
        points,
        fill: "none",
        stroke: "#f1c453",
        "stroke-width": 14,
        "stroke-linejoin": "round",
        "stroke-linecap": "round",
        opacity: 0.9,
        class: "halo",
      }),
    );
  g.push(
    s("polyline", {
      points,
      fill: "none",
      stroke: "#fff",
      "stroke-width": fresh ? 9 : 7,
      "stroke-linejoin": "round",
      "stroke-linecap": "round",
      opacity: 0.9,
    }),
  );
  g.push(
    s("polyline", {
      points,
      fill: "none",
      stroke: COLORS[p],
      "stroke-width": fresh ? 5 : 3.5,
      "stroke-linejoin": "round",
      "stroke-linecap": "round",
      "stroke-dasharray": would ? "6 4" : null,
    }),
  );
  for (const [x, y] of [pts[0], pts[pts.length - 1]]) {
    g.push(s("circle", { cx: x, cy: y, r: 8, fill: "#fff", stroke: COLORS[p], "stroke-width": 2.5 }));
    g.push(
      s(
        "text",
        { x, y: y + 4, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#000" },
        LETTERS[p],
      ),
    );
  }
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
