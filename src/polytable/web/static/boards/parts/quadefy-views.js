// The two drawings of the Quadefy cube, shared by the board and its bonus puzzle: the layer view (four 4x4
// plans) and the 3D view (SVG, turned by dragging, the arrow buttons or the arrow keys). Their geometry is
// lib/quadefy-views.js; each square and face is bound to its own cell when drawn (its data-i only names it
// for the stylesheet and the tests: no handler reads it back).
import { h, s } from "../../dom.js";
import { t } from "../../i18n.js";
import { OWN, idx, cellText } from "../../lib/quadefy.js";
import {
  LAYER,
  cubeScene,
  keyTurn,
  layerCellAt,
  layerFill,
  layersViewBox,
  planOrigin,
  pressMove,
  pressStart,
  pressTap,
  svgPoints,
} from "../../lib/quadefy-views.js";

// The squares of the newest layer view drawn under each id, by cell: a square chosen from the keyboard keeps
// the focus in the view drawn again after the choice.
const drawnSquares = new Map();

// Four 4x4 plans, layer 1 (the floor) first; row 4 at the top of each, columns a-d left to right. With
// ``onCell`` every square is a button (tap, Enter or Space) for its cell.
export function layerView(
  cells,
  { ghost = [], reach = new Set(), cursor = null, onCell = null, id, mover = 0, tint = null },
) {
  const squares = new Map();
  drawnSquares.set(id, squares);
  const choose = onCell
    ? (i) => {
        onCell(i);
        drawnSquares.get(id)?.get(i)?.focus();
      }
    : null;
  const g = new Set(ghost);
  const out = [];
  for (let z = 0; z < 4; z++) {
    const [ox, oy] = planOrigin(z);
    out.push(s("text", { x: ox, y: oy - 3, "font-size": 10, fill: "#444" }, t("qd.layer", { n: z + 1 })));
    for (let y = 0; y < 4; y++)
      for (let x = 0; x < 4; x++) {
        const i = idx(x, y, z);
        const square = layerSquare(cells[i], i, { fill: layerFill(cells[i], i, tint, reach), onCell, choose });
        squares.set(i, square);
        out.push(square, ...layerMarks(cells[i], i, { ghost: g.has(i), cursor: cursor === i, mover }));
      }
  }
  return s(
    "svg",
    { viewBox: layersViewBox(), class: "qd-layers", id, role: "group", "aria-label": t("qd.layersLabel") },
    out,
  );
}

// One square of the layer view, named for assistive technology by its cell and what fills it; a button bound
// to its cell when the view picks cells (``choose``: from the keyboard, which keeps the focus on it).
function layerSquare(c, i, { fill, onCell, choose }) {
  const [px, py] = layerCellAt(i % 4, Math.floor(i / 4) % 4, Math.floor(i / 16));
  const C = LAYER.cell;
  return s("rect", {
    x: px,
    y: py,
    width: C,
    height: C,
    fill,
    stroke: "#999",
    "data-i": i,
    class: "cell",
    role: onCell ? "button" : undefined,
    tabindex: onCell ? 0 : undefined,
    "aria-label": `${cellText(i)}: ${c ? `${t(c.owner ? "qd.light" : "qd.dark")} ${c.block}` : t("qd.empty")}`,
    onclick: onCell ? () => onCell(i) : null,
    onkeydown: choose
      ? (e) => {
          if (e.key !== "Enter" && e.key !== " ") return;
          e.preventDefault();
          choose(i);
        }
      : null,
  });
}

// What lies on a layer view square (none of it takes taps): its block's letter, the ghost, the chosen cell.
function layerMarks(c, i, { ghost, cursor, mover }) {
  const [px, py] = layerCellAt(i % 4, Math.floor(i / 4) % 4, Math.floor(i / 16));
  const C = LAYER.cell;
  const off = { "pointer-events": "none" };
  const out = [];
  if (c) {
    const at = { x: px + C / 2, y: py + C * 0.68, "text-anchor": "middle", "font-size": 10 };
    out.push(s("text", { ...at, fill: OWN[c.owner].ink, ...off }, c.block));
  }
  if (ghost) {
    const box = { x: px + 2, y: py + 2, width: C - 4, height: C - 4, fill: OWN[mover].fill, opacity: 0.6 };
    out.push(s("rect", { ...box, stroke: "#e63946", "stroke-width": 2.5, ...off, class: "ghost" }));
  }
  if (cursor) {
    const box = { x: px, y: py, width: C, height: C, fill: "none", stroke: "#f1c453", "stroke-width": 3 };
    out.push(s("rect", { ...box, ...off }));
  }
  return out;
}

// The cube in 3D: every filled cell (and the ghost) as a cube; faces turned away are dropped and the rest
// painted back to front. Turn it by dragging or with the buttons / arrow keys. With ``pick`` (the player's
// turn) a tap chooses a cell as in the layer view: a floor square, the cell beyond a face of a placed cube
// (tap the top of a block to go on it), or one of the dots that mark the cells a legal placement of the
// chosen block can cover; a ghost face repeats its cell (the next placement). A tap is a press and release
// that moved less than a few pixels, so dragging still turns the cube; Place confirms. ``st`` keeps the
// view's turn (yaw, pitch); ``redraw`` draws the whole board again.
export function cubeView(cells, ghost, mover, st, redraw, id, pick = null) {
  const svg = s("svg", {
    viewBox: "-100 -100 200 200",
    class: "qd-3d",
    id,
    tabindex: 0,
    role: "img",
    "aria-label": t("qd.cubeLabel", { n: cells.filter(Boolean).length }) + (pick ? ` ${t("qd.cubeTap")}` : ""),
  });
  const press = cubePresses(svg, st, pick, () => paint());
  const paint = () => svg.replaceChildren(...cubeShapes(cubeScene(cells, ghost, st, pick), press));
  paint();
  return h("div", { class: "qd-3dbox" }, svg, turnButtons(st, redraw));
}

// The 3D view's SVG shapes from its scene (lib/quadefy-views.js): the floor, its squares and the faces and
// dots back to front; a shape that stands for a cell tells ``press`` which one when it is pressed.
function cubeShapes(scene, press) {
  const bind = (cell) => (cell !== null ? { "data-i": cell, onpointerdown: () => press(cell) } : {});
  const squares = scene.squares.map((q) =>
    s("polygon", {
      points: svgPoints(q.points),
      fill: "none",
      stroke: "#d0d0c4",
      "stroke-width": 0.6,
      "pointer-events": "all",
      ...bind(q.cell),
      class: "floor",
    }),
  );
  const shapes = scene.shapes.map((f) =>
    f.kind === "dot"
      ? s("circle", {
          cx: f.cx.toFixed(1),
          cy: f.cy.toFixed(1),
          r: f.here ? 6 : 4.5,
          class: `target${f.here ? " cursor" : ""}`,
          fill: f.reach ? "#2a9d8f" : "#fff",
          stroke: f.here ? "#f1c453" : "#fff",
          "stroke-width": f.here ? 3 : 1.2,
          ...bind(f.cell),
        })
      : s("polygon", {
          points: svgPoints(f.points),
          fill: f.fill,
          stroke: f.edge,
          "stroke-width": 1,
          opacity: f.ghost ? 0.7 : 1,
          "fill-opacity": f.top ? 1 : 0.88,
          class: f.ghost ? "ghost3d" : null,
          ...bind(f.cell),
        }),
  );
  return [s("polygon", { points: svgPoints(scene.floor), fill: "#e8e8e0", stroke: "#999" }), ...squares, ...shapes];
}

// The 3D view's presses and keys: a drag or an arrow key turns the cube (``paint`` draws it again), a tap on a
// shape that stands for a cell chooses that cell (with ``pick``). Returns what a shape calls when pressed.
function cubePresses(svg, st, pick, paint) {
  let pressed = null; // the cell of the shape under this press (the shape's handler runs first)
  let drag = null;
  const turn = (to) => {
    st.yaw = to.yaw;
    st.pitch = to.pitch;
    paint();
  };
  svg.addEventListener("pointerdown", (e) => {
    drag = pressStart(st, e.clientX, e.clientY, pressed);
    pressed = null;
    svg.setPointerCapture?.(e.pointerId);
  });
  svg.addEventListener("pointermove", (e) => {
    const to = drag && pressMove(drag, e.clientX, e.clientY);
    if (to) turn(to);
  });
  svg.addEventListener("pointerup", (e) => {
    const cell = pressTap(drag);
    drag = null;
    if (pick && cell !== null) {
      e.preventDefault();
      pick.onCell(cell);
    }
  });
  svg.addEventListener("pointercancel", () => {
    drag = null;
  });
  svg.addEventListener("keydown", (e) => {
    const to = keyTurn(st, e.key);
    if (!to) return;
    e.preventDefault();
    turn(to);
  });
  return (cell) => {
    pressed = cell;
  };
}

// The buttons that turn the cube a twelfth of a turn either way (the whole board drawn again).
function turnButtons(st, redraw) {
  const turn = (dy) => () => {
    st.yaw += dy;
    redraw();
  };
  const button = (label, dy, text) =>
    h("button", { type: "button", class: "secondary", "aria-label": t(label), onclick: turn(dy) }, text);
  return h("div", { class: "row" }, button("qd.turnLeft", -30, "⟲"), button("qd.turnRight", 30, "⟳"));
}
