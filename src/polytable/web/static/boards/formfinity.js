// FORMFINITY board: the template as SVG with the printed template's coordinates (column letters above, row
// numbers on the left) and its start squares (black, marked P1 and P2), the card, and a ghost of the element
// where it will rest. It knows no rules: every ghost is one of the legal actions the server sent (SHAPE@CELL,
// the shape as drawn after any rotation and the top-left corner of its box). Tap a cell to see a legal
// placement that covers it ("Other way" goes through the others, rotations included); tap the ghost (or
// Play) to draw it. A cell no placement covers asks the engine why. An area is chosen by tapping one of its
// squares; a line to claim from buttons that say which line. A hint (ctx.hint) is shown as the same ghost.
// From the keyboard the squares are buttons with a roving focus (parts/roving.js): Tab reaches the cursor's
// square, the arrow keys move it, Enter or Space taps it.
import { h, s } from "../dom.js";
import { t } from "../i18n.js";
import { cardSvg } from "../companion.js";
import * as generic from "./generic.js";
import { cellName, colName, parseCell, placementCells, parseCard } from "../lib/formfinity.js";
import { firstSquare } from "../lib/grid-keys.js";
import { squareAttrs, holdsFocus, focusCursor } from "./parts/roving.js";

const COLORS = ["#1d3557", "#e76f51", "#2a9d8f", "#8d5a97"];
const CELL = 28;

export function render(el, ctx) {
  const part = ctx.part;
  const v = part && part.view;
  if (!v || !v.template) {
    generic.render(el, ctx);
    return;
  }
  const hadFocus = holdsFocus(el.querySelector("#ff-board"));
  const st = keptState(ctx);
  const f = frame(st, ctx);
  const svg = boardSvg(st, f, squareHandlers(el, ctx, st, f));
  const chosen = f.ghost ? f.ghost.text : st.area ? `area:${st.area}` : "";
  generic.render(
    el,
    { ...ctx, hideText: true, confirm: "play", chosen },
    h("div", {}, headPanel(el, ctx, st, f), svg, claimButtons(part, ctx)),
  );
  if (st.focus || hadFocus) focusCursor(svg);
  st.focus = false;
}

// The board's state kept across renders (ctx.keep.ff): the square tapped and the placement shown there hold
// for one version of the game; the keyboard's cursor (a square's name) stays for the seat.
function keptState(ctx) {
  const old = ctx.keep.ff;
  if (old && old.version === ctx.msg.version && old.seat === ctx.seat) return old;
  const cursor = old && old.seat === ctx.seat ? old.cursor : null;
  return (ctx.keep.ff = { version: ctx.msg.version, seat: ctx.seat, cell: null, idx: 0, cursor, focus: false });
}

// What a square does, bound to it when drawn: while the player acts it is a button (a tap, or Enter or Space
// on the keyboard's cursor, taps it; the arrow keys move the cursor over the template's squares).
function squareHandlers(el, ctx, st, f) {
  const { v, part } = f;
  if (!part.to_act) return () => ({});
  const grid = { width: v.width, height: v.height, ok: (x, y) => v.template[y][x] !== "-" };
  const at = st.cursor ? parseCell(st.cursor) : firstSquare(grid);
  const attrs = squareAttrs(grid, at, {
    press: (x, y) => {
      st.cursor = cellName(x, y);
      st.focus = holdsFocus(el.querySelector("#ff-board"));
      tapCell(el, ctx, st, f, st.cursor);
    },
    move: ([x, y]) => {
      st.cursor = cellName(x, y);
      st.focus = true;
      render(el, ctx);
    },
  });
  return (x, y, name) => attrs(x, y, t("ff.square", { cell: name, what: squareWords(f, ctx, x, y) }));
}

// A square in words for assistive technology: what lies on it, and whether the shown placement covers it.
function squareWords(f, ctx, x, y) {
  const name = cellName(x, y);
  const label = f.v.template[y][x];
  const p = f.owner.get(name);
  const words = [];
  if (p !== undefined) words.push(t("ff.sq.drawn", { name: ctx.seatName(p) }));
  else if (label === "*") words.push(t("ff.sq.start", { n: f.stars.indexOf(name) + 1 }));
  else if (label === "#") words.push(t("ff.sq.black"));
  else if (/^\d+$/.test(label)) words.push(t("ff.sq.number", { n: label }));
  else if (label !== ".") words.push(t("ff.sq.area", { area: label }));
  else words.push(t("ff.sq.empty"));
  if (f.ghostCells.has(name)) words.push(t("ff.sq.ghost"));
  return words.join(", ");
}

// What this render draws: the legal placements, those covering the tapped square, the one shown (the ghost),
// the card, and who drew each square.
function frame(st, ctx) {
  const part = ctx.part;
  const v = part.view;
  const placements = (part.to_act ? part.legal || [] : [])
    .map((text) => ({ text, cells: placementCells(text) }))
    .filter((p) => p.cells);
  takeHint(st, ctx.hint, placements);
  const candidates = st.cell ? placements.filter((p) => p.cells.includes(st.cell)) : [];
  const ghost = candidates.length ? candidates[st.idx % candidates.length] : null;
  const owner = new Map();
  v.drawn.forEach((cells, p) => cells.forEach((c) => owner.set(c, p)));
  return {
    part,
    v,
    placements,
    candidates,
    ghost,
    card: parseCard(v.card),
    owner,
    stars: starCells(v),
    last: new Set(v.last || []),
    finished: new Set(v.finished_areas || []),
    ghostCells: new Set(ghost ? ghost.cells : []),
    pad: 34, // room for the coordinates and, outside them, the card's entry arrows
  };
}

// A square's fill: black, a player's colour, a finished area, the area being filled or about to be chosen.
function cellFill(st, f, label, p) {
  const { v } = f;
  if (st.area && label === st.area && p === undefined) return "#f1c453"; // the area about to be chosen
  if (label === "#" || label === "*") return "#222";
  if (p !== undefined) return COLORS[p % COLORS.length];
  if (f.finished.has(label)) return "#e4ebe4"; // a finished area
  if (v.area && label === v.area) return "#fff4d1"; // the area being filled now
  return "#fff";
}

// One square of the template and what lies on it: a claimed number's ring, a start square's mark, an area's
// or a number's label, the ghost, the tapped square's outline. ``on(x, y, name)`` gives the square's handlers
// (bound when drawn; data-cell only names it for the tests).
function cellParts(st, f, x, y, on) {
  const { v, pad } = f;
  const name = cellName(x, y);
  const label = v.template[y][x];
  if (label === "-") return []; // outside the template
  const p = f.owner.get(name);
  const X = pad + x * CELL,
    Y = pad + y * CELL;
  const last = f.last.has(name);
  const out = [
    s("rect", {
      x: X,
      y: Y,
      width: CELL,
      height: CELL,
      fill: cellFill(st, f, label, p),
      stroke: last ? "#f1c453" : "#bbb",
      "stroke-width": last ? 3 : 1,
      "data-cell": name,
      class: "cell",
      ...on(x, y, name),
    }),
  ];
  const claimedBy = /^\d+$/.test(label) ? (v.numbers_claimed_by || [])[Number(label) - 1] : undefined;
  if (claimedBy !== undefined) {
    const ring = { cx: X + CELL / 2, cy: Y + CELL / 2, r: CELL * 0.42, fill: "none", "stroke-width": 3 };
    out.push(
      s("circle", { ...ring, stroke: COLORS[claimedBy % COLORS.length], "pointer-events": "none", class: "claimed" }),
    );
  }
  if (label === "*") out.push(starMark(f.stars.indexOf(name), X, Y));
  else if (label !== "." && label !== "#" && p === undefined) {
    const at = { x: X + CELL / 2, y: Y + CELL * 0.68, "font-size": 13, "text-anchor": "middle" };
    out.push(s("text", { ...at, fill: "#888", "pointer-events": "none" }, label));
  }
  if (f.ghostCells.has(name)) {
    const box = { x: X + 2, y: Y + 2, width: CELL - 4, height: CELL - 4, fill: "#e76f51", opacity: 0.55 };
    out.push(s("rect", { ...box, "pointer-events": "none", class: "ghost" }));
  }
  if (st.cell === name) {
    const box = { x: X, y: Y, width: CELL, height: CELL, fill: "none", stroke: "#e76f51", "stroke-width": 3 };
    out.push(s("rect", { ...box, "pointer-events": "none" }));
  }
  return out;
}

// The board: coordinates, squares (``on``: their handlers, see cellParts), claimed lines and the card's entry
// arrows around the template.
function boardSvg(st, f, on) {
  const { v, pad, card } = f;
  const W = v.width,
    H = v.height;
  const rects = [];
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rects.push(...cellParts(st, f, x, y, on));
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
  return s(
    "svg",
    {
      viewBox: `0 0 ${W * CELL + 2 * pad} ${H * CELL + 2 * pad}`,
      class: "svgboard",
      id: "ff-board",
      role: f.part.to_act ? "group" : "img",
      "aria-label": t("ff.label", { w: W, h: H }),
    },
    coordinates(W, H, pad),
    rects,
    lines,
    arrows,
  );
}

// A tap on a square: choose its area, draw the ghost there, or show a placement covering it (asking the
// engine why when none does).
function tapCell(el, ctx, st, f, name) {
  const { v, part } = f;
  const xy = parseCell(name);
  const choice = `area:${v.template[xy[1]][xy[0]]}`;
  if ((part.legal || []).includes(choice)) {
    // choosing the next area: tap any of its squares
    st.area = choice.slice(5);
    render(el, ctx);
    if (ctx.keep.generic) generic.choose(ctx.keep.generic, choice);
    return;
  }
  st.refusal = null;
  if (f.ghost && f.ghost.cells.includes(name)) {
    ctx.play(f.ghost.text); // a tap on the ghost draws the element there
    return;
  }
  st.cell = name;
  st.idx = 0;
  if (!f.placements.some((p) => p.cells.includes(name))) explain(el, ctx, st, f, name);
  render(el, ctx);
}

// No placement of the element covers the tapped square: the engine says why (an arrow, a black square...).
function explain(el, ctx, st, f, name) {
  if (!f.card || !ctx.preview || f.v.phase !== "place") return;
  ctx.preview(`${f.card.shape.join("/")}@${name}`).then((r) => {
    if (r && !r.ok && st.version === ctx.msg.version && st.cell === name) {
      st.refusal = r.message;
      render(el, ctx);
    }
  });
}

// Above the board: the card, the scores, what to tap now, and "Other way" through the placements covering the
// tapped square.
function headPanel(el, ctx, st, f) {
  const { v, part, card, ghost, candidates } = f;
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
  return h(
    "div",
    { class: "row" },
    card ? h("div", { style: "flex:0 0 96px" }, cardSvg(card, 96)) : null,
    h("div", {}, scores, info, part.to_act && v.phase === "place" ? other : null),
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
