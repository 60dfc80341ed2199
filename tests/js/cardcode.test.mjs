import { test } from "node:test";
import assert from "node:assert/strict";
import { codeFrom, decodeCard } from "../../src/polytable/web/static/cardcode.js";

test("codeFrom reads a code or a card URL and rejects anything else", () => {
  assert.equal(codeFrom("IAV"), "IAV");
  assert.equal(codeFrom("  iav "), "IAV");
  assert.equal(codeFrom("https://table.example/c/IAV"), "IAV");
  assert.equal(codeFrom("https://table.example/c/iav/?x=1#top"), "IAV");
  assert.equal(codeFrom(""), null);
  assert.equal(codeFrom(null), null);
  assert.equal(codeFrom("ABCDEFGHI"), null); // nine characters: no card has that many
  assert.equal(codeFrom("AB-C"), null);
});

test("decodeCard: the documented example ##/#.x2:TR:r is IAV", () => {
  const card = decodeCard("IAV");
  assert.deepEqual(card.shape, ["##", "#."]);
  assert.equal(card.count, 2);
  assert.equal(card.arrows, "TR");
  assert.equal(card.rotate, true);
  assert.equal(card.text, "##/#.x2:TR:r");
  assert.equal(card.code, "IAV");
  assert.deepEqual(decodeCard("https://x/c/iav"), card);
});

// The encoder of the format (as polytable.games.formfinity.card_code), to check every field round-trips.
function encode(rows, count, edges, rotate) {
  const w = rows[0].length;
  let v = 1n;
  for (let y = rows.length - 1; y >= 0; y--)
    for (let x = w - 1; x >= 0; x--) v = (v << 1n) | (rows[y][x] === "#" ? 1n : 0n);
  v = (((((v << 3n) | BigInt(w - 1)) << 2n) | BigInt(count - 1)) << 4n) | BigInt(edges);
  return ((v << 1n) | (rotate ? 1n : 0n)).toString(36).toUpperCase();
}

test("decodeCard reads back every field the format carries", () => {
  const shapes = [["#"], ["#####"], ["#", "#", "#", "#", "#"], ["##", "##"], [".#.", "###", ".#."], ["#..", "###"]];
  for (const rows of shapes) {
    for (const count of [1, 2, 3]) {
      for (const edges of [0, 1, 5, 15]) {
        for (const rotate of [false, true]) {
          const card = decodeCard(encode(rows, count, edges, rotate));
          assert.ok(card, `${rows} ${count} ${edges} ${rotate}`);
          assert.deepEqual(card.shape, rows);
          assert.equal(card.count, count);
          assert.equal(card.rotate, rotate);
          assert.equal(card.arrows, [..."TRBL"].filter((_, k) => (edges >> k) & 1).join(""));
          assert.ok(card.text.startsWith(`${rows.join("/")}x${count}:`));
        }
      }
    }
  }
});

test("decodeCard rejects drawings no card has", () => {
  assert.equal(decodeCard(encode(["#.#"], 1, 0, false)), null); // not connected
  assert.equal(decodeCard(encode(["###", "###"], 1, 0, false)), null); // six squares
  assert.equal(decodeCard(encode(["#.", "#."], 1, 0, false)), null); // an empty last column
  assert.equal(decodeCard(encode([".."], 1, 0, false)), null); // no square
  assert.equal(decodeCard(encode(["#"], 4, 0, false)), null); // count 4
  assert.equal(decodeCard("0"), null);
  assert.equal(decodeCard("not a code!"), null);
});
