// Stepping through a finished game: a position slider and buttons; each position is drawn by the game's own
// board, read-only, as a spectator sees it (no text rendering: the board speaks the chosen language; the
// engine's text does not).
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";

// ``state()``: the room's latest state message; ``step(n)``: the position n ({view, render, result, action,
// position, total}) from the server or the offline engine; ``done()``: back to the live room.
export function showReplay(box, { state, board, step, seat, seatName, done }) {
  let at = 0;
  const keep = {}; // the board's own state while stepping (what it selected, what it showed last)
  const host = h("div", { class: "replay-board", id: "replay-board" });
  const info = h("p", { class: "status", id: "replay-info" });
  const range = h("input", { type: "range", min: 0, max: state().moves, value: 0, "aria-label": t("room.position") });
  const none = () => {};
  const go = async (n) => {
    const msg = state();
    at = Math.max(0, Math.min(msg.moves, n));
    try {
      const st = await step(at);
      const shown = { ...msg, over: st.result !== null, result: st.result || msg.result, acting: [] };
      board.render(host, {
        msg: shown,
        part: { view: st.view, render: st.render, legal: [], count: 0, to_act: false },
        seat,
        seatName,
        play: none,
        undo: none,
        preview: async () => null,
        announce: none,
        replay: true,
        keep,
      });
      range.value = String(at);
      const a = st.action;
      info.textContent =
        t("room.positionOf", { n: st.position, total: st.total }) +
        (a ? ` — ${a.player < 0 ? t("room.chanceWord") : seatName(a.player)}: ${a.action}` : t("room.theStart"));
    } catch (e) {
      toast(e.message, true);
    }
  };
  range.addEventListener("input", () => go(Number(range.value)));
  box.replaceChildren(
    info,
    host,
    h(
      "div",
      { class: "replay" },
      h("button", { class: "secondary", "aria-label": t("room.first"), onclick: () => go(0) }, "⏮"),
      h(
        "button",
        { class: "secondary", id: "replay-prev", "aria-label": t("room.prev"), onclick: () => go(at - 1) },
        "◀",
      ),
      range,
      h(
        "button",
        { class: "secondary", id: "replay-next", "aria-label": t("room.next"), onclick: () => go(at + 1) },
        "▶",
      ),
      h("button", { class: "secondary", "aria-label": t("room.last"), onclick: () => go(state().moves) }, "⏭"),
      h("button", { onclick: done }, t("room.done")),
    ),
  );
  go(0);
}
