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

// ------------------------------------------------------------------------------------ the bonus puzzle
// The puzzle's state (kept in the board's ctx.keep.qdp): the pattern, the blocks placed so far (cells[i] =
// {owner, block} or null), the colour and block in hand and its rotation, the solver's answer, and the line
// under it (msg, verdict: null, "pending", "ok" or "bad").

/** A puzzle on the first pattern of the board's tables, the tables' first block in hand. */
export function newPuzzle(tables) {
  return {
    name: tables.patterns[0].name,
    cells: Array(64).fill(null),
    colour: 0,
    block: tables.blocks[0].name,
    r: 0,
    answer: null,
    open: false,
    yaw: 35,
    pitch: 30,
    msg: "",
    verdict: null,
  };
}

/** The blocks of the colour in hand already placed. */
export function puzzleUsed(ps) {
  return new Set(ps.cells.filter((c) => c && c.owner === ps.colour).map((c) => c.block));
}

/** Start the puzzle's build again (the pattern stays; ``name``: another pattern). */
export function puzzleClear(ps, name = ps.name) {
  ps.name = name;
  ps.cells = Array(64).fill(null);
  ps.msg = "";
  ps.verdict = null;
}

/** A tap on cell ``i`` of the build (``dark``: the pattern's dark cells; ``blocks``: the tables' blocks): a
 * placed block is taken back; else the block in hand goes where its rotation covers the cell with its first
 * fitting cube, on its own colour's squares only. Says what happened: "taken", "placed", "full" (placed, and
 * the cube is full: the engine must judge it), "used" (that block is down already), "nofit" or null (an
 * answer is shown; nothing changes). */
export function puzzleTap(ps, i, blocks, dark, t) {
  if (ps.answer) return null;
  if (ps.cells[i]) {
    const { owner, block } = ps.cells[i];
    ps.cells = ps.cells.map((c) => (c && c.owner === owner && c.block === block ? null : c));
    ps.verdict = null;
    ps.msg = "";
    return "taken";
  }
  const b = blocks.find((q) => q.name === ps.block);
  const o = b.orients[ps.r % b.orients.length];
  for (const [cx, cy, cz] of o) {
    const x0 = (i % 4) - cx,
      y0 = (Math.floor(i / 4) % 4) - cy,
      z0 = Math.floor(i / 16) - cz;
    const cells = o.map(([x, y, z]) => [x + x0, y + y0, z + z0]);
    if (cells.some(([x, y, z]) => x < 0 || y < 0 || z < 0 || x > 3 || y > 3 || z > 3)) continue;
    const ids = cells.map(([x, y, z]) => idx(x, y, z));
    if (ids.some((j) => ps.cells[j] || dark.has(j) !== (ps.colour === 0))) continue;
    if (puzzleUsed(ps).has(ps.block)) {
      ps.msg = t("qd.pzUsed", { block: ps.block });
      return "used";
    }
    ids.forEach((j) => {
      ps.cells[j] = { owner: ps.colour, block: ps.block };
    });
    ps.msg = "";
    ps.verdict = null;
    return ps.cells.every(Boolean) ? "full" : "placed";
  }
  ps.msg = t("qd.pzNoFit");
  return "nofit";
}

/** The build as the engine's check takes it: [{colour, block, cells}], one entry a block placed. */
export function puzzleBlocks(cells) {
  const groups = new Map();
  cells.forEach((c, i) => {
    if (!c) return;
    const k = `${c.owner}:${c.block}`;
    if (!groups.has(k)) groups.set(k, { colour: c.owner, block: c.block, cells: [] });
    groups.get(k).cells.push(i);
  });
  return [...groups.values()];
}
