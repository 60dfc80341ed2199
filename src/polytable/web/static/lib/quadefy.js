// Quadefy's notation and cube geometry for the board, with no DOM (unit-tested by tests/js): cells of the
// 4x4x4 cube are numbered x + 4y + 16z and written "<column a-d><row 1-4>.<layer 1-4>" (b3.2).

/** The two colours' fill, lettering and edge (dark and light differ by fill and lettering, not colour alone). */
export const OWN = [
  { fill: "#3b3b58", ink: "#fff", edge: "#111" },
  { fill: "#f3dfb5", ink: "#222", edge: "#8a6d2f" },
];

/** The number of the cell at column x, row y, layer z (each 0-3). */
export const idx = (x, y, z) => x + 4 * y + 16 * z;

/** A cell's name: idx(1, 2, 1) is "b3.2". */
export const cellText = (i) => `${"abcd"[i % 4]}${(Math.floor(i / 4) % 4) + 1}.${Math.floor(i / 16) + 1}`;

/** A placement "<block> r<rotation> @ <anchor cell>" read with the board's piece tables ({blocks: [{name,
 * orients: [[[x, y, z], ...], ...]}]}): {text, block, r, cells}, or null when it names no such block,
 * rotation or cell. */
export function parseMove(text, tables) {
  const m = /^(\w{1,2}) r(\d+) @ ([a-d])(\d)\.(\d)$/.exec(text);
  if (!m || !tables) return null;
  const b = tables.blocks.find((q) => q.name === m[1]);
  const o = b && b.orients[Number(m[2])];
  if (!o) return null;
  const ax = m[3].charCodeAt(0) - 97,
    ay = Number(m[4]) - 1,
    az = Number(m[5]) - 1;
  return { text, block: m[1], r: Number(m[2]), cells: o.map(([x, y, z]) => idx(x + ax, y + ay, z + az)) };
}
