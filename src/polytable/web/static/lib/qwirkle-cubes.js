// Qwirkle Cubes' placement notation for the board, with no DOM (unit-tested by tests/js): a move places
// cubes as "<colour><symbol>@<x>,<y>" tokens (RA@0,0 GB@1,0 ...), among other words.

/** The placement tokens of a move's text. */
export const tokens = (text) => text.split(/\s+/).filter((x) => x.includes("@"));

/** One token "<cube>@<x>,<y>" as {cube, x, y, tok}. */
export function parseTok(tok) {
  const [cube, at] = tok.split("@");
  const [x, y] = at.split(",").map(Number);
  return { cube, x, y, tok };
}
