// The designer's fields: each input is bound to one field of the design's state (lib/designer.js): drawn
// from it, and its change writes it back through the state's functions. The bounds and choices are the
// server's (the state's ``limits``); nothing is read back from an input but the value its own event carries.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { resize, setDirection, setRule } from "../lib/designer.js";

/** An input bound to the state: ``get()`` gives the value to show, ``set(value)`` takes a changed one. */
function bound(el, get, set, changed, event = "change") {
  const checkbox = el.type === "checkbox";
  el.addEventListener(event, () => {
    set(checkbox ? el.checked : el.value);
    changed();
  });
  return {
    el,
    draw: () => {
      const v = get();
      if (checkbox) el.checked = v;
      else if (el.value !== String(v)) el.value = String(v);
    },
  };
}

const number = (id, range, key) =>
  h("input", { id, type: "number", min: range.min, max: range.max, "aria-label": t(key) });
const choice = (id, key, values, label) =>
  h(
    "select",
    { id, "aria-label": t(key) },
    values.map((v) => h("option", { value: v }, label(v))),
  );

/** Every field of the design: {fields: {name, w, h, area, goal, ...}, dirs: [{dir, el, draw}], draw()}. */
export function designFields(st, changed) {
  const L = st.limits;
  const rule = (field) => [() => st.rules[field], (v) => setRule(st, field, v), changed];
  const fields = {
    name: bound(h("input", { id: "ds-name", maxlength: 60, "aria-label": t("ds.name") }), ...rule("name")),
    ...shapeFields(st, changed),
    ...ruleFields(L, rule),
  };
  const dirs = L.directions.map((d) => ({
    dir: d,
    ...bound(
      h("input", { type: "checkbox", id: `ds-dir-${d}` }),
      () => st.rules.directions.includes(d),
      (on) => setDirection(st, d, on),
      changed,
    ),
  }));
  const all = [...Object.values(fields), ...dirs];
  return { fields, dirs, draw: () => all.forEach((f) => f.draw()) };
}

// The template's width and height (the squares kept where they fit) and the area tool's name.
function shapeFields(st, changed) {
  const L = st.limits;
  return {
    w: bound(
      number("ds-w", L.side, "ds.width"),
      () => st.w,
      (v) => resize(st, v, st.h),
      changed,
    ),
    h: bound(
      number("ds-h", L.side, "ds.height"),
      () => st.h,
      (v) => resize(st, st.w, v),
      changed,
    ),
    // the area tool's name is read as it is typed, so a square tapped straight after takes it
    area: bound(
      h("input", { id: "ds-area", maxlength: 8, "aria-label": t("ds.areaName") }),
      () => st.area,
      (v) => {
        st.area = v;
      },
      () => {},
      "input",
    ),
  };
}

// The rules' fields, each bound to its rule (``rule(field)``: its getter, setter and what a change calls); the
// choices and ranges are the server's limits (``L``).
function ruleFields(L, rule) {
  return {
    goal: bound(
      choice("ds-goal", "ds.goal", L.goals, (g) => t(`ds.goal.${g}`)),
      ...rule("goal"),
    ),
    pmin: bound(number("ds-pmin", L.players, "ds.pmin"), ...rule("pmin")),
    pmax: bound(number("ds-pmax", L.players, "ds.pmax"), ...rule("pmax")),
    arrows: bound(
      choice("ds-arrows", "ds.arrows", ["default", "true", "false"], (a) => t(`ds.arrows.${a}`)),
      ...rule("arrows"),
    ),
    rotation: bound(
      choice("ds-rotation", "ds.rotation", L.rotations, (a) => t(`ds.rot.${a}`)),
      ...rule("rotation"),
    ),
    length: bound(number("ds-length", L.length, "ds.length"), ...rule("length")),
    target: bound(number("ds-target", L.target, "ds.target"), ...rule("target")),
    difficulty: bound(
      choice("ds-difficulty", "ds.difficulty", L.difficulties, (d) => d),
      ...rule("difficulty"),
    ),
    corner: bound(h("input", { type: "checkbox", id: "ds-corner" }), ...rule("corner")),
    connect: bound(h("input", { type: "checkbox", id: "ds-connect" }), ...rule("connect")),
  };
}

/** A field with its label above it, and a checkbox with its label beside it. */
export const labelled = (el, key) => h("div", {}, h("label", { for: el.id }, t(key)), el);
export const ticked = (el, key) => h("label", { class: "inline", for: el.id }, el, t(key));

/** The rules' card: goal, players, arrows, rotation and each goal's parameters. */
export function rulesCard(form) {
  const f = form.fields;
  return h(
    "section",
    { class: "card" },
    h("h2", {}, t("ds.rules")),
    labelled(f.goal.el, "ds.goal"),
    h("div", { class: "grid2" }, labelled(f.pmin.el, "ds.pmin"), labelled(f.pmax.el, "ds.pmax")),
    h("div", { class: "grid2" }, labelled(f.arrows.el, "ds.arrows"), labelled(f.rotation.el, "ds.rotation")),
    h(
      "details",
      { open: true },
      h("summary", {}, t("ds.goal.lines")),
      h("div", { class: "grid2" }, labelled(f.length.el, "ds.length"), labelled(f.target.el, "ds.target")),
      labelled(f.difficulty.el, "ds.difficulty"),
      form.dirs.map((d) => ticked(d.el, `ds.dir.${d.dir}`)),
    ),
    ticked(f.corner.el, "ds.corner"),
    ticked(f.connect.el, "ds.connect"),
  );
}
