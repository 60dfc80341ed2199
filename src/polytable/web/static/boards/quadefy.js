// Quadefy board: a 3D view of the 4x4x4 cube (SVG, turned by dragging, by the arrow buttons or the arrow keys)
// and a layer view (four 4x4 plans, floor first). Choose a block and one of its rotations; squares a legal
// placement of it can cover are tinted; tap one to see such a placement as a ghost; tap the ghost (or Place)
// to place it. A square no placement covers asks the engine why. A hint (ctx.hint) is the same ghost. A tap
// on the 3D view chooses a cell too (see cubeView). The remaining blocks of both players are listed. The
// bonus puzzle sits below: choose a pattern, build it by hand (the engine checks it), or ask for the
// solver's answer. Dark and light blocks differ by fill and lettering, never by colour alone.
import { h } from "../dom.js";
import { t, tError, tSaid } from "../i18n.js";
import * as generic from "./generic.js";
import { OWN, idx, cellText, parseMove as parseMoveWith } from "../lib/quadefy.js";
import { layerView, cubeView } from "./parts/quadefy-views.js";

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
  const me = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat;
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
  const legal = (part.to_act ? part.legal || [] : []).map(parseMove).filter(Boolean);
  const hand = me !== null ? v.in_hand[me] : [];
  if (part.to_act) {
    if (!st.block || !hand.includes(st.block)) st.block = hand[0] || null;
  }
  takeHint(st, ctx.hint && parseMove(ctx.hint[0]), legal);
  const mineLegal = legal.filter((p) => p.block === st.block);
  const rots = [...new Set(mineLegal.map((p) => p.r))].sort((a, b) => a - b);
  if (!rots.includes(st.r)) st.r = rots.length ? rots[0] : null;
  const options = mineLegal.filter((p) => p.r === st.r);
  const reach = new Set(options.flatMap((p) => p.cells));
  const under = st.cell !== null ? options.filter((p) => p.cells.includes(st.cell)) : [];
  const ghost = under.length ? under[st.i % under.length] : null;

  const onCell = (i) => {
    if (!part.to_act) return;
    st.refusal = null;
    if (ghost && ghost.cells.includes(i)) {
      ctx.play(ghost.text); // a tap on the ghost places the block
      return;
    }
    st.cell = i;
    st.i = 0;
    if (!reach.has(i)) explain(i);
    render(el, ctx);
  };
  // No placement of this block in this rotation covers the square: the engine says why.
  const explain = (i) => {
    if (!st.block || st.r === null || !ctx.preview) return;
    ctx.preview(`${st.block} r${st.r} @ ${cellText(i)}`).then((r) => {
      if (r && !r.ok && st.version === ctx.msg.version && st.cell === i) {
        st.refusal = r.message;
        render(el, ctx);
      }
    });
  };
  const layers = layerView(v.cells, {
    ghost: ghost ? ghost.cells : [],
    reach,
    cursor: st.cell,
    onCell,
    id: "qd-layers",
    mover: me ?? 0,
  });
  const cube = cubeView(
    v.cells,
    ghost ? ghost.cells : [],
    me ?? 0,
    st,
    () => render(el, ctx),
    "qd-3d",
    part.to_act ? { reach, cursor: st.cell, onCell } : null,
  );

  const blockBtns = h(
    "div",
    { class: "row", role: "group", "aria-label": t("qd.yourBlocks") },
    hand.map((b) =>
      h(
        "button",
        {
          type: "button",
          class: `secondary blockbtn${st.block === b ? " chosen" : ""}`,
          "aria-pressed": st.block === b ? "true" : "false",
          "data-block": b,
          disabled: !part.to_act,
          onclick: () => {
            st.block = b;
            st.r = null;
            st.cell = null;
            render(el, ctx);
          },
        },
        b,
      ),
    ),
  );
  const rotIdx = rots.indexOf(st.r);
  const rotRow = part.to_act
    ? h(
        "div",
        { class: "row" },
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            id: "qd-rot-prev",
            disabled: rots.length < 2,
            onclick: () => {
              st.r = rots[(rotIdx - 1 + rots.length) % rots.length];
              st.cell = null;
              render(el, ctx);
            },
          },
          `◀ ${t("qd.rotation")}`,
        ),
        h(
          "span",
          { id: "qd-rot" },
          rots.length ? t("qd.rotOf", { i: rotIdx + 1, n: rots.length, places: options.length }) : t("qd.noPlace"),
        ),
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            id: "qd-rot-next",
            disabled: rots.length < 2,
            onclick: () => {
              st.r = rots[(rotIdx + 1) % rots.length];
              st.cell = null;
              render(el, ctx);
            },
          },
          `${t("qd.rotation")} ▶`,
        ),
        h(
          "button",
          { type: "button", id: "qd-place", disabled: !ghost, onclick: () => ghost && ctx.play(ghost.text) },
          t("qd.place"),
        ),
      )
    : null;
  const remaining = h(
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
  const info = h(
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
  const puzzle = puzzlePanel(ctx.keep);
  generic.render(
    el,
    { ...ctx, hideText: true, chosen: ghost ? ghost.text : "" },
    h(
      "div",
      {},
      remaining,
      h("div", { class: "qd-views" }, cube, layers),
      info,
      part.to_act ? blockBtns : null,
      rotRow,
      puzzle,
    ),
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

// One problem the engine found with a puzzle built by hand, in the page's language.
function why(p) {
  const c = { colour: t(p.colour ? "qd.light" : "qd.dark"), block: p.block, cells: p.cells };
  if (p.reason === "uncovered") return t("qd.pzWhyUncovered", { n: p.n });
  if (p.reason === "blocks") return t("qd.pzWhyBlocks", c);
  if (p.reason === "overlap") return t("qd.pzWhyOverlap", c);
  if (p.reason === "colour") return t("qd.pzWhyColour", c);
  if (p.reason === "shape") return t("qd.pzWhyShape", c);
  return p.text || p.reason;
}

// The bonus puzzle: build a pattern with both colours' eight blocks, or ask the server's solver for its
// answer. The page keeps blocks off the other colour's squares as they go down (a solitaire puzzle has
// nothing to hide), but only the engine says "solved": a full cube, or any build on "Check with the rules",
// goes to POST /api/puzzle/quadefy/check.
function puzzlePanel(keep) {
  const ps =
    keep.qdp ||
    (keep.qdp = {
      name: tables.patterns[0].name,
      cells: Array(64).fill(null),
      colour: 0,
      block: "I",
      r: 0,
      answer: null,
      open: false,
      yaw: 35,
      pitch: 30,
    });
  const pat = tables.patterns.find((p) => p.name === ps.name) || tables.patterns[0];
  const dark = new Set(pat.dark);
  const box = h("details", { class: "card", id: "qd-puzzle", open: ps.open });
  box.addEventListener("toggle", () => {
    ps.open = box.open;
  });
  ps.box = box;
  const redraw = () => {
    // the panel now on the page: an answer may come after other redraws
    const cur = ps.box && ps.box.isConnected ? ps.box : box;
    ps.open = cur.open;
    cur.replaceWith(puzzlePanel(keep));
  };
  const used = new Set(
    ps.cells
      .filter(Boolean)
      .filter((c) => c.owner === ps.colour)
      .map((c) => c.block),
  );
  const shown = ps.answer ? ps.answer.cells : ps.cells;
  const onCell = (i) => {
    if (ps.answer) return;
    if (ps.cells[i]) {
      // tap a placed block to take it back
      const { owner, block } = ps.cells[i];
      ps.cells = ps.cells.map((c) => (c && c.owner === owner && c.block === block ? null : c));
      ps.verdict = null;
      ps.msg = "";
      redraw();
      return;
    }
    const b = tables.blocks.find((q) => q.name === ps.block);
    const o = b.orients[ps.r % b.orients.length];
    // The placement of this rotation that covers the tapped cell with its first fitting cube.
    for (const [cx, cy, cz] of o) {
      const x0 = (i % 4) - cx,
        y0 = (Math.floor(i / 4) % 4) - cy,
        z0 = Math.floor(i / 16) - cz;
      const cells = o.map(([x, y, z]) => [x + x0, y + y0, z + z0]);
      if (cells.some(([x, y, z]) => x < 0 || y < 0 || z < 0 || x > 3 || y > 3 || z > 3)) continue;
      const ids = cells.map(([x, y, z]) => idx(x, y, z));
      if (ids.some((j) => ps.cells[j] || dark.has(j) !== (ps.colour === 0))) continue;
      if (used.has(ps.block)) {
        ps.msg = t("qd.pzUsed", { block: ps.block });
        redraw();
        return;
      }
      ids.forEach((j) => {
        ps.cells[j] = { owner: ps.colour, block: ps.block };
      });
      ps.msg = "";
      ps.verdict = null;
      if (ps.cells.every(Boolean)) check();
      else redraw(); // a full cube goes to the engine before "solved"
      return;
    }
    ps.msg = t("qd.pzNoFit");
    redraw();
  };
  // The engine's verdict (POST /api/puzzle/quadefy/check): only it may say "solved"; the page's own checks
  // above only keep obviously wrong blocks out.
  const check = async () => {
    const groups = new Map();
    ps.cells.forEach((c, i) => {
      if (c) {
        const k = `${c.owner}:${c.block}`;
        if (!groups.has(k)) groups.set(k, { colour: c.owner, block: c.block, cells: [] });
        groups.get(k).cells.push(i);
      }
    });
    const asked = JSON.stringify(ps.cells);
    ps.verdict = "pending";
    ps.msg = t("qd.pzChecking");
    redraw();
    try {
      const r = await fetch("/api/puzzle/quadefy/check", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ pattern: ps.name, blocks: [...groups.values()] }),
      });
      const a = await r.json();
      if (!r.ok) throw new Error(tError(a) || String(r.status));
      if (JSON.stringify(ps.cells) !== asked) return; // changed meanwhile: that verdict is stale
      ps.verdict = a.valid ? "ok" : "bad";
      ps.msg = a.valid
        ? t("qd.pzSolved")
        : t("qd.pzRejected", { reason: (a.problems || []).map(why).join("; ") || a.reasons.join("; ") });
    } catch (e) {
      ps.verdict = "bad";
      ps.msg = String(e.message || e);
    }
    redraw();
  };
  const layers = layerView(shown, { tint: dark, onCell, id: "qd-pz-layers" });
  const cube = cubeView(shown, [], 0, ps, redraw, "qd-pz-3d");
  const select = h(
    "select",
    { id: "qd-pattern", "aria-label": t("qd.pattern") },
    tables.patterns.map((p) => h("option", { value: p.name, selected: p.name === ps.name }, `${p.name} — ${p.note}`)),
  );
  select.addEventListener("change", () => {
    ps.name = select.value;
    ps.cells = Array(64).fill(null);
    ps.answer = null;
    ps.msg = "";
    ps.verdict = null;
    redraw();
  });
  const answerBtn = h(
    "button",
    {
      type: "button",
      id: "qd-solve",
      class: "secondary",
      onclick: async () => {
        if (ps.answer) {
          ps.answer = null;
          redraw();
          return;
        }
        try {
          const r = await fetch(`/api/puzzle/quadefy?pattern=${encodeURIComponent(ps.name)}`);
          const a = await r.json();
          if (!r.ok) throw new Error(tError(a));
          ps.answer = a;
          ps.msg = a.solved ? t("qd.pzAnswer", { nodes: a.nodes.join(" + ") }) : t("qd.pzImpossible");
        } catch (e) {
          ps.msg = String(e.message || e);
        }
        redraw();
      },
    },
    ps.answer ? t("qd.pzHide") : t("qd.pzShow"),
  );
  const b = tables.blocks.find((q) => q.name === ps.block);
  const controls = h(
    "div",
    { class: "row" },
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        id: "qd-pz-colour",
        onclick: () => {
          ps.colour = 1 - ps.colour;
          redraw();
        },
      },
      t("qd.pzColour", { c: t(ps.colour ? "qd.light" : "qd.dark") }),
    ),
    tables.blocks.map((q) =>
      h(
        "button",
        {
          type: "button",
          class: `secondary blockbtn${q.name === ps.block ? " chosen" : ""}`,
          "aria-pressed": q.name === ps.block ? "true" : "false",
          disabled: used.has(q.name),
          "data-pzblock": q.name,
          onclick: () => {
            ps.block = q.name;
            ps.r = 0;
            redraw();
          },
        },
        q.name,
      ),
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        id: "qd-pz-rot",
        "data-r": ps.r % b.orients.length,
        onclick: () => {
          ps.r = (ps.r + 1) % b.orients.length;
          redraw();
        },
      },
      `${t("qd.rotation")} ${(ps.r % b.orients.length) + 1}/${b.orients.length}`,
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        onclick: () => {
          ps.cells = Array(64).fill(null);
          ps.msg = "";
          ps.verdict = null;
          redraw();
        },
      },
      t("qd.pzClear"),
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        id: "qd-pz-check",
        disabled: !!ps.answer || !ps.cells.some(Boolean),
        onclick: check,
      },
      t("qd.pzCheck"),
    ),
  );
  box.append(
    h("summary", { class: "button secondary" }, t("qd.puzzle")),
    h("p", { class: "help" }, t("qd.pzHelp")),
    select,
    h("div", { class: "qd-views" }, cube, layers),
    h(
      "p",
      {
        class: `help${ps.verdict === "ok" ? " pz-ok" : ps.verdict === "bad" ? " pz-bad" : ""}`,
        id: "qd-pz-msg",
        "aria-live": "polite",
        "data-verdict": ps.verdict || "",
      },
      ps.verdict === "ok" ? "✓ " : ps.verdict === "bad" ? "✕ " : "",
      ps.msg || "",
    ),
    controls,
    answerBtn,
  );
  return box;
}
