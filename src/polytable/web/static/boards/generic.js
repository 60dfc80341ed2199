// The generic board: works for every game from its view and legal actions alone. The position is the
// game's own text rendering (monospaced); the legal moves are a searchable grid of buttons; any move can
// also be typed in the game's notation. A tap selects a move; "Play" sends it (no accidental moves).
import { h } from "../dom.js";
import { t } from "../i18n.js";

const SHOW = 240; // buttons drawn at once; the search narrows the rest

export function render(el, ctx, extra = null) {
  let g = el._generic;
  if (!g || !el.contains(g.root)) {
    g = build(el);
    el._generic = g;
  }
  g.ctx = ctx;
  const part = ctx.part || { render: "", legal: [] };
  if (extra) g.extra.replaceChildren(extra);
  else g.extra.replaceChildren();
  g.pre.textContent = part.render;
  g.pre.hidden = !!(extra && ctx.hideText);
  if (!g.pre.hidden && part.render === undefined && ctx.wantText) ctx.wantText(true); // a dedicated board fell back
  const acting = !!part.to_act;
  g.controls.hidden = ctx.seat === null || ctx.seat === undefined || !!ctx.replay;
  g.input.disabled = !acting;
  g.play.disabled = !acting;
  g.undo.hidden = !part.can_undo;
  g.search.hidden = !acting;
  g.form.hidden = !!ctx.msg.over || !!ctx.replay;
  if (g.version !== ctx.msg.version || g.seat !== ctx.seat) {
    g.version = ctx.msg.version;
    g.seat = ctx.seat;
    if (!acting) g.input.value = "";
  }
  fillMoves(g);
}

function build(el) {
  const pre = h("pre", { class: "board", id: "board-text", "aria-label": t("gen.board") });
  const search = h("input", {
    id: "move-search",
    type: "search",
    placeholder: t("gen.search"),
    autocomplete: "off",
    "aria-label": t("gen.search"),
  });
  const moves = h("div", { class: "moves", id: "moves", role: "group", "aria-label": t("gen.moves") });
  const count = h("p", { class: "help", id: "move-count" });
  const input = h("input", {
    id: "move-input",
    placeholder: t("gen.notation"),
    autocomplete: "off",
    autocapitalize: "off",
    spellcheck: "false",
    maxlength: 1000,
    "aria-label": t("gen.notation"),
  });
  const play = h("button", { id: "play", type: "submit" }, t("gen.play"));
  const undo = h("button", { id: "undo", type: "button", class: "secondary" }, t("gen.undo"));
  const extra = h("div", { class: "extra" });
  const form = h(
    "form",
    {
      class: "row",
      onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (text && g.ctx.play(text)) input.value = "";
      },
    },
    input,
    play,
  );
  const controls = h(
    "div",
    { id: "controls" },
    search,
    count,
    moves,
    form,
    h("div", { class: "row", style: "margin-top:8px" }, undo),
  );
  const root = h("div", {}, extra, pre, controls);
  const g = {
    root,
    pre,
    search,
    moves,
    count,
    input,
    play,
    undo,
    controls,
    extra,
    form,
    ctx: null,
    version: -1,
    seat: null,
  };
  search.addEventListener("input", () => fillMoves(g));
  undo.addEventListener("click", () => g.ctx.undo());
  el.replaceChildren(root);
  return g;
}

function fillMoves(g) {
  const part = g.ctx.part || {};
  const legal = part.to_act ? part.legal || [] : [];
  const q = g.search.value.trim().toLowerCase();
  const hits = q ? legal.filter((m) => m.toLowerCase().includes(q)) : legal;
  const shown = hits.slice(0, SHOW);
  // Long notations (FORMFINITY shapes, Foldris drops) get wider buttons so the whole move stays readable.
  const longest = shown.reduce((n, m) => Math.max(n, m.length), 0);
  const width = Math.min(320, Math.max(96, 20 + 9 * longest));
  g.moves.style.gridTemplateColumns = `repeat(auto-fill, minmax(${width}px, 1fr))`;
  g.moves.replaceChildren(
    ...shown.map((m) =>
      h(
        "button",
        {
          type: "button",
          class: m === g.input.value ? "chosen" : "",
          title: m,
          dataset: { move: m },
          onclick: (e) => {
            g.input.value = m;
            for (const b of g.moves.querySelectorAll("button.chosen")) b.classList.remove("chosen");
            e.currentTarget.classList.add("chosen");
          },
        },
        m,
      ),
    ),
  );
  const total = part.legal_count ?? legal.length;
  g.count.textContent = !part.to_act
    ? ""
    : (total === 1 ? t("gen.count1") : t("gen.count", { n: total })) +
      (hits.length > shown.length || total > legal.length ? t("gen.showing", { n: shown.length }) : "");
}
