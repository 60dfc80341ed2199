// Foldris board: your sheet large, the others small, the round's block with rotate / mirror / trim and a
// ghost of where it lands in the column you tap; a tap on the ghost (or Play) drops it. The server's legal
// actions decide what is allowed; this file only draws them (the ghost uses the card's drawing with the
// notation's order of effects: mirror, then trim square K in reading order, then K quarter turns
// clockwise, then a drop onto the column tops). A hint (ctx.hint) is shown as that same ghost. Mirror or
// Trim that cannot be used now asks the engine why, and the page says it. From the keyboard the sheet's squares
// are buttons with a roving focus (parts/roving.js): Tab reaches the cursor's square, the arrow keys move it,
// Enter or Space taps it.
import { h, s } from "../dom.js";
import { t, tOr, lang } from "../i18n.js";
import * as generic from "./generic.js";
import { parseDrop, variantCells, landing, foldAt, squareLook } from "../lib/foldris.js";
import { squareAttrs, holdsFocus, focusCursor } from "./parts/roving.js";

const COLORS = ["#1d3557", "#e76f51", "#2a9d8f", "#8d5a97", "#b5651d", "#3a86ff", "#6a994e"];
let textOpen = false; // the text view stays open across updates once a player opens it

// A sheet drawn from the view (its rows, folded rows greyed above its height): the squares (with
// ``squares``, ``squares(x, y, look)`` gives square (x, y) its handlers, bound when drawn; data-col and
// data-row only name it for the tests), the ghost, a fold's crease and slide (``fold``: rows that came down
// since ``prev``) and the card's lane above the sheet.
function sheetSvg(
  sheet,
  { cell, ghost = [], lane = null, squares = null, id = null, color, prev = null, fold = null },
) {
  const rowsTotal = Math.max(sheet.ink.length, sheet.height);
  const cols = sheet.width; // the view's: the board has no sheet size of its own
  const pad = 4;
  const top = pad + (lane ? cell * 0.6 : 0);
  const at = { cell, pad, top, rowsTotal };
  const { parts, above } = sheetSquares(sheet, prev, { ...at, color, ghost, squares, foldRow: fold && fold.row });
  if (fold && above.length) parts.push(...foldLayer(fold, above, { ...at, cols, color }));
  else parts.push(...above);
  if (lane) parts.push(...laneMark(lane, cell, pad));
  const W = cols * cell + 2 * pad;
  const H = rowsTotal * cell + 2 * pad + (lane ? cell * 0.6 : 0);
  const role = squares ? "group" : "img";
  return s("svg", { viewBox: `0 0 ${W} ${H}`, class: "svgboard", id, role, "aria-label": t("fd.sheet") }, parts);
}

// The sheet's squares with the ghost over them; those from ``foldRow`` up go in ``above`` (they slide down).
function sheetSquares(sheet, prev, { cell, pad, top, rowsTotal, color, ghost, squares, foldRow }) {
  const parts = [];
  const above = []; // the rows that came down in a fold: drawn in a group that slides down onto the crease
  const ghostSet = new Set(ghost.map(([x, y]) => `${x},${y}`));
  for (let y = 0; y < rowsTotal; y++) {
    const sy = top + (rowsTotal - 1 - y) * cell;
    const into = foldRow !== null && foldRow !== undefined && y >= foldRow ? above : parts;
    for (let x = 0; x < sheet.width; x++) {
      const look = squareLook(sheet, prev, x, y);
      into.push(
        s("rect", {
          x: pad + x * cell,
          y: sy,
          width: cell,
          height: cell,
          fill: look.fill === "ink" ? color : look.fill,
          stroke: "#bbb",
          "stroke-width": 1,
          "data-col": x,
          "data-row": y,
          class: look.class,
          ...(squares ? squares(x, y, look) : {}),
        }),
      );
      if (ghostSet.has(`${x},${y}`)) {
        const box = { x: pad + x * cell + 2, y: sy + 2, width: cell - 4, height: cell - 4, fill: "#f1c453" };
        parts.push(
          s("rect", {
            ...box,
            stroke: "#e76f51",
            "stroke-width": 2,
            opacity: 0.85,
            class: "ghost",
            "pointer-events": "none",
          }),
        );
      }
    }
  }
  return { parts, above };
}

// The paper folds: the completed rows (a strip as tall as the rows folded away) shrink into the crease while
// everything above them slides down onto it.
function foldLayer(fold, above, { cell, pad, rowsTotal, top, cols, color }) {
  const creaseY = top + (rowsTotal - fold.row) * cell;
  const h = fold.k * cell;
  return [
    s("rect", {
      x: pad,
      y: creaseY - h,
      width: cols * cell,
      height: h,
      fill: color,
      class: "fold-crease",
      style: `--fold:${h}px`,
      "pointer-events": "none",
    }),
    s("line", { x1: pad, y1: creaseY, x2: pad + cols * cell, y2: creaseY, class: "fold-line" }),
    s("g", { class: "fold-above", style: `--fold:${h}px` }, above),
  ];
}

// The card's lane: a bar two columns wide above the sheet, with its number.
function laneMark(lane, cell, pad) {
  const lx = pad + (lane - 1) * cell;
  const text = { x: lx + cell, y: pad + cell * 0.42, "font-size": cell * 0.42, fill: "#fff", "text-anchor": "middle" };
  return [
    s("rect", { x: lx, y: pad, width: cell * 2, height: cell * 0.5, fill: "#9b2226", rx: 3 }),
    s("text", text, t("fd.lane", { lane })),
  ];
}

export function render(el, ctx) {
  const part = ctx.part;
  const v = part && part.view;
  if (!v || !Array.isArray(v.players)) {
    generic.render(el, ctx);
    return;
  }
  const hadFocus = holdsFocus(el.querySelector("#fd-sheet"));
  const st = keptState(ctx, v);
  const f = frame(st, ctx);
  const act = actions(el, ctx, st, f);
  const before = shownBefore(ctx);
  const mine = mySheet(el, ctx, st, f, act, before);
  const extra = h(
    "div",
    {},
    soloTitle(v),
    starterLine(v, ctx),
    cardBox(ctx, f.card),
    foldedBanner(f.me, before),
    mine,
    statsLine(v, f.me),
    part.to_act ? controls(st, act) : null,
    part.to_act ? infoLine(st, f) : null,
    othersRow(v, ctx),
    textView(ctx),
  );
  generic.render(el, { ...ctx, hideText: true, confirm: "play", chosen: f.chosen ? f.chosen.text : "" }, extra);
  if (st.focus || hadFocus) focusCursor(mine);
  st.focus = false;
}

// The choice being made (mirror, trim, turn, column, a refusal shown) lasts as long as this round's decision
// (ctx.keep.fd): another player's hidden choice changes the table's version, not the block in hand. The
// keyboard's cursor ([column, row]) stays for the seat.
function keptState(ctx, v) {
  const own = v.players.find((p) => p.player === ctx.seat);
  const decision = [v.round, v.deck_left, v.card ? v.card.name : "", own ? own.chosen : ""].join("/");
  const old = ctx.keep.fd;
  if (old && old.decision === decision && old.seat === ctx.seat) return old;
  const cursor = old && old.seat === ctx.seat ? old.cursor : null;
  return (ctx.keep.fd = { decision, seat: ctx.seat, m: 0, t: 0, r: 0, c: null, cursor, focus: false });
}

// Our sheet, large: the ghost, the card's lane, what changed since the last update (a fold slides down), and
// while we act its squares as buttons (a tap, or Enter or Space on the keyboard's cursor, taps a column; the
// arrow keys move the cursor).
function mySheet(el, ctx, st, f, act, before) {
  const { me, card } = f;
  if (!me) return null;
  return sheetSvg(me, {
    cell: 34,
    ghost: f.ghost,
    lane: card ? card.lane : null,
    squares: f.part.to_act ? sheetHandlers(el, st, f, act) : null,
    id: "fd-sheet",
    color: COLORS[(ctx.seat ?? 0) % COLORS.length],
    prev: before,
    fold: before ? foldAt(before, me, me.lines - before.lines) : null,
  });
}

// What a square of our sheet does, bound to it when drawn, and its name for assistive technology.
function sheetHandlers(el, st, f, act) {
  const { me } = f;
  const grid = { width: me.width, height: Math.max(me.ink.length, me.height), up: 1 };
  const at = st.cursor || [st.c ?? 0, Math.max(0, me.height - 1)];
  const attrs = squareAttrs(grid, at, {
    press: (x, y) => {
      st.cursor = [x, y];
      st.focus = holdsFocus(el.querySelector("#fd-sheet"));
      act.column(x, y);
    },
    move: (to) => {
      st.cursor = to;
      st.focus = true;
      act.rerender();
    },
  });
  const ghost = new Set(f.ghost.map(([x, y]) => `${x},${y}`));
  return (x, y, look) => {
    const kind = y >= me.height ? "folded" : look.class.split(" ")[0];
    const what = [t(`fd.sq.${kind}`), ghost.has(`${x},${y}`) ? t("fd.sq.ghost") : ""].filter(Boolean).join(", ");
    return attrs(x, y, t("fd.square", { col: x + 1, row: y + 1, what }));
  };
}

// The round's card (its block and lane), or what we wait for.
function cardBox(ctx, card) {
  return card
    ? h("div", { class: "seat", id: "fd-card" }, t("fd.card", { name: card.name, lane: card.lane }))
    : h("div", { class: "muted" }, ctx.msg.over ? t("room.over") : t("fd.waitCard"));
}

// How many lines our sheet folded away since the last update, or nothing.
function foldedBanner(me, before) {
  if (!me || !before || me.lines <= before.lines) return null;
  const n = me.lines - before.lines;
  return h("p", { class: "banner", id: "fd-folded" }, n > 1 ? t("fd.folded", { n }) : t("fd.folded1"));
}

// What to tap now, and why the last effect tried cannot be used.
function infoLine(st, f) {
  return h(
    "p",
    { class: "help", id: "fd-info" },
    f.chosen ? t("fd.dropHere") : t("fd.tapColumn"),
    " ",
    generic.refusalNote(st.refusal),
  );
}

// What this render draws: the legal drops, our sheet, the card, the drop chosen and where its block lands.
function frame(st, ctx) {
  const part = ctx.part;
  const v = part.view;
  const drops = (part.to_act ? part.legal || [] : []).map(parseDrop).filter((d) => d.c !== null);
  const me = ctx.seat !== null && ctx.seat !== undefined ? v.players[ctx.seat] : null;
  const card = v.card;
  takeHint(st, ctx.hint);
  const chosen = drops.find((d) => same(d, st.m, st.t, st.r) && d.c === st.c) || null;
  const ghost =
    chosen && me && card
      ? landing(
          variantCells(card.shape, st.m, st.t, st.r),
          me.ink.map((b, i) => b | (me.barrier[i] || 0)),
          st.c,
          me.width,
        )
      : [];
  return { part, v, drops, me, card, chosen, ghost, trims: [...new Set(drops.map((d) => d.t))].sort((a, b) => a - b) };
}

const same = (d, m, t, r) => d.m === m && d.t === t && d.r === r;

// Choose mirror ``m``, trim ``t`` and rotation ``r`` when some legal drop has them (false when none does); the
// column moves to the nearest one such a drop may use.
function pickDrop(st, drops, m, t, r) {
  const options = drops.filter((d) => same(d, m, t, r));
  if (!options.length) return false;
  Object.assign(st, { m, t, r });
  if (st.c !== null && !options.some((d) => d.c === st.c)) {
    st.c = options.reduce((best, d) => (Math.abs(d.c - st.c) < Math.abs(best - st.c) ? d.c : best), options[0].c);
  }
  return true;
}

// An effect that cannot be used now: the engine says why (the bonus points it costs, ...).
function explainEffect(ctx, st, card, m, t, rerender) {
  if (!card || !ctx.preview) return;
  const text = [card.name, m ? "m" : "", t ? `t${t}` : "", `r${st.r}`, `c${(st.c ?? 0) + 1}`].filter(Boolean);
  ctx.preview(text.join(" ")).then((r) => {
    if (r && !r.ok && ctx.keep.fd === st) {
      st.refusal = r.message;
      rerender();
    }
  });
}

// What the buttons and a tapped column do: choose mirror, trim and rotation among the legal drops, ask the
// engine why an effect cannot be used, move the block to a column or drop it there.
function actions(el, ctx, st, f) {
  const { drops, card } = f;
  const rerender = () => render(el, ctx);
  const pick = (m, t, r) => pickDrop(st, drops, m, t, r);
  const explain = (m, t) => explainEffect(ctx, st, card, m, t, rerender);
  return {
    rerender,
    rotate() {
      for (let k = 1; k <= 4; k++) if (pick(st.m, st.t, (st.r + k) % 4)) break;
      rerender();
    },
    mirror() {
      let ok = false;
      for (let k = 0; k < 4 && !ok; k++) ok = pick(1 - st.m, st.t, (st.r + k) % 4);
      st.refusal = null;
      if (ok) rerender();
      else if (card && mirrorsToItself(card.shape)) {
        st.refusal = t("fd.mirrorSame", { name: card.name });
        rerender();
      } else explain(1 - st.m, st.t);
    },
    trim() {
      if (f.trims.length < 2) explain(st.m, st.t ? 0 : 1);
      else {
        nextTrim(st, f.trims, pick);
        rerender();
      }
    },
    column: (col, row) => tapColumn(ctx, st, f, pick, col, row, rerender),
  };
}

// Trim the next square that some legal drop trims (mirrored or not, in any rotation).
function nextTrim(st, trims, pick) {
  const i = trims.indexOf(st.t);
  for (let j = 1; j <= trims.length; j++) {
    const t = trims[(i + j) % trims.length];
    for (let k = 0; k < 4; k++) for (const m of [st.m, 1 - st.m]) if (pick(m, t, (st.r + k) % 4)) return;
  }
}

// A tap on square (col, row) of our sheet: on the ghost it drops the block there; elsewhere the tapped column
// becomes the block's left column, moved left as far as needed to fit.
function tapColumn(ctx, st, f, pick, col, row, rerender) {
  const { drops } = f;
  if (!f.part.to_act) return;
  st.refusal = null;
  if (f.chosen && f.ghost.some(([x, y]) => x === col && y === row)) {
    ctx.play(f.chosen.text);
    return;
  }
  if (!drops.some((d) => same(d, st.m, st.t, st.r))) pick(drops[0].m, drops[0].t, drops[0].r);
  const options = drops.filter((d) => same(d, st.m, st.t, st.r));
  if (!options.length) return;
  const fit = options.filter((d) => d.c <= col).sort((a, b) => b.c - a.c)[0] || options[0];
  st.c = fit.c;
  rerender();
}

// Our sheet as the last update left it (kept in ctx.keep.fdPrev), so what changed flashes and a fold shows:
// given once per update, not on every tap.
function shownBefore(ctx) {
  const v = ctx.part.view;
  const prevView =
    ctx.keep.fdPrev && ctx.keep.fdPrev.seat === ctx.seat && ctx.keep.fdPrev.version < ctx.msg.version
      ? ctx.keep.fdPrev.view
      : null;
  const prevMe = prevView && ctx.seat !== null ? prevView.players[ctx.seat] : null;
  if (!ctx.keep.fdPrev || ctx.keep.fdPrev.version !== ctx.msg.version)
    ctx.keep.fdPrev = { seat: ctx.seat, version: ctx.msg.version, view: v, shown: prevMe };
  const before = ctx.keep.fdPrev.shown;
  ctx.keep.fdPrev.shown = null;
  return before;
}

// Rotate, mirror and trim the round's block.
function controls(st, act) {
  const button = (id, onclick, label) => h("button", { type: "button", class: "secondary", id, onclick }, label);
  return h(
    "div",
    { class: "row", id: "fd-controls" },
    button("fd-rotate", act.rotate, t("fd.rotate")),
    button("fd-mirror", act.mirror, st.m ? t("fd.mirrorOn") : t("fd.mirror")),
    button("fd-trim", act.trim, st.t ? t("fd.trimAt", { n: st.t }) : t("fd.trim")),
  );
}

// The other players' sheets, small, each with its name and whether it has chosen or is out.
function othersRow(v, ctx) {
  return h(
    "div",
    { class: "row", id: "fd-others" },
    v.players.map((p, i) =>
      i === ctx.seat
        ? null
        : h(
            "div",
            { style: "flex:0 0 auto; width:92px; text-align:center" },
            sheetSvg(p, { cell: 10, color: COLORS[i % COLORS.length] }),
            h("div", { class: "help" }, `${ctx.seatName(i)}${p.out ? t("fd.out") : p.chosen ? t("fd.chosen") : ""}`),
          ),
    ),
  );
}

// Our lines, bonus points, rows left, round out and cards left.
function statsLine(v, me) {
  if (!me) return null;
  return h(
    "p",
    { class: "help" },
    t("fd.stats", { lines: me.lines, bonus: me.bonus, rows: me.height }) +
      (me.out ? t("fd.outIn", { n: me.out }) : "") +
      (v.deck_left !== undefined ? t("fd.cardsLeft", { n: v.deck_left }) : ""),
  );
}

// The engine's text rendering is English (it is the terminal's view), so it is offered in English only.
// The server sends it only while the view is open (ctx.wantText), so it is asked for on opening.
function textView(ctx) {
  if (lang !== "en") return null;
  return h(
    "details",
    {
      open: textOpen,
      ontoggle: (e) => {
        textOpen = e.target.open;
        if (ctx.wantText) ctx.wantText(textOpen);
      },
    },
    h("summary", { class: "button secondary" }, t("fd.textView")),
    h("pre", { class: "board" }, ctx.part.render || ""),
  );
}

// Who started (drawn at random by the engine).
function starterLine(v, ctx) {
  if (v.players.length < 2 || v.starter === undefined) return null;
  return h(
    "p",
    { class: "help", id: "fd-starter" },
    v.start_lane
      ? t("fd.startsLane", { name: ctx.seatName(v.starter), lane: v.start_lane })
      : t("fd.starts", { name: ctx.seatName(v.starter) }),
  );
}

// At the end of a solo game, the rulebook's title.
function soloTitle(v) {
  if (!v.over || v.title === undefined) return null;
  return h(
    "p",
    { class: "banner", id: "fd-title", role: "status" },
    v.title
      ? t("fd.titleWon", {
          title: tOr(`fd.title.${v.title.replace(/^Foldris /, "").replace(/ /g, "_")}`, v.title),
          n: v.players[0].lines,
        })
      : t("fd.noTitle", { n: v.players[0].lines, need: v.title_lines }),
  );
}

// Whether a block looks the same mirrored as turned (I, O, T): mirroring it would only cost a bonus point.
function mirrorsToItself(shape) {
  const key = (cells) => JSON.stringify(cells);
  const mirrored = key(variantCells(shape, 1, 0, 0));
  return [0, 1, 2, 3].some((r) => key(variantCells(shape, 0, 0, r)) === mirrored);
}

// A hint (the suggested drop) becomes the player's own choice once: mirror, trim, rotation and column.
function takeHint(st, hint) {
  if (!hint || st.hinted === hint[0]) return;
  const d = parseDrop(hint[0]);
  Object.assign(st, { m: d.m, t: d.t, r: d.r, c: d.c, hinted: hint[0] });
}
