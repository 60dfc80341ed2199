// Forma's notation and the board's bookkeeping between views, with no DOM (unit-tested by tests/js): cells
// are "<column a-t><row 1-20>" (a1 at the bottom left), a placement is "<piece> r<k>[f] @ <cell>".

/** Column letters, cell names and their reading: cellName(0, 0) is "a1"; parseCell("c12") is [2, 11]. */
export const col = (x) => String.fromCharCode(97 + x);
export const cellName = (x, y) => `${col(x)}${y + 1}`;
export function parseCell(n) {
  const m = /^([a-t])(\d{1,2})$/.exec(n || "");
  return m ? [m[1].charCodeAt(0) - 97, Number(m[2]) - 1] : null;
}

/** The cells a piece covers with its anchor at ``cursor`` ([x, y]) on an n x n board, in orientation k of
 * ``pc`` (a piece of the board's tables: {name, of_k, orients: [{text, cells}]}): {cells, inside, text}. */
export function ghostOf(pc, k, cursor, n) {
  if (!pc) return null;
  const o = pc.orients[pc.of_k[k]];
  const [ax, ay] = cursor;
  let inside = true;
  const cells = o.cells.map(([dx, dy]) => {
    const x = ax + dx,
      y = ay + dy;
    if (x < 0 || y < 0 || x >= n || y >= n) inside = false;
    return cellName(x, y);
  });
  return { cells, inside, text: `${pc.name} ${o.text} @ ${cellName(ax, ay)}` };
}

/** What square ``c`` of the board shows, from the board's sets (``owner`` and ``marker``: cell to player;
 * ``obstacles``, ``closed`` (enclosed), ``fresh`` (or null), ``allowed`` (set-up squares), ``last``; ``tower``
 * its cell): its fill (a player's pattern, an obstacle's grey, darker when enclosed, else white) and the marks
 * drawn on it: the tower or an obstacle's cross, the fresh ring, the set-up dot, a marker (the player, else
 * undefined) and the last move's outline. */
export function cellLook(c, { owner, marker, obstacles, closed, tower, fresh, allowed, last }) {
  const p = owner.get(c);
  let fill = "#fff";
  if (p !== undefined) fill = `url(#fm-pat${p})`;
  else if (obstacles.has(c)) fill = closed.has(c) ? "#555" : "#8a8a8a";
  return {
    fill,
    tower: c === tower,
    obstacle: c !== tower && obstacles.has(c),
    closed: closed.has(c),
    fresh: !!(fresh && fresh.has(c)),
    allowed: allowed.has(c),
    marker: marker.get(c),
    last: last.has(c),
  };
}

/** What a key does on the board with the cursor at ``cursor`` ([x, y]) on an n x n board: {cursor} moved by an
 * arrow (kept on the board), {turn: "rotate"} (R), {turn: "flip"} (F), {piece: 1 or -1} (] or [: the next or
 * previous piece), {enter: true} (Enter or Space: place, or ask what the placement earns), or null. */
export function boardKey(key, cursor, n) {
  const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  const keep = (v) => Math.max(0, Math.min(n - 1, v));
  if (moves[key]) return { cursor: [keep(cursor[0] + moves[key][0]), keep(cursor[1] + moves[key][1])] };
  if (key === "r" || key === "R") return { turn: "rotate" };
  if (key === "f" || key === "F") return { turn: "flip" };
  if (key === "]" || key === "[") return { piece: key === "]" ? 1 : -1 };
  if (key === "Enter" || key === " ") return { enter: true };
  return null;
}

// Square symmetries as k = quarter turns clockwise + 4 * mirrored (the notation's r<k>[f]).
export function rotate(k) {
  return k < 4 ? (k + 1) % 4 : 4 + ((k + 3) % 4);
}
export function flip(k) {
  return k < 4 ? k + 4 : k - 4;
}

/** What a previewed placement scores, part by part: "(3 cells, 1 enclosed +10)"; ``points`` is what an
 * enclosed cell and a bridge are worth (the server's board tables: {enclosure, bridge}), ``t`` translates. */
export function breakdown(pv, v, me, t, points) {
  const a = pv.view.players[me],
    b = v.players[me];
  const cells = a.pieces.length - b.pieces.length;
  const enclosed = a.markers.length - b.markers.length;
  const bridges = a.bridges - b.bridges;
  const rest = pv.delta - cells - points.enclosure * enclosed - points.bridge * bridges;
  const parts = [t("forma.cells", { n: cells })];
  if (enclosed) parts.push(t("forma.enclosures", { n: enclosed, p: points.enclosure * enclosed }));
  if (bridges === 1) parts.push(t("forma.bridgeOne", { p: points.bridge }));
  else if (bridges) parts.push(t("forma.bridgePts", { n: bridges, p: points.bridge * bridges }));
  if (rest) parts.push(t("forma.towerObstacles", { p: rest }));
  return `(${parts.join(", ")})`;
}

// Bridges that appeared with the last move (keyed "player:cells"), to highlight them; none on the first view.
export function freshBridges(st, v) {
  const now = new Set();
  v.players.forEach((pl, p) => (pl.bridge_paths || []).forEach((cells) => now.add(`${p}:${cells.join(" ")}`)));
  const prev = st.bridgeSet,
    before = st.bridgeCounts;
  const counts = v.players.map((pl) => pl.bridges);
  st.bridgeSet = now;
  st.bridgeCounts = counts;
  if (!prev || !before) return new Set();
  const grew = counts.map((c, p) => c > before[p]);
  // Only a player whose count grew scored: another path of an old bridge found by the search is not new.
  return new Set([...now].filter((k) => !prev.has(k) && grew[Number(k.split(":")[0])]));
}

// Markers that appeared with the last move (the enclosures it scored), to ring them on the board.
export function freshMarkers(st, v) {
  const now = v.players.map((p) => p.markers);
  const prev = st.markers;
  st.markers = now;
  if (!prev) return new Set();
  const out = new Set();
  now.forEach((ms, p) =>
    ms.forEach((c) => {
      if (!(prev[p] || []).includes(c)) out.add(c);
    }),
  );
  st.enclosed = out.size;
  return out;
}

// Touch-move picks that fit nowhere, from the history: a "pick X" not followed by that player's placement
// (the next entry is another pick, another player's action, or none while nothing is in hand). The newest
// one since the last placement is told (a placement ends the news), or null.
export function lostPicks(st, v, ctx, t) {
  const hist = ctx.msg.history || [];
  let from = 0;
  hist.forEach((e, i) => {
    if (e.player >= 0 && / @ /.test(e.action)) from = i + 1;
  });
  let out = null;
  for (let i = from; i < hist.length; i++) {
    const e = hist[i];
    if (e.player < 0 || !/^pick \S+$/.test(e.action)) continue;
    const next = hist[i + 1];
    if (!next && v.picked) continue; // still in hand: it fits
    const again = next ? next.player === e.player : v.current_player === e.player && !!v.misses;
    out = t(again ? "forma.lostAgain" : "forma.lostPass", { who: ctx.seatName(e.player), name: e.action.slice(5) });
  }
  return out;
}

/** After a new view: the banner of a bridge just scored (``points.bridge`` each), and the last move with its
 * points said to screen readers (ctx.announce): in the game's words when the history has them (``tSaid``),
 * else its notation; ``t`` translates. */
export function announceLast(st, v, ctx, t, tSaid, points) {
  const scores = v.players.map((p) => p.score);
  const prev = st.scores;
  st.scores = scores;
  const bridges = v.players.map((p) => p.bridges);
  const before = st.bridges;
  st.bridges = bridges;
  st.banner = null;
  if (before) {
    bridges.forEach((b, p) => {
      if (b > before[p])
        st.banner = t("forma.bridgeBanner", { name: ctx.seatName(p), n: b - before[p], p: points.bridge });
    });
  }
  if (!prev || !ctx.announce) return;
  const entry = ctx.msg.history[ctx.msg.history.length - 1];
  if (!entry || entry.player < 0) return;
  const gain = scores[entry.player] - prev[entry.player];
  const enclosing = st.enclosed ? t("forma.enclosing", { n: st.enclosed }) : "";
  if (entry.said && tSaid) {
    ctx.announce(tSaid(entry.said, ctx.seatName) + enclosing);
    return;
  }
  ctx.announce(
    t("announce.move", {
      name: ctx.seatName(entry.player),
      move: entry.action + enclosing,
      points: gain >= 0 ? `+${gain}` : `${gain}`,
    }),
  );
}
