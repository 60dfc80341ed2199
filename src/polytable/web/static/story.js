// What happened in a room, in words, and how to share it: the history (the game's own sentences, seats by
// name, the notation on demand; a companion room's cards revealed), the result (who won or shared the win,
// each seat's score, and why), the game record, and the invitation card. Renders of what the room page
// passes them; none keeps state.
import { h, api } from "./dom.js";
import { t, tError, tSaid } from "./i18n.js";
import { describe as cardWords } from "./companion.js";
import { resultHeadline } from "./lib/text.js";
import { call as offline } from "./offline/engine.js";

/** A seat by name, or chance (a card, a roll, a draw) in words. */
export const seatOrChance = (seatName) => (p) => (p < 0 ? t("room.chanceWord") : seatName(p));

/** The history's items (the last 30), or the line that says nothing is public yet. */
export function historyItems(msg, notation, seatName) {
  const items = msg.room.mode === "companion" ? companionItems(msg) : msg.history.slice(-30).map(item);
  return items.length ? items : [h("li", { class: "muted empty" }, t("room.nothing"))];

  function item(e) {
    const words = e.said ? tSaid(e.said, seatOrChance(seatName)) : "";
    const fallback = e.player < 0 ? t("room.chance", { action: e.action }) : `${seatName(e.player)}: ${e.action}`;
    return h(
      "li",
      { value: e.n },
      words || fallback,
      words && notation ? h("code", { class: "notation" }, e.action) : null,
    );
  }
}

function companionItems(msg) {
  const c = msg.companion || { history: [] };
  return c.history.slice(-30).map((card, i) => h("li", {}, t("room.cardN", { n: i + 1, what: cardWords(card) })));
}

/** The result's headline, scores and reason; ``me`` is the one person's seat at this device (else null). */
export function resultParts(msg, me, seatName) {
  const r = msg.result || {};
  const lines = (r.scores || []).map((sc, p) =>
    h("li", {}, `${seatName(p)}: ${sc}` + ((r.forfeited || []).includes(p) ? t("room.forfeited") : "")),
  );
  const forfeit = (r.forfeited || []).length
    ? t("room.whyForfeit", { name: r.forfeited.map(seatName).join(", ") })
    : "";
  const why = r.why ? tSaid(r.why, seatOrChance(seatName)) : forfeit;
  return [
    h("p", { class: "headline", id: "result-headline" }, resultHeadline(r, msg.room.players, seatName, t, me)),
    h("ul", {}, lines),
    why ? h("p", { id: "result-why" }, t("room.why", { why })) : null,
  ];
}

/** The game record (``polytable replay`` checks it): from the server, or made by the offline engine. */
export function recordLink(code, local) {
  if (!local) {
    return h(
      "a",
      { class: "button secondary", href: `/api/rooms/${code}/record`, download: `${code}.json` },
      t("room.record"),
    );
  }
  return h(
    "button",
    {
      class: "secondary",
      id: "export-record",
      onclick: async () => {
        const record = await offline("record");
        const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
        const a = h("a", { href: url, download: `${record.game}-${local.id}.json` });
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      },
    },
    t("room.record"),
  );
}

/** The invitation: the room's code, its link and QR code, copy and share. The server says which address an
 * invited phone can open (never this computer's loopback address). */
export function shareCard(code) {
  let link = `${location.origin}/r/${code}`;
  const shown = h("p", { class: "help", id: "room-link" }, link);
  api(`/api/rooms/${code}`)
    .then((r) => {
      if (r && r.link) shown.textContent = link = r.link;
    })
    .catch(() => {});
  const copy = h(
    "button",
    {
      class: "secondary",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          copy.textContent = t("room.copied"); // said on the button itself: no message over the page
        } catch {
          copy.textContent = link;
        }
      },
    },
    t("room.copy"),
  );
  const shareBtn = navigator.share
    ? h(
        "button",
        { class: "secondary", onclick: () => navigator.share({ url: link, title: "polytable" }).catch(() => {}) },
        t("room.share"),
      )
    : null;
  return [
    h("h2", {}, t("room.invite")),
    h(
      "div",
      { class: "share" },
      h("img", { src: `/api/rooms/${code}/qr.svg`, alt: t("room.qr", { code }), width: 160, height: 160 }),
      h(
        "div",
        {},
        h("div", { class: "code", id: "room-code" }, code),
        shown,
        h("div", { class: "row" }, copy, shareBtn),
      ),
    ),
  ];
}

/** Why a move a board tried is refused, in words: the move itself (the engine names it in notation) is "this
 * move"; the sentence starts with a capital. ``m`` is the preview's answer. */
export function refusal(m) {
  const params = {};
  for (const [k, v] of Object.entries(m.params || {})) params[k] = v === m.action ? t("room.thisMove") : v;
  return capital(tError({ ...m, params }));
}

/** Why the player's last move can no longer be taken back, said to them (the engine's sentence names seats
 * by number; a rule of the game, such as Forma's binding pick, is its own sentence). */
export function undoStands(why, seatName) {
  if (why.reason === "engine.match.undo_after_chance") return t("room.undoStandsReveal");
  if (why.reason === "engine.match.undo_after_other")
    return t("room.undoStandsOther", { name: seatName((why.params || {}).other - 1) });
  return capital(tError(why));
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
