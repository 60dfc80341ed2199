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

test("resultHeadline: one winner, a shared win, nobody, and a solo game", async () => {
  const { resultHeadline } = await import("../../src/polytable/web/static/lib/text.js");
  const name = (p) => ["Ann", "Bob", "Cy"][p];
  assert.equal(resultHeadline({ winners: [1] }, 2, name, t), t("room.winsOne", { name: "Bob" }));
  assert.equal(resultHeadline({ winners: [1] }, 2, name, t, 1), t("room.youWin"));
  assert.equal(resultHeadline({ winners: [1] }, 2, name, t, 0), t("room.winsOne", { name: "Bob" }));
  assert.equal(resultHeadline({ winners: [0, 2] }, 3, name, t), t("room.winsShared", { names: "Ann", last: "Cy" }));
  assert.equal(
    resultHeadline({ winners: [0, 1, 2] }, 3, name, t),
    t("room.winsShared", { names: "Ann, Bob", last: "Cy" }),
  );
  assert.equal(resultHeadline({ winners: [] }, 2, name, t), t("room.winsNobody"));
  assert.equal(resultHeadline({ winners: [0] }, 1, name, t), t("room.soloWon"));
  assert.equal(resultHeadline(null, 1, name, t), t("room.soloDone"));
  assert.doesNotMatch(resultHeadline({ winners: [0, 1] }, 2, name, t), /\{|undefined|null/);
});

test("tSaid: a game's words with seats by name, nested parts, a capital first letter", async () => {
  const { translator } = await import("../../src/polytable/web/static/lib/i18n.js");
  const dict = {
    "error.engine.said.both": "{first}; {then}",
    "error.engine.x.place": "{seat} legde {n}",
    "error.engine.x.end": "klaar",
  };
  const { tSaid } = translator(dict, {});
  const name = (p) => (p < 0 ? "het toeval" : ["Ann", "Bob"][p]);
  const place = { code: "x.place", params: { seat: 1, n: 3 }, message: "Player 2 placed 3" };
  assert.equal(tSaid(place, name), "Bob legde 3");
  const both = { code: "said.both", params: { first: { code: "x.end", params: {} }, then: place }, message: "" };
  assert.equal(tSaid(both, name), "Klaar; Bob legde 3");
  assert.equal(tSaid({ code: "x.unknown", params: {}, message: "in English" }, name), "In English");
  assert.equal(tSaid(null, name), "");
});
