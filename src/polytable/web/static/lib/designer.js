// The FORMFINITY template designer's state, with no DOM (unit-tested by tests/js): one plain object that the
// page's components read and only these functions change. A template is rows of squares, each "." free, "#"
// black, "-" outside, "*" start, a number (1, 2, ... in order) or an area name. The numbers a design may use
// (sides, players, line lengths and targets, the goals and their choices) are the server's (``limits``, from
// GET /api/formfinity/designer), never the client's.

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

/** A new design on the server's starting template (``limits.side.width`` x ``height``, all free) with the
 * starting rules of ``limits`` (every choice its first, every number its ``start``). */
export function newDesign(limits) {
  const st = {
    limits,
    w: limits.side.width,
    h: limits.side.height,
    cells: [],
    next: 1, // the number the number tool writes next
    tool: "black",
    area: "A", // the area tool's name as typed
    focus: [0, 0], // the grid's one tab stop [x, y]
    rules: {
      name: "My variant",
      goal: limits.goals[0],
      pmin: limits.players.min,
      pmax: limits.players.min,
      arrows: "default",
      rotation: limits.rotations[0],
      length: limits.length.start,
      target: limits.target.start,
      difficulty: limits.difficulties[0],
      directions: [...limits.directions],
      corner: false,
      connect: true,
    },
    text: "", // the variant file as shown (written from the above, or loaded, or typed)
    result: null, // {ok, text}: the last check's answer, until the design changes
  };
  clear(st);
  return st;
}

/** Every square free again (the size stays). */
export function clear(st) {
  st.cells = Array.from({ length: st.h }, () => Array(st.w).fill("."));
  st.next = 1;
  write(st);
}

/** The area tool's name as typed, made a valid area name (letters and digits, starting with a letter). */
export function areaName(typed) {
  return (typed.trim() || "A").replace(/[^A-Za-z0-9]/g, "").replace(/^[^A-Za-z]+/, "") || "A";
}

/** Paint square (x, y) with ``tool`` (the chosen one by default): the number tool toggles a number (the next
 * one, or none and the rest renumbered); the others set the square. The file follows. */
export function paint(st, x, y, tool = st.tool) {
  if (tool === "number") {
    if (/^\d+$/.test(st.cells[y][x])) {
      st.cells[y][x] = ".";
      st.next = renumber(st.cells);
    } else {
      st.cells[y][x] = String(st.next);
      st.next += 1;
    }
  } else {
    st.cells[y][x] = tool === "area" ? areaName(st.area) : TOOLS.find((q) => q.id === tool).token;
    st.next = renumber(st.cells);
  }
  write(st);
}

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

/** A new size (the typed width and height, kept within the server's sides; unreadable ones fall back to the
 * starting size): squares inside stay, new ones are free. */
export function resize(st, w, h) {
  const { min, max, width, height } = st.limits.side;
  const nw = clamp(Number(w) || width, min, max),
    nh = clamp(Number(h) || height, min, max);
  st.cells = Array.from({ length: nh }, (_, y) => Array.from({ length: nw }, (_, x) => (st.cells[y] || [])[x] || "."));
  st.w = nw;
  st.h = nh;
  st.focus = [Math.min(st.focus[0], nw - 1), Math.min(st.focus[1], nh - 1)];
  st.next = renumber(st.cells);
  write(st);
}

/** What a square shows: its kind, its accessible label ("c2: black", ``t`` translates) and its text. */
export function look(st, x, y, t) {
  const c = st.cells[y][x];
  const kind = cellKind(c);
  const named = kind === "area" || kind === "number" ? ` ${c}` : "";
  const label = `${String.fromCharCode(97 + x)}${y + 1}: ${t(`ds.tool.${kind}`)}${named}`;
  const shown = kind === "outside" ? "·" : kind === "start" ? "★" : kind === "area" || kind === "number" ? c : "";
  return { kind, label, shown };
}

/** The letter keys that set a square directly, and the kind each sets. */
export const KEYS = {
  f: "free",
  ".": "free",
  b: "black",
  "#": "black",
  o: "outside",
  "-": "outside",
  s: "start",
  "*": "start",
  a: "area",
  n: "number",
  delete: "free",
  backspace: "free",
};

/** A key pressed on the grid's square (x, y) (``key`` as KeyboardEvent.key; ``plain``: no Ctrl, Meta or
 * Alt): "move" (the focus moved), "paint" (the square changed, or a number key on a number, which stays) or
 * null (not the grid's key). */
export function press(st, x, y, key, plain = true) {
  const moves = {
    ArrowLeft: [-1, 0],
    ArrowRight: [1, 0],
    ArrowUp: [0, -1],
    ArrowDown: [0, 1],
    Home: [-st.w, 0],
    End: [st.w, 0],
    PageUp: [0, -st.h],
    PageDown: [0, st.h],
  };
  const k = key.length === 1 || key === "Delete" || key === "Backspace" ? key.toLowerCase() : key;
  if (moves[k]) {
    st.focus = [clamp(x + moves[k][0], 0, st.w - 1), clamp(y + moves[k][1], 0, st.h - 1)];
    return "move";
  }
  if (!KEYS[k] || !plain) return null;
  // A number key toggles like a tap, so on a number it leaves it; the others set the square to that kind.
  if (KEYS[k] !== "number" || !/^\d+$/.test(st.cells[y][x])) paint(st, x, y, KEYS[k]);
  return "paint";
}

/** Change one of the rules (a field of ``st.rules``); the file follows. */
export function setRule(st, field, value) {
  st.rules[field] = value;
  write(st);
}

/** Allow or forbid one line direction; the file lists them in the server's order. */
export function setDirection(st, dir, on) {
  const chosen = new Set(st.rules.directions);
  if (on) chosen.add(dir);
  else chosen.delete(dir);
  setRule(
    st,
    "directions",
    st.limits.directions.filter((d) => chosen.has(d)),
  );
}

/** The template as the variant file writes it: one line a row, squares separated by spaces. */
export function templateText(st) {
  return st.cells.map((row) => row.join(" ")).join("\n");
}

/** The variant file of the design (the format of docs/games/formfinity.md). */
export function fileText(st) {
  const r = st.rules;
  const { players, length, target } = st.limits;
  const lines = [`name = ${JSON.stringify(r.name.trim() || "My variant")}`];
  const a = Number(r.pmin) || players.min,
    b = Math.max(a, Number(r.pmax) || a); // as typed: the server's check says what is out of range
  lines.push(a === b ? `players = ${a}` : `players = [${a}, ${b}]`);
  if (r.arrows !== "default") lines.push(`arrows = ${r.arrows}`);
  lines.push(`rotation = "${r.rotation}"`);
  lines.push(`template = """\n${templateText(st)}\n"""`, "", "[goal]", `type = "${r.goal}"`);
  if (r.goal === "lines") {
    lines.push(
      `length = ${Number(r.length) || length.start}`,
      `target = ${Number(r.target) || target.start}`,
      `difficulty = "${r.difficulty}"`,
      `directions = [${r.directions.map((d) => `"${d}"`).join(", ")}]`,
    );
  } else if (r.goal === "connection") lines.push(`corner_touch = ${r.corner}`);
  else if (r.goal === "numbers") lines.push(`connect = ${r.connect}`);
  return lines.join("\n") + "\n";
}

/** The file shown is written again from the design, and the last check's answer no longer holds. */
function write(st) {
  st.text = fileText(st);
  st.result = null;
}

/** The file as typed into its text box: kept as typed (the design is not read back from it). */
export function typed(st, text) {
  st.text = text;
  st.result = null;
}

/** Load a saved or downloaded variant file: its template (if it has one) and its name and goal become the
 * design's; the file itself is shown as it was written. */
export function load(st, src) {
  const m = /template\s*=\s*"""\n?([\s\S]*?)"""/.exec(src);
  if (m) {
    const rows = m[1]
      .split("\n")
      .map((r) => r.split(";")[0].trim())
      .filter(Boolean)
      .map((r) => r.split(/\s+/));
    if (rows.length) {
      st.h = rows.length;
      st.w = Math.max(...rows.map((r) => r.length));
      st.cells = rows.map((r) => Array.from({ length: st.w }, (_, x) => r[x] || "-"));
      st.focus = [Math.min(st.focus[0], st.w - 1), Math.min(st.focus[1], st.h - 1)];
      st.next = renumber(st.cells);
    }
  }
  const nm = /^name\s*=\s*"(.*)"/m.exec(src);
  if (nm) st.rules.name = nm[1];
  const gl = /type\s*=\s*"(\w+)"/.exec(src);
  if (gl && st.limits.goals.includes(gl[1])) st.rules.goal = gl[1];
  st.text = src;
  st.result = null;
}

/** A file name for the design's downloads ("My_variant.toml"). */
export function fileName(st, ext) {
  return `${(st.rules.name || "variant").replace(/[^\w-]+/g, "_")}.${ext}`;
}

/** The seats of a room that plays the design: this device, then ``n - 1`` of ``opponents`` ("ai"/"invite"). */
export function playSeats(n, opponents) {
  return [{ kind: "here" }, ...Array.from({ length: n - 1 }, () => ({ kind: opponents }))];
}
