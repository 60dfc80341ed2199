// Qwirkle Cubes board: the unbounded table as SVG with pan and zoom (drag, wheel, pinch, or the buttons and
// keys), every player's open hand, the optional reroll (tap cubes, then Roll), and placing several cubes in
// one line before confirming: pick a cube, tap a square; the squares where it can go are marked (from the
// server's legal plays); the score of the play is asked of the server before Confirm, which a tap on one of
// the chosen cubes also does. A square the picked cube cannot go to asks the engine why. A hint (ctx.hint)
// becomes the player's own choice: the cubes to reroll, or the cubes on the table. Bag count, Qwirkles
// celebrated. Each cube shows its colour's letter as well as its colour and its shape.
import { h, s } from "../dom.js";
import { t, tSaid } from "../i18n.js";
import { tokens, parseTok } from "../lib/qwirkle-cubes.js";
import * as generic from "./generic.js";
import { C, attachPanZoom, cube, cubeWords } from "./parts/qwirkle-draw.js";
import { handsView, turnPanel, zoomRow } from "./parts/qwirkle-panels.js";

export function render(el, ctx) {
  const part = ctx.part;
  const v = part && part.view;
  if (!v || !v.table || !v.hands) {
    generic.render(el, ctx);
    return;
  }
  // A button of the board that has the focus keeps it when the board is drawn again (Confirm, after the
  // score of the play arrives from the server).
  const focused = document.activeElement && el.contains(document.activeElement) ? document.activeElement.id : "";
  const st = keptState(el, ctx);
  const f = frame(st, ctx);
  const act = actions(el, ctx, st, f);
  if (f.hinted && f.placing) setTimeout(() => act.ask(), 0);
  fitTable(st, f.cells);
  const svg = tableSvg(st, f, squareHandlers(el, st, act));
  attachPanZoom(svg, st, act.redraw);
  const { info, controls } = turnPanel(st, ctx, f, act);
  const banner = st.celebrate ? h("div", { class: "banner", role: "status" }, st.celebrate) : null;
  const bag = h("p", { class: "help", id: "qc-bag" }, t("qc.bag", { n: v.bag_size }));
  generic.render(
    el,
    { ...ctx, hideText: true, chosen: f.playable || "" },
    h("div", {}, banner, svg, zoomRow(st, act), info, controls, handsView(st, ctx, f, act), bag),
  );
  if (focused) document.getElementById(focused)?.focus();
}

// The board's state kept across renders (ctx.keep.qc, one per seat shown); a new version of the game is
// announced and clears the choices made for the last one.
function keptState(el, ctx) {
  const v = ctx.part.view;
  let st = ctx.keep.qc;
  if (!st || st.seat !== ctx.seat) {
    st = ctx.keep.qc = {
      seat: ctx.seat,
      version: -1,
      chosen: [],
      reroll: new Set(),
      pick: null,
      view: null,
      preview: null,
      points: null,
      cursor: [0, 0],
    };
  }
  if (st.version !== ctx.msg.version) {
    announceLast(st, v, ctx, el);
    st.version = ctx.msg.version;
    st.chosen = [];
    st.reroll = new Set();
    st.pick = null;
    st.preview = null;
    st.hinted = null;
    st.refusal = null;
  }
  return st;
}

// What this render draws from the view and the kept state: our hand, the legal plays that still fit the
// cubes chosen, the play to send, the table with the chosen cubes on it and where the picked cube may go.
function frame(st, ctx) {
  const part = ctx.part;
  const v = part.view;
  const me = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat;
  const legal = part.to_act ? part.legal || [] : [];
  const complete = !!part.to_act && (part.legal_count ?? legal.length) <= legal.length;
  const placing = v.phase === "place" && part.to_act;
  const rerolling = v.phase === "reroll" && part.to_act;
  const hand = me !== null ? v.hands[me] || [] : [];
  const hinted = takeHint(st, ctx.hint, hand);
  const chosenToks = st.chosen.map((c) => `${c.cube}@${c.x},${c.y}`);
  const plays = placing ? legal.filter((a) => a.includes("@")).map((a) => ({ text: a, toks: tokens(a) })) : [];
  const fits = plays.filter((p) => chosenToks.every((tk) => p.toks.includes(tk)));
  const exact = fits.find((p) => p.toks.length === chosenToks.length) || null;
  const table = new Map(v.table.map(([x, y, c]) => [`${x},${y}`, c]));
  st.chosen.forEach((c) => table.set(`${c.x},${c.y}`, c.cube));
  // Squares where the picked cube may go, given the cubes already chosen (from the listed legal plays).
  const targets = new Map();
  if (st.pick !== null) {
    for (const p of fits) {
      for (const tk of p.toks) {
        const o = parseTok(tk);
        if (o.cube === hand[st.pick] && !chosenToks.includes(tk)) targets.set(`${o.x},${o.y}`, true);
      }
    }
  }
  return {
    part,
    v,
    me,
    legal,
    complete,
    placing,
    rerolling,
    hand,
    hinted,
    used: new Set(st.chosen.map((c) => c.hand)),
    chosenToks,
    plays,
    // The play to send: a listed legal play, or (when the list is cut short) the chosen cubes themselves.
    playable: exact ? exact.text : !complete && st.chosen.length ? chosenToks.join(" ") : null,
    table,
    targets,
    cells: [...table.keys()].map((k) => k.split(",").map(Number)),
  };
}

// Pan and zoom: a viewBox centred on st.center with st.zoom (cells across), framed around every cube the
// first time (and after "Centre").
function fitTable(st, cells) {
  if (st.center) return;
  const xs = cells.map((c) => c[0]),
    ys = cells.map((c) => c[1]);
  st.center = cells.length
    ? [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2]
    : [0, 0];
  const span = cells.length ? Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) : 0;
  st.zoom = Math.max(7, Math.min(24, span + 5));
}

// What a square of the table does, bound to it when drawn (``k`` its "x,y"; data-at only names it for the
// tests): a tap (not the end of a drag) or, on a square to place on, Enter or Space taps it; from the keyboard
// the focus goes on to Confirm or the next square to place on.
function squareHandlers(el, st, act) {
  return (k) => ({
    onclick: () => {
      if (!st.dragged) act.tap(k);
    },
    onkeydown: (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      act.tap(k);
      el.querySelector("#qc-confirm, .target")?.focus();
    },
  });
}

// The empty squares next to the table (where a play may go) drawn faintly, the picked cube's targets strongly.
function spots(st, f, on) {
  const { table, targets, cells } = f;
  const around = new Set();
  for (const [x, y] of cells)
    for (const [dx, dy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ]) {
      const k = `${x + dx},${y + dy}`;
      if (!table.has(k)) around.add(k);
    }
  if (!cells.length) around.add("0,0");
  for (const k of targets.keys()) around.add(k);
  return [...around].flatMap((k) => {
    const [x, y] = k.split(",").map(Number);
    const isT = targets.has(k);
    const spot = s("rect", {
      x: x * C + 2,
      y: -y * C + 2,
      width: C - 4,
      height: C - 4,
      rx: 5,
      fill: isT ? "#fff7d6" : "#fafafa",
      stroke: isT ? "#222" : "#ccc",
      "stroke-dasharray": isT ? "" : "3 3",
      "stroke-width": isT ? 2.5 : 1,
      "data-at": k,
      class: isT ? "target" : "spot",
      tabindex: isT ? 0 : -1,
      role: isT ? "button" : undefined,
      "aria-label": isT ? t("qc.placeAt", { cube: cubeWords(f.hand[st.pick]), at: k }) : undefined,
      ...on(k),
    });
    if (!isT) return [spot];
    const plus = { x: x * C + C / 2, y: -y * C + C * 0.62, "text-anchor": "middle", "font-size": 16 };
    return [spot, s("text", { ...plus, "pointer-events": "none" }, "+")];
  });
}

// The table: its squares and cubes (``on(k)``: the handlers of square k, a cube's too), the chosen cubes
// outlined, the last play's cubes dotted.
function tableSvg(st, f, on) {
  const { v, table } = f;
  const out = spots(st, f, on);
  const lastSet = new Set((v.last_cells || []).map((c) => `${c[0]},${c[1]}`));
  for (const [k, c] of table) {
    const [x, y] = k.split(",").map(Number);
    const mine = st.chosen.some((q) => q.x === x && q.y === y);
    out.push(
      cube(c, x * C, -y * C, C, {
        class: mine ? "new" : "",
        "data-at": k,
        "aria-label": `${cubeWords(c)} ${k}`,
        onclick: on(k).onclick,
      }),
    );
    if (mine)
      out.push(
        s("rect", {
          x: x * C + 1,
          y: -y * C + 1,
          width: C - 2,
          height: C - 2,
          rx: 5,
          fill: "none",
          stroke: "#000",
          "stroke-width": 3,
          "stroke-dasharray": "5 3",
          "pointer-events": "none",
        }),
      );
    if (lastSet.has(k))
      out.push(s("circle", { cx: x * C + C - 7, cy: -y * C + 7, r: 4, fill: "#000", "pointer-events": "none" }));
  }
  const vw = st.zoom * C;
  const vb = [st.center[0] * C - vw / 2, -st.center[1] * C - vw / 2, vw, vw];
  return s(
    "svg",
    {
      viewBox: vb.join(" "),
      class: "svgboard qc",
      id: "qc-table",
      role: "img",
      "aria-label": t("qc.tableLabel", { n: v.table.length }),
    },
    out,
  );
}

// What the table's taps and the panels' buttons do: put the picked cube on a square (or confirm with a tap on
// a chosen one), ask the engine why a square is refused, ask what the chosen cubes would score, draw again.
function actions(el, ctx, st, f) {
  const act = {
    redraw: () => render(el, ctx),
    focusTarget: () => el.querySelector("#qc-table .target")?.focus(),
    tap(k) {
      st.refusal = null;
      if (f.playable && st.chosen.some((c) => `${c.x},${c.y}` === k)) {
        ctx.play(f.playable); // a tap on a chosen cube confirms the play
        return;
      }
      if (st.pick !== null && !f.targets.has(k) && !f.table.has(k)) act.explain(k);
      if (!f.targets.has(k) || st.pick === null) return;
      const [x, y] = k.split(",").map(Number);
      st.chosen.push({ hand: st.pick, cube: f.hand[st.pick], x, y });
      st.pick = null; // pick the next cube (or confirm)
      st.preview = null;
      render(el, ctx);
      act.ask();
    },
    // The picked cube cannot go on that square: the engine says why (a line's colour or shape, a gap...).
    explain(k) {
      if (!ctx.preview) return;
      const toks = [...f.chosenToks, `${f.hand[st.pick]}@${k}`];
      ctx.preview(toks.join(" ")).then((r) => {
        if (r && !r.ok && st.version === ctx.msg.version) {
          st.refusal = r.message;
          render(el, ctx);
        }
      });
    },
    ask() {
      const toks = st.chosen.map((c) => `${c.cube}@${c.x},${c.y}`);
      const match = f.plays.find((p) => p.toks.length === toks.length && toks.every((tk) => p.toks.includes(tk)));
      const text = match ? match.text : !f.complete && toks.length ? toks.join(" ") : null;
      if (!text || !ctx.preview) return;
      ctx.preview(text).then((r) => {
        if (r && st.version === ctx.msg.version) {
          st.preview = r;
          render(el, ctx);
        }
      });
    },
  };
  return act;
}

// A hint becomes the player's own choice once: the cubes to reroll, or the cubes of the play put on the
// table (each from a hand slot holding that cube). True when it put cubes on the table.
function takeHint(st, hint, hand) {
  if (!hint || st.hinted === hint[0]) return false;
  st.hinted = hint[0];
  const text = hint[0];
  if (text.startsWith("reroll ")) {
    st.reroll = new Set(
      text
        .slice(7)
        .split(",")
        .map((n) => Number(n) - 1),
    );
    return false;
  }
  const toks = tokens(text).map(parseTok);
  if (!toks.length) return false;
  const free = hand.map((c, i) => i);
  st.chosen = toks.map((o) => {
    const i = free.findIndex((j) => hand[j] === o.cube);
    const slot = free.splice(i, 1)[0];
    return { hand: slot, cube: o.cube, x: o.x, y: o.y };
  });
  st.pick = null;
  st.preview = null;
  st.center = null; // the table is framed again around every cube, the hinted ones included
  return true;
}

function announceLast(st, v, ctx, el) {
  const prev = st.points;
  st.points = [...v.points];
  st.celebrate = null;
  if (!prev) return;
  const entry = ctx.msg.history[ctx.msg.history.length - 1];
  if (!entry || entry.player < 0 || !entry.action.includes("@")) return;
  const q = v.last && v.last.qwirkles ? v.last.qwirkles : 0;
  if (q) st.celebrate = t("qc.celebrate", { name: ctx.seatName(entry.player) });
  if (ctx.announce && entry.said) ctx.announce(tSaid(entry.said, ctx.seatName)); // its words say a Qwirkle
  void el;
}
