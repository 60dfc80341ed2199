// polytable browser client: a router between the home page and a room page. No build step.
import { h, api, toast, myRooms, saveRoom } from "./dom.js";
import { openRoom } from "./room.js";
import { renderCardPage } from "./companion.js";
import { renderRules, rulesName, LEARN } from "./rules.js";
import { renderDesigner } from "./designer.js";
import { createForm } from "./newgame.js";
import { loadGames } from "./games.js";
import { clockText } from "./lib/text.js";
import { LANGS, lang, setLang } from "./i18n.js";
import { t, gameName } from "./i18n.js";
import { call as offline, listGames, loadGame, deleteGame } from "./offline/engine.js";
import { registerWorker, secureNote } from "./secure.js";

const app = document.getElementById("app");
const where = document.getElementById("where");
let closeCurrent = null;

export function navigate(path) {
  history.pushState({}, "", path);
  route();
}

function route() {
  if (closeCurrent) {
    closeCurrent();
    closeCurrent = null;
  }
  const path = location.pathname;
  const m = path.match(/^\/r\/([A-Za-z0-9]{1,16})$/);
  const local = path.match(/^\/local\/([a-z0-9-]{1,40})$/);
  const learn = path.match(/^\/learn\/([a-z-]{1,30})(?:\/([A-Za-z0-9]{1,16}))?$/);
  const rules = path.match(/^\/rules(?:\/([a-z-]{1,30}))?$/);
  const card = path.match(/^\/c\/([0-9A-Za-z]{1,8})\/?$/);
  app.replaceChildren();
  if (card) {
    where.textContent = "FORMFINITY";
    renderCardPage(app, card[1], navigate);
  } else if (rules) {
    where.textContent = t("rules.title");
    renderRules(app, rules[1] || "", notFound);
  } else if (path === "/designer") {
    where.textContent = t("home.designer");
    closeCurrent = renderDesigner(app, { navigate });
  } else if (m) {
    closeCurrent = openRoom(app, m[1].toUpperCase(), { where, navigate });
  } else if (local) {
    openLocal(local[1]);
  } else if (learn && LEARN[learn[1]]) {
    where.textContent = t("learn.title");
    openLearn(learn[1], learn[2]);
  } else if (path === "/" || path === "/local") {
    where.textContent = "";
    home();
  } else {
    notFound();
  }
}

// An address that names nothing: said so in the player's language, with the way home.
function notFound() {
  where.textContent = "";
  app.replaceChildren(
    h(
      "section",
      { class: "card", id: "not-found" },
      h("h1", {}, t("notFound.title")),
      h("p", {}, t("notFound.help")),
      h("a", { class: "button", href: "/", "data-nav": true }, t("room.home")),
    ),
  );
}

// A guided first game (/learn/<game>) against the easy AI: a room on the server when there is one (it starts
// at once and its AI thinks on the server), else the same game on this device's offline engine. The room's
// address is kept in the page's address (/learn/<game>/<code>), so a reload carries on.
async function openLearn(game, code) {
  const spec = LEARN[game];
  if (code) {
    closeCurrent = openRoom(app, code.toUpperCase(), { where, navigate, guide: game });
    return;
  }
  const seats = [{ kind: "here", name: t("learn.you") }, ...spec.others.map((ai) => ({ kind: "ai", ai }))];
  const start = { game, players: seats.length, options: spec.options || {}, seed: spec.seed };
  const room = await api("/api/rooms", { ...start, seats }).catch(() => null); // null: no server, play offline
  if (closeCurrent || location.pathname !== `/learn/${game}`) return; // navigated away meanwhile
  if (room) {
    saveRoom(room.code, { tokens: room.tokens, game, learn: true });
    history.replaceState({}, "", `/learn/${game}/${room.code}`);
    closeCurrent = openRoom(app, room.code, { where, navigate, guide: game });
    return;
  }
  const local = {
    id: `learn-${game}`,
    game,
    name: game,
    temporary: true,
    seats: seats.map((s) => ({ name: s.name || "", ai: s.ai || null })),
    start,
  };
  closeCurrent = openRoom(app, "LOCAL", { where, navigate, local, guide: game });
}

window.addEventListener("popstate", route);

// The language switch in the header (the language otherwise follows the browser).
const langSel = h(
  "select",
  { id: "lang", "aria-label": t("lang.label"), class: "lang" },
  Object.entries(LANGS).map(([k, name]) =>
    h("option", { value: k, selected: k === lang, title: name, lang: k }, k.toUpperCase()),
  ),
);
langSel.addEventListener("change", () => setLang(langSel.value));
document.querySelector("header.top").append(langSel);
document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-nav]");
  if (a && a.origin === location.origin) {
    e.preventDefault();
    navigate(a.pathname);
  }
});

// A game on this device (offline or not): the room page drives the offline engine instead of a server.
async function openLocal(id) {
  const game = await loadGame(id).catch(() => null);
  if (closeCurrent || location.pathname !== `/local/${id}`) return; // navigated away meanwhile
  if (!game) {
    app.replaceChildren(
      h(
        "section",
        { class: "card" },
        h("h1", {}, t("offline.missing")),
        h("a", { class: "button", href: "/", "data-nav": true }, t("room.home")),
      ),
    );
    return;
  }
  closeCurrent = openRoom(app, "LOCAL", { where, navigate, local: game });
}

// Offline, the games as the server last listed them (games.js), with only the AIs the offline engine plays.
const OFFLINE_AIS = ["random", "greedy", "easy"];
const forOffline = (g) => ({ ...g, ai: OFFLINE_AIS.filter((a) => !g.ai || g.ai.includes(a)) });

// With no server the home page offers what works without one: games on this device, run by the very same
// Python rules in the browser (see static/offline/). It never shows a network error for that.
async function home() {
  const listed = await loadGames();
  const offlineOnly = !listed.online;
  let games = listed.list;
  if (offlineOnly) {
    offline("catalogue").catch(() => {}); // start the offline engine now, while the player chooses
    games = games.map(forOffline);
    if (!games.length) {
      try {
        games = (await offline("catalogue")).map(forOffline);
      } catch {
        games = [];
      }
    }
  }
  const mine = Object.entries(myRooms())
    .sort((a, b) => b[1].seen - a[1].seen)
    .slice(0, 8);
  const saved = (await listGames().catch(() => [])).sort((a, b) => b.saved - a.saved).slice(0, 8);
  const mineCard = mine.length ? myGamesCard(mine) : null;
  app.append(
    ...[
      h("h1", {}, t("home.title")),
      offlineOnly ? null : secureNote(),
      offlineOnly ? offlineNote(games) : null,
      offlineOnly ? null : joinCard(),
      h(
        "section",
        { class: "card", id: "create" },
        h("h2", {}, t(offlineOnly ? "offline.newGame" : "home.newRoom")),
        createForm(games, { offlineOnly, navigate }),
      ),
      saved.length ? savedCard(saved) : null,
      rulesCard(games),
      mineCard ? mineCard.el : null,
    ].filter(Boolean),
  );
  if (mineCard) mineCard.update();
}

// Offline: what works without the server.
function offlineNote(games) {
  return h(
    "section",
    { class: "card", id: "offline-note", role: "status" },
    h("h2", {}, t("offline.title")),
    h("p", {}, games.length ? t("offline.works") : t("offline.notReady")),
  );
}

// Join a room by its code.
function joinCard() {
  const joinInput = h("input", {
    id: "join-code",
    placeholder: t("home.code"),
    autocomplete: "off",
    maxlength: 16,
    autocapitalize: "characters",
    "aria-label": t("home.code"),
  });
  let typed = "";
  joinInput.addEventListener("input", () => {
    typed = joinInput.value;
  });
  const join = h(
    "form",
    {
      class: "row",
      onsubmit: (e) => {
        e.preventDefault();
        const code = typed.trim().toUpperCase();
        if (/^[A-Z0-9]{1,16}$/.test(code)) navigate(`/r/${code}`);
        else toast(t("home.badCode"), true);
      },
    },
    joinInput,
    h("button", { type: "submit" }, t("home.join")),
  );
  return h("section", { class: "card" }, h("h2", {}, t("home.joinRoom")), join);
}

// The games saved on this device, each with its delete button.
function savedCard(saved) {
  const item = (g) => {
    const row = h(
      "span",
      { class: "row" },
      h(
        "a",
        { class: "button secondary", href: `/local/${g.id}`, "data-nav": true },
        `${gameName(g.game, g.name)} · ${new Date(g.saved).toLocaleString()}`,
      ),
      h(
        "button",
        {
          class: "secondary",
          "aria-label": t("offline.delete"),
          onclick: async () => {
            await deleteGame(g.id);
            row.remove();
          },
        },
        "✕",
      ),
    );
    return row;
  };
  return h(
    "section",
    { class: "card", id: "local-games" },
    h("h2", {}, t("offline.saved")),
    h("div", { class: "row" }, saved.map(item)),
  );
}

// How to play each game, and the template designer.
function rulesCard(games) {
  return h(
    "section",
    { class: "card" },
    h("h2", {}, t("home.rules")),
    h(
      "div",
      { class: "row" },
      games.map((g) => h("a", { class: "button secondary", href: `/rules/${g.id}`, "data-nav": true }, rulesName(g))),
    ),
    h(
      "p",
      {},
      h(
        "a",
        { class: "button secondary", href: "/designer", "data-nav": true, id: "designer-link" },
        t("home.designer"),
      ),
    ),
  );
}

// "My games": this device's rooms; ``update()`` adds whose turn it is in each and the time its seats have left.
function myGamesCard(mine) {
  const spans = new Map(); // room code -> its status span
  const link = ([code, r]) => {
    const status = h("span", { class: "mine-status" }, "");
    spans.set(code, status);
    return h(
      "a",
      {
        class: "button secondary",
        href: r.learn && r.game ? `/learn/${r.game}/${code}` : `/r/${code}`,
        "data-nav": true,
        "data-room": code,
      },
      `${code} · ${r.game ? gameName(r.game, r.name) : r.name || ""}`,
      status,
    );
  };
  const el = h("section", { class: "card" }, h("h2", {}, t("home.mine")), h("div", { class: "row" }, mine.map(link)));
  async function update() {
    let cards;
    try {
      const rooms = Object.fromEntries(mine.map(([code, r]) => [code, Object.values(r.tokens || {})]));
      cards = (await api("/api/my-rooms", { rooms })).rooms;
    } catch {
      return;
    }
    for (const c of cards) {
      const span = spans.get(c.code);
      if (!span || c.missing) continue;
      span.textContent = ` · ${mineStatus(c)}`;
    }
  }
  return { el, update };
}

// A room's line in "My games": over, your turn (with the time left) or waiting.
function mineStatus(c) {
  const left = c.left ? Math.min(...Object.values(c.left)) : null;
  const time = left !== null && c.your_turn ? ` (${clockText(left, t)})` : "";
  const what = c.over ? t("home.mineOver") : c.your_turn ? t("home.mineTurn") : t("home.mineWait");
  return `${what}${time}`;
}

route();

registerWorker();
