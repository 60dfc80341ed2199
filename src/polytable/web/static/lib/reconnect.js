// Riding out faults: when to try the socket again, and what became of a move sent before it dropped.

// The wait before reconnect attempt ``attempt`` (0, 1, ...): doubling from half a second up to five, each
// drawn at random between half and all of it (jitter), so the phones of a restarted server do not all
// come back in the same instant. ``random`` is Math.random unless a test gives its own.
export function reconnectDelay(attempt, random = Math.random) {
  const full = Math.min(500 * 2 ** Math.max(0, attempt), 5000);
  return Math.round(full * (0.5 + random() / 2));
}

// A move sent (``pending``: {seat, version, action}) whose answer never came because the socket dropped:
// what the first state after reconnecting says of it. "waiting" while the table is paused (the server
// answers once its storage does), "made" if the history since that version holds the seat's move,
// "not_made" otherwise (the table is at the same version, or moved on without it). Never both.
export function settleMove(pending, state) {
  if (!pending || !state) return null;
  if (state.paused) return "waiting";
  if (state.version <= pending.version) return "not_made";
  const since = state.moves - (state.version - pending.version);
  const made = (state.history || []).some(
    (e) => e.n > since && e.player === pending.seat && e.action === pending.action,
  );
  return made ? "made" : "not_made";
}

// The move in flight on a room page: ``sent`` when it goes, ``answered`` on an error about it, ``dropped``
// when the socket closes, ``state`` on every state message (returns what to tell the player: "made",
// "not_made", or null for nothing).
export function moveTracker() {
  let sent = null;
  let unsure = null;
  return {
    sent: (seat, version, action) => (sent = { seat, version, action }),
    answered: () => (sent = null),
    dropped: () => {
      if (sent) unsure = sent;
      sent = null;
    },
    state: (m) => {
      if (sent && m.version > sent.version) sent = null; // answered: the table moved on
      const fate = settleMove(unsure, m);
      if (fate && fate !== "waiting") unsure = null;
      return fate === "waiting" ? null : fate;
    },
  };
}
