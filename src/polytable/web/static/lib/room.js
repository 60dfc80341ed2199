// The room page's state, with no DOM (unit-tested by tests/js): what the server said last and what the page
// shows beside it, in one plain object every component reads and only these functions change. The server is
// the authority: nothing here decides what is legal; it picks which seat is on screen, what the status line
// says, which moves wait to be sent and which hint and notice still hold.

/** A room page's state before the first message. */
export function newRoomState() {
  return {
    msg: null, // the last state message
    held: [], // the seats this connection holds (from the welcome)
    skew: 0, // seconds our clock is ahead of the server's (clocks are shown from the server's figures)
    shown: null, // the seat whose board is on screen (hot-seat)
    confirmed: null, // the seat that confirmed the pass screen
    replaying: false, // stepping through a finished game (the replay panel owns the board)
    notice: null, // {text, error, version}: the last message for the player, until the game changes
    notation: false, // the history shows the notation
    hint: null, // {seat, version, moves}: the suggested moves, the first drawn on the board
    hintAsk: 0, // the hint request in flight
    queued: null, // {seat, moves, after}: moves that follow one sent (a touch-move pick, then its placement)
    textOn: true, // the server sends the engine's text rendering until the page says it shows none
    textWanted: false, // a dedicated board's text view is open
  };
}

/** A state message arrived (``now``: this device's time in seconds). */
export function takeState(st, m, now) {
  st.skew = now - m.now; // the server's clock is the truth; this is how far ours is off
  st.msg = m;
  if (st.notice && st.notice.version !== m.version) st.notice = null; // the game moved on
}

/** A message for the player (a refused move and why), shown until the game changes; null clears it. */
export function setNotice(st, text, error = false) {
  st.notice = text ? { text, error, version: st.msg ? st.msg.version : -1 } : null;
}

/** Which of our seats is on screen: the one that must act (first of ours), else the last one shown. */
export function targetSeat(st) {
  const { msg, held, shown } = st;
  const acting = msg.acting.filter((p) => held.includes(p));
  if (acting.length) return acting.includes(shown) ? shown : acting[0];
  if (shown !== null && held.includes(shown)) return shown;
  return held.length ? held[0] : null;
}

/** The seats of people at this device (not AIs). */
export function peopleHere(st) {
  return st.held.filter((p) => st.msg.room.seats[p].kind !== "ai");
}

/** Hot-seat: whether the device must be handed to ``target`` first (several people here, not confirmed yet);
 * then ``back`` is the other person here who may still take their move back (undefined if none). */
export function passTo(st, target) {
  const people = peopleHere(st);
  if (target === null || people.length < 2 || target === st.confirmed || st.msg.over) return null;
  const back = people.find((p) => p !== target && (st.msg.mine[String(p)] || {}).can_undo);
  return { target, back };
}

/** A seat's name: the one typed, else in this language ("Player 2", "Greedy AI": ``t``/``tOr`` translate). */
export function seatName(st, p, t, tOr) {
  const s = st.msg.room.seats[p];
  if (!s || s.default_name) return s && s.kind === "ai" ? aiName(s.ai, t, tOr) : t("room.player", { n: p + 1 });
  return s.name;
}

/** An AI as a player, in its own words ("Greedy AI", "Gretige AI"): ai.<name>.named. */
export function aiName(ai, t, tOr) {
  return tOr(`ai.${ai}.named`, t("room.aiName", { ai: tOr(`ai.${ai}`, ai) }));
}

/** Seconds seat ``p`` has left at ``now``: the server's figure at clock.since, less the time since if its
 * clock runs. */
export function secondsLeft(st, p, now) {
  const { msg, skew } = st;
  const c = msg.clock;
  const running = c.running.includes(p) && !msg.over;
  return Math.max(0, c.remaining[p] - (running ? now - skew - c.since : 0));
}

/** The status line for ``target`` (null: a spectator): {key, params, turn}; ``name`` names a seat. */
export function statusLine(st, target, name) {
  const { msg } = st;
  const who = () => msg.acting.map(name).join(", ");
  if (msg.over) return { key: "room.over", params: {}, turn: false };
  // The database or Redis is not answering: nothing is lost, moves wait until the table goes on.
  if (msg.paused) return { key: "room.paused", params: {}, turn: false };
  if (target === null)
    return msg.acting.length
      ? { key: "room.watching", params: { who: who() }, turn: false }
      : { key: "room.watchingOnly", params: {}, turn: false };
  const part = msg.mine[String(target)];
  if (part && part.to_act) return { key: "room.yourMove", params: { name: name(target) }, turn: true };
  if (msg.acting.length) return { key: "room.waitingFor", params: { name: name(target), who: who() }, turn: false };
  return { key: "room.waiting", params: {}, turn: false };
}

/** The ``act`` message of the first of ``moves`` for ``seat``; the rest wait for the states that follow
 * (see nextQueued). Null when there is nothing to play. */
export function playMoves(st, seat, moves) {
  if (!moves.length) return null;
  st.queued = moves.length > 1 ? { seat, moves: moves.slice(1), after: st.msg.version } : null;
  return { type: "act", seat, version: st.msg.version, action: moves[0] };
}

/** The moves waiting to be sent now that a newer state came: {seat, moves} while the next one is still
 * legal for that seat, else null (the queue is dropped either way once the game moved on). */
export function nextQueued(st) {
  const q = st.queued;
  if (!q || st.msg.version <= q.after) return null;
  st.queued = null;
  const part = st.msg.mine[String(q.seat)];
  return part && part.to_act && (part.legal || []).includes(q.moves[0]) ? { seat: q.seat, moves: q.moves } : null;
}

/** A hint request for ``seat``. */
export function askHint(st, seat) {
  return { type: "hint", seat, ask: ++st.hintAsk };
}

/** A hint arrived: "shown" when it is the answer to the last request on this version (it is drawn), "none"
 * when that answer has no move to offer, null when it is an old one. */
export function takeHint(st, m) {
  if (m.ask !== st.hintAsk || !m.moves) return null;
  if (!m.moves.length) return "none";
  if (!st.msg || m.version !== st.msg.version) return null;
  st.hint = { seat: m.seat, version: m.version, moves: m.moves };
  return "shown";
}

/** The hinted moves for ``seat`` while they still fit the state on screen. */
export function currentHint(st, seat) {
  const hint = st.hint;
  return hint && hint.seat === seat && hint.version === st.msg.version ? hint.moves : null;
}

/** Whether the engine's text should come: shown by the generic board, or by a dedicated board's text view.
 * Returns the new wish when it changed (the page tells the server), else null. */
export function textWish(st, dedicated) {
  const want = st.textWanted || !dedicated;
  if (want === st.textOn) return null;
  st.textOn = want;
  return want;
}
