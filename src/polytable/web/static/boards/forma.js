// Forma board: the 19x19 (20x20) board with coordinates, obstacles, tower, pieces and markers; the piece tray
// (pieces used up greyed); rotate and flip; a ghost at the chosen cell, marked legal or illegal; and the
// points the placement would earn, asked of the server (a "preview": the engine applies the move to a copy
// of the state) before it is confirmed. Keyboard: arrows move the cursor, R rotates, F flips, [ and ] choose
// the piece, Enter places (after the preview). Colours are never the only signal: each player's squares carry
// a letter pattern and markers a shape. Bridges are drawn from the view's bridge_paths (lines with the
// owner's letter at both ends), highlighted when the last move scored them, dashed when a preview would.
// Set-up (the view's "placing"): the starting player taps squares to place the obstacles and the tower
// (allowed squares dotted, the server's legal actions), or fills the rest at random. Touch-move: a piece may
// be tried on the board before it is picked up (nothing is sent); a tap on the tried piece picks it up and
// places it there; once picked it is the only piece (the pick cannot be taken back), and a pick that fits
// nowhere is announced (found from the history: a pick not followed by that player's placement). No piece is
// drawn before the player's first tap (or key) of a turn. A hint (ctx.hint) is shown as the same ghost: the
// piece, its orientation and its place; a tap on it plays it (the pick and the placement with touch-move).
import { h, s } from "../dom.js";
import { t, tSaid } from "../i18n.js";
import * as generic from "./generic.js";
import * as lib from "../lib/forma.js";
import { boardKey, cellName, parseCell, rotate, flip, freshBridges, freshMarkers } from "../lib/forma.js";
import { COLORS, CELL, PAD, X, Y, patternDefs, cellLayer, bridgeShape } from "./parts/forma-draw.js";
import { infoLine, placeControls, scoresView, setupControls, trayView, zoomButton } from "./parts/forma-panels.js";

let tables = null;
let loading = null;
function loadTables() {
  if (!loading)
    loading = fetch("/api/boards/forma")
      .then((r) => r.json())
      .then((d) => {
        tables = d;
        return d;
      });
  return loading;
}

export function render(el, ctx) {
  const part = ctx.part;
  const v = part && part.view;
  if (!v || !v.players) {
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
  const hadFocus = !!document.activeElement && document.activeElement.id === "fm-board";
  const st = keptState(ctx, v.config.options.size);
  const f = frame(st, ctx);
  const act = actions(el, ctx, st, f);
  const svg = boardSvg(st, ctx, f, act);
  const wrap = h("div", { class: `fm-wrap${st.zoom ? " zoomed" : ""}` }, svg);
  const banner = (id, text) => (text ? h("div", { class: "banner", role: "status", id }, text) : null);
  const helpKey = f.setupMode ? "forma.setupHelp" : f.pickMode && !f.picked ? "forma.touchHelp" : "forma.keysHelp";
  generic.render(
    el,
    { ...ctx, hideText: true, chosen: f.pv && f.pv.ok ? f.pv.action : "" },
    h(
      "div",
      {},
      scoresView(f, ctx),
      banner("fm-banner", st.banner),
      banner("fm-lost", f.lost),
      banner("fm-hand", f.picked && part.to_act ? t("forma.inHand", { name: f.picked }) : null),
      wrap,
      infoLine(st, ctx, f),
      setupControls(st, ctx, f, act),
      placeControls(st, ctx, f, act),
      h("div", { class: "row" }, zoomButton(st, act)),
      f.setupMode ? null : trayView(st, f, act),
      h("p", { class: "help" }, t(helpKey)),
    ),
  );
  if (st.zoom && st.scroll) {
    wrap.scrollLeft = st.scroll[0];
    wrap.scrollTop = st.scroll[1];
  }
  wrap.addEventListener("scroll", () => {
    st.scroll = [wrap.scrollLeft, wrap.scrollTop];
  });
  if (st.askHint) {
    st.askHint = false;
    act.ask();
  }
  if (st.focus || hadFocus) {
    svg.focus();
    st.focus = false;
  }
}

// The board's state kept across renders (ctx.keep.fm, one per seat shown); a new version of the game is
// announced and clears what held for the last one.
function keptState(ctx, n) {
  const v = ctx.part.view;
  let st = ctx.keep.fm;
  if (!st || st.seat !== ctx.seat) {
    st = ctx.keep.fm = {
      seat: ctx.seat,
      piece: null,
      k: 0,
      cursor: [Math.floor(n / 2), Math.floor(n / 2)],
      version: -1,
      preview: null,
      scores: null,
      focus: false,
    };
  }
  if (st.version !== ctx.msg.version) {
    st.fresh = freshMarkers(st, v);
    st.freshBridges = freshBridges(st, v);
    lib.announceLast(st, v, ctx, t, tSaid, tables.points);
    st.version = ctx.msg.version;
    st.preview = null;
    st.tapped = false; // no piece is shown before the player's first tap of this turn
    st.hinted = null;
  }
  return st;
}

// What this render draws from the view and the kept state: whose board, the piece chosen, what fills each
// cell, the set-up's squares, the ghost of the tried piece and whether it may go there (the server's
// preview when it answered for this very placement, else the local check).
function frame(st, ctx) {
  const part = ctx.part;
  const v = part.view;
  const n = v.config.options.size; // the board size the game was made with (the view carries every option)
  const me = ctx.seat === null || ctx.seat === undefined ? v.current_player : ctx.seat;
  const stock = (v.players[me] || v.players[0]).stock || {};
  const picked = v.picked;
  const legal = part.to_act ? part.legal || [] : [];
  const setupMode = !!v.placing;
  const pickMode = legal.some((a) => a.startsWith("pick "));
  const lost = setupMode ? null : lostPicks(st, v, ctx);
  if (picked) st.piece = picked;
  if (st.piece && !stock[st.piece]) st.piece = null;
  if (!st.piece) st.piece = Object.keys(stock)[0] || null;
  const hintMoves = takeHint(st, part.to_act ? ctx.hint : null);
  const { tower, obstacles, owner, marker, filled } = cellsFilled(v);
  const { kinds, allowed } = setupChoice(st, legal, setupMode);
  const ghost = setupMode || !st.tapped ? null : ghostOf(st, n);
  const localOk = !!ghost && ghost.inside && ghost.cells.every((c) => !filled(c)) && (!picked || picked === st.piece);
  const pv = st.preview && st.preview.action === (ghost ? ghost.text : "") ? st.preview : null;
  return {
    tables,
    part,
    v,
    n,
    me,
    stock,
    picked,
    legal,
    setupMode,
    pickMode,
    lost,
    hintMoves,
    tower,
    obstacles,
    owner,
    marker,
    last: new Set(v.last || []),
    closed: new Set(v.closed || []),
    kinds,
    allowed,
    ghost,
    localOk,
    pv,
    ok: pv ? pv.ok : localOk,
  };
}

// What fills each cell: the set-up's tower and obstacles, every player's pieces and markers.
function cellsFilled(v) {
  const setup = v.setup || "";
  const tower = (/tower ([a-t]\d+)/.exec(setup) || [])[1];
  const obstacles = new Set(((/obstacles ([a-t0-9 ]+)/.exec(setup) || [])[1] || "").split(" ").filter(Boolean));
  const owner = new Map();
  const marker = new Map();
  v.players.forEach((pl, p) => {
    pl.pieces.forEach((c) => owner.set(c, p));
    pl.markers.forEach((c) => marker.set(c, p));
  });
  const filled = (c) => owner.has(c) || marker.has(c) || obstacles.has(c) || c === tower;
  return { tower, obstacles, owner, marker, filled };
}

// During the set-up: the kinds the player may still place (obstacle, tower), the one chosen (kept in
// ``st.kind``) and the squares it may go on.
function setupChoice(st, legal, setupMode) {
  const kinds = setupMode ? ["obstacle", "tower"].filter((k) => legal.some((a) => a.startsWith(`${k} `))) : [];
  if (!kinds.includes(st.kind)) st.kind = kinds[0] || "obstacle";
  const allowed = new Set(
    setupMode ? legal.filter((a) => a.startsWith(`${st.kind} `)).map((a) => a.split(" ")[1]) : [],
  );
  return { kinds, allowed };
}

// What a cell holds, in words (its bridge too), for the board's accessible name.
function describeCell(f, ctx, c) {
  const bridged = f.v.players.findIndex((pl) => (pl.bridge_paths || []).some((cells) => cells.includes(c)));
  const fill =
    c === f.tower
      ? t("forma.tower")
      : f.obstacles.has(c)
        ? t("forma.obstacle")
        : f.owner.has(c)
          ? t("forma.pieceOf", { name: ctx.seatName(f.owner.get(c)) })
          : f.marker.has(c)
            ? t("forma.markerOf", { name: ctx.seatName(f.marker.get(c)) })
            : t("forma.free");
  return bridged >= 0 ? `${fill}, ${t("forma.onBridge", { name: ctx.seatName(bridged) })}` : fill;
}

// What the board's taps, keys and buttons do: play the shown piece, place a set-up piece, ask the server what a
// placement would earn, change the piece, draw again.
function actions(el, ctx, st, f) {
  const act = {
    redraw: () => render(el, ctx),
    // The shown piece played: a hint's moves, a placement the preview found legal, or (touch-move, before
    // the pick) the tried piece picked up and placed there at once.
    tapGhost() {
      const { ghost, hintMoves, pv, ok } = f;
      if (hintMoves && ghost.text === hintMoves[hintMoves.length - 1]) return ctx.playAll(hintMoves) || true;
      if (ok && pv) {
        act.place();
        return true;
      }
      if (f.pickMode && !f.picked && f.localOk) return ctx.playAll([`pick ${st.piece}`, ghost.text]) || true;
      return false;
    },
    cyclePiece(d) {
      const names = Object.keys(f.stock);
      if (!names.length || f.picked) return;
      st.piece = names[(names.indexOf(st.piece) + d + names.length) % names.length];
    },
    // A set-up tap: sent when the server lists it; otherwise the server's reason is shown (nothing is sent).
    placeSetup(c) {
      const text = `${st.kind} ${c}`;
      if (f.legal.includes(text)) {
        ctx.play(text);
        return;
      }
      st.setupError = null;
      if (!ctx.preview) return;
      ctx.preview(text).then((r) => {
        if (!r || st.version !== ctx.msg.version) return;
        st.setupError = r.ok ? null : r.message;
        act.redraw();
      });
    },
    ask() {
      const g = ghostOf(st, f.n);
      if (!g || !f.part.to_act || !ctx.preview) return;
      // touch-move: trying a piece before picking it up asks nothing
      if (f.setupMode || (f.pickMode && !f.picked)) return;
      const want = g.text;
      ctx.preview(want).then((r) => {
        if (!r || ghostOf(st, f.n)?.text !== want || st.version !== ctx.msg.version) return;
        st.preview = r;
        act.rerender(false);
      });
    },
    place() {
      if (f.pv && f.pv.ok) ctx.play(f.pv.action);
    },
    rerender(refresh) {
      if (refresh) st.preview = null;
      render(el, ctx);
      if (refresh && f.part.to_act && st.tapped && ghostOf(st, f.n)) act.ask();
    },
  };
  return Object.assign(act, boardInput(st, f, act));
}

// What a tap on a square and a key on the board do (``act``: the board's other actions).
function boardInput(st, f, act) {
  return {
    // A tap on square c: a set-up piece goes there, a tap on the shown piece plays it, else the piece is
    // tried there.
    tapCell(c) {
      if (!f.part.to_act) return;
      if (f.setupMode) {
        act.placeSetup(c);
        return;
      }
      if (f.ghost && f.ghost.cells.includes(c) && act.tapGhost()) return; // a tap on the shown piece plays it
      st.cursor = parseCell(c);
      st.tapped = true;
      act.rerender(true);
    },
    // A key on the board (see lib/forma.js's boardKey): true when the board used it.
    key(k) {
      const does = boardKey(k, st.cursor, f.n);
      if (!does) return false;
      if (does.cursor) st.cursor = does.cursor;
      else if (does.turn === "rotate") st.k = rotate(st.k);
      else if (does.turn === "flip") st.k = flip(st.k);
      else if (does.piece) act.cyclePiece(does.piece);
      else if (f.setupMode) act.placeSetup(cellName(...st.cursor));
      else if (f.ok && f.pv) act.place();
      else act.ask();
      st.focus = true;
      st.tapped = true;
      act.rerender(true);
      return true;
    },
  };
}

// The board: cells, bridges (and those a preview would add), the ghost of the tried piece and the cursor;
// a tap on a square (bound to it when drawn) and the keys act on it.
function boardSvg(st, ctx, f, act) {
  const { n, owner, marker, obstacles, closed, tower, allowed, last } = f;
  const sets = { owner, marker, obstacles, closed, tower, fresh: st.fresh, allowed, last };
  const out = [
    patternDefs(),
    ...cellLayer(n, sets, (c) => act.tapCell(c)),
    ...bridgeLayer(st, ctx, f),
    ...ghostLayer(f),
  ];
  const [cx, cy] = st.cursor;
  const cursor = { x: X(cx), y: Y(cy, n), width: CELL, height: CELL, fill: "none", stroke: "#f1c453", class: "cursor" };
  out.push(s("rect", { ...cursor, "stroke-width": 3, "pointer-events": "none" }));
  const here = cellName(cx, cy);
  const svg = s(
    "svg",
    {
      viewBox: `0 0 ${n * CELL + PAD * 2} ${n * CELL + PAD * 2}`,
      class: "svgboard",
      id: "fm-board",
      tabindex: 0,
      role: "application",
      "aria-roledescription": t("board"),
      "aria-label": t("forma.boardLabel", { n, cell: here, what: describeCell(f, ctx, here) }),
    },
    out,
  );
  svg.addEventListener("keydown", (e) => {
    if (act.key(e.key)) e.preventDefault();
  });
  return svg;
}

// Every player's bridges (those the last move scored highlighted) and, over them, those the previewed
// placement would add (dashed).
function bridgeLayer(st, ctx, f) {
  const { v, n, me, pv, part } = f;
  const out = [];
  const bridgeLine = (cells, p, kind) => {
    const g = bridgeShape(cells, p, kind, n, ctx.seatName);
    if (g) out.push(g);
  };
  const bridgeKeys = new Set();
  v.players.forEach((pl, p) =>
    (pl.bridge_paths || []).forEach((cells) => {
      bridgeKeys.add(`${p}:${cells.join(" ")}`);
      bridgeLine(cells, p, st.freshBridges && st.freshBridges.has(`${p}:${cells.join(" ")}`) ? "fresh" : "");
    }),
  );
  if (pv && pv.ok && pv.view && pv.view.players && part.to_act) {
    (pv.view.players[me].bridge_paths || []).forEach((cells) => {
      if (!bridgeKeys.has(`${me}:${cells.join(" ")}`)) bridgeLine(cells, me, "would");
    });
  }
  return out;
}

// The tried piece's squares, in the player's colour where it may go and hatched where it may not.
function ghostLayer(f) {
  const { n, me, ghost, ok, part } = f;
  if (!ghost || !part.to_act) return [];
  return ghost.cells
    .map(parseCell)
    .filter(Boolean)
    .map((xy) =>
      s("rect", {
        x: X(xy[0]) + 2,
        y: Y(xy[1], n) + 2,
        width: CELL - 4,
        height: CELL - 4,
        class: ok ? "ghost ok" : "ghost bad",
        fill: ok ? COLORS[me] : "url(#fm-bad)",
        opacity: ok ? 0.55 : 0.9,
        stroke: ok ? "#000" : "#d55e00",
        "stroke-width": 2,
        "pointer-events": "none",
      }),
    );
}

// A hint becomes the player's own choice once: its placement's piece, orientation and square are shown
// (before a touch-move pick the hint is the pick and the placement it leads to). The hint's moves, or null.
function takeHint(st, hint) {
  if (!hint || !tables) return null;
  const place = /^(\S+) (r\df?) @ ([a-t]\d{1,2})$/.exec(hint[hint.length - 1]);
  const pc = place && tables.pieces.find((q) => q.name === place[1]);
  if (!pc) return null;
  if (st.hinted !== hint.join(" ")) {
    st.hinted = hint.join(" ");
    st.piece = pc.name;
    st.k = Math.max(0, [0, 1, 2, 3, 4, 5, 6, 7].find((k) => pc.orients[pc.of_k[k]].text === place[2]) ?? 0);
    st.cursor = parseCell(place[3]);
    st.tapped = true;
    st.preview = null;
    st.askHint = true; // its points are asked of the server, as for the player's own choice
  }
  return hint;
}

// The ghost of the chosen piece at the cursor (needs the piece tables).
function ghostOf(st, n) {
  if (!st.piece || !tables) return null;
  return lib.ghostOf(
    tables.pieces.find((p) => p.name === st.piece),
    st.k,
    st.cursor,
    n,
  );
}

/** The newest touch-move pick that fits nowhere, told from the history (see lib/forma.js), or null. */
export function lostPicks(st, v, ctx) {
  return lib.lostPicks(st, v, ctx, t);
}
