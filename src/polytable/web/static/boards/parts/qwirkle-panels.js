// The Qwirkle Cubes board's panels around the table (boards/qwirkle-cubes.js): every player's open hand (ours
// to pick or to reroll from), the line that says what the chosen cubes would score or why not, the turn's
// buttons and the zoom. Each is drawn from the board's kept state ``st`` (ctx.keep.qc), the frame of this view
// ``f`` and the board's actions ``act``; none keeps anything of its own.
import { h } from "../../dom.js";
import { t } from "../../i18n.js";
import * as generic from "../generic.js";
import { cubeButton, cubeWords } from "./qwirkle-draw.js";

/** One of our cubes: toggled for the reroll, or picked to place. */
function myCube(st, f, act, c, i) {
  if (f.rerolling) {
    const on = st.reroll.has(i);
    const flip = () => {
      if (on) st.reroll.delete(i);
      else st.reroll.add(i);
      act.redraw();
    };
    const attrs = { class: `cube${on ? " chosen" : ""}`, "aria-pressed": on ? "true" : "false", "data-i": i };
    return cubeButton(
      c,
      { ...attrs, onclick: flip },
      t("qc.rerollCube", { cube: cubeWords(c), letter: c[0], n: i + 1 }),
    );
  }
  const isUsed = f.used.has(i);
  const pick = () => {
    st.pick = st.pick === i ? null : i;
    act.redraw();
    if (st.pick !== null) act.focusTarget();
  };
  return cubeButton(
    c,
    {
      class: `cube${st.pick === i ? " chosen" : ""}${isUsed ? " used" : ""}`,
      disabled: isUsed,
      "aria-pressed": st.pick === i ? "true" : "false",
      "data-i": i,
      onclick: pick,
    },
    t("qc.pickCube", { cube: cubeWords(c), letter: c[0], n: i + 1 }),
  );
}

/** The hands: ours first and interactive when we act; the others open too. */
export function handsView(st, ctx, f, act) {
  const { v, me } = f;
  return h(
    "div",
    { class: "hands" },
    v.hands.map((hd, p) => {
      const mineRow = p === me;
      const live = mineRow && (f.placing || f.rerolling);
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
          hd.map((c, i) => (live ? myCube(st, f, act, c, i) : cubeButton(c, { disabled: true, tabindex: -1 }, c))),
        ),
      );
    }),
  );
}

const button = (id, cls, onclick, label, disabled = false) =>
  h("button", { type: "button", id, class: cls, disabled, onclick }, label);

/** The reroll's line and buttons: roll the chosen cubes, or keep the hand (a hint marks its choice). */
function rerollPart(st, ctx, info) {
  const sel = [...st.reroll].sort((a, b) => a - b).map((i) => i + 1);
  const roll = `reroll ${sel.join(",")}`;
  const hinted = (text) => !!(ctx.hint && ctx.hint[0] === text);
  info.append(t("qc.rerollHelp"));
  return [
    button("qc-roll", hinted(roll) ? "hinted" : "", () => ctx.play(roll), t("qc.roll", { n: sel.length }), !sel.length),
    button("qc-keep", hinted("keep") ? "hinted" : "secondary", () => ctx.play("keep"), t("qc.keep")),
  ];
}

/** The placing's line (what to do, where the picked cube cannot go, what the play would score) and buttons:
 * confirm, take back, pass. */
function placePart(st, ctx, f, act, info) {
  const passHinted = !!(ctx.hint && ctx.hint[0] === "pass");
  if (st.pick === null && !st.chosen.length) info.append(t("qc.placeHelp"));
  else if (st.pick !== null && !f.targets.size)
    info.append(h("span", { class: "bad" }, t("qc.noSpot", { cube: cubeWords(f.hand[st.pick]) })));
  const pv = st.preview;
  if (pv && pv.ok) {
    const q = pv.view && pv.view.last ? pv.view.last.qwirkles : 0;
    info.append(h("strong", {}, t("qc.wouldScore", { points: pv.delta })), q ? ` — ${t("qc.qwirkle")}` : "");
  } else if (pv) info.append(h("span", { class: "bad" }, pv.message));
  const text = f.playable;
  const takeBack = () => {
    st.chosen = [];
    st.preview = null;
    act.redraw();
  };
  return [
    button("qc-confirm", null, () => ctx.play(text), t("qc.confirm"), !text),
    button("qc-clear", "secondary", takeBack, t("qc.takeBack"), !st.chosen.length),
    f.legal.includes("pass")
      ? button("qc-pass", passHinted ? "hinted" : "secondary", () => ctx.play("pass"), t("qc.pass"))
      : null,
  ];
}

/** The line under the table and the turn's buttons: {info, controls}. */
export function turnPanel(st, ctx, f, act) {
  const info = h("p", { class: "help", id: "qc-info", "aria-live": "polite" });
  if (st.refusal) info.append(generic.refusalNote(st.refusal), " ");
  let controls = [];
  if (f.rerolling) controls = rerollPart(st, ctx, info);
  if (f.placing) controls = placePart(st, ctx, f, act, info);
  else if (f.part.to_act && f.legal.includes("pass")) {
    const passHinted = !!(ctx.hint && ctx.hint[0] === "pass");
    controls.push(button("qc-pass", passHinted ? "hinted" : "", () => ctx.play("pass"), t("qc.pass")));
  }
  return { info, controls: h("div", { class: "row" }, controls) };
}

/** Zoom in, out, and frame the table again. */
export function zoomRow(st, act) {
  const set = (fn) => () => {
    fn();
    act.redraw();
  };
  return h(
    "div",
    { class: "row zoom" },
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        "aria-label": t("qc.zoomIn"),
        onclick: set(() => (st.zoom = Math.max(4, st.zoom - 2))),
      },
      "+",
    ),
    h(
      "button",
      {
        type: "button",
        class: "secondary",
        "aria-label": t("qc.zoomOut"),
        onclick: set(() => (st.zoom = Math.min(40, st.zoom + 2))),
      },
      "−",
    ),
    h("button", { type: "button", class: "secondary", onclick: set(() => (st.center = null)) }, t("qc.centre")),
  );
}
