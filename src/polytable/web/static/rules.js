// "How to play": one short illustrated page per game in sections, its text from the translation files
// (written from the rules traces in docs/rules/<game>.md, which tie every rulebook sentence to a key here and
// to the test that enforces it), its pictures drawn here as SVG. A rule that is polytable's reading rather
// than the rulebook's words carries a mark linking to its note (i18n/readings.json, see lib/rules.js), and the
// page ends with the game's words from the glossary (i18n/glossary-<lang>.json).
// The games come from the server's list (games.js); a game without rules text here gets its page from its
// summary, so a new game needs no edit of this file.
import { h, s } from "./dom.js";
import { t, tOr, gameName, lang } from "./i18n.js";
import { loadGames } from "./games.js";
import { gameWords, readingNotes, rulesPage } from "./lib/rules.js";

// The readings and this language's glossary, fetched once (kept by the service worker for offline use). A fetch
// that fails (a busy server, the service worker starting) is tried twice more and not remembered, so the next
// page asks again instead of showing no words for the rest of the visit.
let extras = null;
async function getJson(path, tries = 3) {
  for (let i = 1; ; i++) {
    try {
      const r = await fetch(path);
      if (r.ok) return await r.json();
    } catch {
      /* offline or interrupted: tried again below */
    }
    if (i >= tries) return null;
    await new Promise((done) => setTimeout(done, 300 * i));
  }
}
async function loadExtras() {
  extras ||= Promise.all([getJson("/static/i18n/readings.json"), getJson(`/static/i18n/glossary-${lang}.json`)]);
  const [readings, glossary] = await extras;
  if (!readings || !glossary) extras = null;
  return [readings || {}, glossary || {}];
}

// Translation keys of a game's page: rules.<key>.* (Qwirkle Cubes' pages were written as "qwirkle").
const KEYS = { "qwirkle-cubes": "qwirkle" };
const rulesKey = (id) => KEYS[id] || id;

// The guided first games (/learn/<game>): the same scripted start every time (a fixed seed), the learner in
// seat 1 against the easy AI, on the server when there is one and on the offline engine otherwise. Forma's
// starts after the set-up (obstacles and tower placed at random, as its text says): the first thing to do
// is choosing a piece.
export const LEARN = {
  formfinity: { seed: 11, others: ["easy"] },
  foldris: { seed: 3, others: ["easy"] },
  forma: { seed: 5, others: ["easy"], options: { placement: "random" } },
  "qwirkle-cubes": { seed: 7, others: ["easy"] },
  quadefy: { seed: 2, others: ["easy"] },
};

/** A game's name on the rules pages ({id, name} of /api/games). */
export function rulesName(g) {
  return tOr(`rules.${rulesKey(g.id)}.name`, gameName(g.id, g.name));
}

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

export async function renderRules(root, game, notFound = null) {
  const { list } = await loadGames();
  const [readings, glossary] = await loadExtras();
  if (location.pathname !== (game ? `/rules/${game}` : "/rules")) return; // navigated away meanwhile
  const key = rulesKey(game);
  // Offline before the server ever sent its list, a game with a page here is still shown.
  const g = list.find((x) => x.id === game) || (game && tOr(`rules.${key}.name`, null) ? { id: game } : null);
  if (!g && game && notFound) {
    notFound(); // a game that does not exist
    return;
  }
  if (!g) {
    root.replaceChildren(gamesIndex(list));
    return;
  }
  const model = rulesPage(key, SECTIONS[key], (k) => (t(k) === k ? null : t(k)), readings);
  const sections = model.sections.map(({ id, items }) => rulesSection(key, id, items, model.file));
  const caption = tOr(`rules.${key}.caption`, "");
  root.replaceChildren(
    h(
      "article",
      { class: "card rules", id: "rules" },
      h("h1", {}, `${t("rules.title")}: ${rulesName(g)}`),
      h("p", {}, tOr(`rules.${key}.goal`, tOr(`game.${game}.summary`, g.summary || ""))),
      // The caption under the pictures says what they show, so the pictures themselves name it too.
      PICTURES[key] ? h("div", { class: "row pics", role: "img", "aria-label": caption }, PICTURES[key]()) : null,
      caption ? h("p", { class: "help" }, caption) : null,
      sections,
      readingsSection(model),
      wordsSection(gameWords(glossary, game)),
      h(
        "p",
        { class: "row" },
        LEARN[game]
          ? h("a", { class: "button", href: `/learn/${game}`, "data-nav": true, id: "learn-link" }, t("learn.start"))
          : null,
        h("a", { class: "button secondary", href: "/", "data-nav": true }, t("room.home")),
      ),
    ),
  );
}

// The list of the games with a How-to-play page.
function gamesIndex(list) {
  return h(
    "section",
    { class: "card" },
    h("h1", {}, t("rules.title")),
    h(
      "ul",
      {},
      list.map((x) => h("li", {}, h("a", { href: `/rules/${x.id}`, "data-nav": true }, rulesName(x)))),
    ),
  );
}

// One section of a game's rules (folded when it is long and seldom needed), polytable's readings marked.
function rulesSection(key, sec, items, file) {
  const list = h(
    "ul",
    { style: "padding-left: 1.2em" },
    items.map((item) =>
      h(
        "li",
        item.notes.length ? { class: "reading-rule", "data-notes": item.notes.map((n) => n.note).join(" ") } : {},
        item.text,
        item.notes.length ? [" ", readingMark(item.notes, file)] : null,
      ),
    ),
  );
  if (FOLDED.has(`${key}.${sec}`)) {
    return h(
      "details",
      { id: `rules-${sec}` },
      h("summary", { style: "margin: 10px 0" }, h("h2", { style: "display: inline" }, t(`rules.${key}.${sec}`))),
      list,
    );
  }
  return h("section", { id: `rules-${sec}` }, h("h2", {}, t(`rules.${key}.${sec}`)), list);
}

// The mark on a rule that is polytable's reading: a link to its note in the list at the end of the page. It
// scrolls there itself: a change of the address's #fragment would make the app draw the page again.
function readingMark(notes, file) {
  const names = notes.map((n) => n.note).join(", ");
  const id = `reading-${notes[0].note}`;
  return h(
    "a",
    {
      class: "reading",
      href: `#${id}`,
      title: t("rules.reading.note", { notes: names, file }),
      onclick: (e) => {
        e.preventDefault();
        document.getElementById(id)?.scrollIntoView({ block: "center" });
      },
    },
    t("rules.reading"),
  );
}

// The page's readings: what a mark means, then each kind of reading once with the notes of that kind (each
// note an anchor a mark links to), all in the notes file named in the introduction.
function readingsSection(model) {
  const notes = readingNotes(model);
  if (!notes.length) return null;
  const kinds = [...new Set(notes.map((n) => n.kind))];
  return h(
    "section",
    { id: "readings" },
    h("h2", {}, t("rules.readings")),
    h("p", { class: "help" }, t("rules.readings.intro", { file: model.file })),
    h(
      "ul",
      { style: "padding-left: 1.2em" },
      kinds.map((kind) =>
        h(
          "li",
          { "data-kind": kind },
          t(`rules.reading.${kind}`),
          ": ",
          notes
            .filter((n) => n.kind === kind)
            .map((n, i) => [i ? ", " : "", h("strong", { id: `reading-${n.note}` }, n.note)]),
        ),
      ),
    ),
  );
}

// The game's words, as the glossary names them (one name for each thing on every page of this language).
function wordsSection(words) {
  if (!words.length) return null;
  return h(
    "section",
    { id: "rules-words" },
    h("h2", {}, t("rules.words")),
    h(
      "dl",
      { class: "words" },
      words.flatMap((w) => [h("dt", {}, w.term), h("dd", {}, w.means)]),
    ),
  );
}
