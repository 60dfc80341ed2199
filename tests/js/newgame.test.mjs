import { test } from "node:test";
import assert from "node:assert/strict";
import * as F from "../../src/polytable/web/static/lib/newgame.js";

// Two games as GET /api/games lists them (only what the form reads).
const GAMES = [
  {
    id: "tiles",
    players: { min: 2, max: 4, default: 3 },
    ai: ["random", "greedy"],
    companion: false,
    options: [
      { name: "variant", kind: "choice", choices: ["1", "2", "3"], default: "1" },
      { name: "size", kind: "int", default: 10, min: 5, max: 20 },
      { name: "fast", kind: "bool", default: false },
      { name: "deck", kind: "text" },
    ],
    player_counts: { variant: { 3: [2] } },
  },
  { id: "solo", players: { min: 1, max: 1, default: 1 }, ai: ["easy"], companion: true, options: [] },
];

test("a new form is on the first game with its defaults, its default player count and fresh seats", () => {
  const st = F.newForm(GAMES);
  assert.equal(st.game, "tiles");
  assert.deepEqual(st.options, { variant: "1", size: "10", fast: false, deck: "" });
  assert.equal(st.players, 3);
  assert.deepEqual(st.seats, Array(3).fill({ kind: "here", ai: "greedy", name: "" }));
  assert.deepEqual(F.chosenOptions(st), {}); // nothing differs from the defaults
  assert.equal(F.chosenClock(st), null);
});

test("an option narrows the player counts; the count and the seats follow, each seat keeping its choices", () => {
  const st = F.newForm(GAMES);
  F.setSeat(st, 0, "name", " Ann ");
  F.setSeat(st, 1, "kind", "ai");
  F.setOption(st, "variant", "3");
  assert.deepEqual(F.playerCounts(st), [2]);
  assert.equal(st.players, 2);
  assert.deepEqual(st.seats, [
    { kind: "here", ai: "greedy", name: " Ann " },
    { kind: "ai", ai: "greedy", name: "" },
  ]);
  F.setOption(st, "variant", "2");
  assert.deepEqual(F.playerCounts(st), [2, 3, 4]);
  assert.equal(st.players, 2); // the count chosen stays while it is allowed
  F.setPlayers(st, "4");
  assert.equal(st.seats.length, 4);
  assert.equal(st.seats[0].name, " Ann ");
});

test("the request sends what differs from the defaults, typed names, and a clock only in play mode", () => {
  const st = F.newForm(GAMES);
  F.setOption(st, "size", "12");
  F.setOption(st, "fast", true);
  F.setOption(st, "deck", "I2 L3");
  F.setSeat(st, 0, "name", " Ann ");
  F.setSeat(st, 1, "kind", "invite");
  F.setSeat(st, 2, "kind", "ai");
  F.setSeat(st, 2, "ai", "random");
  F.setClock(st, "kind", "realtime");
  F.setClock(st, "minutes", "3");
  assert.deepEqual(F.roomRequest(st), {
    game: "tiles",
    players: 3,
    options: { size: 12, fast: true, deck: "I2 L3" },
    seats: [{ kind: "here", name: "Ann" }, { kind: "invite" }, { kind: "ai", ai: "random" }],
    mode: "play",
    time_control: { kind: "realtime", minutes: 3, increment: 5, on_timeout: "ai" },
  });
  assert.deepEqual(F.chosenSeats(st, true)[1], { kind: "here" }); // this device's engine invites no one
  F.setClock(st, "kind", "turn");
  assert.deepEqual(F.chosenClock(st), { kind: "turn", hours: 24, on_timeout: "ai" });
  F.setMode(st, "companion");
  const companion = F.roomRequest(st);
  assert.equal(companion.time_control, undefined);
  assert.deepEqual(companion.seats, [{ kind: "here", name: "Ann" }, { kind: "here" }, { kind: "here" }]);
});

test("another game starts afresh: its options, its default count, play mode, its AIs", () => {
  const st = F.newForm(GAMES);
  F.setMode(st, "companion");
  F.setSeat(st, 0, "kind", "ai");
  F.chooseGame(st, "solo");
  assert.deepEqual([st.players, st.mode, st.options], [1, "play", {}]);
  assert.deepEqual(st.seats, [{ kind: "here", ai: "easy", name: "" }]);
});
