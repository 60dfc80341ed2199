import { test } from "node:test";
import assert from "node:assert/strict";
import * as R from "../../src/polytable/web/static/lib/room.js";
import { t, english } from "./_helpers.mjs";
import { translator } from "../../src/polytable/web/static/lib/i18n.js";

const { tOr } = translator(english, english);

// A state message as the server sends it, with what these tests vary.
function message({ version = 4, acting = [0], mine = {}, over = false, seats = null, clock = null, now = 100 } = {}) {
  return {
    type: "state",
    version,
    acting,
    over,
    mine,
    clock,
    now,
    room: {
      seats: seats || [
        { seat: 0, name: "Ann", default_name: false, kind: "here" },
        { seat: 1, name: "Player 2", default_name: true, kind: "here" },
        { seat: 2, name: "Greedy AI", default_name: true, kind: "ai", ai: "greedy" },
      ],
    },
  };
}

test("the seat on screen: ours that acts, kept while it acts, else the last shown, else our first", () => {
  const st = R.newRoomState();
  st.held = [0, 1];
  st.msg = message({ acting: [1] });
  assert.equal(R.targetSeat(st), 1);
  st.msg = message({ acting: [0, 1] });
  st.shown = 1;
  assert.equal(R.targetSeat(st), 1); // several act: the one on screen stays
  st.msg = message({ acting: [2] });
  assert.equal(R.targetSeat(st), 1);
  st.shown = null;
  assert.equal(R.targetSeat(st), 0);
  st.held = [];
  assert.equal(R.targetSeat(st), null); // a spectator
});

test("hot-seat: the device is handed over between people, with the previous one's undo offered", () => {
  const st = R.newRoomState();
  st.held = [0, 1];
  st.msg = message({ acting: [1], mine: { 0: { can_undo: true }, 1: { to_act: true } } });
  assert.deepEqual(R.passTo(st, 1), { target: 1, back: 0 });
  st.confirmed = 1;
  assert.equal(R.passTo(st, 1), null); // confirmed
  st.confirmed = null;
  st.held = [1, 2]; // one person and an AI: nothing to hand over
  assert.equal(R.passTo(st, 1), null);
});

test("seat names: the typed one, else the default in this language; an AI in its own words", () => {
  const st = R.newRoomState();
  st.msg = message();
  assert.equal(R.seatName(st, 0, t, tOr), "Ann");
  assert.equal(R.seatName(st, 1, t, tOr), t("room.player", { n: 2 }));
  assert.equal(R.seatName(st, 2, t, tOr), R.aiName("greedy", t, tOr));
  assert.notEqual(R.aiName("greedy", t, tOr), "greedy");
});

test("the status line says whose move it is, whom we wait for, or that the game is over", () => {
  const st = R.newRoomState();
  const name = (p) => `P${p}`;
  st.msg = message({ acting: [0], mine: { 0: { to_act: true }, 1: {} } });
  assert.deepEqual(R.statusLine(st, 0, name), { key: "room.yourMove", params: { name: "P0" }, turn: true });
  assert.deepEqual(R.statusLine(st, 1, name).params, { name: "P1", who: "P0" });
  assert.equal(R.statusLine(st, null, name).key, "room.watching");
  st.msg = message({ over: true });
  assert.equal(R.statusLine(st, 0, name).key, "room.over");
});

test("moves in a row: the first is sent, the next only on a newer state and while still legal", () => {
  const st = R.newRoomState();
  st.msg = message({ version: 4 });
  assert.deepEqual(R.playMoves(st, 0, ["pick L4", "L4 r0 @ c3"]), {
    type: "act",
    seat: 0,
    version: 4,
    action: "pick L4",
  });
  assert.equal(R.nextQueued(st), null); // the same version: wait
  st.msg = message({ version: 5, mine: { 0: { to_act: true, legal: ["L4 r0 @ c3"] } } });
  assert.deepEqual(R.nextQueued(st), { seat: 0, moves: ["L4 r0 @ c3"] });
  assert.equal(R.nextQueued(st), null); // sent once
  R.playMoves(st, 0, ["a", "b"]);
  st.msg = message({ version: 6, mine: { 0: { to_act: true, legal: ["c"] } } });
  assert.equal(R.nextQueued(st), null); // no longer legal: dropped
  assert.equal(st.queued, null);
  assert.equal(R.playMoves(st, 0, []), null);
});

test("a hint counts only as the answer to the last request on the version on screen", () => {
  const st = R.newRoomState();
  st.msg = message({ version: 3 });
  const ask = R.askHint(st, 0);
  assert.deepEqual(ask, { type: "hint", seat: 0, ask: 1 });
  assert.equal(R.takeHint(st, { ask: 0, seat: 0, version: 3, moves: ["x"] }), null); // an old request
  assert.equal(R.takeHint(st, { ask: 1, seat: 0, version: 2, moves: ["x"] }), null); // an old version
  assert.equal(R.takeHint(st, { ask: 1, seat: 0, version: 3, moves: [] }), "none");
  assert.equal(R.takeHint(st, { ask: 1, seat: 0, version: 3, moves: ["x"] }), "shown");
  assert.deepEqual(R.currentHint(st, 0), ["x"]);
  assert.equal(R.currentHint(st, 1), null);
  R.takeState(st, message({ version: 4 }), 0);
  assert.equal(R.currentHint(st, 0), null); // the game moved on
});

test("a notice stays until the game changes; clocks count down from the server's figures", () => {
  const st = R.newRoomState();
  R.takeState(st, message({ version: 2, now: 1000, clock: { running: [0], remaining: [60, 30], since: 1000 } }), 1010);
  assert.equal(st.skew, 10); // this device is 10 s ahead
  assert.equal(R.secondsLeft(st, 0, 1030), 40); // 20 s of the server's time ran
  assert.equal(R.secondsLeft(st, 1, 1030), 30); // not running
  R.setNotice(st, "refused", true);
  assert.deepEqual(st.notice, { text: "refused", error: true, version: 2 });
  R.takeState(st, message({ version: 2, now: 1000 }), 1010);
  assert.ok(st.notice);
  R.takeState(st, message({ version: 3, now: 1000 }), 1010);
  assert.equal(st.notice, null);
});

test("the engine's text is asked for only when a board shows it, and said once per change", () => {
  const st = R.newRoomState();
  assert.equal(R.textWish(st, false), null); // the generic board shows it: as sent
  assert.equal(R.textWish(st, true), false); // a dedicated board: stop
  assert.equal(R.textWish(st, true), null);
  st.textWanted = true;
  assert.equal(R.textWish(st, true), true); // its text view opened
});
