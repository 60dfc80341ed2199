// The new-game form's state, with no DOM (unit-tested by tests/js): the game chosen, its options as typed,
// the player count, the mode, each seat and the time control, in one plain object the form draws and only
// these functions change. Every figure (player counts, option defaults and bounds, the AIs) is the game's
// entry in the server's list (GET /api/games); the server checks the request again.

/** The time control's choices and what a new form starts with (minutes a player, seconds a move, hours a
 * move for turn-based play). */
export const CLOCK_KINDS = ["none", "realtime", "turn"];
const CLOCK_START = { kind: "none", minutes: "10", increment: "5", hours: "24", on_timeout: "ai" };

/** A form over ``games`` (the server's list), on the first game. */
export function newForm(games) {
  const st = { games, game: null, options: {}, players: null, mode: "play", seats: [], clock: { ...CLOCK_START } };
  chooseGame(st, games[0].id);
  return st;
}

/** The chosen game's entry. */
export const spec = (st) => st.games.find((g) => g.id === st.game);

/** An option's value as its field starts: its default ("" for none; a checkbox's true or false; a choice
 * with no default among its choices starts on the first, as a select does). */
function start(o) {
  if (o.kind === "bool") return !!o.default;
  if (o.kind === "text") return "";
  if (o.kind === "choice") return String(o.choices.includes(o.default) ? o.default : o.choices[0]);
  return String(o.default ?? "");
}

/** A new game: its options at their defaults, its default player count, play mode, fresh seats. */
export function chooseGame(st, id) {
  st.game = id;
  const g = spec(st);
  st.options = Object.fromEntries(g.options.map((o) => [o.name, start(o)]));
  st.players = null;
  st.mode = "play";
  st.seats = [];
  fitPlayers(st);
}

/** The player counts the chosen options allow (the server lists the option values that narrow them, e.g.
 * FORMFINITY's variants 3 and 4 are for two players). */
export function playerCounts(st) {
  const g = spec(st);
  let counts = Array.from({ length: g.players.max - g.players.min + 1 }, (_, i) => g.players.min + i);
  for (const [name, byValue] of Object.entries(g.player_counts || {})) {
    const allowed = byValue[String(st.options[name])];
    if (allowed) counts = counts.filter((n) => allowed.includes(n));
  }
  return counts;
}

/** Keep the player count among the allowed ones (else the game's default, else the first), and the seats
 * as many as the players. */
function fitPlayers(st) {
  const g = spec(st);
  const counts = playerCounts(st);
  const before = st.players || g.players.default;
  st.players = counts.includes(before) ? before : counts.includes(g.players.default) ? g.players.default : counts[0];
  fitSeats(st);
}

/** As many seats as players; what was chosen for a seat so far stays chosen. */
function fitSeats(st) {
  const g = spec(st);
  st.seats = Array.from({ length: st.players }, (_, p) => {
    const old = st.seats[p];
    return old
      ? { ...old, ai: g.ai.includes(old.ai) ? old.ai : defaultAi(g) }
      : { kind: "here", ai: defaultAi(g), name: "" };
  });
}

const defaultAi = (g) => (g.ai.includes("greedy") ? "greedy" : g.ai[0]);

/** An option changed (its field's value, or a checkbox's true/false); the player count follows. */
export function setOption(st, name, value) {
  st.options[name] = value;
  fitPlayers(st);
}

/** The player count chosen. */
export function setPlayers(st, n) {
  st.players = Number(n);
  fitSeats(st);
}

/** Play mode ("play") or companion mode ("companion": the app only deals cards; no seats to choose). */
export function setMode(st, mode) {
  st.mode = mode;
}

/** A seat's field changed: its kind (here, invite, ai), its AI or its name. */
export function setSeat(st, p, field, value) {
  st.seats[p] = { ...st.seats[p], [field]: value };
}

/** The time control's field changed: its kind, minutes, increment, hours or what a timeout does. */
export function setClock(st, field, value) {
  st.clock = { ...st.clock, [field]: value };
}

/** The options to send: those that differ from their defaults, as numbers where the option is one. */
export function chosenOptions(st) {
  const opts = {};
  for (const o of spec(st).options) {
    const v = st.options[o.name];
    if (o.kind === "bool") {
      if (v !== !!o.default) opts[o.name] = v;
    } else if (v !== "" && v !== String(o.default ?? "")) {
      opts[o.name] = o.kind === "int" ? Number.parseInt(v, 10) : o.kind === "float" ? Number(v) : v;
    }
  }
  return opts;
}

/** The seats to send: in companion mode everyone is here; ``local`` (this device's engine) has no invited
 * seats; a person's name only when typed. */
export function chosenSeats(st, local) {
  return st.seats.map((s) => {
    let kind = st.mode === "companion" ? "here" : s.kind;
    if (local && kind === "invite") kind = "here";
    if (kind === "ai") return { kind, ai: s.ai };
    const name = s.name.trim();
    return name ? { kind, name } : { kind };
  });
}

/** The time control to send, or null for none. */
export function chosenClock(st) {
  const c = st.clock;
  if (c.kind === "none") return null;
  return c.kind === "realtime"
    ? { kind: c.kind, minutes: Number(c.minutes), increment: Number(c.increment), on_timeout: c.on_timeout }
    : { kind: c.kind, hours: Number(c.hours), on_timeout: c.on_timeout };
}

/** The room request for the server (a time control only in play mode). */
export function roomRequest(st) {
  const request = {
    game: st.game,
    players: st.players,
    options: chosenOptions(st),
    seats: chosenSeats(st, false),
    mode: st.mode,
  };
  const clock = chosenClock(st);
  if (clock && st.mode === "play") request.time_control = clock;
  return request;
}
