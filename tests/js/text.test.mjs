import { test } from "node:test";
import assert from "node:assert/strict";
import { clockText } from "../../src/polytable/web/static/lib/text.js";
import { boardIn } from "../../src/polytable/web/static/lib/games.js";
import { t } from "./_helpers.mjs";

test("clockText: m:ss under an hour, hours and minutes above, never negative", () => {
  assert.equal(clockText(0, t), "0:00");
  assert.equal(clockText(59.9, t), "0:59");
  assert.equal(clockText(61, t), "1:01");
  assert.equal(clockText(600, t), "10:00");
  assert.equal(clockText(3599.5, t), "59:59");
  assert.equal(clockText(-12, t), "0:00");
  assert.equal(clockText(3600, t), t("room.clockHours", { h: 1, m: 0 }));
  assert.equal(clockText(2 * 3600 + 5 * 60 + 59, t), t("room.clockHours", { h: 2, m: 5 }));
  assert.match(clockText(90000, t), /25/);
});

test("boardIn: the board a game's /api/games entry names", () => {
  const list = [
    { id: "forma", board: "forma" },
    { id: "qwirkle-cubes", board: "qwirkle-cubes" },
    { id: "nim", board: null },
    { id: "old" }, // a list kept from before the field
    { id: "evil", board: "../app" },
  ];
  assert.equal(boardIn(list, "forma"), "forma");
  assert.equal(boardIn(list, "qwirkle-cubes"), "qwirkle-cubes");
  assert.equal(boardIn(list, "nim"), null);
  assert.equal(boardIn(list, "old"), undefined);
  assert.equal(boardIn(list, "unlisted"), undefined);
  assert.equal(boardIn(list, "evil"), null);
  assert.equal(boardIn([], "forma"), undefined);
  assert.equal(boardIn(null, "forma"), undefined);
});
