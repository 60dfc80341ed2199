// The Forma board's panels around the board itself (boards/forma.js): the scores, the line that says what a
// tap would do, the set-up's and the placement's buttons, the zoom and the piece tray. Each is drawn from the
// board's kept state ``st`` (ctx.keep.fm), the frame of this view ``f`` (what boards/forma.js derived from
// it) and the board's actions ``act``; none keeps anything of its own.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import * as generic from "../generic.js";
import { breakdown, flip, rotate } from "../../lib/forma.js";
import { COLORS, LETTERS, mini } from "./forma-draw.js";

/** Each seat's score and bridges, the acting one marked. */
export function scoresView(f, ctx) {
  return h(
    "div",
    { class: "row scores" },
    f.v.players.map((pl, p) =>
      h(
        "span",
        { class: `seat${f.v.current_player === p ? " acting" : ""}` },
        h("span", { class: "swatch", style: `background:${COLORS[p]}` }, LETTERS[p]),
        `${ctx.seatName(p)}: ${pl.score}`,
        pl.bridges ? ` (${t("forma.bridges", { n: pl.bridges })})` : "",
      ),
    ),
  );
}

/** The line under the board: the set-up's task, what the tried piece would earn or why it cannot go there,
 * or whose turn it is. */
export function infoLine(st, ctx, f) {
  const { v, part, ghost, pv, localOk, picked, pickMode } = f;
  const info = h("p", { class: "help", id: "fm-info", "aria-live": "polite" });
  const cannot = () => h("span", { class: "bad" }, `✕ ${t("forma.cannot", { name: st.piece })}`);
  if (f.setupMode) {
    const left = v.obstacles_left || 0;
    if (part.to_act) {
      info.append(
        t(v.tower_placed ? "forma.setupObstacles" : left ? "forma.setupBoth" : "forma.setupTower", { n: left }),
      );
      if (st.setupError) info.append(" ", h("span", { class: "bad", id: "fm-setup-error" }, `✕ ${st.setupError}`));
    } else info.append(t("forma.setupWait", { name: ctx.seatName(v.current_player >= 0 ? v.current_player : 0) }));
  } else if (part.to_act && pickMode && !picked && ghost) {
    info.append(localOk ? t("forma.tryFirst", { name: st.piece }) : cannot());
  } else if (part.to_act && ghost) {
    if (pv && pv.ok)
      info.append(
        h("strong", {}, t("forma.wouldEarn", { points: pv.delta })),
        " ",
        breakdown(pv, v, f.me, t, f.tables.points),
      );
    else if (pv) info.append(generic.refusalNote(pv.message));
    else info.append(localOk ? "…" : cannot());
  } else if (part.to_act) info.append(t(pickMode && !picked ? "forma.chooseFirst" : "forma.tapWhere"));
  else info.append(t("forma.waiting"));
  return info;
}

/** The set-up's buttons: obstacle or tower, and "fill the rest at random"; null when not setting up. */
export function setupControls(st, ctx, f, act) {
  if (!f.setupMode || !f.part.to_act) return null;
  return h(
    "div",
    { class: "row", id: "fm-setup" },
    f.kinds.map((k) =>
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
            act.redraw();
          },
        },
        k === "tower" ? t("forma.placeTower") : t("forma.placeObstacle", { n: f.v.obstacles_left || 0 }),
      ),
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        id: "fm-fill",
        disabled: !f.legal.includes("fill"),
        onclick: () => ctx.play("fill"),
      },
      t("forma.fill"),
    ),
  );
}

/** Rotate, flip, and pick up (touch-move, before the pick) or place; null when it is not our turn. */
export function placeControls(st, ctx, f, act) {
  if (!f.part.to_act || f.setupMode) return null;
  const btn = (id, label, fn) => h("button", { type: "button", class: "secondary", id, onclick: fn }, label);
  const turn = (fn) => () => {
    st.k = fn(st.k);
    act.rerender(true);
  };
  return h(
    "div",
    { class: "row" },
    btn("fm-rotate", `↻ ${t("forma.rotate")}`, turn(rotate)),
    btn("fm-flip", `⇋ ${t("forma.flip")}`, turn(flip)),
    f.pickMode && !f.picked
      ? h(
          "button",
          { type: "button", id: "fm-pick", onclick: () => ctx.play(`pick ${st.piece}`) },
          t("forma.pickUp", { name: st.piece }),
        )
      : null,
    !f.pickMode
      ? h(
          "button",
          { type: "button", id: "fm-place", disabled: !(f.pv && f.pv.ok), onclick: act.place },
          t("forma.place"),
        )
      : null,
  );
}

/** On a phone 19 columns are small: "Zoom" doubles the board inside a scrollable frame (kept across moves). */
export function zoomButton(st, act) {
  return h(
    "button",
    {
      type: "button",
      class: "secondary",
      id: "fm-zoom",
      "aria-pressed": st.zoom ? "true" : "false",
      onclick: () => {
        st.zoom = !st.zoom;
        act.redraw();
      },
    },
    st.zoom ? "−" : "+",
    " ",
    t("forma.zoom"),
  );
}

/** The tray: every piece with its count; used-up pieces greyed (still shown, so everyone sees what is gone). */
export function trayView(st, f, act) {
  return h(
    "div",
    { class: "tray", id: "fm-tray", role: "group", "aria-label": t("forma.tray") },
    f.tables.pieces.map((pc) => {
      const left = f.stock[pc.name] || 0;
      const o = pc.orients[pc.name === st.piece ? pc.of_k[st.k] : 0];
      const sel = pc.name === st.piece;
      return h(
        "button",
        {
          type: "button",
          class: `piece${sel ? " chosen" : ""}${left ? "" : " used"}`,
          "data-piece": pc.name,
          "aria-pressed": sel ? "true" : "false",
          disabled: !left || (f.picked && f.picked !== pc.name),
          "aria-label": `${pc.name}×${left}: ${t("forma.pieceButton", { name: pc.name, left })}`,
          onclick: () => {
            if (st.piece !== pc.name) st.k = 0;
            st.piece = pc.name;
            st.tapped = true;
            act.rerender(true);
          },
        },
        mini(o.cells, sel ? COLORS[f.me] : "#777"),
        h("span", { class: "count" }, `${pc.name}×${left}`),
      );
    }),
  );
}
