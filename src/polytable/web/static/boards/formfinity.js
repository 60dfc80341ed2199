// FORMFINITY board: the template as SVG, the card, a ghost of the element where it will rest.
// It knows no rules: every ghost is one of the legal actions the server sent (SHAPE@CELL, the shape as
// drawn after any rotation and the top-left corner of its box). Tap a cell to see the legal placements
// that cover it; tap it again (or "Other way") to go through them, rotations included; "Play" places it.
// Line claims and area choices stay in the move list below the board.
import { h, s } from "../dom.js";
import { t } from "../i18n.js";
import { cardSvg } from "../companion.js";
import * as generic from "./generic.js";
import { cellName, parseCell, placementCells, parseCard } from "../lib/formfinity.js";

const COLORS = ["#1d3557", "#e76f51", "#2a9d8f", "#8d5a97"];
const CELL = 28;

export function render(el, ctx) {
  const part = ctx.part;
  const v = part && part.view;
  if (!v || !v.template) {
    generic.render(el, ctx);
    return;
  }
  const st =
    el._ff && el._ff.version === ctx.msg.version && el._ff.seat === ctx.seat
      ? el._ff
      : (el._ff = { version: ctx.msg.version, seat: ctx.seat, cell: null, idx: 0 });
  const placements = (part.to_act ? part.legal || [] : [])
    .map((text) => ({ text, cells: placementCells(text) }))
    .filter((p) => p.cells);
  const candidates = st.cell ? placements.filter((p) => p.cells.includes(st.cell)) : [];
  const ghost = candidates.length ? candidates[st.idx % candidates.length] : null;

  const W = v.width,
    H = v.height,
    pad = 22;
  const owner = new Map();
  v.drawn.forEach((cells, p) => cells.forEach((c) => owner.set(c, p)));
  const last = new Set(v.last || []);
  const finished = new Set(v.finished_areas || []);
  const ghostCells = new Set(ghost ? ghost.cells : []);
  const card = parseCard(v.card);
  const rects = [];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const name = cellName(x, y);
      const label = v.template[y][x];
      const p = owner.get(name);
      let fill = "#fff";
      if (label === "#") fill = "#222";
      else if (p !== undefined) fill = COLORS[p % COLORS.length];
      else if (finished.has(label))
        fill = "#e4ebe4"; // a finished area
      else if (v.area && label === v.area) fill = "#fff4d1"; // the area being filled now
      if (st.area && label === st.area && p === undefined) fill = "#f1c453"; // the area about to be chosen
      const r = s("rect", {
        x: pad + x * CELL,
        y: pad + y * CELL,
        width: CELL,
        height: CELL,
        fill,
        stroke: last.has(name) ? "#f1c453" : "#bbb",
        "stroke-width": last.has(name) ? 3 : 1,
        "data-cell": name,
        class: "cell",
      });
      rects.push(r);
      const claimedBy = /^\d+$/.test(label) ? (v.numbers_claimed_by || [])[Number(label) - 1] : undefined;
      if (claimedBy !== undefined) {
        rects.push(
          s("circle", {
            cx: pad + x * CELL + CELL / 2,
            cy: pad + y * CELL + CELL / 2,
            r: CELL * 0.42,
            fill: "none",
            stroke: COLORS[claimedBy % COLORS.length],
            "stroke-width": 3,
            "pointer-events": "none",
            class: "claimed",
          }),
        );
      }
      if (label !== "." && label !== "#" && p === undefined) {
        rects.push(
          s(
            "text",
            {
              x: pad + x * CELL + CELL / 2,
              y: pad + y * CELL + CELL * 0.68,
              "font-size": 13,
              "text-anchor": "middle",
              fill: "#888",
              "pointer-events": "none",
            },
            label,
          ),
        );
      }
      if (ghostCells.has(name)) {
        rects.push(
          s("rect", {
            x: pad + x * CELL + 2,
            y: pad + y * CELL + 2,
            width: CELL - 4,
            height: CELL - 4,
            fill: "#e76f51",
            opacity: 0.55,
            "pointer-events": "none",
            class: "ghost",
          }),
        );
      }
      if (st.cell === name) {
        rects.push(
          s("rect", {
            x: pad + x * CELL,
            y: pad + y * CELL,
            width: CELL,
            height: CELL,
            fill: "none",
            stroke: "#e76f51",
            "stroke-width": 3,
            "pointer-events": "none",
          }),
        );
      }
    }
  }
  const lines = (v.lines || []).map((ln) => {
    const pts = ln.cells
      .map(parseCell)
      .filter(Boolean)
      .map(([x, y]) => `${pad + x * CELL + CELL / 2},${pad + y * CELL + CELL / 2}`)
      .join(" ");
    return s("polyline", {
      points: pts,
      fill: "none",
      stroke: COLORS[ln.owner % COLORS.length],
      "stroke-width": 5,
      "stroke-linecap": "round",
      opacity: 0.8,
      "pointer-events": "none",
    });
  });
  // Entry arrows of the current card around the template (where an element may come in).
  const arrows = [];
  if (card && card.arrows) {
    const mid = {
      T: [pad + (W * CELL) / 2, 10, "▼"],
      B: [pad + (W * CELL) / 2, pad * 2 + H * CELL - 6, "▲"],
      L: [8, pad + (H * CELL) / 2, "▶"],
      R: [pad * 2 + W * CELL - 14, pad + (H * CELL) / 2, "◀"],
    };
    for (const d of card.arrows) {
      const [x, y, t] = mid[d];
      arrows.push(s("text", { x, y, "font-size": 16, fill: "#e76f51", "text-anchor": "middle" }, t));
    }
  }
  const svg = s(
    "svg",
    {
      viewBox: `0 0 ${W * CELL + 2 * pad} ${H * CELL + 2 * pad}`,
      class: "svgboard",
      id: "ff-board",
      role: "img",
      "aria-label": t("ff.label", { w: W, h: H }),
    },
    rects,
    lines,
    arrows,
  );
  svg.addEventListener("click", (e) => {
    const name = e.target && e.target.getAttribute && e.target.getAttribute("data-cell");
    if (!name || !part.to_act) return;
    const xy = parseCell(name);
    const choice = `area:${v.template[xy[1]][xy[0]]}`;
    if ((part.legal || []).includes(choice)) {
      // choosing the next area: tap any of its squares
      st.area = choice.slice(5);
      render(el, ctx);
      if (el._generic) el._generic.input.value = choice;
      return;
    }
    if (st.cell === name) st.idx += 1;
    else {
      st.cell = name;
      st.idx = 0;
    }
    render(el, ctx);
  });

  const scores = h(
    "div",
    { class: "row" },
    (v.scores || []).map((sc, p) =>
      h(
        "span",
        { class: "seat" },
        h("span", { class: "dot on", style: `background:${COLORS[p % COLORS.length]}` }),
        `${ctx.seatName(p)}: ${sc}`,
      ),
    ),
  );
  const info = h(
    "p",
    { class: "help", id: "ff-status" },
    v.status || "",
    ghost ? t("ff.of", { move: ghost.text, i: (st.idx % candidates.length) + 1, n: candidates.length }) : "",
    st.cell && !candidates.length && part.to_act ? t("ff.none") : "",
  );
  const other = h(
    "button",
    {
      type: "button",
      class: "secondary",
      id: "ff-other",
      disabled: candidates.length < 2,
      onclick: () => {
        st.idx += 1;
        render(el, ctx);
      },
    },
    t("ff.other"),
  );
  const head = h(
    "div",
    { class: "row" },
    card ? h("div", { style: "flex:0 0 96px" }, cardSvg(card, 96)) : null,
    h("div", {}, scores, info, part.to_act ? other : null),
  );
  generic.render(el, { ...ctx, hideText: true }, h("div", {}, head, svg));
  if (ghost && el._generic) el._generic.input.value = ghost.text;
}
