// FORMFINITY template designer ("your game, your rules"): draw a template on a grid (free, black, outside,
// start squares, areas, numbers), choose the variant rules, and get a variant file in the format of
// docs/games/formfinity.md. The server validates it through the engine; it can be saved on this device,
// downloaded, played in a room (against an AI or with invited people), printed, and checked for balance (AI
// games on the server with the figures of `polytable analyse`). Keyboard: the grid is one
// tab stop; arrows (Home/End, Page Up/Down) move over it, Enter or Space paints with the chosen tool, and a
// letter sets the square directly (F or . free, B or # black, O or - outside, S or * start, A area, N number;
// Delete frees it); each change is announced.
import { h, api, toast } from "./dom.js";
import { t, tError } from "./i18n.js";
import { TOOLS, cellKind, renumber as renumberCells } from "./lib/designer.js";
import { balancePanel } from "./balance.js";

const KEY = "polytable.designs";

function saved() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

export function renderDesigner(root, { navigate }) {
  const st = { w: 10, h: 8, cells: [], tool: "black", area: "A", next: 1 };
  const blank = () => {
    st.cells = Array.from({ length: st.h }, () => Array(st.w).fill("."));
    st.next = 1;
  };
  blank();

  const name = h("input", { id: "ds-name", value: "My variant", maxlength: 60, "aria-label": t("ds.name") });
  const wIn = h("input", { id: "ds-w", type: "number", min: 4, max: 40, value: st.w, "aria-label": t("ds.width") });
  const hIn = h("input", { id: "ds-h", type: "number", min: 4, max: 40, value: st.h, "aria-label": t("ds.height") });
  const goal = h(
    "select",
    { id: "ds-goal", "aria-label": t("ds.goal") },
    ["lines", "areas", "connection", "numbers"].map((g) => h("option", { value: g }, t(`ds.goal.${g}`))),
  );
  const pmin = h("input", { id: "ds-pmin", type: "number", min: 2, max: 4, value: 2, "aria-label": t("ds.pmin") });
  const pmax = h("input", { id: "ds-pmax", type: "number", min: 2, max: 4, value: 2, "aria-label": t("ds.pmax") });
  const arrows = h(
    "select",
    { id: "ds-arrows", "aria-label": t("ds.arrows") },
    ["default", "true", "false"].map((a) => h("option", { value: a }, t(`ds.arrows.${a}`))),
  );
  const rotation = h(
    "select",
    { id: "ds-rotation", "aria-label": t("ds.rotation") },
    ["card", "always", "never"].map((a) => h("option", { value: a }, t(`ds.rot.${a}`))),
  );
  const length = h("input", {
    id: "ds-length",
    type: "number",
    min: 2,
    max: 40,
    value: 4,
    "aria-label": t("ds.length"),
  });
  const target = h("input", {
    id: "ds-target",
    type: "number",
    min: 1,
    max: 20,
    value: 2,
    "aria-label": t("ds.target"),
  });
  const difficulty = h(
    "select",
    { id: "ds-difficulty", "aria-label": t("ds.difficulty") },
    ["easy", "hard"].map((d) => h("option", { value: d }, d)),
  );
  const dirs = ["horizontal", "vertical", "diagonal", "antidiagonal"].map((d) =>
    h("input", { type: "checkbox", checked: true, "data-dir": d, id: `ds-dir-${d}` }),
  );
  const corner = h("input", { type: "checkbox", id: "ds-corner" });
  const connect = h("input", { type: "checkbox", id: "ds-connect", checked: true });
  const areaIn = h("input", { id: "ds-area", value: st.area, maxlength: 8, "aria-label": t("ds.areaName") });
  const text = h("textarea", { id: "ds-text", rows: 12, spellcheck: "false", "aria-label": t("ds.file") });
  const result = h("p", { id: "ds-result", role: "status", "aria-live": "polite" });
  const keysHelp = h("p", { class: "help", id: "ds-keys" }, t("ds.keysHelp"));
  const said = h("p", { class: "sr", id: "ds-said", "aria-live": "polite" });
  const grid = h("div", {
    class: "ds-grid",
    id: "ds-grid",
    role: "grid",
    "aria-label": t("ds.grid"),
    "aria-describedby": "ds-keys",
  });
  st.focus = [0, 0];
  const toolBox = h("div", { class: "row", role: "radiogroup", "aria-label": t("ds.tool") });
  const savedBox = h("div", { class: "row", id: "ds-saved" });

  function templateText() {
    return st.cells.map((row) => row.join(" ")).join("\n");
  }
  function fileText() {
    const lines = [`name = ${JSON.stringify(name.value.trim() || "My variant")}`];
    const a = Number(pmin.value) || 2,
      b = Math.max(a, Number(pmax.value) || a);
    lines.push(a === b ? `players = ${a}` : `players = [${a}, ${b}]`);
    if (arrows.value !== "default") lines.push(`arrows = ${arrows.value}`);
    lines.push(`rotation = "${rotation.value}"`);
    lines.push(`template = """\n${templateText()}\n"""`, "", "[goal]", `type = "${goal.value}"`);
    if (goal.value === "lines") {
      lines.push(
        `length = ${Number(length.value) || 4}`,
        `target = ${Number(target.value) || 2}`,
        `difficulty = "${difficulty.value}"`,
      );
      lines.push(
        `directions = [${dirs
          .filter((d) => d.checked)
          .map((d) => `"${d.dataset.dir}"`)
          .join(", ")}]`,
      );
    } else if (goal.value === "connection") lines.push(`corner_touch = ${corner.checked}`);
    else if (goal.value === "numbers") lines.push(`connect = ${connect.checked}`);
    return lines.join("\n") + "\n";
  }
  function sync() {
    text.value = fileText();
    result.textContent = "";
  }

  function paint(y, x, tool = st.tool) {
    if (tool === "number") {
      const cur = st.cells[y][x];
      if (/^\d+$/.test(cur)) {
        st.cells[y][x] = ".";
        renumber();
      } else {
        st.cells[y][x] = String(st.next);
        st.next += 1;
      }
    } else if (tool === "area")
      st.cells[y][x] = (areaIn.value.trim() || "A").replace(/[^A-Za-z0-9]/g, "").replace(/^[^A-Za-z]+/, "") || "A";
    else st.cells[y][x] = TOOLS.find((q) => q.id === tool).token;
    if (tool !== "number") renumber();
    refresh();
    sync();
  }
  function renumber() {
    st.next = renumberCells(st.cells);
  }
  let down = false;
  const look = (c, x, y) => {
    const kind = cellKind(c);
    const named = kind === "area" || kind === "number" ? ` ${c}` : "";
    const label = `${String.fromCharCode(97 + x)}${y + 1}: ${t(`ds.tool.${kind}`)}${named}`;
    const shown = kind === "outside" ? "·" : kind === "start" ? "★" : kind === "area" || kind === "number" ? c : "";
    return { kind, label, shown };
  };
  // Cells are updated in place (never rebuilt while drawing), so a drag keeps its buttons under the finger.
  const cellButtons = () => grid.querySelectorAll("button[data-x]");
  function refresh() {
    for (const b of cellButtons()) {
      const x = Number(b.dataset.x),
        y = Number(b.dataset.y);
      const { kind, label, shown } = look(st.cells[y][x], x, y);
      b.className = `ds-cell ${kind}`;
      b.setAttribute("aria-label", label);
      b.setAttribute("tabindex", x === st.focus[0] && y === st.focus[1] ? "0" : "-1");
      b.textContent = shown;
    }
  }
  const KEYS = {
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
  function onKey(e, x, y) {
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
    const k =
      e.key.length === 1
        ? e.key.toLowerCase()
        : e.key.toLowerCase() === "delete" || e.key === "Backspace"
          ? e.key.toLowerCase()
          : e.key;
    if (moves[k]) {
      const nx = Math.max(0, Math.min(st.w - 1, x + moves[k][0])),
        ny = Math.max(0, Math.min(st.h - 1, y + moves[k][1]));
      st.focus = [nx, ny];
      refresh();
      grid.querySelector(`[data-x='${nx}'][data-y='${ny}']`).focus();
    } else if (KEYS[k] && !e.ctrlKey && !e.metaKey && !e.altKey) {
      // A number key toggles like a tap; the others set the square to that kind.
      if (KEYS[k] !== "number" || !/^\d+$/.test(st.cells[y][x])) paint(y, x, KEYS[k]);
      said.textContent = look(st.cells[y][x], x, y).label;
    } else return;
    e.preventDefault();
  }
  function drawGrid() {
    grid.style.gridTemplateColumns = `repeat(${st.w}, 1fr)`;
    st.focus = [Math.min(st.focus[0], st.w - 1), Math.min(st.focus[1], st.h - 1)];
    // Rows are role="row" wrappers with display: contents, so the CSS grid still lays out the squares.
    grid.replaceChildren(
      ...st.cells.map((row, y) =>
        h(
          "div",
          { role: "row", class: "ds-row", "aria-rowindex": y + 1 },
          row.map((c, x) => {
            const b = h("button", {
              type: "button",
              "data-x": x,
              "data-y": y,
              role: "gridcell",
              "aria-colindex": x + 1,
            });
            b.addEventListener("pointerdown", (e) => {
              e.preventDefault();
              down = true;
              st.focus = [x, y];
              paint(y, x);
            });
            b.addEventListener("pointerenter", () => {
              if (down && st.tool !== "number") paint(y, x);
            });
            b.addEventListener("click", (e) => {
              // keyboard: Enter / Space
              if (e.detail === 0) {
                paint(y, x);
                said.textContent = look(st.cells[y][x], x, y).label;
              }
            });
            b.addEventListener("keydown", (e) => onKey(e, x, y));
            b.addEventListener("focus", () => {
              if (st.focus[0] !== x || st.focus[1] !== y) {
                st.focus = [x, y];
                refresh();
              }
            });
            return b;
          }),
        ),
      ),
    );
    refresh();
  }
  const up = () => {
    down = false;
  };
  document.addEventListener("pointerup", up);
  document.addEventListener("pointercancel", up);
  function drawTools() {
    toolBox.replaceChildren(
      ...TOOLS.map((q) =>
        h(
          "button",
          {
            type: "button",
            role: "radio",
            "aria-checked": st.tool === q.id ? "true" : "false",
            class: `secondary${st.tool === q.id ? " chosen" : ""}`,
            id: `ds-tool-${q.id}`,
            onclick: () => {
              st.tool = q.id;
              drawTools();
            },
          },
          t(`ds.tool.${q.id}`),
        ),
      ),
    );
  }
  function resize() {
    const w = Math.max(4, Math.min(40, Number(wIn.value) || 10)),
      hh = Math.max(4, Math.min(40, Number(hIn.value) || 8));
    st.cells = Array.from({ length: hh }, (_, y) =>
      Array.from({ length: w }, (_, x) => (st.cells[y] && st.cells[y][x]) || "."),
    );
    st.w = w;
    st.h = hh;
    renumber();
    drawGrid();
    sync();
  }
  function loadText(src) {
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
        wIn.value = st.w;
        hIn.value = st.h;
        renumber();
        drawGrid();
      }
    }
    const nm = /^name\s*=\s*"(.*)"/m.exec(src);
    if (nm) name.value = nm[1];
    const gl = /type\s*=\s*"(\w+)"/.exec(src);
    if (gl) goal.value = gl[1];
    text.value = src;
  }
  async function validate() {
    const r = await api("/api/formfinity/validate", { variant_file: text.value });
    result.className = r.ok ? "ok" : "bad";
    result.textContent = r.ok
      ? t("ds.valid", { name: r.name, w: r.width, h: r.height, a: r.players[0], b: r.players[1] })
      : `✕ ${r.message}`;
    return r;
  }
  async function play() {
    const r = await validate();
    if (!r.ok) return;
    const n = r.players[0];
    const seats = [{ kind: "here" }, ...Array.from({ length: n - 1 }, () => ({ kind: opponents.value }))];
    try {
      const room = await api("/api/rooms", {
        game: "formfinity",
        players: n,
        options: { variant: "custom", variant_file: text.value },
        seats,
      });
      const all = JSON.parse(localStorage.getItem("polytable.rooms") || "{}");
      all[room.code] = { tokens: room.tokens, game: "formfinity", name: r.name, seen: Date.now() };
      localStorage.setItem("polytable.rooms", JSON.stringify(all));
      navigate(`/r/${room.code}`);
    } catch (e) {
      toast(e.message, true);
    }
  }
  async function print() {
    try {
      const res = await fetch("/api/formfinity/print", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ variant_file: text.value, paper: paper.value }),
      });
      if (!res.ok) {
        const e = await res.json();
        throw new Error(tError(e));
      }
      const url = URL.createObjectURL(await res.blob());
      const a = h("a", { href: url, download: `${(name.value || "variant").replace(/[^\w-]+/g, "_")}.pdf` });
      document.body.append(a);
      a.click();
      a.remove();
      result.className = "ok";
      result.textContent = t("ds.printed");
    } catch (e) {
      toast(e.message, true);
    }
  }
  // Balance: the report of `polytable analyse` for this design (balance.js).
  const balance = balancePanel({ check: async () => (await validate()).ok, variantText: () => text.value });
  function save() {
    const all = saved();
    all[name.value.trim() || "My variant"] = text.value;
    localStorage.setItem(KEY, JSON.stringify(all));
    drawSaved();
    toast(t("ds.saved"));
  }
  function drawSaved() {
    const all = saved();
    savedBox.replaceChildren(
      ...Object.keys(all).map((k) =>
        h("button", { type: "button", class: "secondary", onclick: () => loadText(all[k]) }, k),
      ),
    );
  }
  const opponents = h(
    "select",
    { id: "ds-opponents", "aria-label": t("ds.opponents") },
    h("option", { value: "ai" }, t("ds.vsAi")),
    h("option", { value: "invite" }, t("ds.vsInvite")),
  );
  const paper = h(
    "select",
    { id: "ds-paper", "aria-label": t("ds.paper") },
    h("option", { value: "a4" }, "A4"),
    h("option", { value: "letter" }, "Letter"),
  );
  for (const el of [name, goal, pmin, pmax, arrows, rotation, length, target, difficulty, corner, connect, ...dirs])
    el.addEventListener("change", sync);
  wIn.addEventListener("change", resize);
  hIn.addEventListener("change", resize);
  const lab = (el, key) => h("div", {}, h("label", { for: el.id }, t(key)), el);
  const chk = (el, key) => h("label", { class: "inline", for: el.id }, el, t(key));
  root.append(
    h("h1", {}, t("home.designer")),
    h(
      "section",
      { class: "card" },
      h("p", { class: "help" }, t("ds.help")),
      lab(name, "ds.name"),
      h("div", { class: "grid2" }, lab(wIn, "ds.width"), lab(hIn, "ds.height")),
      h("h2", {}, t("ds.tool")),
      toolBox,
      h("div", { class: "row" }, lab(areaIn, "ds.areaName")),
      keysHelp,
      grid,
      said,
      h(
        "div",
        { class: "row" },
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            onclick: () => {
              blank();
              drawGrid();
              sync();
            },
          },
          t("ds.clear"),
        ),
      ),
    ),
    h(
      "section",
      { class: "card" },
      h("h2", {}, t("ds.rules")),
      lab(goal, "ds.goal"),
      h("div", { class: "grid2" }, lab(pmin, "ds.pmin"), lab(pmax, "ds.pmax")),
      h("div", { class: "grid2" }, lab(arrows, "ds.arrows"), lab(rotation, "ds.rotation")),
      h(
        "details",
        { open: true },
        h("summary", {}, t("ds.goal.lines")),
        h("div", { class: "grid2" }, lab(length, "ds.length"), lab(target, "ds.target")),
        lab(difficulty, "ds.difficulty"),
        dirs.map((d) => chk(d, `ds.dir.${d.dataset.dir}`)),
      ),
      chk(corner, "ds.corner"),
      chk(connect, "ds.connect"),
    ),
    h(
      "section",
      { class: "card" },
      h("h2", {}, t("ds.file")),
      text,
      h(
        "div",
        { class: "row" },
        h(
          "button",
          { type: "button", id: "ds-validate", onclick: () => validate().catch((e) => toast(e.message, true)) },
          t("ds.validate"),
        ),
        h("button", { type: "button", id: "ds-save", class: "secondary", onclick: save }, t("ds.save")),
        h(
          "a",
          {
            class: "button secondary",
            id: "ds-download",
            href: "#",
            onclick: (e) => {
              e.currentTarget.href = `data:text/plain;charset=utf-8,${encodeURIComponent(text.value)}`;
              e.currentTarget.download = `${(name.value || "variant").replace(/[^\w-]+/g, "_")}.toml`;
            },
          },
          t("ds.download"),
        ),
      ),
      result,
      h(
        "div",
        { class: "row" },
        opponents,
        h(
          "button",
          { type: "button", id: "ds-play", onclick: () => play().catch((e) => toast(e.message, true)) },
          t("ds.play"),
        ),
      ),
      h(
        "div",
        { class: "row" },
        paper,
        h("button", { type: "button", id: "ds-print", class: "secondary", onclick: print }, t("ds.print")),
      ),
      h(
        "div",
        { class: "row" },
        h("label", { for: balance.games.id }, t("ds.balanceGames")),
        balance.games,
        h(
          "button",
          {
            type: "button",
            id: "ds-balance-run",
            class: "secondary",
            onclick: () => balance.run().catch((e) => toast(e.message, true)),
          },
          t("ds.balance"),
        ),
      ),
      balance.bar,
      balance.out,
      h("h2", {}, t("ds.savedTitle")),
      savedBox,
    ),
  );
  drawTools();
  drawGrid();
  sync();
  drawSaved();
}
