// Companion mode: the app only deals cards. Every phone in the room shows the same card at the same moment.
// What differs between games comes from the server's message (the game's declared companion), never from
// the game's id: its words and card layout are lib/companion.js, the card's drawing companion/card.js and a
// printed deck's scanner companion/scan.js; this page only places them.
import { t } from "./i18n.js";
import { h, toast, myRooms } from "./dom.js";
import { decodeCard } from "./cardcode.js";
import { cachedGames, loadGames } from "./games.js";
import * as C from "./lib/companion.js";
import { cardSvg } from "./companion/card.js";
import { scanPanel, stopScanner } from "./companion/scan.js";

export { cardSvg };

const PENDING = "polytable.pendingCard";

/** A card in words (``opts.start``: a start card). */
export const describe = (card, opts = {}) => C.describe(card, t, opts);

const dot = (colour) => h("span", { class: "dot on", style: `background:${C.SEAT_COLORS[colour]}` });

/** The companion's page in ``el`` for companion message ``c``; ``deal(undo, code)`` deals, takes back or
 * gives a printed card. */
export function renderCompanion(el, c, deal) {
  const card = c.card;
  if (!c.can_give) stopScanner();
  takePending(c, deal);
  const turn = C.turn(c, t);
  const lanes = C.startLanes(c, t);
  const big = h(
    "div",
    { class: "bigcard", id: "companion-card" },
    h("h2", { id: "companion-round" }, C.title(c, t)),
    turn && turn.colour === null ? h("p", { class: "help", id: "companion-turn" }, turn.text) : null,
    turn && turn.colour !== null ? h("p", { class: "turn", id: "companion-turn" }, dot(turn.colour), turn.text) : null,
    card ? cardSvg(card) : h("p", { class: "muted" }, t(c.can_give ? "cp.tapOrScan" : "cp.tapNext")),
    card ? h("p", { class: "status", id: "companion-text" }, describe(card, { start: !!c.start })) : null,
    lanes
      ? h(
          "ul",
          { class: "lanes", id: "companion-lanes" },
          lanes.map((l) => h("li", {}, dot(l.colour), l.text)),
        )
      : null,
  );
  const next = c.physical
    ? null
    : h(
        "button",
        { id: "deal", disabled: !c.can_deal, onclick: () => deal(false) },
        c.can_deal ? t("cp.next") : t("cp.empty"),
      );
  const back = h(
    "button",
    { id: "undeal", class: "secondary", disabled: !card, onclick: () => deal(true) },
    t("cp.back"),
  );
  const strip = h(
    "div",
    { class: "strip", "aria-label": t("cp.strip") },
    c.history
      .slice()
      .reverse()
      .map((k) => cardSvg(k, 64)),
  );
  const links = C.printLinks(c, t).map(([href, label]) =>
    h("a", { href, class: "button secondary print-link", target: "_blank" }, label),
  );
  el.replaceChildren(
    ...[
      big,
      h("div", { class: "row" }, next, back),
      c.can_give ? scanPanel(c, deal) : null,
      h("p", { class: "help" }, C.dealt(c, t)),
      strip,
      h("p", { class: "row" }, links),
    ].filter(Boolean),
  );
}

// A card opened from its QR code (the card page) and sent to this room: played once the room is shown.
function takePending(c, deal) {
  let pending = null;
  try {
    pending = JSON.parse(sessionStorage.getItem(PENDING) || "null");
  } catch {
    pending = null;
  }
  if (!pending || pending.room !== c.code) return;
  sessionStorage.removeItem(PENDING);
  if (c.can_give) setTimeout(() => deal(false, pending.code), 0);
  else toast(t("cp.cannotGive"), true);
}

// ------------------------------------------------------------------------------------ the card page
// What a phone shows when its camera opens a printed card's address (/c/CODE): the card, read from the
// address alone (works offline from the cached app), and the companion rooms it can be drawn in.
export function renderCardPage(el, code, navigate) {
  const card = decodeCard(code);
  if (!card) {
    el.replaceChildren(
      h("section", { class: "card" }, h("h1", {}, t("card.title")), h("p", { role: "alert" }, t("card.bad"))),
    );
    return;
  }
  const help = h("p", { class: "help" }, t("card.noRoom"));
  const buttons = h("div", { class: "row" });
  el.replaceChildren(
    h(
      "section",
      { class: "card bigcard", id: "card-page" },
      h("h1", {}, t("card.title")),
      cardSvg(card),
      h("p", { class: "status", id: "card-text" }, describe(card)),
      h("p", { class: "help" }, t("card.arrowsNote")),
      help,
      buttons,
    ),
  );
  cardGames().then((games) => {
    const rooms = Object.entries(myRooms())
      .filter(([, r]) => games.has(r.game))
      .slice(0, 5);
    if (rooms.length) help.textContent = t("card.drawHelp");
    buttons.replaceChildren(
      ...rooms.map(([room]) =>
        h(
          "button",
          {
            class: "draw-in",
            onclick: () => {
              sessionStorage.setItem(PENDING, JSON.stringify({ room, code: card.code }));
              navigate(`/r/${room}`);
            },
          },
          t("card.drawIn", { code: room }),
        ),
      ),
    );
  });
}

// The games whose printed cards a room can take: from the game list the home page keeps on this device
// (so the page works offline), else from the server.
async function cardGames() {
  let games = cachedGames();
  if (!games.some((g) => "printed_cards" in g)) games = (await loadGames()).list;
  return new Set(games.filter((g) => g.printed_cards).map((g) => g.id));
}
