// Quadefy's bonus puzzle (below the board): build a pattern with both colours' eight blocks, or ask the
// server's solver for its answer. The page keeps blocks off the other colour's squares as they go down (a
// solitaire puzzle has nothing to hide), but only the engine says "solved": a full cube, or any build on
// "Check with the rules", goes to POST /api/puzzle/quadefy/check. Its state is lib/quadefy.js's puzzle
// (ctx.keep.qdp); the panel is drawn from it again after every change.
import { h } from "../../dom.js";
import { t, tError } from "../../i18n.js";
import { newPuzzle, puzzleBlocks, puzzleClear, puzzleTap, puzzleUsed } from "../../lib/quadefy.js";
import { layerView, cubeView } from "./quadefy-views.js";

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

// The engine's verdict: only it may say "solved"; the page's own checks only keep obviously wrong blocks out.
async function check(ps, redraw) {
  const asked = JSON.stringify(ps.cells);
  ps.verdict = "pending";
  ps.msg = t("qd.pzChecking");
  redraw();
  try {
    const r = await fetch("/api/puzzle/quadefy/check", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ pattern: ps.name, blocks: puzzleBlocks(ps.cells) }),
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
}

// The solver's answer shown (or hidden again).
async function answer(ps, redraw) {
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
}

// The colour and block in hand, its rotation, clear and check.
function controls(ps, tables, redraw) {
  const used = puzzleUsed(ps);
  const b = tables.blocks.find((q) => q.name === ps.block);
  const set = (fn) => () => {
    fn();
    redraw();
  };
  const button = (attrs, label) => h("button", { type: "button", class: "secondary", ...attrs }, label);
  return h(
    "div",
    { class: "row" },
    button(
      { id: "qd-pz-colour", onclick: set(() => (ps.colour = 1 - ps.colour)) },
      t("qd.pzColour", { c: t(ps.colour ? "qd.light" : "qd.dark") }),
    ),
    tables.blocks.map((q) =>
      button(
        {
          class: `secondary blockbtn${q.name === ps.block ? " chosen" : ""}`,
          "aria-pressed": q.name === ps.block ? "true" : "false",
          disabled: used.has(q.name),
          "data-pzblock": q.name,
          onclick: set(() => {
            ps.block = q.name;
            ps.r = 0;
          }),
        },
        q.name,
      ),
    ),
    button(
      {
        id: "qd-pz-rot",
        "data-r": ps.r % b.orients.length,
        onclick: set(() => (ps.r = (ps.r + 1) % b.orients.length)),
      },
      `${t("qd.rotation")} ${(ps.r % b.orients.length) + 1}/${b.orients.length}`,
    ),
    button({ onclick: set(() => puzzleClear(ps)) }, t("qd.pzClear")),
    button(
      { id: "qd-pz-check", disabled: !!ps.answer || !ps.cells.some(Boolean), onclick: () => check(ps, redraw) },
      t("qd.pzCheck"),
    ),
  );
}

/** The puzzle's panel, drawn from ``keep.qdp`` (made on first use) with the board's ``tables``. */
export function puzzlePanel(keep, tables) {
  const ps = keep.qdp || (keep.qdp = newPuzzle(tables));
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
    cur.replaceWith(puzzlePanel(keep, tables));
  };
  const shown = ps.answer ? ps.answer.cells : ps.cells;
  const onCell = (i) => {
    const done = puzzleTap(ps, i, tables.blocks, dark, t);
    if (done === "full") check(ps, redraw);
    else if (done) redraw();
  };
  const select = h(
    "select",
    { id: "qd-pattern", "aria-label": t("qd.pattern") },
    tables.patterns.map((p) => h("option", { value: p.name, selected: p.name === ps.name }, `${p.name} — ${p.note}`)),
  );
  select.addEventListener("change", () => {
    puzzleClear(ps, select.value);
    ps.answer = null;
    redraw();
  });
  const verdict = ps.verdict === "ok" ? " pz-ok" : ps.verdict === "bad" ? " pz-bad" : "";
  box.append(
    h("summary", { class: "button secondary" }, t("qd.puzzle")),
    h("p", { class: "help" }, t("qd.pzHelp")),
    select,
    h(
      "div",
      { class: "qd-views" },
      cubeView(shown, [], 0, ps, redraw, "qd-pz-3d"),
      layerView(shown, { tint: dark, onCell, id: "qd-pz-layers" }),
    ),
    h(
      "p",
      { class: `help${verdict}`, id: "qd-pz-msg", "aria-live": "polite", "data-verdict": ps.verdict || "" },
      ps.verdict === "ok" ? "✓ " : ps.verdict === "bad" ? "✕ " : "",
      ps.msg || "",
    ),
    controls(ps, tables, redraw),
    h(
      "button",
      { type: "button", id: "qd-solve", class: "secondary", onclick: () => answer(ps, redraw) },
      ps.answer ? t("qd.pzHide") : t("qd.pzShow"),
    ),
  );
  return box;
}
