import { test } from "node:test";
import assert from "node:assert/strict";
import { idx, cellText, parseMove } from "../../src/polytable/web/static/lib/quadefy.js";

test("cells: 64 numbers, 64 distinct names, a1.1 first and d4.4 last", () => {
  const names = new Set();
  for (let z = 0; z < 4; z++)
    for (let y = 0; y < 4; y++)
      for (let x = 0; x < 4; x++) {
        const i = idx(x, y, z);
        assert.ok(i >= 0 && i < 64);
        names.add(cellText(i));
      }
  assert.equal(names.size, 64);
  assert.equal(cellText(0), "a1.1");
  assert.equal(cellText(63), "d4.4");
  assert.equal(cellText(idx(1, 2, 1)), "b3.2");
});

const TABLES = {
  blocks: [
    {
      name: "I",
      orients: [
        [
          [0, 0, 0],
          [1, 0, 0],
          [2, 0, 0],
        ],
        [
          [0, 0, 0],
          [0, 0, 1],
          [0, 0, 2],
        ],
      ],
    },
  ],
};

test("parseMove: a placement's block, rotation and the cells it covers", () => {
  assert.deepEqual(parseMove("I r0 @ a1.1", TABLES), { text: "I r0 @ a1.1", block: "I", r: 0, cells: [0, 1, 2] });
  assert.deepEqual(parseMove("I r1 @ b2.1", TABLES).cells, [idx(1, 1, 0), idx(1, 1, 1), idx(1, 1, 2)]);
  assert.equal(parseMove("I r2 @ a1.1", TABLES), null); // no such rotation
  assert.equal(parseMove("Z r0 @ a1.1", TABLES), null); // no such block
  assert.equal(parseMove("I r0 @ e1.1", TABLES), null); // no such column
  assert.equal(parseMove("I r0 @ a1.1", null), null); // tables not loaded yet
  assert.equal(parseMove("pass", TABLES), null);
});

test("the puzzle: a block goes on its own colour's squares, is taken back by a tap, and is placed once", async () => {
  const Q = await import("../../src/polytable/web/static/lib/quadefy.js");
  const { t } = await import("./_helpers.mjs");
  // Two blocks: a bar of two along x, and a single cube; the dark squares are the floor's first row.
  const tables = {
    patterns: [{ name: "p", dark: [0, 1, 2, 3] }],
    blocks: [
      {
        name: "I",
        orients: [
          [
            [0, 0, 0],
            [1, 0, 0],
          ],
        ],
      },
      { name: "O", orients: [[[0, 0, 0]]] },
    ],
  };
  const ps = Q.newPuzzle(tables);
  assert.equal(ps.block, "I"); // the tables' first block, as the server lists them
  assert.equal(Q.newPuzzle({ ...tables, blocks: tables.blocks.slice(1) }).block, "O");
  const dark = new Set(tables.patterns[0].dark);
  assert.equal(Q.puzzleTap(ps, 3, tables.blocks, dark, t), "placed"); // the bar ends on the tapped cube
  assert.deepEqual(
    ps.cells.map((c, i) => (c ? i : null)).filter((i) => i !== null),
    [2, 3],
  );
  assert.equal(Q.puzzleTap(ps, 0, tables.blocks, dark, t), "used");
  assert.equal(ps.msg, t("qd.pzUsed", { block: "I" }));
  ps.block = "O";
  assert.equal(Q.puzzleTap(ps, 4, tables.blocks, dark, t), "nofit"); // a light square, the dark colour in hand
  assert.deepEqual(Q.puzzleBlocks(ps.cells), [{ colour: 0, block: "I", cells: [2, 3] }]);
  assert.equal(Q.puzzleTap(ps, 2, tables.blocks, dark, t), "taken");
  assert.ok(ps.cells.every((c) => c === null));
  ps.answer = { cells: [] };
  assert.equal(Q.puzzleTap(ps, 0, tables.blocks, dark, t), null); // the solver's answer is only looked at
  Q.puzzleClear(ps, "q");
  assert.deepEqual([ps.name, ps.msg, ps.verdict], ["q", "", null]);
});
