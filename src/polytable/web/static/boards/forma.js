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
import { cellName, parseCell, rotate, flip, freshBridges, freshMarkers } from "../lib/forma.js";
import { COLORS, LETTERS, CELL, PAD, patternDefs, cellLayer, bridgeShape, mini } from "./parts/forma-draw.js";

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
  const n = v.config.options.size; // the board size the game was made with (the view carries every option)
  const hadFocus = !!document.activeElement && document.activeElement.id === "fm-board";
  const me = ctx.seat === null || ctx.seat === undefined ? v.current_player : ctx.seat;
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
  const mine = v.players[me] || v.players[0];
  const stock = mine.stock || {};
  const picked = v.picked;
  const legal = part.to_act ? part.legal || [] : [];
  const setupMode = !!v.placing;
  const pickMode = legal.some((a) => a.startsWith("pick "));
  const lost = setupMode ? null : lostPicks(st, v, ctx);
  if (picked) st.piece = picked;
  if (st.piece && !stock[st.piece]) st.piece = null;
  if (!st.piece) st.piece = Object.keys(stock)[0] || null;
  const hintMoves = takeHint(st, part.to_act ? ctx.hint : null);

  // What fills each cell.
  const setup = v.setup || "";
  const tower = (/tower ([a-t]\d+)/.exec(setup) || [])[1];
  const obstacles = new Set(((/obstacles ([a-t0-9 ]+)/.exec(setup) || [])[1] || "").split(" ").filter(Boolean));
  const owner = new Map();
  const marker = new Map();
  v.players.forEach((pl, p) => {
    pl.pieces.forEach((c) => owner.set(c, p));
    pl.markers.forEach((c) => marker.set(c, p));
  });
  const last = new Set(v.last || []);
  const closed = new Set(v.closed || []);
  const filled = (c) => owner.has(c) || marker.has(c) || obstacles.has(c) || c === tower;

  const kinds = setupMode ? ["obstacle", "tower"].filter((k) => legal.some((a) => a.startsWith(`${k} `))) : [];
  if (!kinds.includes(st.kind)) st.kind = kinds[0] || "obstacle";
  const allowed = new Set(
    setupMode ? legal.filter((a) => a.startsWith(`${st.kind} `)).map((a) => a.split(" ")[1]) : [],
  );
  const ghost = setupMode || !st.tapped ? null : ghostOf(st, n);
  const localOk = !!ghost && ghost.inside && ghost.cells.every((c) => !filled(c)) && (!picked || picked === st.piece);
  const text = ghost ? ghost.text : "";
  const pv = st.preview && st.preview.action === text ? st.preview : null;
  const ok = pv ? pv.ok : localOk;

  const Y = (row) => PAD + (n - 1 - row) * CELL;
  const X = (x) => PAD + x * CELL;
  const out = [];
  out.push(patternDefs());
  out.push(...cellLayer(n, { owner, marker, obstacles, closed, tower, fresh: st.fresh, allowed, last }));
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
  if (ghost && part.to_act) {
    for (const c of ghost.cells) {
      const xy = parseCell(c);
      if (!xy) continue;
      out.push(
        s("rect", {
          x: X(xy[0]) + 2,
          y: Y(xy[1]) + 2,
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
  }
  const [cx, cy] = st.cursor;
  out.push(
    s("rect", {
      x: X(cx),
      y: Y(cy),
      width: CELL,
      height: CELL,
      fill: "none",
      stroke: "#f1c453",
      "stroke-width": 3,
      "pointer-events": "none",
      class: "cursor",
    }),
  );
  const svg = s(
    "svg",
    {
      viewBox: `0 0 ${n * CELL + PAD * 2} ${n * CELL + PAD * 2}`,
      class: "svgboard",
      id: "fm-board",
      tabindex: 0,
      role: "application",
      "aria-roledescription": t("board"),
      "aria-label": t("forma.boardLabel", { n, cell: cellName(cx, cy), what: describeCell(cellName(cx, cy)) }),
    },
    out,
  );
  svg.addEventListener("click", (e) => {
    const c = e.target && e.target.getAttribute && e.target.getAttribute("data-cell");
    if (!c || !part.to_act) return;
    if (setupMode) {
      placeSetup(c);
      return;
    }
    if (ghost && ghost.cells.includes(c) && tapGhost()) return; // a tap on the shown piece plays it
    st.cursor = parseCell(c);
    st.tapped = true;
    rerender(true);
  });
  // The shown piece played: a hint's moves, a placement the preview found legal, or (touch-move, before
  // the pick) the tried piece picked up and placed there at once.
  function tapGhost() {
    if (hintMoves && ghost.text === hintMoves[hintMoves.length - 1]) return ctx.playAll(hintMoves) || true;
    if (ok && pv) {
      place();
      return true;
    }
    if (pickMode && !picked && localOk) return ctx.playAll([`pick ${st.piece}`, ghost.text]) || true;
    return false;
  }
  svg.addEventListener("keydown", (e) => {
    const k = e.key;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (moves[k]) {
      st.cursor = [Math.max(0, Math.min(n - 1, cx + moves[k][0])), Math.max(0, Math.min(n - 1, cy + moves[k][1]))];
    } else if (k === "r" || k === "R") st.k = rotate(st.k);
    else if (k === "f" || k === "F") st.k = flip(st.k);
    else if (k === "]" || k === "[") cyclePiece(k === "]" ? 1 : -1);
    else if (k === "Enter" || k === " ") {
      if (setupMode) placeSetup(cellName(cx, cy));
      else if (ok && pv) place();
      else ask();
    } else return;
    e.preventDefault();
    st.focus = true;
    st.tapped = true;
    rerender(true);
  });

  function describeCell(c) {
    const bridged = v.players.findIndex((pl) => (pl.bridge_paths || []).some((cells) => cells.includes(c)));
    if (bridged >= 0) return `${describeFill(c)}, ${t("forma.onBridge", { name: ctx.seatName(bridged) })}`;
    return describeFill(c);
  }
  function describeFill(c) {
    if (c === tower) return t("forma.tower");
    if (obstacles.has(c)) return t("forma.obstacle");
    if (owner.has(c)) return t("forma.pieceOf", { name: ctx.seatName(owner.get(c)) });
    if (marker.has(c)) return t("forma.markerOf", { name: ctx.seatName(marker.get(c)) });
    return t("forma.free");
  }
  function cyclePiece(d) {
    const names = Object.keys(stock);
    if (!names.length || picked) return;
    st.piece = names[(names.indexOf(st.piece) + d + names.length) % names.length];
  }
  // A set-up tap: sent when the server lists it; otherwise the server's reason is shown (nothing is sent).
  function placeSetup(c) {
    const text = `${st.kind} ${c}`;
    if (legal.includes(text)) {
      ctx.play(text);
      return;
    }
    st.setupError = null;
    if (!ctx.preview) return;
    ctx.preview(text).then((r) => {
      if (!r || st.version !== ctx.msg.version) return;
      st.setupError = r.ok ? null : r.message;
      render(el, ctx);
    });
  }
  function ask() {
    const g = ghostOf(st, n);
    if (!g || !part.to_act || !ctx.preview) return;
    if (setupMode || (pickMode && !picked)) return; // touch-move: trying a piece before picking it up asks nothing
    const want = g.text;
    ctx.preview(want).then((r) => {
      if (!r || ghostOf(st, n)?.text !== want || st.version !== ctx.msg.version) return;
      st.preview = r;
      rerender(false);
    });
  }
  function place() {
    if (!pv || !pv.ok) return;
    ctx.play(pv.action);
  }
  function rerender(refresh) {
    if (refresh) {
      st.preview = null;
    }
    render(el, ctx);
    if (refresh && part.to_act && st.tapped && ghostOf(st, n)) ask();
  }

  // The tray: every piece with its count; used-up pieces greyed (still shown, so everyone sees what is gone).
  const tray = h(
    "div",
    { class: "tray", id: "fm-tray", role: "group", "aria-label": t("forma.tray") },
    tables.pieces.map((pc) => {
      const left = stock[pc.name] || 0;
      const o = pc.orients[pc.name === st.piece ? pc.of_k[st.k] : 0];
      const sel = pc.name === st.piece;
      return h(
        "button",
        {
          type: "button",
          class: `piece${sel ? " chosen" : ""}${left ? "" : " used"}`,
          "data-piece": pc.name,
          "aria-pressed": sel ? "true" : "false",
          disabled: !left || (picked && picked !== pc.name),
          "aria-label": `${pc.name}×${left}: ${t("forma.pieceButton", { name: pc.name, left })}`,
          onclick: () => {
            if (st.piece !== pc.name) st.k = 0;
            st.piece = pc.name;
            st.tapped = true;
            rerender(true);
          },
        },
        mini(o.cells, sel ? COLORS[me] : "#777"),
        h("span", { class: "count" }, `${pc.name}×${left}`),
      );
    }),
  );
  const scores = h(
    "div",
    { class: "row scores" },
    v.players.map((pl, p) =>
      h(
        "span",
        { class: `seat${v.current_player === p ? " acting" : ""}` },
        h("span", { class: "swatch", style: `background:${COLORS[p]}` }, LETTERS[p]),
        `${ctx.seatName(p)}: ${pl.score}`,
        pl.bridges ? ` (${t("forma.bridges", { n: pl.bridges })})` : "",
      ),
    ),
  );
  const info = h("p", { class: "help", id: "fm-info", "aria-live": "polite" });
  if (setupMode) {
    const left = v.obstacles_left || 0;
    if (part.to_act) {
      info.append(
        t(v.tower_placed ? "forma.setupObstacles" : left ? "forma.setupBoth" : "forma.setupTower", { n: left }),
      );
      if (st.setupError) info.append(" ", h("span", { class: "bad", id: "fm-setup-error" }, `✕ ${st.setupError}`));
    } else info.append(t("forma.setupWait", { name: ctx.seatName(v.current_player >= 0 ? v.current_player : 0) }));
  } else if (part.to_act && pickMode && !picked && ghost) {
    info.append(
      localOk
        ? t("forma.tryFirst", { name: st.piece })
        : h("span", { class: "bad" }, `✕ ${t("forma.cannot", { name: st.piece })}`),
    );
  } else if (part.to_act && ghost) {
    if (pv && pv.ok)
      info.append(
        h("strong", {}, t("forma.wouldEarn", { points: pv.delta })),
        " ",
        lib.breakdown(pv, v, me, t, tables.points),
      );
    else if (pv) info.append(generic.refusalNote(pv.message));
    else info.append(localOk ? "…" : h("span", { class: "bad" }, `✕ ${t("forma.cannot", { name: st.piece })}`));
  } else if (part.to_act) info.append(t(pickMode && !picked ? "forma.chooseFirst" : "forma.tapWhere"));
  else info.append(t("forma.waiting"));
  const btn = (id, label, fn, dis = false) =>
    h("button", { type: "button", class: "secondary", id, disabled: dis, onclick: fn }, label);
  const setupControls =
    setupMode && part.to_act
      ? h(
          "div",
          { class: "row", id: "fm-setup" },
          kinds.map((k) =>
            h(
              "button",
              {
                type: "button",
                class: st.kind === k ? "" : "secondary",
                id: `fm-kind-${k}`,
                "aria-pressed": st.kind === k ? "true" : "false",
                onclick: () => {
                  st.kind = k;
                  st.setupError = null;
                  render(el, ctx);
                },
              },
              k === "tower" ? t("forma.placeTower") : t("forma.placeObstacle", { n: v.obstacles_left || 0 }),
            ),
          ),
          h(
            "button",
            {
              type: "button",
              class: "secondary",
              id: "fm-fill",
              disabled: !legal.includes("fill"),
              onclick: () => ctx.play("fill"),
            },
            t("forma.fill"),
          ),
        )
      : null;
  const controls =
    part.to_act && !setupMode
      ? h(
          "div",
          { class: "row" },
          btn("fm-rotate", `↻ ${t("forma.rotate")}`, () => {
            st.k = rotate(st.k);
            rerender(true);
          }),
          btn("fm-flip", `⇋ ${t("forma.flip")}`, () => {
            st.k = flip(st.k);
            rerender(true);
          }),
          pickMode && !picked
            ? h(
                "button",
                { type: "button", id: "fm-pick", onclick: () => ctx.play(`pick ${st.piece}`) },
                t("forma.pickUp", { name: st.piece }),
              )
            : null,
          !pickMode
            ? h(
                "button",
                { type: "button", id: "fm-place", disabled: !(pv && pv.ok), onclick: place },
                t("forma.place"),
              )
            : null,
        )
      : null;
  const help = h(
    "p",
    { class: "help" },
    t(setupMode ? "forma.setupHelp" : pickMode && !picked ? "forma.touchHelp" : "forma.keysHelp"),
  );
  const hand =
    picked && part.to_act
      ? h("div", { class: "banner", id: "fm-hand", role: "status" }, t("forma.inHand", { name: picked }))
      : null;
  const lostBanner = lost ? h("div", { class: "banner", role: "status", id: "fm-lost" }, lost) : null;
  // On a phone 19 columns are small: "Zoom" doubles the board inside a scrollable frame (kept across moves).
  const wrap = h("div", { class: `fm-wrap${st.zoom ? " zoomed" : ""}` }, svg);
  const zoomBtn = h(
    "button",
    {
      type: "button",
      class: "secondary",
      id: "fm-zoom",
      "aria-pressed": st.zoom ? "true" : "false",
      onclick: () => {
        st.zoom = !st.zoom;
        render(el, ctx);
      },
    },
    st.zoom ? "−" : "+",
    " ",
    t("forma.zoom"),
  );
  const banner = st.banner ? h("div", { class: "banner", role: "status", id: "fm-banner" }, st.banner) : null;
  generic.render(
    el,
    { ...ctx, hideText: true, chosen: pv && pv.ok ? pv.action : "" },
    h(
      "div",
      {},
      scores,
      banner,
      lostBanner,
      hand,
      wrap,
      info,
      setupControls,
      controls,
      h("div", { class: "row" }, zoomBtn),
      setupMode ? null : tray,
      help,
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
    ask();
  }
  if (st.focus || hadFocus) {
    svg.focus();
    st.focus = false;
  }
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
