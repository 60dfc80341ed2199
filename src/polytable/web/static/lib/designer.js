// The FORMFINITY template designer's grid, with no DOM (unit-tested by tests/js): a template is rows of
// squares, each "." free, "#" black, "-" outside, "*" start, a number (1, 2, ... in order) or an area name.

/** The painting tools and the square each one writes (area and number squares carry their own text). */
export const TOOLS = [
  { id: "free", token: "." },
  { id: "black", token: "#" },
  { id: "outside", token: "-" },
  { id: "start", token: "*" },
  { id: "area", token: null },
  { id: "number", token: null },
];

/** What a template square is: free, black, outside, start, number or area. */
export function cellKind(c) {
  if (c === "#") return "black";
  if (c === "-") return "outside";
  if (c === "*") return "start";
  if (/^\d+$/.test(c)) return "number";
  return c === "." ? "free" : "area";
}

/** Number the numbered squares 1, 2, ... again in their order (in place) and return the next number. */
export function renumber(cells) {
  const nums = [];
  cells.forEach((row, y) =>
    row.forEach((c, x) => {
      if (/^\d+$/.test(c)) nums.push([Number(c), y, x]);
    }),
  );
  nums
    .sort((p, q) => p[0] - q[0])
    .forEach(([, y, x], i) => {
      cells[y][x] = String(i + 1);
    });
  return nums.length + 1;
}
