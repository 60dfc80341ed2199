// The keys of a board whose squares are reached one at a time (a roving focus: one square of the grid takes
// Tab, the arrow keys move to the next square, Enter or Space presses it), with no DOM (unit-tested by
// tests/js). The boards keep the square the focus is on in their own state and draw it focusable.

const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** What a key does on square ``at`` ([x, y]) of a ``width`` by ``height`` grid: {to: [x, y]} for an arrow key
 * (the nearest square that way for which ``ok(x, y)`` holds; null at the edge, or when none does),
 * {press: true} for Enter or Space, null for any other key. ``up`` is the row step of ArrowUp: -1 where row 0
 * is drawn at the top, 1 where it is drawn at the bottom. */
export function gridKey(key, at, { width, height, up = -1, ok = () => true }) {
  if (key === "Enter" || key === " ") return { press: true };
  const step = STEPS[key];
  if (!step) return null;
  const [dx, dy] = [step[0], key === "ArrowUp" || key === "ArrowDown" ? step[1] * -up : 0];
  for (let x = at[0] + dx, y = at[1] + dy; x >= 0 && y >= 0 && x < width && y < height; x += dx, y += dy)
    if (ok(x, y)) return { to: [x, y] };
  return { to: null };
}

/** The first square (reading order: rows as drawn from the top, columns left to right) for which ``ok``
 * holds, or null: where the focus starts on a board not yet reached. */
export function firstSquare({ width, height, up = -1, ok = () => true }) {
  for (let i = 0; i < height; i++) {
    const y = up < 0 ? i : height - 1 - i;
    for (let x = 0; x < width; x++) if (ok(x, y)) return [x, y];
  }
  return null;
}
