// Foldris's drop notation and sheet geometry for the board, with no DOM (unit-tested by tests/js): a drop is
// "<card> [m] [t<K>] [r<K>] c<column>" (mirror, trim square K in reading order, K quarter turns clockwise,
// then a drop onto the column tops of the sheet); sheet rows are bit masks, the floor row first, as wide as
// the view's sheet says (``width``: the board names no size of its own).

export function parseDrop(text) {
  const parts = text.trim().split(/\s+/);
  const d = { text, name: parts[0], m: 0, t: 0, r: 0, c: null };
  for (const p of parts.slice(1)) {
    if (p === "m") d.m = 1;
    else if (/^t\d+$/.test(p)) d.t = Number(p.slice(1));
    else if (/^r\d$/.test(p)) d.r = Number(p.slice(1));
    else if (/^c\d+$/.test(p)) d.c = Number(p.slice(1)) - 1;
  }
  return d;
}

export function normalize(cells) {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  return cells.map(([x, y]) => [x - mx, y - my]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

// The oriented cells (x right, y down) of the card drawing after mirror, trim and rotation.
export function variantCells(drawing, m, t, r) {
  let cells = [];
  drawing.split("/").forEach((row, y) =>
    [...row].forEach((ch, x) => {
      if (ch === "#") cells.push([x, y]);
    }),
  );
  cells = normalize(cells);
  if (m) cells = normalize(cells.map(([x, y]) => [-x, y]));
  if (t) {
    cells = cells.filter((_, i) => i !== t - 1);
    cells = normalize(cells);
  }
  for (let k = 0; k < r; k++) cells = normalize(cells.map(([x, y]) => [-y, x]));
  return cells;
}

export function columnHeights(rows, width) {
  const hts = new Array(width).fill(0);
  rows.forEach((bits, y) => {
    for (let x = 0; x < width; x++) if ((bits >> x) & 1) hts[x] = Math.max(hts[x], y + 1);
  });
  return hts;
}

// Cells [col, row-from-bottom] where the variant rests when dropped with its left column at c.
export function landing(cells, rows, c, width) {
  const hts = columnHeights(rows, width);
  const hgt = Math.max(...cells.map((p) => p[1])) + 1;
  const lowest = new Map();
  for (const [x, y] of cells) {
    const row = hgt - 1 - y;
    lowest.set(x, Math.min(lowest.has(x) ? lowest.get(x) : row, row));
  }
  let base = 0;
  for (const [x, b] of lowest) base = Math.max(base, hts[c + x] - b);
  return cells.map(([x, y]) => [c + x, base + hgt - 1 - y]);
}

// Where the sheet was folded since ``prev`` (the rows that completed are gone; the rows above came down):
// the lowest row whose squares are no longer a superset of what it held, and how many rows folded away.
// Only for the animation: the engine has already folded the sheet, this finds where to show the crease.
export function foldAt(prev, sheet, k) {
  if (!prev || k <= 0) return null;
  const rows = Math.max(prev.ink.length, sheet.ink.length);
  for (let y = 0; y < rows; y++) {
    const was = prev.ink[y] || 0,
      now = sheet.ink[y] || 0;
    if ((now & was) !== was) return { row: y, k };
  }
  return { row: Math.max(0, sheet.ink.findLastIndex((b) => b) + 1), k };
}

/** How square (x, y) of a sheet is drawn: its fill ("ink" for the player's colour, a barrier's red, a folded
 * row's grey above the sheet's height, else white) and its class ("ink", "barrier" or "free", with " fresh"
 * when it appeared since ``prev``, the sheet shown before, or null: a landed block, a dropped barrier). */
export function squareLook(sheet, prev, x, y) {
  const folded = y >= sheet.height;
  const ink = ((sheet.ink[y] || 0) >> x) & 1;
  const bar = ((sheet.barrier[y] || 0) >> x) & 1;
  const fill = folded ? "#d8d8cf" : ink ? "ink" : bar ? "#9b2226" : "#fff";
  const fresh = prev && ((ink && !(((prev.ink[y] || 0) >> x) & 1)) || (bar && !(((prev.barrier[y] || 0) >> x) & 1)));
  return { fill, class: `${ink ? "ink" : bar ? "barrier" : "free"}${fresh ? " fresh" : ""}` };
}
