// The designer's template grid and its tools. The squares are drawn from the design's state (lib/designer.js)
// and updated in place, never rebuilt while drawing, so a drag keeps its buttons under the finger; each
// button knows its square from the closure that made it, never from the DOM. Keyboard: the grid is one tab
// stop; arrows (Home/End, Page Up/Down) move over it, Enter or Space paints with the chosen tool, a letter
// sets the square directly (lib/designer.js KEYS); each change is announced.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { TOOLS, look, paint, press } from "../lib/designer.js";

/** The grid: {el, said, draw(), close()}; ``changed()`` is called after the design changed. */
export function templateGrid(st, changed) {
  const view = {
    el: h("div", {
      class: "ds-grid",
      id: "ds-grid",
      role: "grid",
      "aria-label": t("ds.grid"),
      "aria-describedby": "ds-keys",
    }),
    said: h("p", { class: "sr", id: "ds-said", "aria-live": "polite" }),
    buttons: [], // buttons[y][x], as built for the design's size
    dragging: false, // a pointer is down: squares it enters are painted
  };
  // Rows are role="row" wrappers with display: contents, so the CSS grid still lays out the squares.
  const build = () => {
    view.el.style.gridTemplateColumns = `repeat(${st.w}, 1fr)`;
    view.buttons = Array.from({ length: st.h }, (_, y) =>
      Array.from({ length: st.w }, (_, x) => gridSquare(st, view, x, y, changed)),
    );
    view.el.replaceChildren(
      ...view.buttons.map((row, y) => h("div", { role: "row", class: "ds-row", "aria-rowindex": y + 1 }, row)),
    );
  };
  view.draw = () => {
    if (view.buttons.length !== st.h || (view.buttons[0] || []).length !== st.w) build();
    view.buttons.forEach((row, y) =>
      row.forEach((b, x) => {
        const { kind, label, shown } = look(st, x, y, t);
        b.className = `ds-cell ${kind}`;
        b.setAttribute("aria-label", label);
        b.setAttribute("tabindex", x === st.focus[0] && y === st.focus[1] ? "0" : "-1");
        b.textContent = shown;
      }),
    );
  };
  const up = () => {
    view.dragging = false;
  };
  document.addEventListener("pointerup", up);
  document.addEventListener("pointercancel", up);
  view.close = () => {
    document.removeEventListener("pointerup", up);
    document.removeEventListener("pointercancel", up);
  };
  return view;
}

// The design's square (x, y) as a button of the grid (``view``): a press paints it (and a drag the squares it
// enters), Enter or Space paints it, a key moves or sets it (lib/designer.js press); each change is announced
// in ``view.said`` and followed by ``changed()``.
function gridSquare(st, view, x, y, changed) {
  const say = () => {
    view.said.textContent = look(st, x, y, t).label;
  };
  const b = h("button", { type: "button", "data-x": x, "data-y": y, role: "gridcell", "aria-colindex": x + 1 });
  b.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    view.dragging = true;
    st.focus = [x, y];
    paint(st, x, y);
    changed();
  });
  b.addEventListener("pointerenter", () => {
    if (view.dragging && st.tool !== "number") {
      paint(st, x, y);
      changed();
    }
  });
  b.addEventListener("click", (e) => {
    if (e.detail !== 0) return; // a pointer's click was painted on pointerdown; this is Enter or Space
    paint(st, x, y);
    say();
    changed();
  });
  b.addEventListener("keydown", (e) => {
    const done = press(st, x, y, e.key, !e.ctrlKey && !e.metaKey && !e.altKey);
    if (!done) return;
    e.preventDefault();
    if (done === "paint") say();
    changed();
    if (done === "move") view.buttons[st.focus[1]][st.focus[0]].focus();
  });
  b.addEventListener("focus", () => {
    if (st.focus[0] !== x || st.focus[1] !== y) {
      st.focus = [x, y];
      view.draw();
    }
  });
  return b;
}

/** The tools: a radio group of buttons, the chosen one marked. {el, draw()} */
export function toolPicker(st) {
  const view = { el: h("div", { class: "row", role: "radiogroup", "aria-label": t("ds.tool") }) };
  view.draw = () =>
    view.el.replaceChildren(
      ...TOOLS.map((q) =>
        h(
          "button",
          {
            type: "button",
            role: "radio",
            "aria-checked": st.tool === q.id ? "true" : "false",
            class: `secondary${st.tool === q.id ? " chosen" : ""}`,
            id: `ds-tool-${q.id}`,
            onclick: () => {
              st.tool = q.id;
              view.draw();
            },
          },
          t(`ds.tool.${q.id}`),
        ),
      ),
    );
  return view;
}
