// Quadefy board: a 3D view of the 4x4x4 cube (SVG, turned by dragging, by the arrow buttons or the arrow keys)
// and a layer view (four 4x4 plans, floor first). Choose a block and one of its rotations; squares a legal
// placement of it can cover are tinted; tap one to see such a placement as a ghost; tap the ghost (or Place)
// to place it. A square no placement covers asks the engine why. A hint (ctx.hint) is the same ghost. A tap
// on the 3D view chooses a cell too (see cubeView). The remaining blocks of both players are listed. The
// bonus puzzle sits below: choose a pattern, build it by hand (the engine checks it), or ask for the
// solver's answer. Dark and light blocks differ by fill and lettering, never by colour alone.
import { h } from "../dom.js";
import { t, tSaid } from "../i18n.js";
import * as generic from "./generic.js";
import { OWN, cellText, parseMove as parseMoveWith } from "../lib/quadefy.js";
import { layerView, cubeView } from "./parts/quadefy-views.js";
import { puzzlePanel } from "./parts/quadefy-puzzle.js";

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

const parseMove = (text) => parseMoveWith(text, tables);

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
  const st = keptState(ctx);
  const f = frame(st, ctx);
  const redraw = () => render(el, ctx);
  const onCell = (i) => tapCell(el, ctx, st, f, i);
  const ghostCells = f.ghost ? f.ghost.cells : [];
  const mover = f.me ?? 0;
  const layers = layerView(v.cells, {
    ghost: ghostCells,
    reach: f.reach,
    cursor: st.cell,
    onCell,
    id: "qd-layers",
    mover,
  });
  const picking = part.to_act ? { reach: f.reach, cursor: st.cell, onCell } : null;
  const cube = cubeView(v.cells, ghostCells, mover, st, redraw, "qd-3d", picking);
  generic.render(
    el,
    { ...ctx, hideText: true, chosen: f.ghost ? f.ghost.text : "" },
    h(
      "div",
      {},
      remainingView(v, ctx),
      h("div", { class: "qd-views" }, cube, layers),
      infoLine(st, f),
      part.to_act ? blockButtons(st, f, redraw) : null,
      part.to_act ? rotationRow(st, ctx, f, redraw) : null,
      puzzlePanel(ctx.keep, tables),
    ),
  );
}

// The board's state kept across renders (ctx.keep.qd, one per seat shown); a new version is announced and
// clears the tapped square, the hint taken and the refusal.
function keptState(ctx) {
  let st = ctx.keep.qd;
  if (!st || st.seat !== ctx.seat)
    st = ctx.keep.qd = { seat: ctx.seat, version: -1, block: null, r: null, cell: null, i: 0, yaw: 35, pitch: 30 };
  if (st.version !== ctx.msg.version) {
    if (st.version >= 0 && ctx.announce) {
      const e = ctx.msg.history[ctx.msg.history.length - 1];
      if (e && e.player >= 0 && e.said) ctx.announce(tSaid(e.said, ctx.seatName));
    }
    st.version = ctx.msg.version;
    st.cell = null;
    st.i = 0;
    st.hinted = null;
    st.refusal = null;
  }
  return st;
}

// What this render draws: our blocks, the rotations of the chosen one that have legal placements, the
// squares they reach, those covering the tapped square and the one shown (the ghost).
function frame(st, ctx) {
  const part = ctx.part;
  const v = part.view;
  const me = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat;
  const legal = (part.to_act ? part.legal || [] : []).map(parseMove).filter(Boolean);
  const hand = me !== null ? v.in_hand[me] : [];
  if (part.to_act && (!st.block || !hand.includes(st.block))) st.block = hand[0] || null;
  takeHint(st, ctx.hint && parseMove(ctx.hint[0]), legal);
  const mineLegal = legal.filter((p) => p.block === st.block);
  const rots = [...new Set(mineLegal.map((p) => p.r))].sort((a, b) => a - b);
  if (!rots.includes(st.r)) st.r = rots.length ? rots[0] : null;
  const options = mineLegal.filter((p) => p.r === st.r);
  const under = st.cell !== null ? options.filter((p) => p.cells.includes(st.cell)) : [];
  return {
    part,
    v,
    me,
    hand,
    rots,
    options,
    reach: new Set(options.flatMap((p) => p.cells)),
    under,
    ghost: under.length ? under[st.i % under.length] : null,
  };
}

// A tap on a square: place the ghost there, or show a placement covering it (asking the engine why when none
// of this block in this rotation does).
function tapCell(el, ctx, st, f, i) {
  if (!f.part.to_act) return;
  st.refusal = null;
  if (f.ghost && f.ghost.cells.includes(i)) {
    ctx.play(f.ghost.text); // a tap on the ghost places the block
    return;
  }
  st.cell = i;
  st.i = 0;
  if (!f.reach.has(i) && st.block && st.r !== null && ctx.preview) {
    ctx.preview(`${st.block} r${st.r} @ ${cellText(i)}`).then((r) => {
      if (r && !r.ok && st.version === ctx.msg.version && st.cell === i) {
        st.refusal = r.message;
        render(el, ctx);
      }
    });
  }
  render(el, ctx);
}

// Our blocks still in hand, the chosen one pressed.
function blockButtons(st, f, redraw) {
  return h(
    "div",
    { class: "row", role: "group", "aria-label": t("qd.yourBlocks") },
    f.hand.map((b) =>
      h(
        "button",
        {
          type: "button",
          class: `secondary blockbtn${st.block === b ? " chosen" : ""}`,
          "aria-pressed": st.block === b ? "true" : "false",
          "data-block": b,
          disabled: !f.part.to_act,
          onclick: () => {
            st.block = b;
            st.r = null;
            st.cell = null;
            redraw();
          },
        },
        b,
      ),
    ),
  );
}

// The rotations with legal placements (previous, which of how many, next) and Place.
function rotationRow(st, ctx, f, redraw) {
  const { rots, options, ghost } = f;
  const at = rots.indexOf(st.r);
  const turn = (d) => () => {
    st.r = rots[(at + d + rots.length) % rots.length];
    st.cell = null;
    redraw();
  };
  const button = (id, onclick, label) =>
    h("button", { type: "button", class: "secondary", id, disabled: rots.length < 2, onclick }, label);
  return h(
    "div",
    { class: "row" },
    button("qd-rot-prev", turn(-1), `◀ ${t("qd.rotation")}`),
    h(
      "span",
      { id: "qd-rot" },
      rots.length ? t("qd.rotOf", { i: at + 1, n: rots.length, places: options.length }) : t("qd.noPlace"),
    ),
    button("qd-rot-next", turn(1), `${t("qd.rotation")} ▶`),
    h(
      "button",
      { type: "button", id: "qd-place", disabled: !ghost, onclick: () => ghost && ctx.play(ghost.text) },
      t("qd.place"),
    ),
  );
}

// Each player's blocks still to place.
function remainingView(v, ctx) {
  return h(
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
}

// What to tap now: which of the placements covering the square is shown, that none does, or the help.
function infoLine(st, f) {
  const { part, ghost, under } = f;
  return h(
    "p",
    { class: "help", id: "qd-info", "aria-live": "polite" },
    !part.to_act
      ? ""
      : ghost
        ? t("qd.ghostOf", { i: (st.i % under.length) + 1, n: under.length })
        : st.cell !== null
          ? t("qd.noneHere")
          : t("qd.help"),
    " ",
    generic.refusalNote(st.refusal),
  );
}

// A hint (the suggested placement) becomes the player's own choice once: block, rotation and the ghost.
function takeHint(st, move, legal) {
  if (!move || st.hinted === move.text) return;
  st.hinted = move.text;
  Object.assign(st, { block: move.block, r: move.r, cell: move.cells[0] });
  const under = legal.filter((p) => p.block === move.block && p.r === move.r && p.cells.includes(move.cells[0]));
  st.i = Math.max(
    0,
    under.findIndex((p) => p.text === move.text),
  );
}
