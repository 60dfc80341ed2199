// FORMFINITY's notation for the board, with no DOM (unit-tested by tests/js): cells "<column><row>" with
// columns a..z then aa..az (templates up to 40 wide), placements "<shape rows>@<top-left cell>", and the
// card text "<shape rows>x<count>:<arrows or ->:<r or f>".

/** Column names: a..z, then aa..az; cellName(0, 4) is "a5", parseCell("ab12") is [27, 11]. */
export function colName(x) {
  return x < 26 ? String.fromCharCode(97 + x) : "a" + String.fromCharCode(97 + x - 26);
}
export function cellName(x, y) {
  return `${colName(x)}${y + 1}`;
}
export function parseCell(name) {
  const m = /^([a-z]{1,2})(\d{1,3})$/.exec(name);
  if (!m) return null;
  const x = m[1].length === 1 ? m[1].charCodeAt(0) - 97 : 26 + m[1].charCodeAt(1) - 97;
  return [x, Number(m[2]) - 1];
}

// "##/#.@c5" -> the cells it covers (names)
export function placementCells(text) {
  const at = text.lastIndexOf("@");
  if (at < 0) return null;
  const anchor = parseCell(text.slice(at + 1));
  if (!anchor) return null;
  const out = [];
  text
    .slice(0, at)
    .split("/")
    .forEach((row, dy) =>
      [...row].forEach((ch, dx) => {
        if (ch === "#") out.push(cellName(anchor[0] + dx, anchor[1] + dy));
      }),
    );
  return out;
}

/** A card text ("##/#.x2:TR:r") as {text, shape, count, arrows, rotate}; null for none. */
export function parseCard(text) {
  if (!text) return null;
  const [head, edges, rot] = text.split(":");
  const i = head.lastIndexOf("x");
  return {
    text,
    shape: head.slice(0, i).split("/"),
    count: Number(head.slice(i + 1)) || 1,
    arrows: edges === "-" ? "" : edges || "",
    rotate: rot === "r",
  };
}
