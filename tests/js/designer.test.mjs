import { test } from "node:test";
import assert from "node:assert/strict";
import { TOOLS, cellKind, renumber } from "../../src/polytable/web/static/lib/designer.js";
import * as D from "../../src/polytable/web/static/lib/designer.js";
import { t } from "./_helpers.mjs";

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

// The server's figures as GET /api/formfinity/designer sends them (the tests vary nothing else).
const LIMITS = {
  side: { min: 4, max: 40, width: 10, height: 8 },
  players: { min: 2, max: 4 },
  goals: ["lines", "areas", "connection", "numbers"],
  rotations: ["card", "always", "never"],
  difficulties: ["easy", "hard"],
  directions: ["horizontal", "vertical", "diagonal", "antidiagonal"],
  length: { min: 2, max: 40, start: 4 },
  target: { min: 1, max: 100, start: 2 },
  balance_games: { min: 1, max: 300, start: 100 },
};

const templateOf = (st) => D.fileText(st).split('"""\n')[1].split("\n").slice(0, st.h);

test("a new design starts from the server's figures, its file written", () => {
  const st = D.newDesign({
    ...LIMITS,
    side: { ...LIMITS.side, width: 5, height: 4 },
    length: { ...LIMITS.length, start: 3 },
  });
  assert.equal(st.w, 5);
  assert.equal(st.h, 4);
  assert.deepEqual(st.focus, [0, 0]);
  assert.match(st.text, /^name = "My variant"\nplayers = 2\nrotation = "card"\n/);
  assert.match(st.text, /length = 3\ntarget = 2\ndifficulty = "easy"\n/);
  assert.match(st.text, /directions = \["horizontal", "vertical", "diagonal", "antidiagonal"\]/);
  assert.deepEqual(templateOf(st), Array(4).fill(". . . . ."));
});

test("painting: tools set squares, numbers count up and renumber, areas take the typed name", () => {
  const st = D.newDesign(LIMITS);
  st.result = { ok: true, text: "valid" };
  D.paint(st, 2, 1); // black, the first tool chosen
  assert.equal(st.cells[1][2], "#");
  assert.equal(st.result, null); // a check no longer holds for a changed design
  D.paint(st, 0, 0, "number");
  D.paint(st, 1, 0, "number");
  D.paint(st, 2, 0, "number");
  assert.deepEqual(st.cells[0].slice(0, 3), ["1", "2", "3"]);
  D.paint(st, 0, 0, "number"); // a number tapped again goes, the others close up
  assert.deepEqual(st.cells[0].slice(0, 3), [".", "1", "2"]);
  assert.equal(st.next, 3);
  st.area = " 9north!";
  D.paint(st, 4, 4, "area");
  assert.equal(st.cells[4][4], "north");
  st.area = "";
  D.paint(st, 5, 4, "area");
  assert.equal(st.cells[4][5], "A");
  assert.equal(templateOf(st)[1], ". . # . . . . . . .");
});

test("keys: arrows move the focus within the grid, letters set squares, others are not the grid's", () => {
  const st = D.newDesign(LIMITS);
  assert.equal(D.press(st, 0, 0, "ArrowRight"), "move");
  assert.deepEqual(st.focus, [1, 0]);
  assert.equal(D.press(st, 1, 0, "ArrowUp"), "move");
  assert.deepEqual(st.focus, [1, 0]); // the edge holds
  D.press(st, 1, 0, "End");
  assert.deepEqual(st.focus, [9, 0]);
  D.press(st, 9, 0, "PageDown");
  assert.deepEqual(st.focus, [9, 7]);
  assert.equal(D.press(st, 9, 7, "S"), "paint");
  assert.equal(st.cells[7][9], "*");
  assert.equal(D.press(st, 9, 7, "Delete"), "paint");
  assert.equal(st.cells[7][9], ".");
  assert.equal(D.press(st, 9, 7, "b", false), null); // Ctrl+B is the browser's
  assert.equal(st.cells[7][9], ".");
  assert.equal(D.press(st, 9, 7, "x"), null);
  D.press(st, 3, 3, "n");
  D.press(st, 3, 3, "n"); // a number key on a number leaves it
  assert.equal(st.cells[3][3], "1");
  const { kind, label, shown } = D.look(st, 3, 3, t);
  assert.deepEqual([kind, label, shown], ["number", "d4: number 1", "1"]);
  assert.equal(D.look(st, 2, 1, t).label, "c2: free");
});

test("resize keeps the squares inside, frees new ones, holds the server's sides and the focus", () => {
  const st = D.newDesign(LIMITS);
  D.paint(st, 1, 1);
  D.paint(st, 9, 7);
  st.focus = [9, 7];
  D.resize(st, "6", "5");
  assert.deepEqual([st.w, st.h, st.focus], [6, 5, [5, 4]]);
  assert.equal(st.cells[1][1], "#");
  D.resize(st, "99", "1");
  assert.deepEqual([st.w, st.h], [40, 4]);
  assert.equal(st.cells[1][1], "#");
  assert.equal(st.cells[3][39], ".");
  D.resize(st, "", "x"); // unreadable: the starting size
  assert.deepEqual([st.w, st.h], [10, 8]);
});

test("the rules write the file: players, arrows, each goal's own parameters, directions in order", () => {
  const st = D.newDesign(LIMITS);
  D.setRule(st, "name", "  Quick  ");
  D.setRule(st, "pmax", "3");
  D.setRule(st, "arrows", "false");
  D.setDirection(st, "vertical", false);
  D.setDirection(st, "vertical", true);
  D.setDirection(st, "horizontal", false);
  assert.match(st.text, /^name = "Quick"\nplayers = \[2, 3\]\narrows = false\n/);
  assert.match(st.text, /directions = \["vertical", "diagonal", "antidiagonal"\]/);
  D.setRule(st, "goal", "connection");
  D.setRule(st, "corner", true);
  assert.match(st.text, /type = "connection"\ncorner_touch = true\n$/);
  D.setRule(st, "goal", "numbers");
  assert.match(st.text, /type = "numbers"\nconnect = true\n$/);
  D.setRule(st, "goal", "areas");
  assert.match(st.text, /type = "areas"\n$/);
  assert.equal(D.fileName(st, "toml"), "_Quick_.toml");
});

test("a loaded file becomes the design (template, name, goal) and is shown as written", () => {
  const st = D.newDesign(LIMITS);
  const src = 'name = "Ring"\ntemplate = """\n. 3 #\nB B ; a comment\n"""\n[goal]\ntype = "numbers"\n';
  D.load(st, src);
  assert.deepEqual([st.w, st.h], [3, 2]);
  assert.deepEqual(st.cells, [
    [".", "1", "#"],
    ["B", "B", "-"],
  ]);
  assert.equal(st.next, 2);
  assert.equal(st.rules.name, "Ring");
  assert.equal(st.rules.goal, "numbers");
  assert.equal(st.text, src);
  D.typed(st, "x");
  assert.equal(st.text, "x");
  D.load(st, 'type = "nonsense"'); // no template, no known goal: the design stays
  assert.equal(st.rules.goal, "numbers");
  assert.deepEqual([st.w, st.h], [3, 2]);
  D.clear(st);
  assert.deepEqual(st.cells, [
    [".", ".", "."],
    [".", ".", "."],
  ]);
});

test("a played design seats this device, then its opponents", () => {
  assert.deepEqual(D.playSeats(3, "ai"), [{ kind: "here" }, { kind: "ai" }, { kind: "ai" }]);
  assert.deepEqual(D.playSeats(1, "invite"), [{ kind: "here" }]);
});
