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
