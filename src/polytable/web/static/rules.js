// "How to play": one short illustrated page per game in sections, its text from the translation files
// (written from the rules traces in docs/rules/<game>.md, which tie every rulebook sentence to a key here and
// to the test that enforces it), its pictures drawn here as SVG.
import { h, s } from "./dom.js";
import { t } from "./i18n.js";

export const GAMES = ["forma", "qwirkle-cubes", "quadefy", "formfinity", "foldris"];
const KEYS = { "qwirkle-cubes": "qwirkle" };

// Sections of each page, in order: the heading is rules.<game>.<section>, the items rules.<game>.<section>.1, .2, ...
const SECTIONS = {
  formfinity: ["setup", "card", "turn", "v1", "v2", "v3", "v4", "own"],
  foldris: ["setup", "round", "bonus", "end", "solo"],
  forma: ["setup", "turn", "score", "end"],
  qwirkle: ["setup", "turn", "lines", "score", "end"],
  quadefy: ["setup", "play", "end", "puzzle"],
};
// Sections folded shut until tapped, so a long page stays short: a table reads only its own variant.
const FOLDED = new Set(["formfinity.v1", "formfinity.v2", "formfinity.v3", "formfinity.v4", "formfinity.own"]);

function grid(cells, n = 5, size = 22, marks = {}, rows = n) {
  const out = [];
  for (let y = 0; y < rows; y++)
    for (let x = 0; x < n; x++) {
      const c = cells[`${x},${y}`];
      out.push(s("rect", { x: x * size, y: y * size, width: size, height: size, fill: c || "#fff", stroke: "#bbb" }));
      const m = marks[`${x},${y}`];
      if (m)
        out.push(
          s(
            "text",
            { x: x * size + size / 2, y: y * size + size * 0.7, "text-anchor": "middle", "font-size": size * 0.6 },
            m,
          ),
        );
    }
  return s(
    "svg",
    {
      viewBox: `0 0 ${n * size} ${rows * size}`,
      width: n * size,
      height: rows * size,
      "aria-hidden": "true",
      class: "rulepic",
    },
    out,
  );
}

const PICTURES = {
  forma: () => {
    const B = "#0072b2",
      O = "#e69f00";
    const cells = { "1,1": B, "2,1": B, "3,1": B, "1,2": B, "3,2": O, "1,3": B, "2,3": O, "3,3": O, "0,4": "#8a8a8a" };
    return [
      grid(cells, 5, 22, { "2,2": "●", "0,4": "✕" }),
      grid({ "1,1": B, "1,2": B, "1,3": B, "2,3": B, "2,1": O, "3,1": O, "3,2": O, "2,2": "#fff" }, 5, 22, {
        "2,2": "♜",
      }),
    ];
  },
  qwirkle: () => {
    const row = ["●", "■", "◆", "♣", "✦", "✸"];
    const cells = {},
      marks = {};
    row.forEach((m, i) => {
      cells[`${i},1`] = "#0072b2";
      marks[`${i},1`] = m;
    });
    ["#d55e00", "#e69f00", "#f0e442"].forEach((c, i) => {
      cells[`2,${i + 2}`] = c;
      marks[`2,${i + 2}`] = "◆";
    });
    return [grid(cells, 6, 26, marks)];
  },
  quadefy: () => {
    const cells = {
      "0,3": "#3b3b58",
      "1,3": "#3b3b58",
      "2,3": "#3b3b58",
      "2,2": "#3b3b58",
      "0,0": "#f3dfb5",
      "0,1": "#f3dfb5",
      "1,1": "#f3dfb5",
      "1,2": "#f3dfb5",
    };
    return [
      grid(cells, 4, 26, {
        "0,3": "L",
        "1,3": "L",
        "2,3": "L",
        "2,2": "L",
        "0,0": "S",
        "0,1": "S",
        "1,1": "S",
        "1,2": "S",
      }),
    ];
  },
  formfinity: () => [
    grid({ "0,0": "#222", "4,4": "#222", "1,1": "#0072b2", "2,1": "#0072b2", "2,2": "#0072b2" }, 5, 22, {
      "3,0": "1",
      "0,3": "A",
    }),
  ],
  foldris: () => {
    // An 8-wide sheet, lane numbers over the columns they start; start square in lane 6, a barrier in lane 2.
    const B = "#0072b2",
      O = "#e69f00",
      G = "#8a8a8a";
    const cells = {
      "5,5": B,
      "6,5": B,
      "5,4": B,
      "6,4": B,
      "1,5": G,
      "2,5": G,
      "6,3": O,
      "6,2": O,
      "5,2": O,
      "7,3": O,
    };
    const marks = {};
    for (let k = 1; k <= 7; k++) marks[`${k - 1},0`] = String(k);
    return [grid(cells, 8, 22, marks, 6)];
  },
};

export function renderRules(root, game) {
  const key = KEYS[game] || game;
  if (!GAMES.includes(game)) {
    root.append(
      h(
        "section",
        { class: "card" },
        h("h1", {}, t("rules.title")),
        h(
          "ul",
          {},
          GAMES.map((g) =>
            h("li", {}, h("a", { href: `/rules/${g}`, "data-nav": true }, t(`rules.${KEYS[g] || g}.name`))),
          ),
        ),
      ),
    );
    return;
  }
  const sections = (SECTIONS[key] || []).map((sec) => {
    const items = [];
    for (let i = 1; i <= 12; i++) {
      const k = `rules.${key}.${sec}.${i}`;
      const text = t(k);
      if (text === k) break;
      items.push(h("li", {}, text));
    }
    const list = h("ul", { style: "padding-left: 1.2em" }, items);
    if (FOLDED.has(`${key}.${sec}`)) {
      return h(
        "details",
        { id: `rules-${sec}` },
        h("summary", { style: "margin: 10px 0" }, h("h2", { style: "display: inline" }, t(`rules.${key}.${sec}`))),
        list,
      );
    }
    return h("section", { id: `rules-${sec}` }, h("h2", {}, t(`rules.${key}.${sec}`)), list);
  });
  root.append(
    h(
      "article",
      { class: "card rules", id: "rules" },
      h("h1", {}, `${t("rules.title")}: ${t(`rules.${key}.name`)}`),
      h("p", {}, t(`rules.${key}.goal`)),
      // The caption under the pictures says what they show, so the pictures themselves name it too.
      h(
        "div",
        { class: "row pics", role: "img", "aria-label": t(`rules.${key}.caption`) },
        (PICTURES[key] || (() => []))(),
      ),
      h("p", { class: "help" }, t(`rules.${key}.caption`)),
      sections,
      h(
        "p",
        { class: "row" },
        h("a", { class: "button", href: `/learn/${game}`, "data-nav": true, id: "learn-link" }, t("learn.start")),
        h("a", { class: "button secondary", href: "/", "data-nav": true }, t("room.home")),
      ),
    ),
  );
}
