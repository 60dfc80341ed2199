// Forma board: the 19x19 (20x20) board with coordinates, obstacles, tower, pieces and markers; the piece tray
// (pieces used up greyed); rotate and flip; a ghost at the chosen cell, marked legal or illegal; and the
// points the placement would earn, asked of the server (a "preview": the engine applies the move to a copy
// of the state) before it is confirmed. Keyboard: arrows move the cursor, R rotates, F flips, [ and ] choose
// the piece, Enter places (after the preview). Colours are never the only signal: each player's squares carry
// a letter pattern and markers a shape. Bridges are drawn from the view's bridge_paths (lines with the
// owner's letter at both ends), highlighted when the last move scored them, dashed when a preview would.
// Set-up (the view's "placing"): the starting player taps squares to place the obstacles and the tower
// (allowed squares dotted, the server's legal actions), or fills the rest at random. Touch-move: a piece may
// be tried on the board before it is picked up (nothing is sent); once picked it is the only piece, and a
// pick that fits nowhere is announced (found from the history: a pick not followed by that player's
// placement).
import { h, s } from "../dom.js";
import { t } from "../i18n.js";
import * as generic from "./generic.js";

const COLORS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7"]; // Okabe-Ito: colour-blind safe
const MARKS = ["●", "■", "▲", "◆"];
const LETTERS = ["A", "B", "C", "D"];
const CELL = 24;
const PAD = 22;

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

const col = (x) => String.fromCharCode(97 + x);
const cellName = (x, y) => `${col(x)}${y + 1}`;
function parseCell(n) {
  const m = /^([a-t])(\d{1,2})$/.exec(n || "");
  return m ? [m[1].charCodeAt(0) - 97, Number(m[2]) - 1] : null;
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
  const n = v.config.options.size || 19;
  const hadFocus = !!document.activeElement && document.activeElement.id === "fm-board";
  const me = ctx.seat === null || ctx.seat === undefined ? v.current_player : ctx.seat;
  let st = el._fm;
  if (!st || st.seat !== ctx.seat) {
    st = el._fm = {
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
    announceLast(st, v, ctx);
    st.version = ctx.msg.version;
    st.preview = null;
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
  const ghost = setupMode ? null : ghostOf(st, n);
  const localOk = !!ghost && ghost.inside && ghost.cells.every((c) => !filled(c)) && (!picked || picked === st.piece);
  const text = ghost ? ghost.text : "";
  const pv = st.preview && st.preview.action === text ? st.preview : null;
  const ok = pv ? pv.ok : localOk;

  const Y = (row) => PAD + (n - 1 - row) * CELL;
  const X = (x) => PAD + x * CELL;
  const out = [];
  out.push(
    s(
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
    ),
  );
  for (let x = 0; x < n; x++) {
    out.push(s("text", { x: X(x) + CELL / 2, y: PAD - 6, class: "coord", "text-anchor": "middle" }, col(x)));
    out.push(
      s("text", { x: X(x) + CELL / 2, y: PAD + n * CELL + 15, class: "coord", "text-anchor": "middle" }, col(x)),
    );
  }
  for (let y = 0; y < n; y++) {
    out.push(s("text", { x: PAD - 4, y: Y(y) + CELL * 0.7, class: "coord", "text-anchor": "end" }, String(y + 1)));
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
          y: Y(y),
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
            d: `M${X(x) + 5} ${Y(y) + CELL - 4} h${CELL - 10} l-3 -${CELL - 10} h-${CELL - 16} z`,
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
              y: Y(y) + CELL * 0.7,
              "text-anchor": "middle",
              fill: "#fff",
              "font-size": 12,
              "pointer-events": "none",
            },
            "✕",
          ),
        );
      }
      if (st.fresh && st.fresh.has(c)) {
        out.push(
          s("circle", {
            cx: X(x) + CELL / 2,
            cy: Y(y) + CELL / 2,
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
            cy: Y(y) + CELL / 2,
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
              y: Y(y) + CELL * 0.72,
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
            y: Y(y) + 1.5,
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
  // Bridges: a line through the cells of each one, in the owner's colour over a white halo, with the
  // owner's letter in a circle at both ends (so colour is not the only cue); those the last move scored
  // are thicker and haloed yellow, and those the previewed placement would add are dashed.
  const centre = (c) => {
    const xy = parseCell(c);
    return xy ? [X(xy[0]) + CELL / 2, Y(xy[1]) + CELL / 2] : null;
  };
  const bridgeLine = (cells, p, kind) => {
    const pts = cells.map(centre).filter(Boolean);
    if (pts.length < 2) return;
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
    const label = t("forma.bridgeOf", { name: ctx.seatName(p), from: cells[0], to: cells[cells.length - 1] });
    out.push(
      s(
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
      ),
    );
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
    const xy = parseCell(c);
    if (st.cursor[0] === xy[0] && st.cursor[1] === xy[1] && ok && pv) {
      place();
      return;
    } // a second tap confirms
    st.cursor = xy;
    rerender(true);
  });
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
    if (refresh && part.to_act && ghostOf(st, n)) ask();
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
        : h("span", { class: "bad" }, `✕ ${t("forma.cannot", { move: text })}`),
    );
  } else if (part.to_act && ghost) {
    if (pv && pv.ok)
      info.append(
        h("strong", {}, t("forma.wouldEarn", { move: pv.action, points: pv.delta })),
        " ",
        breakdown(pv, v, me),
      );
    else if (pv) info.append(h("span", { class: "bad" }, `✕ ${pv.message}`));
    else info.append(localOk ? `${text} …` : h("span", { class: "bad" }, `✕ ${t("forma.cannot", { move: text })}`));
  } else if (!part.to_act) info.append(t("forma.waiting"));
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
    { ...ctx, hideText: true },
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
  if (el._generic && pv && pv.ok) el._generic.input.value = pv.action;
  if (st.focus || hadFocus) {
    svg.focus();
    st.focus = false;
  }
}

function ghostOf(st, n) {
  if (!st.piece || !tables) return null;
  const pc = tables.pieces.find((p) => p.name === st.piece);
  if (!pc) return null;
  const o = pc.orients[pc.of_k[st.k]];
  const [ax, ay] = st.cursor;
  let inside = true;
  const cells = o.cells.map(([dx, dy]) => {
    const x = ax + dx,
      y = ay + dy;
    if (x < 0 || y < 0 || x >= n || y >= n) inside = false;
    return cellName(x, y);
  });
  return { cells, inside, text: `${pc.name} ${o.text} @ ${cellName(ax, ay)}` };
}

// Square symmetries as k = quarter turns clockwise + 4 * mirrored (the notation's r<k>[f]).
function rotate(k) {
  return k < 4 ? (k + 1) % 4 : 4 + ((k + 3) % 4);
}
function flip(k) {
  return k < 4 ? k + 4 : k - 4;
}

function mini(cells, color) {
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

function breakdown(pv, v, me) {
  const a = pv.view.players[me],
    b = v.players[me];
  const cells = a.pieces.length - b.pieces.length;
  const enclosed = a.markers.length - b.markers.length;
  const bridges = a.bridges - b.bridges;
  const rest = pv.delta - cells - 10 * enclosed - 50 * bridges;
  const parts = [t("forma.cells", { n: cells })];
  if (enclosed) parts.push(t("forma.enclosures", { n: enclosed, p: 10 * enclosed }));
  if (bridges)
    parts.push(bridges === 1 ? t("forma.bridgeOne", { p: 50 }) : t("forma.bridgePts", { n: bridges, p: 50 * bridges }));
  if (rest) parts.push(t("forma.towerObstacles", { p: rest }));
  return `(${parts.join(", ")})`;
}

// Bridges that appeared with the last move (keyed "player:cells"), to highlight them; none on the first view.
function freshBridges(st, v) {
  const now = new Set();
  v.players.forEach((pl, p) => (pl.bridge_paths || []).forEach((cells) => now.add(`${p}:${cells.join(" ")}`)));
  const prev = st.bridgeSet,
    before = st.bridgeCounts;
  const counts = v.players.map((pl) => pl.bridges);
  st.bridgeSet = now;
  st.bridgeCounts = counts;
  if (!prev || !before) return new Set();
  const grew = counts.map((c, p) => c > before[p]);
  // Only a player whose count grew scored: another path of an old bridge found by the search is not new.
  return new Set([...now].filter((k) => !prev.has(k) && grew[Number(k.split(":")[0])]));
}

// Markers that appeared with the last move (the enclosures it scored), to ring them on the board.
function freshMarkers(st, v) {
  const now = v.players.map((p) => p.markers);
  const prev = st.markers;
  st.markers = now;
  if (!prev) return new Set();
  const out = new Set();
  now.forEach((ms, p) =>
    ms.forEach((c) => {
      if (!(prev[p] || []).includes(c)) out.add(c);
    }),
  );
  st.enclosed = out.size;
  return out;
}

function announceLast(st, v, ctx) {
  const scores = v.players.map((p) => p.score);
  const prev = st.scores;
  st.scores = scores;
  const bridges = v.players.map((p) => p.bridges);
  const before = st.bridges;
  st.bridges = bridges;
  st.banner = null;
  if (before) {
    bridges.forEach((b, p) => {
      if (b > before[p]) st.banner = t("forma.bridgeBanner", { name: ctx.seatName(p), n: b - before[p] });
    });
  }
  if (!prev || !ctx.announce) return;
  const entry = ctx.msg.history[ctx.msg.history.length - 1];
  if (!entry || entry.player < 0) return;
  const gain = scores[entry.player] - prev[entry.player];
  const enclosing = st.enclosed ? t("forma.enclosing", { n: st.enclosed }) : "";
  ctx.announce(
    t("announce.move", {
      name: ctx.seatName(entry.player),
      move: entry.action + enclosing,
      points: gain >= 0 ? `+${gain}` : `${gain}`,
    }),
  );
}

// Touch-move picks that fit nowhere, from the history: a "pick X" not followed by that player's placement
// (the next entry is another pick, another player's action, or none while nothing is in hand). The newest
// one since the last placement is told (a placement ends the news), or null.
export function lostPicks(st, v, ctx) {
  const hist = ctx.msg.history || [];
  let from = 0;
  hist.forEach((e, i) => {
    if (e.player >= 0 && / @ /.test(e.action)) from = i + 1;
  });
  let out = null;
  for (let i = from; i < hist.length; i++) {
    const e = hist[i];
    if (e.player < 0 || !/^pick \S+$/.test(e.action)) continue;
    const next = hist[i + 1];
    if (!next && v.picked) continue; // still in hand: it fits
    const again = next ? next.player === e.player : v.current_player === e.player && !!v.misses;
    out = t(again ? "forma.lostAgain" : "forma.lostPass", { who: ctx.seatName(e.player), name: e.action.slice(5) });
  }
  return out;
}
