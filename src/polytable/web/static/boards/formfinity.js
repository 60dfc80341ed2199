// FORMFINITY board: the template as SVG with the printed template's coordinates (column letters above, row
// numbers on the left) and its start squares (black, marked P1 and P2), the card, and a ghost of the element
// where it will rest. It knows no rules: every ghost is one of the legal actions the server sent (SHAPE@CELL,
// the shape as drawn after any rotation and the top-left corner of its box). Tap a cell to see a legal
// placement that covers it ("Other way" goes through the others, rotations included); tap the ghost (or
// Play) to draw it. A cell no placement covers asks the engine why. An area is chosen by tapping one of its
// squares; a line to claim from buttons that say which line. A hint (ctx.hint) is shown as the same ghost.
import { h, s } from "../dom.js";
import { t } from "../i18n.js";
import { cardSvg } from "../companion.js";
import * as generic from "./generic.js";
import { cellName, colName, parseCell, placementCells, parseCard } from "../lib/formfinity.js";

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
    ctx.keep.ff && ctx.keep.ff.version === ctx.msg.version && ctx.keep.ff.seat === ctx.seat
      ? ctx.keep.ff
      : (ctx.keep.ff = { version: ctx.msg.version, seat: ctx.seat, cell: null, idx: 0 });
  const placements = (part.to_act ? part.legal || [] : [])
    .map((text) => ({ text, cells: placementCells(text) }))
    .filter((p) => p.cells);
  takeHint(st, ctx.hint, placements);
  const candidates = st.cell ? placements.filter((p) => p.cells.includes(st.cell)) : [];
  const ghost = candidates.length ? candidates[st.idx % candidates.length] : null;
  const stars = starCells(v);

  const W = v.width,
    H = v.height,
    pad = 34; // room for the coordinates and, outside them, the card's entry arrows
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
      if (label === "-") continue; // outside the template
      let fill = "#fff";
      if (label === "#" || label === "*") fill = "#222";
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
      if (label === "*") rects.push(starMark(stars.indexOf(name), pad + x * CELL, pad + y * CELL));
      else if (label !== "." && label !== "#" && p === undefined) {
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
      T: [pad + (W * CELL) / 2, 12, "▼"],
      B: [pad + (W * CELL) / 2, pad * 2 + H * CELL - 6, "▲"],
      L: [1, pad + (H * CELL) / 2, "▶"],
      R: [pad * 2 + W * CELL - 14, pad + (H * CELL) / 2, "◀"],
    };
    for (const d of card.arrows) {
      const [x, y, t] = mid[d];
      arrows.push(s("text", { x, y, "font-size": 16, fill: "#e76f51", "text-anchor": "middle" }, t));
    }
  }
  const coords = coordinates(W, H, pad);
  const svg = s(
    "svg",
    {
      viewBox: `0 0 ${W * CELL + 2 * pad} ${H * CELL + 2 * pad}`,
      class: "svgboard",
      id: "ff-board",
      role: "img",
      "aria-label": t("ff.label", { w: W, h: H }),
    },
    coords,
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
      if (ctx.keep.generic) ctx.keep.generic.input.value = choice;
      return;
    }
    st.refusal = null;
    if (ghost && ghost.cells.includes(name)) {
      ctx.play(ghost.text); // a tap on the ghost draws the element there
      return;
    }
    st.cell = name;
    st.idx = 0;
    if (!placements.some((p) => p.cells.includes(name))) explain(name);
    render(el, ctx);
  });

  // No placement of the element covers the tapped square: the engine says why (an arrow, a black square...).
  function explain(name) {
    if (!card || !ctx.preview || v.phase !== "place") return;
    ctx.preview(`${card.shape.join("/")}@${name}`).then((r) => {
      if (r && !r.ok && st.version === ctx.msg.version && st.cell === name) {
        st.refusal = r.message;
        render(el, ctx);
      }
    });
  }

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
    statusLine(v, part, ctx, card),
    ghost ? t("ff.of", { i: (st.idx % candidates.length) + 1, n: candidates.length }) : "",
    st.cell && !candidates.length && part.to_act && v.phase === "place" ? t("ff.none") : "",
    " ",
    generic.refusalNote(st.refusal),
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
    h("div", {}, scores, info, part.to_act && v.phase === "place" ? other : null),
  );
  const chosen = ghost ? ghost.text : st.area ? `area:${st.area}` : "";
  generic.render(
    el,
    { ...ctx, hideText: true, confirm: "play", chosen },
    h("div", {}, head, svg, claimButtons(part, ctx)),
  );
}

// What to tap now, in words (the engine's own status line is the terminal's, with its notation).
function statusLine(v, part, ctx, card) {
  if (v.phase === "over") return "";
  if (!part.to_act) return t("ff.waiting", { name: ctx.seatName(v.turn) });
  if (v.phase === "choose") return t("ff.chooseArea");
  if (v.phase === "claim") return t("ff.claimHelp");
  if (v.phase !== "place" || !card) return "";
  const k = card.count - v.elements_left + 1;
  return t("ff.placeHelp", { k, n: card.count });
}

// When the placed element completed lines that exclude each other, the player says which one to claim.
function claimButtons(part, ctx) {
  const claims = (part.to_act ? part.legal || [] : []).filter((a) => a.startsWith("line:"));
  if (!claims.length) return null;
  return h(
    "div",
    { class: "row", id: "ff-claims" },
    claims.map((a) => {
      const [, dir, cell] = a.split(":");
      const hinted = !!(ctx.hint && ctx.hint[0] === a);
      return h(
        "button",
        { type: "button", class: hinted ? "hinted" : "secondary", onclick: () => ctx.play(a) },
        t("ff.claimLine", { cell, way: t(`ff.dir.${dir}`) }),
      );
    }),
  );
}

// The start squares of variant 3 (black, "*" in the template): player 1's is the lower one, as printed.
function starCells(v) {
  const out = [];
  v.template.forEach((row, y) => row.forEach((label, x) => label === "*" && out.push({ name: cellName(x, y), y })));
  return out.sort((a, b) => b.y - a.y).map((c) => c.name);
}

function starMark(i, x, y) {
  return s(
    "text",
    {
      x: x + CELL / 2,
      y: y + CELL * 0.66,
      "font-size": 11,
      "font-weight": 700,
      "text-anchor": "middle",
      fill: "#fff",
      stroke: COLORS[i % COLORS.length],
      "stroke-width": 0.6,
      "pointer-events": "none",
      class: "start",
    },
    `P${i + 1}`,
  );
}

// Column letters above the template and row numbers on its left, as on the printed template.
function coordinates(W, H, pad) {
  const out = [];
  for (let x = 0; x < W; x++)
    out.push(
      s("text", { x: pad + x * CELL + CELL / 2, y: pad - 4, "text-anchor": "middle", class: "coord" }, colName(x)),
    );
  for (let y = 0; y < H; y++)
    out.push(
      s("text", { x: pad - 4, y: pad + y * CELL + CELL * 0.65, "text-anchor": "end", class: "coord" }, `${y + 1}`),
    );
  return out;
}

// A hint (the suggested placement) becomes the player's own choice once: the ghost on its first square.
function takeHint(st, hint, placements) {
  if (!hint || st.hinted === hint[0]) return;
  const p = placements.find((q) => q.text === hint[0]);
  st.hinted = hint[0];
  if (!p) return;
  st.cell = p.cells[0];
  st.idx = placements.filter((q) => q.cells.includes(st.cell)).indexOf(p);
}
