// The generic board: works for every game from its view and legal actions alone. The position is the
// game's own text rendering (monospaced); the legal moves are a searchable grid of buttons; any move can
// also be typed in the game's notation. A tap selects a move; "Play" sends it (no accidental moves).
//
// Under a dedicated board (``extra``) the same controls serve as the notation on demand: the move list and
// the typing field are folded into "Moves in notation", closed until a player opens it, so nobody meets
// notation unless they ask. Undo and Play (for boards that confirm with it, ``ctx.confirm``) stay in view,
// and when the player's last move stands, the line beside Undo says why (``ctx.undoWhy``).
import { h } from "../dom.js";
import { t } from "../i18n.js";

const SHOW = 240; // buttons drawn at once; the search narrows the rest

/** Why a move a board tried is refused, shown in the board's own line beside where the player tapped. */
export function refusalNote(text) {
  return text ? h("span", { class: "bad refusal", id: "refusal", role: "alert" }, `✕ ${text}`) : null;
}

export function render(el, ctx, extra = null) {
  let g = ctx.keep.generic;
  if (!g || !el.contains(g.root)) {
    g = build(el);
    ctx.keep.generic = g;
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
  showUndo(g, part, ctx);
  g.search.hidden = !acting;
  if (g.version !== ctx.msg.version || g.seat !== ctx.seat) {
    g.version = ctx.msg.version;
    g.seat = ctx.seat;
    if (!acting || extra) showChosen(g, "");
  }
  if (ctx.chosen) showChosen(g, ctx.chosen); // the move a dedicated board has chosen (Play sends it)
  g.dedicated = !!extra;
  placeNotation(g, !!extra, ctx, !!ctx.msg.over || !!ctx.replay);
  fillMoves(g);
}

// Undo when the player's last move can be taken back; otherwise, while it is their turn, why it stands.
function showUndo(g, part, ctx) {
  g.undo.hidden = !part.can_undo;
  g.undoWhy.textContent = !part.can_undo && part.to_act && ctx.undoWhy ? ctx.undoWhy : "";
  g.undoWhy.hidden = !g.undoWhy.textContent;
}

// A dedicated board folds the notation away (Play stays out where the board confirms with it); the
// generic board shows everything. Once the game is over (or while stepping through it) nothing is typed.
function placeNotation(g, dedicated, ctx, over) {
  if (dedicated && g.list.parentNode !== g.fold) g.fold.append(g.list);
  if (!dedicated && g.list.parentNode !== g.controls) g.controls.prepend(g.list);
  g.fold.hidden = !dedicated || over;
  g.input.parentNode.hidden = over;
  g.play.hidden = over || (dedicated && ctx.confirm !== "play");
  g.typed.hidden = over || !dedicated || ctx.confirm === "play";
  enablePlay(g);
}

// Play sends the chosen or typed move: on a dedicated board it waits until there is one.
function enablePlay(g) {
  const acting = !!(g.ctx.part && g.ctx.part.to_act);
  g.play.disabled = !acting || (g.dedicated && !g.chosen.trim());
  g.typed.disabled = g.play.disabled;
}

function build(el) {
  const { pre, search, moves, count, input, play, typed } = textFields();
  const undo = h("button", { id: "undo", type: "button", class: "secondary" }, t("gen.undo"));
  const undoWhy = h("p", { class: "help", id: "undo-why", hidden: true });
  const extra = h("div", { class: "extra" });
  const form = h("form", {
    id: "move-form",
    onsubmit: (e) => {
      e.preventDefault();
      const text = g.chosen.trim();
      if (text && g.ctx.play(text)) showChosen(g, "");
    },
  });
  const list = h("div", { class: "notation-list" }, search, count, moves, h("div", { class: "row" }, input, typed));
  const fold = h(
    "details",
    { id: "notation", class: "notation-fold", hidden: true },
    h("summary", { class: "button secondary" }, t("gen.notationFold")),
  );
  const actions = h("div", { class: "row", id: "move-actions", style: "margin-top:8px" }, play, undo);
  const controls = h("div", { id: "controls" }, list, form, actions, undoWhy, fold);
  const root = h("div", {}, extra, pre, controls);
  const g = {
    root,
    pre,
    search,
    moves,
    count,
    input,
    play,
    typed,
    undo,
    undoWhy,
    controls,
    extra,
    form,
    list,
    fold,
    ctx: null,
    chosen: "", // the move in the notation box, chosen from the list or typed: what Play sends
    query: "", // the search typed over the list
    buttons: [], // the list's buttons drawn: [move, button]
    version: -1,
    seat: null,
    dedicated: false,
  };
  listen(g);
  el.replaceChildren(root);
  return g;
}

// The position's text, the list of moves with its search and count, the typing field and the Play buttons.
function textFields() {
  return {
    pre: h("pre", { class: "board", id: "board-text", "aria-label": t("gen.board") }),
    search: h("input", {
      id: "move-search",
      type: "search",
      placeholder: t("gen.search"),
      autocomplete: "off",
      "aria-label": t("gen.search"),
    }),
    moves: h("div", { class: "moves", id: "moves", role: "group", "aria-label": t("gen.moves") }),
    count: h("p", { class: "help", id: "move-count" }),
    input: h("input", {
      id: "move-input",
      form: "move-form",
      placeholder: t("gen.notation"),
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      maxlength: 1000,
      "aria-label": t("gen.notation"),
    }),
    play: h("button", { id: "play", type: "submit", form: "move-form" }, t("gen.play")),
    // Under a board that confirms with its own button, a typed move is sent from inside the fold.
    typed: h("button", { id: "play-typed", type: "submit", form: "move-form", hidden: true }, t("gen.play")),
  };
}

// The controls' own events: the search narrows the list, what is typed becomes the chosen move, Undo.
function listen(g) {
  g.search.addEventListener("input", (e) => {
    g.query = e.target.value;
    fillMoves(g);
  });
  g.input.addEventListener("input", (e) => {
    g.chosen = e.target.value;
    enablePlay(g);
  });
  g.undo.addEventListener("click", () => g.ctx.undo());
}

// The move in the notation box (what Play sends) becomes ``text``.
function showChosen(g, text) {
  g.chosen = text;
  g.input.value = text;
}

/** A move chosen from the list (or by a dedicated board): in the notation box, its button marked, Play ready. */
export function choose(g, text) {
  showChosen(g, text);
  for (const [m, b] of g.buttons) b.className = m === text ? "chosen" : "";
  enablePlay(g);
}

function fillMoves(g) {
  const part = g.ctx.part || {};
  const legal = part.to_act ? part.legal || [] : [];
  const q = g.query.trim().toLowerCase();
  const hits = q ? legal.filter((m) => m.toLowerCase().includes(q)) : legal;
  const shown = hits.slice(0, SHOW);
  // Long notations (FORMFINITY shapes, Foldris drops) get wider buttons so the whole move stays readable.
  const longest = shown.reduce((n, m) => Math.max(n, m.length), 0);
  const width = Math.min(320, Math.max(96, 20 + 9 * longest));
  g.moves.style.gridTemplateColumns = `repeat(auto-fill, minmax(${width}px, 1fr))`;
  g.buttons = shown.map((m) => [
    m,
    h(
      "button",
      {
        type: "button",
        class: m === g.chosen ? "chosen" : "",
        title: m,
        dataset: { move: m },
        onclick: () => choose(g, m),
      },
      m,
    ),
  ]);
  g.moves.replaceChildren(...g.buttons.map(([, b]) => b));
  const total = part.legal_count ?? legal.length;
  g.count.textContent = !part.to_act
    ? ""
    : (total === 1 ? t("gen.count1") : t("gen.count", { n: total })) +
      (hits.length > shown.length || total > legal.length ? t("gen.showing", { n: shown.length }) : "");
}
