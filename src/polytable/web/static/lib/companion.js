// Companion mode's words, card drawing and printed-deck scanner state, with no DOM (unit-tested by tests/js).
// Everything a page shows comes from the server's companion message (the game's declared companion): the
// card, the round, whose turn, the start lanes, the deck left, the printables; ``t`` translates.

/** The seat colours of the dedicated boards, so a seat looks the same on paper and on screen (their names
 * are cp.colour0 ... in the translation files). */
export const SEAT_COLORS = ["#1d3557", "#e76f51", "#2a9d8f", "#8d5a97", "#b5651d", "#3a86ff", "#6a994e"];

/** A card in words: its block, lane, elements, arrows and rotation (``opts.start``: a start card). */
export function describe(card, t, opts = {}) {
  const parts = [];
  if (card.name && opts.start) parts.push(t("cp.ignoreBlock"));
  else if (card.name) parts.push(t("cp.block", { name: card.name }));
  if (card.lane && opts.start) parts.push(t("cp.startLane", { lane: card.lane }));
  else if (card.lane) parts.push(t("cp.barrierLane", { lane: card.lane }), t("cp.fallChoice"));
  if (card.count) parts.push(card.count > 1 ? t("cp.elements", { n: card.count }) : t("cp.element1"));
  if (card.arrows_apply === false) parts.push(t("cp.noArrows"));
  else if (card.arrows !== undefined)
    parts.push(
      card.arrows
        ? t("cp.enter", { sides: [...card.arrows].map((d) => t(`cp.${d}`)).join(t("cp.or")) })
        : t("cp.anywhere"),
    );
  if (card.rotate !== undefined) parts.push(card.rotate ? t("cp.mayRotate") : t("cp.noRotate"));
  return parts.join(", ") || card.text;
}

/** The card's heading: the start card, round N, or no card yet. */
export function title(c, t) {
  if (!c.card) return t("cp.none");
  return c.start ? t("cp.start") : t("cp.round", { n: c.round });
}

const seatName = (c, p, t) => (c.names || [])[p] || t("room.player", { n: p + 1 });

/** Whose turn: {text, colour} (a seat's colour index) when players take turns, {text} when everyone uses
 * the card at once, null when there is nothing to say. */
export function turn(c, t) {
  if (c.turn === null || c.turn === undefined)
    return c.together && c.card && c.round > 0 ? { text: t("cp.everyone"), colour: null } : null;
  const colour = c.turn % SEAT_COLORS.length;
  const params = { name: seatName(c, c.turn, t), colour: t(`cp.colour${colour}`) };
  return { text: t(c.card ? "cp.turn" : "cp.turnFirst", params), colour };
}

/** A start card's lanes: each player's start square, in lane order from the starting player; null after. */
export function startLanes(c, t) {
  if (!c.start_lanes || c.round !== 0) return null;
  return c.start_lanes.map((lane, p) => ({
    colour: p % SEAT_COLORS.length,
    text: t("cp.seatLane", { name: seatName(c, p, t), lane }) + (p === c.starter ? ` ${t("cp.starts")}` : ""),
  }));
}

/** How many cards were dealt and how many are left. */
export function dealt(c, t) {
  const left = c.deck_left === null || c.deck_left === undefined ? "" : t("cp.left", { n: c.deck_left });
  return c.history.length === 1 ? t("cp.dealt1", { left }) : t("cp.dealt", { n: c.history.length, left });
}

/** The room's printables as [address, label]: its own sheet(s), its printed deck, the others. */
export function printLinks(c, t) {
  return (c.printables || []).map((name) => {
    if (name === c.game)
      return [`/print/room/${c.code}.pdf`, c.shared_sheet ? t("cp.printSheet") : t("cp.printSheets")];
    if (c.deck_print && name === c.deck_print.name)
      return [`/print/${name}.pdf?${c.deck_print.query}`, t("cp.printCards")];
    return [`/print/${name}.pdf?players=${c.players || ""}`, t("cp.print", { name })];
  });
}

const CELL = 40;
const PAD = 50;
const ARROW = 18;

/** A card's drawing in SVG units: its size, its drawn squares' corners, its arrows' triangles (by side T, B,
 * L, R) and which marks it carries (count, rotation, lane, block name). */
export function cardLayout(card) {
  const rows = card.shape || [];
  const w = Math.max(1, ...rows.map((r) => r.length));
  const hgt = Math.max(1, rows.length);
  const W = Math.max(5, w) * CELL + 2 * PAD;
  const H = Math.max(5, hgt) * CELL + 2 * PAD;
  const ox = (W - w * CELL) / 2;
  const oy = (H - hgt * CELL) / 2;
  const squares = [];
  rows.forEach((row, y) =>
    [...row].forEach((ch, x) => {
      if (ch === "#") squares.push({ x: ox + x * CELL, y: oy + y * CELL });
    }),
  );
  const a = ARROW;
  const tri = {
    T: (cx, cy) => [
      [cx - a, cy - a / 2],
      [cx + a, cy - a / 2],
      [cx, cy + a / 2],
    ],
    B: (cx, cy) => [
      [cx - a, cy + a / 2],
      [cx + a, cy + a / 2],
      [cx, cy - a / 2],
    ],
    L: (cx, cy) => [
      [cx - a / 2, cy - a],
      [cx - a / 2, cy + a],
      [cx + a / 2, cy],
    ],
    R: (cx, cy) => [
      [cx + a / 2, cy - a],
      [cx + a / 2, cy + a],
      [cx - a / 2, cy],
    ],
  };
  const at = { T: [W / 2, 22], B: [W / 2, H - 22], L: [22, H / 2], R: [W - 22, H / 2] };
  const arrows = [...(card.arrows || "")].filter((d) => at[d]).map((d) => tri[d](...at[d]));
  return { W, H, cell: CELL, squares, arrows };
}

/** A printed deck's scanner, one per room while the page shows it: the camera runs or not, and the line
 * under it says what happens ({key} to translate, or {text} as the server or the browser said it). */
export function newScan(room, physical) {
  return { room, physical, camera: false, busy: false, status: { key: physical ? "cp.physical" : "cp.orPrinted" } };
}

/** The room's message changed whether it follows a printed deck: said, unless the camera is in use. */
export function scanFollows(sc, physical) {
  if (sc.physical !== physical && !sc.camera) sc.status = { key: physical ? "cp.physical" : "cp.orPrinted" };
  sc.physical = physical;
}

/** The scanner's status line in words. */
export function scanStatus(sc, t) {
  return sc.status.key ? t(sc.status.key) : sc.status.text;
}
