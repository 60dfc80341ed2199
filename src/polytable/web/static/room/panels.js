// The room page's panels: each is an object holding its own elements and what it was last drawn from, with a
// ``draw`` that takes the room's state (lib/room.js) and the page's actions. None keeps game state of its own
// and none reads state back from the DOM.
import { h, put, api, saveRoom, tokensFor } from "../dom.js";
import { t } from "../i18n.js";
import { clockText } from "../lib/text.js";
import { secondsLeft, statusLine } from "../lib/room.js";
import { historyItems, resultParts, recordLink } from "../story.js";

/** The seats' bar: each seat's name, whether it acts, is connected, is ours, and its clock (ticking). */
export function seatsBar() {
  const bar = { box: h("div", { class: "seats", id: "seats" }), clocks: [] };
  bar.draw = (st, name, aiName) => {
    const { msg, held } = st;
    bar.clocks = [];
    bar.box.hidden = msg.room.mode === "companion";
    bar.box.replaceChildren(
      ...msg.room.seats.map((s) => {
        const clock = msg.clock ? h("span", { class: "clock", title: t("room.clock") }) : "";
        if (clock) bar.clocks.push({ span: clock, seat: s.seat });
        return h(
          "span",
          {
            class: `seat${msg.acting.includes(s.seat) ? " acting" : ""}${held.includes(s.seat) ? " me" : ""}`,
            title: t({ here: "home.here", invite: "home.invited", ai: "home.ai" }[s.kind] || "home.here"),
          },
          h("span", { class: `dot${s.connected ? " on" : ""}` }),
          `${s.seat + 1}. ${name(s.seat)}`,
          s.kind === "ai" && !s.default_name ? t("room.ai", { ai: aiName(s.ai) }) : s.open ? t("room.open") : "",
          clock,
        );
      }),
    );
    bar.tick(st);
  };
  /** The clocks' figures now (called every second while the room has clocks). */
  bar.tick = (st) => {
    for (const { span, seat } of bar.clocks) span.textContent = clockText(secondsLeft(st, seat, Date.now() / 1000), t);
  };
  return bar;
}

/** The status line: whose move it is, whom we wait for, or that the game is over. */
export function drawStatus(el, st, target, name) {
  const line = statusLine(st, target, name);
  el.className = line.turn ? "status turn" : "status";
  el.textContent = t(line.key, line.params);
}

/** The notice under the status line (a refused move and why), or nothing. */
export function drawNotice(el, notice) {
  el.hidden = !notice;
  el.textContent = notice ? notice.text : "";
  el.className = `notice${notice && notice.error ? " error" : ""}`;
}

/** Hot-seat: the screen that hides the previous player's board until the next one says they hold the
 * phone; until then the previous player (``back``) may still take their move back. */
export function drawPass(box, { target, back }, name, { confirm, undo }) {
  put(
    box,
    h("h2", {}, t("room.passTo", { name: name(target) })),
    h("p", {}, t("room.passHidden")),
    h("button", { id: "pass-ok", onclick: confirm }, t("room.iAm", { name: name(target) })),
    back === undefined
      ? null
      : h(
          "button",
          { id: "pass-undo", class: "secondary", onclick: () => undo(back) },
          t("room.undoOf", { name: name(back) }),
        ),
  );
  box.hidden = false;
}

/** The panel to take an open seat (by name). Drawn again only when the open seats change: a state arriving
 * while someone types keeps the name typed so far and the field's focus. */
export function joinPanel(code) {
  const panel = {
    box: h("section", { class: "card", id: "join", hidden: true }),
    name: h("input", {
      id: "join-name",
      placeholder: t("room.yourName"),
      maxlength: 24,
      "aria-label": t("room.yourName"),
      oninput: (e) => (panel.typed = e.target.value),
    }),
    typed: "", // the name typed so far
    seats: "", // the open seats it was drawn for ("" while hidden)
  };
  panel.draw = (st, { joined, notify }) => {
    const open = st.msg.room.seats.filter((s) => s.open);
    if (!open.length || st.held.length || st.msg.room.mode !== "play") {
      panel.box.hidden = true;
      panel.seats = "";
      return;
    }
    const seats = open.map((s) => s.seat).join(",");
    if (seats === panel.seats) return;
    panel.seats = seats;
    const take = async (seat) => {
      try {
        const r = await api(`/api/rooms/${code}/join`, { seat, name: panel.typed.trim() });
        saveRoom(code, { tokens: { [r.seat]: r.token } });
        joined(); // reconnect with the new token
      } catch (err) {
        notify(err.message, true);
      }
    };
    panel.box.replaceChildren(
      h("h2", {}, t("room.takeSeat")),
      panel.name,
      h(
        "div",
        { class: "row", style: "margin-top:8px" },
        open.map((s) =>
          h(
            "button",
            { class: "take", dataset: { seat: s.seat }, onclick: () => take(s.seat) },
            t("room.seat", { n: s.seat + 1 }),
          ),
        ),
      ),
      h("p", { class: "help" }, t("room.orWatch")),
    );
    panel.box.hidden = false;
  };
  return panel;
}

/** The history in words, the notation on demand (story.js). */
export function historyPanel(st, redraw) {
  const panel = {
    list: h("ol", { class: "history", id: "history" }),
    toggle: h(
      "button",
      {
        type: "button",
        class: "secondary small",
        id: "history-notation",
        "aria-pressed": "false",
        onclick: () => {
          st.notation = !st.notation;
          redraw();
        },
      },
      t("room.showNotation"),
    ),
  };
  panel.draw = (name) => {
    panel.list.replaceChildren(...historyItems(st.msg, st.notation, name));
    panel.list.scrollTop = panel.list.scrollHeight;
    panel.toggle.hidden = st.msg.room.mode === "companion";
    panel.toggle.setAttribute("aria-pressed", st.notation ? "true" : "false");
    panel.toggle.textContent = t(st.notation ? "room.hideNotation" : "room.showNotation");
  };
  return panel;
}

/** The end: who won (or shared the win), each seat's score and why, a rematch, the replay and the record. */
export function drawOver(box, st, { code, local, me, name, replay, notify }) {
  const { msg, held } = st;
  if (!msg.over) {
    box.hidden = true;
    return;
  }
  const rematch = async () => {
    // A rematch keeps the seats: this device's tokens of this room hold the same seats in the new one.
    try {
      const r = await api(`/api/rooms/${code}/rematch`, { tokens: Object.values(tokensFor(code)) });
      saveRoom(r.code, { tokens: tokensFor(code), game: msg.room.game, name: msg.room.name });
      location.assign(`/r/${r.code}`);
    } catch (err) {
      notify(err.message, true);
    }
  };
  const again =
    held.length && msg.room.mode === "play" && !local
      ? h("button", { id: "rematch", onclick: rematch }, msg.room.rematch ? t("room.rematchOpen") : t("room.rematch"))
      : null;
  put(
    box,
    h("h2", {}, t("room.result")),
    resultParts(msg, me, name),
    h(
      "div",
      { class: "row" },
      again,
      h("button", { id: "replay-start", class: "secondary", onclick: replay }, t("room.step")),
      recordLink(code, local),
    ),
  );
  box.hidden = false;
}
