import { test } from "node:test";
import assert from "node:assert/strict";
import * as C from "../../src/polytable/web/static/lib/companion.js";
import { t } from "./_helpers.mjs";

// A companion message as the server sends it, with what these tests vary.
const message = (over = {}) => ({
  code: "AB12",
  game: "formfinity",
  round: 2,
  card: { text: "x" },
  history: [{}],
  ...over,
});

test("a card in words: block, elements, arrows and rotation; a start card's block is ignored", () => {
  const card = { name: "L4", count: 2, arrows: "TL", rotate: true, text: "L4 x2" };
  assert.equal(C.describe(card, t), "block L4, 2 elements, enter from top or left, may rotate");
  assert.equal(C.describe({ count: 1, arrows: "", rotate: false }, t), "1 element, anywhere, no rotation");
  assert.equal(
    C.describe({ name: "I2", lane: 3 }, t, { start: true }),
    "this card's block is not drawn, starting player's 2×2 start square in lane 3",
  );
  assert.equal(C.describe({ text: "raw" }, t), "raw"); // nothing to say in words: the card's own text
});

test("the heading, whose turn and the deal count come from the message", () => {
  assert.equal(C.title(message({ card: null }), t), "No card yet");
  assert.equal(C.title(message({ start: true }), t), "Start card");
  assert.equal(C.title(message(), t), "Round 2");
  assert.deepEqual(C.turn(message({ turn: 1, names: ["Ann", "Bob"] }), t), { text: "Bob's turn (orange)", colour: 1 });
  assert.deepEqual(C.turn(message({ turn: 7, card: null }), t), { text: "Player 8 draws first (blue)", colour: 0 });
  assert.deepEqual(C.turn(message({ together: true }), t), {
    text: "Everyone draws this block on their own sheet.",
    colour: null,
  });
  assert.equal(C.turn(message({ together: true, round: 0 }), t), null);
  assert.equal(C.turn(message(), t), null);
  assert.equal(C.dealt(message({ history: [{}, {}, {}], deck_left: 9 }), t), "3 cards dealt · 9 left in the deck");
  assert.equal(C.dealt(message(), t), "1 card dealt");
});

test("a start card's lanes name each seat, its colour and the starter; none after the start", () => {
  const c = message({ round: 0, start_lanes: [2, 5], starter: 1, names: ["Ann"] });
  assert.deepEqual(C.startLanes(c, t), [
    { colour: 0, text: "Ann: start square in lane 2" },
    { colour: 1, text: "Player 2: start square in lane 5 (starts: drawn at random)" },
  ]);
  assert.equal(C.startLanes({ ...c, round: 1 }, t), null);
});

test("print links: the room's sheet, the printed deck with its query, the other printables", () => {
  const c = message({
    printables: ["formfinity", "formfinity-cards", "forma"],
    deck_print: { name: "formfinity-cards", query: "deck=a" },
    players: 3,
    shared_sheet: true,
  });
  assert.deepEqual(C.printLinks(c, t), [
    ["/print/room/AB12.pdf", "Print the template (PDF)"],
    ["/print/formfinity-cards.pdf?deck=a", "Print QR cards (PDF)"],
    ["/print/forma.pdf?players=3", "Print: forma (PDF)"],
  ]);
  assert.deepEqual(C.printLinks(message(), t), []);
});

test("a card's layout: at least 5 x 5 squares with a margin, the drawn squares centred, arrows by side", () => {
  const small = C.cardLayout({ shape: ["##", "#."], arrows: "TRx" });
  assert.deepEqual([small.W, small.H], [300, 300]);
  assert.deepEqual(small.squares, [
    { x: 110, y: 110 },
    { x: 150, y: 110 },
    { x: 110, y: 150 },
  ]);
  assert.equal(small.arrows.length, 2); // an unknown side draws nothing
  assert.deepEqual(small.arrows[0], [
    [132, 13],
    [168, 13],
    [150, 31],
  ]);
  const wide = C.cardLayout({ shape: ["#######"] });
  assert.deepEqual([wide.W, wide.H, wide.squares.length, wide.arrows.length], [380, 300, 7, 0]);
});

test("the scanner's status follows the room's printed deck unless the camera is in use", () => {
  const sc = C.newScan("AB12", false);
  assert.equal(C.scanStatus(sc, t), t("cp.orPrinted"));
  C.scanFollows(sc, true);
  assert.equal(C.scanStatus(sc, t), t("cp.physical"));
  sc.camera = true;
  sc.status = { key: "cp.scanHint" };
  C.scanFollows(sc, false);
  assert.equal(C.scanStatus(sc, t), t("cp.scanHint"));
  assert.equal(sc.physical, false);
  sc.status = { text: "as the server said" };
  assert.equal(C.scanStatus(sc, t), "as the server said");
});
