// FORMFINITY card codes, read in the browser: the code a printed QR card carries (BASE/c/<code>) holds the
// card's whole drawing, so the card page works from the cached app without the server. The format is
// defined by polytable.games.formfinity (card_code); this reads it and nothing more (no rules).
const DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

// The code in a scanned text: a card URL (".../c/CODE"), or the code itself; null when there is none.
export function codeFrom(text) {
  let raw = String(text || "").trim();
  const at = raw.lastIndexOf("/c/");
  if (at >= 0) raw = raw.slice(at + 3);
  raw = raw.split("?")[0].split("#")[0].replace(/\/+$/, "").toUpperCase();
  return /^[0-9A-Z]{1,8}$/.test(raw) ? raw : null;
}

// The card of a code as the companion draws it ({shape rows, count, arrows, rotate, text}), or null.
export function decodeCard(code) {
  const raw = codeFrom(code);
  if (!raw) return null;
  let v = 0n;
  for (const ch of raw) v = v * 36n + BigInt(DIGITS.indexOf(ch));
  const rotate = (v & 1n) === 1n;
  const edges = Number((v >> 1n) & 15n);
  const count = Number((v >> 5n) & 3n) + 1;
  const w = Number((v >> 7n) & 7n) + 1;
  const bits = v >> 10n;
  const n = bits.toString(2).length - 1;
  if (count > 3 || w > 5 || n < 1 || n % w || n / w > 5 || bits === 0n) return null;
  const h = n / w;
  const rows = [];
  for (let y = 0; y < h; y++) {
    let row = "";
    for (let x = 0; x < w; x++) row += (bits >> BigInt(y * w + x)) & 1n ? "#" : ".";
    rows.push(row);
  }
  const squares = rows.join("").split("#").length - 1;
  if (
    squares < 1 ||
    squares > 5 ||
    !rows[0].includes("#") ||
    !rows[h - 1].includes("#") ||
    !rows.some((r) => r[0] === "#") ||
    !rows.some((r) => r[w - 1] === "#") ||
    !connected(rows)
  )
    return null;
  const arrows = [..."TRBL"].filter((_, k) => (edges >> k) & 1).join("");
  return {
    shape: rows,
    count,
    arrows,
    rotate,
    code: raw,
    text: `${rows.join("/")}x${count}:${arrows || "-"}:${rotate ? "r" : "f"}`,
  };
}

function connected(rows) {
  const cells = [];
  rows.forEach((r, y) =>
    [...r].forEach((ch, x) => {
      if (ch === "#") cells.push(`${x},${y}`);
    }),
  );
  const seen = new Set([cells[0]]);
  const todo = [cells[0]];
  while (todo.length) {
    const [x, y] = todo.pop().split(",").map(Number);
    for (const k of [`${x + 1},${y}`, `${x - 1},${y}`, `${x},${y + 1}`, `${x},${y - 1}`]) {
      if (cells.includes(k) && !seen.has(k)) {
        seen.add(k);
        todo.push(k);
      }
    }
  }
  return seen.size === cells.length;
}
