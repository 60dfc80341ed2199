import { test } from "node:test";
import assert from "node:assert/strict";
import * as fm from "../../src/polytable/web/static/lib/forma.js";
import { t } from "./_helpers.mjs";

test("cell names and their reading agree over a 20 x 20 board", () => {
  for (let x = 0; x < 20; x++) for (let y = 0; y < 20; y++) assert.deepEqual(fm.parseCell(fm.cellName(x, y)), [x, y]);
  assert.equal(fm.cellName(0, 0), "a1");
  assert.equal(fm.cellName(19, 19), "t20");
  for (const bad of ["u1", "a", "1a", "a123", "", null, undefined]) assert.equal(fm.parseCell(bad), null, bad);
});

test("rotate and flip: the eight symmetries of the square", () => {
  const seen = new Set();
  for (let k = 0; k < 8; k++) {
    let r = k;
    for (let i = 0; i < 4; i++) r = fm.rotate(r);
    assert.equal(r, k, "four quarter turns are none");
    assert.equal(fm.flip(fm.flip(k)), k, "two flips are none");
    assert.equal(fm.flip(k) < 4, k >= 4, "a flip changes the mirroring");
    seen.add(fm.rotate(k));
  }
  assert.equal(seen.size, 8);
  assert.equal(fm.rotate(0), 1);
  assert.equal(fm.rotate(3), 0);
  // mirrored: a quarter turn clockwise of the mirror image is three of the unmirrored
  assert.equal(fm.rotate(4), 7);
});

const L3 = {
  name: "L3",
  of_k: [0, 1, 0, 1, 0, 1, 0, 1],
  orients: [
    {
      text: "r0",
      cells: [
        [0, 0],
        [1, 0],
        [0, 1],
      ],
    },
    {
      text: "r1",
      cells: [
        [0, 0],
        [0, -1],
        [1, 0],
      ],
    },
  ],
};

test("ghostOf: the cells a piece covers at the cursor and its notation", () => {
  assert.deepEqual(fm.ghostOf(L3, 0, [2, 3], 19), { cells: ["c4", "d4", "c5"], inside: true, text: "L3 r0 @ c4" });
  assert.deepEqual(fm.ghostOf(L3, 1, [0, 0], 19).inside, false);
  assert.equal(fm.ghostOf(L3, 0, [18, 0], 19).inside, false);
  assert.equal(fm.ghostOf(L3, 0, [17, 17], 19).inside, true);
  assert.equal(fm.ghostOf(undefined, 0, [0, 0], 19), null);
});

const players = (rows) =>
  rows.map(([markers, bridges, paths, score = 0]) => ({ markers, bridges, bridge_paths: paths, score }));

test("freshMarkers: what the last view added, nothing on the first", () => {
  const st = {};
  assert.deepEqual([...fm.freshMarkers(st, { players: players([[["a1"], 0, []]]) })], []);
  const fresh = fm.freshMarkers(st, { players: players([[["a1", "b2", "c3"], 0, []]]) });
  assert.deepEqual([...fresh].sort(), ["b2", "c3"]);
  assert.equal(st.enclosed, 2);
});

test("freshBridges: new bridge paths of a player whose bridge count grew", () => {
  const st = {};
  const path = ["a1", "a2", "a3"];
  assert.equal(
    fm.freshBridges(st, {
      players: players([
        [[], 0, []],
        [[], 0, []],
      ]),
    }).size,
    0,
  );
  const grew = fm.freshBridges(st, {
    players: players([
      [[], 1, [path]],
      [[], 0, []],
    ]),
  });
  assert.deepEqual([...grew], ["0:a1 a2 a3"]);
  // another path of the same bridge found by the search, with no new bridge: not news
  const other = fm.freshBridges(st, {
    players: players([
      [[], 1, [path, ["a1", "b2", "a3"]]],
      [[], 0, []],
    ]),
  });
  assert.equal(other.size, 0);
});

test("breakdown: a previewed placement's points, part by part", () => {
  const v = { players: players([[["a1"], 0, []]]) };
  v.players[0].pieces = ["a1", "a2"];
  const after = { players: players([[["a1", "b1"], 1, []]]) };
  after.players[0].pieces = ["a1", "a2", "a3", "a4", "a5"];
  const points = { enclosure: 10, bridge: 50 };
  const text = fm.breakdown({ view: after, delta: 3 + 10 + 50 + 2 }, v, 0, t, points);
  const parts = [
    t("forma.cells", { n: 3 }),
    t("forma.enclosures", { n: 1, p: 10 }),
    t("forma.bridgeOne", { p: 50 }),
    t("forma.towerObstacles", { p: 2 }),
  ];
  assert.equal(text, `(${parts.join(", ")})`);
  // The worth of each part is the server's: other figures, another breakdown of the same delta.
  const other = fm.breakdown({ view: after, delta: 3 + 10 + 50 + 2 }, v, 0, t, { enclosure: 20, bridge: 30 });
  assert.ok(other.includes(t("forma.enclosures", { n: 1, p: 20 })) && other.includes(t("forma.bridgeOne", { p: 30 })));
  const plain = { players: players([[["a1"], 0, []]]) };
  plain.players[0].pieces = ["a1", "a2", "a3"];
  assert.equal(fm.breakdown({ view: plain, delta: 1 }, v, 0, t, points), `(${t("forma.cells", { n: 1 })})`);
});

const ctx = (history, extra = {}) => ({ msg: { history }, seatName: (p) => ["Ann", "Bob"][p], ...extra });
const hist = (rows) => rows.map(([player, action], n) => ({ n, player, action }));
const placed = [0, "X5 r0 @ e10"];

test("lostPicks: a touch-move pick that fits nowhere is told from the history", () => {
  const again = fm.lostPicks(
    {},
    { picked: null, current_player: 0, misses: 1 },
    ctx(hist([placed, [0, "pick F5"]])),
    t,
  );
  assert.equal(again, "Ann's F5 fits nowhere: it leaves the game. Ann picks once more.");
  const passed = fm.lostPicks(
    {},
    { picked: null, current_player: 1, misses: 0 },
    ctx(hist([placed, [0, "pick F5"], [0, "pick L5"]])),
    t,
  );
  assert.equal(passed, "Ann's L5 fits nowhere: it leaves the game and the turn passes.");
  const inHand = fm.lostPicks(
    {},
    { picked: "F5", current_player: 0, misses: 0 },
    ctx(hist([placed, [0, "pick F5"]])),
    t,
  );
  assert.equal(inHand, null);
  const played = fm.lostPicks(
    {},
    { picked: null, current_player: 1 },
    ctx(
      hist([
        [0, "pick F5"],
        [0, "F5 r0 @ c3"],
      ]),
    ),
    t,
  );
  assert.equal(played, null);
  assert.equal(fm.lostPicks({}, { picked: null }, ctx([]), t), null);
});

test("announceLast: the bridge banner and the last move said with its points", () => {
  const said = [];
  const st = {};
  const c = ctx(hist([placed]), { announce: (x) => said.push(x) });
  fm.announceLast(
    st,
    {
      players: players([
        [[], 0, [], 0],
        [[], 0, [], 0],
      ]),
    },
    c,
    t,
    null,
    { enclosure: 10, bridge: 50 },
  );
  assert.deepEqual(said, []); // the first view: nothing to say
  fm.announceLast(
    st,
    {
      players: players([
        [[], 1, [], 55],
        [[], 0, [], 0],
      ]),
    },
    c,
    t,
    null,
    { enclosure: 10, bridge: 50 },
  );
  assert.equal(st.banner, t("forma.bridgeBanner", { name: "Ann", n: 1, p: 50 }));
  assert.deepEqual(said, [t("announce.move", { name: "Ann", move: "X5 r0 @ e10", points: "+55" })]);
  fm.announceLast(
    st,
    {
      players: players([
        [[], 1, [], 55],
        [[], 0, [], 0],
      ]),
    },
    c,
    t,
    null,
    { enclosure: 10, bridge: 50 },
  );
  assert.equal(st.banner, null);
});

test("a square's look: a piece's pattern, an obstacle's grey (darker enclosed), the tower and its marks", () => {
  const sets = {
    owner: new Map([["a1", 2]]),
    marker: new Map([["b2", 1]]),
    obstacles: new Set(["c3", "d4", "e5"]),
    closed: new Set(["d4", "e5"]),
    tower: "e5",
    fresh: new Set(["a1"]),
    allowed: new Set(["f6"]),
    last: new Set(["a1"]),
  };
  const a1 = fm.cellLook("a1", sets);
  assert.equal(a1.fill, "url(#fm-pat2)");
  assert.ok(a1.fresh && a1.last && !a1.allowed && !a1.tower && !a1.obstacle && a1.marker === undefined);
  assert.equal(fm.cellLook("b2", sets).marker, 1);
  assert.equal(fm.cellLook("b2", sets).fill, "#fff");
  assert.deepEqual([fm.cellLook("c3", sets).fill, fm.cellLook("c3", sets).obstacle], ["#8a8a8a", true]);
  assert.equal(fm.cellLook("d4", sets).fill, "#555");
  const e5 = fm.cellLook("e5", sets); // the tower's square is drawn as the tower, not as an obstacle
  assert.ok(e5.tower && !e5.obstacle && e5.closed);
  assert.ok(fm.cellLook("f6", sets).allowed);
  assert.equal(fm.cellLook("a1", { ...sets, fresh: null }).fresh, false);
});

test("board keys: arrows move the cursor and stay on the board; R, F, [ ], Enter and Space; others nothing", () => {
  assert.deepEqual(fm.boardKey("ArrowUp", [3, 3], 19), { cursor: [3, 4] });
  assert.deepEqual(fm.boardKey("ArrowDown", [3, 0], 19), { cursor: [3, 0] });
  assert.deepEqual(fm.boardKey("ArrowRight", [18, 5], 19), { cursor: [18, 5] });
  assert.deepEqual(fm.boardKey("ArrowRight", [18, 5], 20), { cursor: [19, 5] });
  assert.deepEqual(fm.boardKey("ArrowLeft", [0, 5], 19), { cursor: [0, 5] });
  assert.deepEqual(fm.boardKey("R", [0, 0], 19), { turn: "rotate" });
  assert.deepEqual(fm.boardKey("f", [0, 0], 19), { turn: "flip" });
  assert.deepEqual(fm.boardKey("]", [0, 0], 19), { piece: 1 });
  assert.deepEqual(fm.boardKey("[", [0, 0], 19), { piece: -1 });
  assert.deepEqual(fm.boardKey(" ", [0, 0], 19), { enter: true });
  assert.deepEqual(fm.boardKey("Enter", [0, 0], 19), { enter: true });
  assert.equal(fm.boardKey("x", [0, 0], 19), null);
  assert.equal(fm.boardKey("Tab", [0, 0], 19), null);
});
