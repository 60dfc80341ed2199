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

const FILL = { R: "#d55e00", O: "#e69f00", Y: "#f0e442", G: "#009e73", B: "#0072b2", P: "#8e5aa8" };
const INK = { R: "#fff", O: "#000", Y: "#000", G: "#fff", B: "#fff", P: "#fff" };
const C = 40;
const SHAPE_WORD = { "●": "circle", "■": "square", "◆": "diamond", "♣": "clover", "✦": "star4", "✸": "star8" };

// A cube in words for the labels and lines a player reads ("blue diamond"; Dutch "ruit, blauw"): its colour,
// and its shape as the engine's refusals name it. A cube's code ("B◆") is the notation.
const cubeWords = (c) =>
  t("qc.cube", { colour: t(`qc.colour.${c[0]}`), shape: t(`error.engine.qwirkle.${SHAPE_WORD[c.slice(1)]}`) });

function cube(c, x, y, size, extra = {}) {
  const col = c[0];
  return s(
    "g",
    { transform: `translate(${x},${y})`, ...extra },
    s("rect", { width: size - 2, height: size - 2, x: 1, y: 1, rx: 5, fill: FILL[col] || "#ccc", stroke: "#222" }),
    s(
      "text",
      {
        x: size / 2,
        y: size * 0.66,
        "text-anchor": "middle",
        "font-size": size * 0.5,
        fill: INK[col] || "#000",
        "pointer-events": "none",
      },
      c.slice(1),
    ),
    s(
      "text",
      {
        x: 4,
        y: size * 0.3,
        "font-size": size * 0.22,
        fill: INK[col] || "#000",
        "pointer-events": "none",
        "font-weight": 700,
      },
      col,
    ),
  );
}

// A cube in the hand. Its label names the colour letter drawn on the cube as well as the cube in words, so
// the name holds the text a player sees (what speech input says: WCAG's label in name).
function cubeButton(c, attrs, label) {
  return h(
    "button",
    { type: "button", class: "cube", "aria-label": label, ...attrs },
    s("svg", { viewBox: "0 0 40 40", width: 36, height: 36, "aria-hidden": "true" }, cube(c, 0, 0, 40)),
  );
}

export function render(el, ctx) {
  const part = ctx.part;
  const v = part && part.view;
  if (!v || !v.table || !v.hands) {
    generic.render(el, ctx);
    return;
  }
  const me = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat;
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
  const legal = part.to_act ? part.legal || [] : [];
  const complete = !!part.to_act && (part.legal_count ?? legal.length) <= legal.length;
  const placing = v.phase === "place" && part.to_act;
  const rerolling = v.phase === "reroll" && part.to_act;
  const hand = me !== null ? v.hands[me] || [] : [];
  if (takeHint(st, ctx.hint, hand) && placing) setTimeout(() => ask(), 0);
  const used = new Set(st.chosen.map((c) => c.hand));
  const chosenToks = st.chosen.map((c) => `${c.cube}@${c.x},${c.y}`);
  const plays = placing ? legal.filter((a) => a.includes("@")).map((a) => ({ text: a, toks: tokens(a) })) : [];
  const fits = plays.filter((p) => chosenToks.every((tk) => p.toks.includes(tk)));
  const exact = fits.find((p) => p.toks.length === chosenToks.length) || null;
  // The play to send: a listed legal play, or (when the list is cut short) the chosen cubes themselves.
  const playable = exact ? exact.text : !complete && st.chosen.length ? chosenToks.join(" ") : null;
  const table = new Map(v.table.map(([x, y, c]) => [`${x},${y}`, c]));
  st.chosen.forEach((c) => table.set(`${c.x},${c.y}`, c.cube));
  // Squares where the picked cube may go, given the cubes already chosen (from the listed legal plays).
  const targets = new Map();
  if (st.pick !== null) {
    const want = hand[st.pick];
    for (const p of fits) {
      for (const tk of p.toks) {
        const o = parseTok(tk);
        if (o.cube === want && !chosenToks.includes(tk)) targets.set(`${o.x},${o.y}`, true);
      }
    }
  }
  // Pan and zoom: a viewBox centred on st.center with st.zoom (cells across).
  const cells = [...table.keys()].map((k) => k.split(",").map(Number));
  if (!st.center) {
    const xs = cells.map((c) => c[0]),
      ys = cells.map((c) => c[1]);
    st.center = cells.length
      ? [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2]
      : [0, 0];
    st.zoom = Math.max(
      7,
      Math.min(
        24,
        (cells.length ? Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) : 0) + 5,
      ),
    );
  }
  const vw = st.zoom * C;
  const vb = [st.center[0] * C - vw / 2, -st.center[1] * C - vw / 2, vw, vw];
  const out = [];
  // Empty squares next to the table (where a play may go) are drawn faintly; targets strongly.
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
  for (const k of around) {
    const [x, y] = k.split(",").map(Number);
    const isT = targets.has(k);
    out.push(
      s("rect", {
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
        "aria-label": isT ? t("qc.placeAt", { cube: cubeWords(hand[st.pick]), at: k }) : undefined,
      }),
    );
    if (isT)
      out.push(
        s(
          "text",
          {
            x: x * C + C / 2,
            y: -y * C + C * 0.62,
            "text-anchor": "middle",
            "font-size": 16,
            "pointer-events": "none",
          },
          "+",
        ),
      );
  }
  const lastSet = new Set((v.last_cells || []).map((c) => `${c[0]},${c[1]}`));
  for (const [k, c] of table) {
    const [x, y] = k.split(",").map(Number);
    const mine = st.chosen.some((q) => q.x === x && q.y === y);
    out.push(
      cube(c, x * C, -y * C, C, { class: mine ? "new" : "", "data-at": k, "aria-label": `${cubeWords(c)} ${k}` }),
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
  const svg = s(
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
  attachPanZoom(svg, st, () => render(el, ctx));
  const tap = (k) => {
    st.refusal = null;
    if (playable && st.chosen.some((c) => `${c.x},${c.y}` === k)) {
      ctx.play(playable); // a tap on a chosen cube confirms the play
      return;
    }
    if (st.pick !== null && !targets.has(k) && !table.has(k)) explain(k);
    if (!targets.has(k) || st.pick === null) return;
    const [x, y] = k.split(",").map(Number);
    st.chosen.push({ hand: st.pick, cube: hand[st.pick], x, y });
    st.pick = null; // pick the next cube (or confirm)
    st.preview = null;
    render(el, ctx);
    ask();
  };
  svg.addEventListener("click", (e) => {
    if (st.dragged) return;
    const at = e.target && e.target.closest ? e.target.closest("[data-at]") : null; // a square, or a cube's part
    if (at) tap(at.getAttribute("data-at"));
  });
  svg.addEventListener("keydown", (e) => {
    const k = e.target && e.target.getAttribute && e.target.getAttribute("data-at");
    if ((e.key === "Enter" || e.key === " ") && k) {
      e.preventDefault();
      tap(k);
      el.querySelector("#qc-confirm, .target")?.focus();
    }
  });
  // The picked cube cannot go on that square: the engine says why (a line's colour or shape, a gap...).
  function explain(k) {
    if (!ctx.preview) return;
    const toks = [...chosenToks, `${hand[st.pick]}@${k}`];
    ctx.preview(toks.join(" ")).then((r) => {
      if (r && !r.ok && st.version === ctx.msg.version) {
        st.refusal = r.message;
        render(el, ctx);
      }
    });
  }
  function ask() {
    const toks = st.chosen.map((c) => `${c.cube}@${c.x},${c.y}`);
    const match = plays.find((p) => p.toks.length === toks.length && toks.every((tk) => p.toks.includes(tk)));
    const text = match ? match.text : !complete && toks.length ? toks.join(" ") : null;
    if (!text || !ctx.preview) return;
    ctx.preview(text).then((r) => {
      if (r && st.version === ctx.msg.version) {
        st.preview = r;
        render(el, ctx);
      }
    });
  }

  // Hands: mine first and interactive; the others open too.
  const handsBox = h(
    "div",
    { class: "hands" },
    v.hands.map((hd, p) => {
      const mineRow = p === me;
      return h(
        "div",
        { class: `hand${mineRow ? " mine" : ""}`, id: mineRow ? "qc-hand" : undefined },
        h(
          "span",
          { class: "who" },
          h("span", { class: "swatch", style: "background:#555" }, String(p + 1)),
          ` ${ctx.seatName(p)}: ${v.points[p]}`,
        ),
        h(
          "div",
          { class: "row cubes", role: "group", "aria-label": t("qc.handOf", { name: ctx.seatName(p) }) },
          hd.map((c, i) => {
            if (!mineRow || !(placing || rerolling)) return cubeButton(c, { disabled: true, tabindex: -1 }, c);
            if (rerolling) {
              const on = st.reroll.has(i);
              return cubeButton(
                c,
                {
                  class: `cube${on ? " chosen" : ""}`,
                  "aria-pressed": on ? "true" : "false",
                  "data-i": i,
                  onclick: () => {
                    if (on) st.reroll.delete(i);
                    else st.reroll.add(i);
                    render(el, ctx);
                  },
                },
                t("qc.rerollCube", { cube: cubeWords(c), letter: c[0], n: i + 1 }),
              );
            }
            const isUsed = used.has(i);
            return cubeButton(
              c,
              {
                class: `cube${st.pick === i ? " chosen" : ""}${isUsed ? " used" : ""}`,
                disabled: isUsed,
                "aria-pressed": st.pick === i ? "true" : "false",
                "data-i": i,
                onclick: () => {
                  st.pick = st.pick === i ? null : i;
                  render(el, ctx);
                  if (st.pick !== null) el.querySelector("#qc-table .target")?.focus();
                },
              },
              t("qc.pickCube", { cube: cubeWords(c), letter: c[0], n: i + 1 }),
            );
          }),
        ),
      );
    }),
  );
  const bag = h("p", { class: "help", id: "qc-bag" }, t("qc.bag", { n: v.bag_size }));
  const info = h("p", { class: "help", id: "qc-info", "aria-live": "polite" });
  if (st.refusal) info.append(generic.refusalNote(st.refusal), " ");
  const controls = [];
  if (rerolling) {
    const sel = [...st.reroll].sort((a, b) => a - b).map((i) => i + 1);
    info.append(t("qc.rerollHelp"));
    const rollHinted = !!(ctx.hint && ctx.hint[0] === `reroll ${sel.join(",")}`);
    controls.push(
      h(
        "button",
        {
          type: "button",
          id: "qc-roll",
          class: rollHinted ? "hinted" : "",
          disabled: !sel.length,
          onclick: () => ctx.play(`reroll ${sel.join(",")}`),
        },
        t("qc.roll", { n: sel.length }),
      ),
    );
    const keepHinted = !!(ctx.hint && ctx.hint[0] === "keep");
    controls.push(
      h(
        "button",
        { type: "button", id: "qc-keep", class: keepHinted ? "hinted" : "secondary", onclick: () => ctx.play("keep") },
        t("qc.keep"),
      ),
    );
  }
  const passHinted = !!(ctx.hint && ctx.hint[0] === "pass");
  if (placing) {
    if (st.pick === null && !st.chosen.length) info.append(t("qc.placeHelp"));
    else if (st.pick !== null && !targets.size)
      info.append(h("span", { class: "bad" }, t("qc.noSpot", { cube: cubeWords(hand[st.pick]) })));
    const pv = st.preview;
    if (pv && pv.ok) {
      const q = pv.view && pv.view.last ? pv.view.last.qwirkles : 0;
      info.append(h("strong", {}, t("qc.wouldScore", { points: pv.delta })), q ? ` — ${t("qc.qwirkle")}` : "");
    } else if (pv) info.append(h("span", { class: "bad" }, pv.message));
    const text = playable;
    controls.push(
      h(
        "button",
        { type: "button", id: "qc-confirm", disabled: !text, onclick: () => ctx.play(text) },
        t("qc.confirm"),
      ),
    );
    controls.push(
      h(
        "button",
        {
          type: "button",
          id: "qc-clear",
          class: "secondary",
          disabled: !st.chosen.length,
          onclick: () => {
            st.chosen = [];
            st.preview = null;
            render(el, ctx);
          },
        },
        t("qc.takeBack"),
      ),
    );
    if (legal.includes("pass"))
      controls.push(
        h(
          "button",
          {
            type: "button",
            id: "qc-pass",
            class: passHinted ? "hinted" : "secondary",
            onclick: () => ctx.play("pass"),
          },
          t("qc.pass"),
        ),
      );
  } else if (part.to_act && legal.includes("pass")) {
    controls.push(
      h(
        "button",
        { type: "button", id: "qc-pass", class: passHinted ? "hinted" : "", onclick: () => ctx.play("pass") },
        t("qc.pass"),
      ),
    );
  }
  const zoom = h(
    "div",
    { class: "row zoom" },
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        "aria-label": t("qc.zoomIn"),
        onclick: () => {
          st.zoom = Math.max(4, st.zoom - 2);
          render(el, ctx);
        },
      },
      "+",
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        "aria-label": t("qc.zoomOut"),
        onclick: () => {
          st.zoom = Math.min(40, st.zoom + 2);
          render(el, ctx);
        },
      },
      "−",
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        onclick: () => {
          st.center = null;
          render(el, ctx);
        },
      },
      t("qc.centre"),
    ),
  );
  const banner = st.celebrate ? h("div", { class: "banner", role: "status" }, st.celebrate) : null;
  generic.render(
    el,
    { ...ctx, hideText: true, chosen: playable || "" },
    h("div", {}, banner, svg, zoom, info, h("div", { class: "row" }, controls), handsBox, bag),
  );
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

function attachPanZoom(svg, st, redraw) {
  const pts = new Map();
  let start = null;
  const scale = () => (st.zoom * C) / (svg.getBoundingClientRect().width || 1);
  svg.addEventListener("pointerdown", (e) => {
    pts.set(e.pointerId, [e.clientX, e.clientY]);
    st.dragged = false;
    start = { center: [...st.center], zoom: st.zoom, pts: new Map([...pts].map(([k, v]) => [k, [...v]])) };
  });
  svg.addEventListener("pointermove", (e) => {
    if (!pts.has(e.pointerId) || !start) return;
    pts.set(e.pointerId, [e.clientX, e.clientY]);
    const ids = [...pts.keys()];
    if (ids.length === 1) {
      const [x0, y0] = start.pts.get(ids[0]) || [e.clientX, e.clientY];
      const dx = e.clientX - x0,
        dy = e.clientY - y0;
      if (Math.abs(dx) + Math.abs(dy) < 6 && !st.dragged) return;
      st.dragged = true;
      const k = scale() / C;
      st.center = [start.center[0] - dx * k, start.center[1] + dy * k];
      setBox(svg, st);
    } else if (ids.length === 2) {
      const d = (m) => {
        const [a, b] = ids.map((i) => m.get(i));
        return a && b ? Math.hypot(a[0] - b[0], a[1] - b[1]) : 0;
      };
      const d0 = d(start.pts),
        d1 = d(pts);
      if (d0 > 0 && d1 > 0) {
        st.dragged = true;
        st.zoom = Math.max(4, Math.min(40, (start.zoom * d0) / d1));
        setBox(svg, st);
      }
    }
  });
  const end = (e) => {
    pts.delete(e.pointerId);
    if (!pts.size) {
      start = null;
      setTimeout(() => {
        st.dragged = false;
      }, 0);
    }
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener(
    "wheel",
    (e) => {
      e.preventDefault();
      st.zoom = Math.max(4, Math.min(40, st.zoom * (e.deltaY > 0 ? 1.15 : 0.87)));
      setBox(svg, st);
    },
    { passive: false },
  );
  void redraw;
}

function setBox(svg, st) {
  const vw = st.zoom * C;
  svg.setAttribute("viewBox", `${st.center[0] * C - vw / 2} ${-st.center[1] * C - vw / 2} ${vw} ${vw}`);
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
