// FORMFINITY template designer ("your game, your rules"): draw a template on a grid (free, black, outside,
// start squares, areas, numbers), choose the variant rules, and get a variant file in the format of
// docs/games/formfinity.md. The server validates it through the engine; it can be saved on this device,
// downloaded, played in a room, printed, and checked for balance. The page is its state (lib/designer.js,
// started from the server's figures: GET /api/formfinity/designer) and components that draw it: the grid
// and its tools (designer/grid.js), the fields (designer/fields.js) and the file's card (designer/file.js).
import { h, api } from "./dom.js";
import { t } from "./i18n.js";
import { clear, newDesign } from "./lib/designer.js";
import { templateGrid, toolPicker } from "./designer/grid.js";
import { designFields, labelled, rulesCard } from "./designer/fields.js";
import { fileCard } from "./designer/file.js";

/** The designer page in ``root``; returns the function that closes it (the router calls it on leaving). */
export function renderDesigner(root, { navigate }) {
  let close = () => {};
  let closed = false;
  root.append(h("h1", {}, t("home.designer")));
  api("/api/formfinity/designer")
    .then((limits) => {
      if (!closed) close = build(root, newDesign(limits), navigate);
    })
    .catch(() => {
      if (!closed) root.append(h("p", { class: "card", role: "alert", id: "ds-unavailable" }, t("ds.unavailable")));
    });
  return () => {
    closed = true;
    close();
  };
}

/** The page's components over the design ``st``; returns what closes them. */
function build(root, st, navigate) {
  const redraw = () => parts.forEach((p) => p.draw());
  const grid = templateGrid(st, redraw);
  const tools = toolPicker(st);
  const form = designFields(st, redraw);
  const file = fileCard(st, { navigate, changed: redraw });
  const parts = [grid, tools, form, file];
  const f = form.fields;
  const clearButton = h(
    "button",
    {
      type: "button",
      class: "secondary",
      onclick: () => {
        clear(st);
        redraw();
      },
    },
    t("ds.clear"),
  );
  root.append(
    h(
      "section",
      { class: "card" },
      h("p", { class: "help" }, t("ds.help")),
      labelled(f.name.el, "ds.name"),
      h("div", { class: "grid2" }, labelled(f.w.el, "ds.width"), labelled(f.h.el, "ds.height")),
      h("h2", {}, t("ds.tool")),
      tools.el,
      h("div", { class: "row" }, labelled(f.area.el, "ds.areaName")),
      h("p", { class: "help", id: "ds-keys" }, t("ds.keysHelp")),
      grid.el,
      grid.said,
      h("div", { class: "row" }, clearButton),
    ),
    rulesCard(form),
    file.el,
  );
  redraw();
  return grid.close;
}
