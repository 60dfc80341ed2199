import { test } from "node:test";
import assert from "node:assert/strict";
import { moveTracker, reconnectDelay, settleMove } from "../../src/polytable/web/static/lib/reconnect.js";

test("reconnectDelay: doubles to a cap, with jitter between half and all of it", () => {
  assert.equal(
    reconnectDelay(0, () => 1),
    500,
  );
  assert.equal(
    reconnectDelay(0, () => 0),
    250,
  );
  assert.equal(
    reconnectDelay(3, () => 1),
    4000,
  );
  assert.equal(
    reconnectDelay(10, () => 1),
    5000,
  );
  assert.equal(
    reconnectDelay(10, () => 0),
    2500,
  );
  const seen = new Set(Array.from({ length: 50 }, () => reconnectDelay(2)));
  assert.ok(seen.size > 5, "the delays are spread, not one value");
  for (const d of seen) assert.ok(d >= 1000 && d <= 2000);
});

test("settleMove: a move sent before the socket dropped is made, not made or still waiting, never both", () => {
  const pending = { seat: 1, version: 10, action: "3" };
  const entry = (n, player, action) => ({ n, player, action });
  assert.equal(settleMove(pending, { paused: true, version: 10, moves: 10, history: [] }), "waiting");
  assert.equal(settleMove(pending, { paused: false, version: 10, moves: 10, history: [] }), "not_made");
  const made = { paused: false, version: 12, moves: 12, history: [entry(11, 1, "3"), entry(12, 0, "1")] };
  assert.equal(settleMove(pending, made), "made");
  const other = { paused: false, version: 11, moves: 11, history: [entry(11, 0, "3")] };
  assert.equal(settleMove(pending, other), "not_made");
  const older = { paused: false, version: 11, moves: 11, history: [entry(9, 1, "3")] };
  assert.equal(settleMove(pending, older), "not_made");
  assert.equal(settleMove(null, made), null);
});

test("moveTracker: only a move whose answer the socket took with it is settled, once", () => {
  const moves = moveTracker();
  const st = (version, extra = {}) => ({ paused: false, version, moves: version, history: [], ...extra });
  moves.sent(0, 4, "2");
  assert.equal(moves.state(st(5)), null); // answered by the new state: nothing to say
  moves.sent(0, 5, "2");
  moves.dropped();
  assert.equal(moves.state(st(5, { paused: true })), null); // still waiting for the table
  assert.equal(moves.state(st(6, { history: [{ n: 6, player: 0, action: "2" }] })), "made");
  assert.equal(moves.state(st(6)), null); // told once
  moves.sent(1, 6, "1");
  moves.answered();
  moves.dropped();
  assert.equal(moves.state(st(6)), null); // refused with a reason already
});
