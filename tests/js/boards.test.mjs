// The notation and geometry the Foldris, FORMFINITY and Qwirkle Cubes boards draw from.
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fd from "../../src/polytable/web/static/lib/foldris.js";
import * as ff from "../../src/polytable/web/static/lib/formfinity.js";
import * as keys from "../../src/polytable/web/static/lib/grid-keys.js";
import { tokens, parseTok } from "../../src/polytable/web/static/lib/qwirkle-cubes.js";

test("Foldris: a drop's words in any order", () => {
  assert.deepEqual(fd.parseDrop("L4 m t2 r3 c5"), { text: "L4 m t2 r3 c5", name: "L4", m: 1, t: 2, r: 3, c: 4 });
  assert.deepEqual(fd.parseDrop("  O4 c1 "), { text: "  O4 c1 ", name: "O4", m: 0, t: 0, r: 0, c: 0 });
  assert.equal(fd.parseDrop("I2").c, null);
  assert.equal(fd.parseDrop("I2 r12").r, 0); // not a rotation word
});

test("Foldris: mirror, trim and quarter turns of a card's drawing", () => {
  const L = "#./#./##";
  assert.deepEqual(fd.variantCells(L, 0, 0, 0), [
    [0, 0],
    [0, 1],
    [0, 2],
    [1, 2],
  ]);
  assert.deepEqual(fd.variantCells(L, 1, 0, 0), [
    [1, 0],
    [1, 1],
    [0, 2],
    [1, 2],
  ]);
  assert.deepEqual(fd.variantCells(L, 0, 4, 0), [
    [0, 0],
    [0, 1],
    [0, 2],
  ]); // square 4 trimmed: an I of three
  const four = fd.variantCells(L, 0, 0, 4);
  assert.deepEqual(four, fd.variantCells(L, 0, 0, 0)); // four quarter turns are none
  for (let r = 0; r < 4; r++) {
    const cells = fd.variantCells(L, 0, 0, r);
    assert.equal(cells.length, 4);
    assert.equal(Math.min(...cells.map((c) => c[0])), 0); // normalised to the top-left corner
    assert.equal(Math.min(...cells.map((c) => c[1])), 0);
  }
  // a quarter turn of a vertical bar lies it down
  assert.deepEqual(fd.variantCells("#/#/#", 0, 0, 1), [
    [0, 0],
    [1, 0],
    [2, 0],
  ]);
});

test("Foldris: column heights and where a block lands", () => {
  assert.deepEqual(fd.columnHeights([0b101, 0b001], 8), [2, 0, 1, 0, 0, 0, 0, 0]);
  const O = fd.variantCells("##/##", 0, 0, 0);
  const sorted = (cells) => cells.map((c) => c.join()).sort();
  assert.deepEqual(
    sorted(fd.landing(O, [], 0, 8)),
    sorted([
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]),
  );
  assert.deepEqual(
    sorted(fd.landing(O, [0b10], 0, 8)),
    sorted([
      [0, 1],
      [1, 1],
      [0, 2],
      [1, 2],
    ]),
  );
  // an overhang rests on the highest column under it: an upside-down L over a step
  const hook = fd.variantCells("##/#.", 0, 0, 0); // top row two squares, one below on the left
  assert.deepEqual(
    sorted(fd.landing(hook, [0b01, 0b10, 0b10], 0, 8)),
    sorted([
      [0, 3],
      [1, 3],
      [0, 2],
    ]),
  );
  assert.deepEqual(fd.columnHeights([0b101], 3), [1, 0, 1]); // as wide as the view's sheet says
});

test("Foldris: where the sheet folded since the last view", () => {
  assert.equal(fd.foldAt(null, { ink: [1] }, 1), null);
  assert.equal(fd.foldAt({ ink: [1] }, { ink: [1] }, 0), null);
  assert.deepEqual(fd.foldAt({ ink: [0b11, 0b01, 0b10] }, { ink: [0b11, 0b10] }, 1), { row: 1, k: 1 });
  assert.deepEqual(fd.foldAt({ ink: [0b1] }, { ink: [0b1, 0b11] }, 1), { row: 2, k: 1 });
});

test("FORMFINITY: column names up to 40 wide and cells both ways", () => {
  assert.equal(ff.colName(0), "a");
  assert.equal(ff.colName(25), "z");
  assert.equal(ff.colName(26), "aa");
  assert.equal(ff.colName(39), "an");
  for (let x = 0; x < 40; x++) for (const y of [0, 9, 39]) assert.deepEqual(ff.parseCell(ff.cellName(x, y)), [x, y]);
  for (const bad of ["", "5", "abc1", "a1234", "A1"]) assert.equal(ff.parseCell(bad), null, bad);
});

test("FORMFINITY: the cells a placement covers", () => {
  assert.deepEqual(ff.placementCells("##/#.@c5"), ["c5", "d5", "c6"]);
  assert.deepEqual(ff.placementCells("#@z1"), ["z1"]);
  assert.deepEqual(ff.placementCells(".#/##@y2"), ["z2", "y3", "z3"]);
  assert.equal(ff.placementCells("claim line"), null);
  assert.equal(ff.placementCells("##@?"), null);
});

test("FORMFINITY: a card's text", () => {
  assert.deepEqual(ff.parseCard("##/#.x2:TR:r"), {
    text: "##/#.x2:TR:r",
    shape: ["##", "#."],
    count: 2,
    arrows: "TR",
    rotate: true,
  });
  assert.deepEqual(ff.parseCard("#x1:-:f"), { text: "#x1:-:f", shape: ["#"], count: 1, arrows: "", rotate: false });
  assert.equal(ff.parseCard(""), null);
  assert.equal(ff.parseCard(null), null);
});

test("Qwirkle Cubes: the placements of a move", () => {
  assert.deepEqual(tokens("place RA@0,0 GB@-1,0"), ["RA@0,0", "GB@-1,0"]);
  assert.deepEqual(tokens("reroll R G"), []);
  assert.deepEqual(parseTok("GB@-1,3"), { cube: "GB", x: -1, y: 3, tok: "GB@-1,3" });
});

test("foldris square: ink in the player's colour, barriers red, folded rows grey, new squares fresh", () => {
  const sheet = { width: 4, height: 2, ink: [0b0011, 0b0000, 0b0001], barrier: [0b0000, 0b0100] };
  const prev = { width: 4, height: 2, ink: [0b0001, 0, 0], barrier: [0, 0] };
  assert.deepEqual(fd.squareLook(sheet, prev, 0, 0), { fill: "ink", class: "ink" });
  assert.deepEqual(fd.squareLook(sheet, prev, 1, 0), { fill: "ink", class: "ink fresh" });
  assert.deepEqual(fd.squareLook(sheet, prev, 2, 1), { fill: "#9b2226", class: "barrier fresh" });
  assert.deepEqual(fd.squareLook(sheet, null, 2, 1), { fill: "#9b2226", class: "barrier" });
  assert.deepEqual(fd.squareLook(sheet, prev, 3, 1), { fill: "#fff", class: "free" });
  assert.deepEqual(fd.squareLook(sheet, prev, 0, 2), { fill: "#d8d8cf", class: "ink fresh" }); // folded away
  assert.deepEqual(fd.squareLook(sheet, prev, 1, 5), { fill: "#d8d8cf", class: "free" }); // past the rows given
});

test("Board squares from the keyboard: arrows skip squares off the grid, Enter and Space press", () => {
  // A 4x3 grid whose square (1, 1) is not a square (FORMFINITY's "-"): ArrowRight from (0, 1) jumps over it.
  const grid = { width: 4, height: 3, ok: (x, y) => !(x === 1 && y === 1) };
  assert.deepEqual(keys.gridKey("ArrowRight", [0, 1], grid), { to: [2, 1] });
  assert.deepEqual(keys.gridKey("ArrowUp", [2, 1], grid), { to: [2, 0] }); // row 0 drawn at the top
  assert.deepEqual(keys.gridKey("ArrowUp", [2, 1], { ...grid, up: 1 }), { to: [2, 2] }); // Foldris: at the bottom
  assert.deepEqual(keys.gridKey("ArrowLeft", [0, 0], grid), { to: null }); // the edge
  assert.deepEqual(keys.gridKey("Enter", [0, 0], grid), { press: true });
  assert.deepEqual(keys.gridKey(" ", [0, 0], grid), { press: true });
  assert.equal(keys.gridKey("x", [0, 0], grid), null);
  assert.deepEqual(keys.firstSquare({ ...grid, ok: (x, y) => y > 0 }), [0, 1]);
  assert.deepEqual(keys.firstSquare({ ...grid, up: 1 }), [0, 2]);
});
