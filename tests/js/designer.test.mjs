import { test } from "node:test";
import assert from "node:assert/strict";
import { TOOLS, cellKind, renumber } from "../../src/polytable/web/static/lib/designer.js";

test("cellKind names every kind of template square", () => {
  const kinds = Object.fromEntries(["#", "-", "*", ".", "7", "12", "A", "north"].map((c) => [c, cellKind(c)]));
  assert.deepEqual(kinds, {
    "#": "black",
    "-": "outside",
    "*": "start",
    ".": "free",
    7: "number",
    12: "number",
    A: "area",
    north: "area",
  });
  // a tool's own square is of that tool's kind
  for (const tool of TOOLS.filter((x) => x.token)) assert.equal(cellKind(tool.token), tool.id);
});

test("renumber numbers the numbered squares 1, 2, ... in their order and returns the next number", () => {
  const cells = [
    [".", "5", "#"],
    ["9", ".", "2"],
  ];
  assert.equal(renumber(cells), 4);
  assert.deepEqual(cells, [
    [".", "2", "#"],
    ["3", ".", "1"],
  ]);
  const none = [[".", "#"]];
  assert.equal(renumber(none), 1);
  assert.deepEqual(none, [[".", "#"]]);
});
