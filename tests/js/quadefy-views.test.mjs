import { test } from "node:test";
import assert from "node:assert/strict";
import { idx } from "../../src/polytable/web/static/lib/quadefy.js";
import {
  LAYER,
  PITCH,
  cubeFaces,
  cubeScene,
  keyTurn,
  layerCellAt,
  layerFill,
  layersViewBox,
  pressMove,
  pressStart,
  pressTap,
  projector,
  svgPoints,
} from "../../src/polytable/web/static/lib/quadefy-views.js";

test("layer view: 64 squares that do not overlap, all inside the view, row 4 above row 1", () => {
  const [, , w, h] = layersViewBox().split(" ").map(Number);
  const seen = new Set();
  for (let z = 0; z < 4; z++)
    for (let y = 0; y < 4; y++)
      for (let x = 0; x < 4; x++) {
        const [px, py] = layerCellAt(x, y, z);
        assert.ok(px >= 0 && py >= 0 && px + LAYER.cell <= w && py + LAYER.cell <= h);
        seen.add(`${Math.floor(px / LAYER.cell)},${Math.floor(py / LAYER.cell)}`);
      }
  assert.equal(seen.size, 64);
  assert.ok(layerCellAt(0, 3, 0)[1] < layerCellAt(0, 0, 0)[1]);
  assert.ok(layerCellAt(0, 0, 1)[0] > layerCellAt(3, 0, 0)[0]); // layer 2 beside the floor
});

test("layer view fill: a block's colour before the tint, the tint before the reach", () => {
  const block = { owner: 1, block: "L" };
  assert.equal(layerFill(block, 5, new Set([5]), new Set([5])), "#f3dfb5");
  assert.equal(layerFill(null, 5, new Set([5]), new Set([5])), "#9a9ab0");
  assert.equal(layerFill(null, 5, null, new Set([5])), "#dff3e4");
  assert.equal(layerFill(null, 5, new Set([6]), new Set()), "#fff");
});

test("projection: the cube's centre at the drawing's centre; unturned, the front (row 1) is nearer than the back", () => {
  const p = projector(0, 0);
  assert.deepEqual(
    p([2, 2, 2]).map((v) => Math.abs(v)),
    [0, 0, 0],
  );
  const [x0, y0] = p([0, 0, 4]);
  assert.equal(x0, -52);
  assert.equal(y0, 52); // the floor (Y = 0) is drawn below the centre
  assert.ok(p([2, 2, 4])[2] > p([2, 2, 0])[2]); // depth grows towards the viewer
  assert.equal(
    svgPoints([
      [1.26, -0.04],
      [3, 4],
    ]),
    "1.3,-0.0 3.0,4.0",
  );
});

test("a lone cube seen from above and the side shows three faces; its top chooses the cell above it", () => {
  const proj = projector(35, 30);
  const i = idx(1, 1, 0);
  const faces = cubeFaces(i, proj, false);
  assert.equal(faces.length, 3);
  const top = faces.filter((f) => f.top);
  assert.ok(top.some((f) => f.cell === idx(1, 1, 1)));
  assert.ok(cubeFaces(idx(0, 0, 3), proj, false).some((f) => f.top && f.cell === null)); // above the cube
  assert.ok(cubeFaces(i, proj, true).every((f) => f.cell === i)); // a ghost's faces repeat its cell
});

test("scene: painted back to front; without a pick nothing stands for a cell and the floor has no squares", () => {
  const cells = Array(64).fill(null);
  cells[0] = { owner: 0, block: "I" };
  cells[21] = { owner: 1, block: "L" };
  const plain = cubeScene(cells, [2], { yaw: 35, pitch: 30 });
  assert.equal(plain.squares.length, 0);
  assert.ok(plain.shapes.length >= 6 && plain.shapes.every((f) => f.kind === "face" && f.cell === null));
  for (let k = 1; k < plain.shapes.length; k++) assert.ok(plain.shapes[k - 1].depth <= plain.shapes[k].depth);
  assert.equal(plain.shapes.filter((f) => f.ghost).length, 3);
  assert.ok(plain.shapes.filter((f) => f.ghost).every((f) => f.fill === "#e63946"));
});

test("scene with a pick: 16 floor squares for layer 1, dots on the empty reachable cells and the chosen one", () => {
  const cells = Array(64).fill(null);
  cells[4] = { owner: 0, block: "I" };
  const pick = { reach: new Set([4, 5, 6, 20]), cursor: 40 };
  const scene = cubeScene(cells, [6], { yaw: 35, pitch: 30 }, pick);
  assert.deepEqual(
    scene.squares.map((q) => q.cell),
    [...Array(16).keys()],
  );
  const dots = scene.shapes.filter((f) => f.kind === "dot");
  assert.deepEqual(
    dots.map((d) => d.cell).sort((a, b) => a - b),
    [5, 20, 40],
  ); // 4 is filled, 6 the ghost
  assert.deepEqual(
    dots.filter((d) => d.here).map((d) => d.cell),
    [40],
  );
  assert.ok(!dots.find((d) => d.cell === 40).reach && dots.find((d) => d.cell === 5).reach);
  assert.ok(scene.shapes.some((f) => f.kind === "face" && f.cell === 4 + 16)); // the top of cell 4: the cell above
});

test("a press: a tap under six pixels picks its shape's cell; farther, it turns the cube and picks nothing", () => {
  const view = { yaw: 35, pitch: 30 };
  const tap = pressStart(view, 100, 100, 7);
  assert.equal(pressMove(tap, 103, 104), null);
  assert.equal(pressTap(tap), 7);
  const drag = pressStart(view, 100, 100, 7);
  assert.deepEqual(pressMove(drag, 110, 100), { yaw: 41, pitch: 30 });
  assert.deepEqual(pressMove(drag, 101, 100), { yaw: 35.6, pitch: 30 }); // once a drag, small moves turn too
  assert.equal(pressTap(drag), null);
  assert.equal(pressMove(drag, 100, 1000).pitch, PITCH.max);
  assert.equal(pressTap(pressStart(view, 0, 0, null)), null);
  assert.equal(pressTap(null), null);
});

test("arrow keys turn the cube and tip it within its bounds; other keys do nothing", () => {
  assert.deepEqual(keyTurn({ yaw: 0, pitch: 30 }, "ArrowLeft"), { yaw: -15, pitch: 30 });
  assert.deepEqual(keyTurn({ yaw: 0, pitch: 80 }, "ArrowUp"), { yaw: 0, pitch: 85 });
  assert.deepEqual(keyTurn({ yaw: 0, pitch: -5 }, "ArrowDown"), { yaw: 0, pitch: -10 });
  assert.equal(keyTurn({ yaw: 0, pitch: 0 }, "Enter"), null);
});
