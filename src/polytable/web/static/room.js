// The room page: one WebSocket, the seats this browser holds, the board, hot-seat hand-over, replay.
// The server is the authority: this page never decides what is legal; it shows the views and legal
// actions it receives and sends actions in the game's notation with the version they were made on.
import { h, api, toast, saveRoom, tokensFor } from "./dom.js";
import { boardFor } from "./boards/index.js";
import { renderCompanion } from "./companion.js";

export function openRoom(root, code, { where, navigate }) {
  let ws = null;
  let closed = false;
  let retry = 500;
  let msg = null; // the last state message
  let held = []; // seats this connection holds (from the welcome)
  let shown = null; // the seat whose board is on screen (hot-seat)
  let confirmed = null; // the seat that confirmed the pass screen
  let replayAt = null; // position when stepping through a finished game

  const el = {
    seats: h("div", { class: "seats", id: "seats" }),
    alert: h("div", { id: "alert" }),
    join: h("section", { class: "card", id: "join", hidden: true }),
    main: h("section", { class: "card", id: "main" }),
    side: h("div", {}),
    history: h("ol", { class: "history", id: "history" }),
    over: h("section", { class: "card", id: "over", hidden: true }),
    share: h("section", { class: "card", id: "share" }),
    pass: h("div", { class: "pass", id: "pass", hidden: true }),
    status: h("p", { class: "status", id: "status" }, "Connecting…"),
    boardBox: h("div", { id: "board" }),
  };
  el.main.append(el.status, el.boardBox);
  el.side.append(el.over, h("section", { class: "card" }, h("h2", {}, "History"), el.history), el.share);
  root.append(el.seats, el.alert, el.join, h("div", { class: "roomgrid" }, h("div", {}, el.main), el.side), el.pass);
  buildShare();

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${proto}://${location.host}/ws/${code}`);
    ws.onopen = () => {
      retry = 500;
      ws.send(JSON.stringify({ type: "hello", tokens: Object.values(tokensFor(code)) }));
    };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.type === "welcome") { held = m.seats; }
      else if (m.type === "state") { msg = m; render(); }
      else if (m.type === "error") {
        if (m.code === "missing") { closed = true; showMissing(); return; }
        toast(m.message, m.code !== "stale");
      }
    };
    ws.onclose = () => {
      if (closed) return;
      el.status.textContent = "Connection lost; reconnecting…";
      setTimeout(() => { if (!closed) connect(); }, retry);
      retry = Math.min(retry * 2, 5000);
    };
  }

  function send(obj) {
    if (!ws || ws.readyState !== WebSocket.OPEN) { toast("Not connected; trying again…", true); return false; }
    ws.send(JSON.stringify(obj));
    return true;
  }

  function showMissing() {
    root.replaceChildren(h("section", { class: "card" }, h("h1", {}, `There is no room ${code}`),
      h("p", {}, "Check the code, or start a new room."), h("a", { class: "button", href: "/", "data-nav": true }, "Home")));
  }

  function buildShare() {
    const link = `${location.origin}/r/${code}`;
    const copy = h("button", { class: "secondary", onclick: async () => {
      try { await navigator.clipboard.writeText(link); toast("Link copied."); } catch { toast(link); }
    } }, "Copy link");
    const shareBtn = navigator.share ? h("button", { class: "secondary", onclick: () => navigator.share({ url: link, title: "polytable" }).catch(() => {}) }, "Share") : null;
    el.share.replaceChildren(h("h2", {}, "Invite"),
      h("div", { class: "share" },
        h("img", { src: `/api/rooms/${code}/qr.svg`, alt: `QR code of the link to room ${code}`, width: 160, height: 160 }),
        h("div", {}, h("div", { class: "code", id: "room-code" }, code), h("p", { class: "help" }, link), h("div", { class: "row" }, copy, shareBtn))));
  }

  function seatName(p) {
    const s = msg.room.seats[p];
    return s ? s.name : `Player ${p + 1}`;
  }

  // Which of our seats is on screen: the one that must act (first of ours), else the last one shown.
  function targetSeat() {
    const acting = msg.acting.filter((p) => held.includes(p));
    if (acting.length) return acting.includes(shown) ? shown : acting[0];
    if (shown !== null && held.includes(shown)) return shown;
    return held.length ? held[0] : null;
  }

  function render() {
    const room = msg.room;
    root.dataset.version = String(msg.version);
    where.textContent = `${room.name} · ${room.code}${room.mode === "companion" ? " · companion" : ""}`;
    saveRoom(code, { game: room.game, name: room.name });
    el.seats.hidden = room.mode === "companion";
    el.seats.replaceChildren(...room.seats.map((s) => h("span", {
      class: `seat${msg.acting.includes(s.seat) ? " acting" : ""}${held.includes(s.seat) ? " me" : ""}`,
      title: s.kind,
    }, h("span", { class: `dot${s.connected ? " on" : ""}` }), `${s.seat + 1}. ${s.name}`,
      s.kind === "ai" ? ` (AI ${s.ai})` : s.open ? " (open)" : "")));
    el.alert.replaceChildren(msg.error ? h("p", { class: "card", role: "alert" }, msg.error) : "");
    renderJoin();
    renderHistory();
    if (room.mode === "companion") {
      el.pass.hidden = true;
      el.status.textContent = "";
      renderCompanion(el.boardBox, msg.companion, (undo) => send({ type: undo ? "undeal" : "deal", version: msg.version }));
      return;
    }
    const target = targetSeat();
    const people = held.filter((p) => room.seats[p].kind !== "ai");
    if (target !== null && people.length > 1 && target !== confirmed && !msg.over) {
      // Hot-seat: hide everything of the previous player until the next one says they hold the phone.
      shown = target;
      el.boardBox.replaceChildren();
      el.status.textContent = "";
      el.pass.replaceChildren(h("h2", {}, `Pass the device to ${seatName(target)}`),
        h("p", {}, "The previous player's choice stays hidden."),
        h("button", { id: "pass-ok", onclick: () => { confirmed = target; el.pass.hidden = true; render(); } },
          `I am ${seatName(target)}`));
      el.pass.hidden = false;
      return;
    }
    el.pass.hidden = true;
    shown = target;
    renderStatus(target);
    renderOver();
    const part = replayAt !== null ? null : target === null ? msg.spectator : msg.mine[String(target)];
    if (replayAt !== null) return; // the replay panel owns the board while stepping
    const board = boardFor(room.game);
    board.render(el.boardBox, {
      msg, part, seat: target, seatName,
      play: (text) => send({ type: "act", seat: target, version: msg.version, action: text }),
      undo: () => send({ type: "undo", seat: target, version: msg.version }),
    });
  }

  function renderStatus(target) {
    const s = el.status;
    s.className = "status";
    if (msg.over) { s.textContent = "The game is over."; return; }
    if (target === null) {
      const who = msg.acting.map(seatName).join(", ");
      s.textContent = who ? `Watching: ${who} to play.` : "Watching.";
      return;
    }
    const part = msg.mine[String(target)];
    if (part && part.to_act) { s.textContent = `${seatName(target)}, your move.`; s.classList.add("turn"); }
    else if (msg.acting.length) s.textContent = `${seatName(target)}: waiting for ${msg.acting.map(seatName).join(", ")}.`;
    else s.textContent = "Waiting…";
  }

  function renderJoin() {
    const open = msg.room.seats.filter((s) => s.open);
    if (!open.length || held.length || msg.room.mode !== "play") { el.join.hidden = true; return; }
    const name = h("input", { id: "join-name", placeholder: "Your name", maxlength: 24, "aria-label": "Your name" });
    el.join.replaceChildren(h("h2", {}, "Take a seat"), name, h("div", { class: "row", style: "margin-top:8px" },
      open.map((s) => h("button", { class: "take", dataset: { seat: s.seat }, onclick: async () => {
        try {
          const r = await api(`/api/rooms/${code}/join`, { seat: s.seat, name: name.value.trim() });
          saveRoom(code, { tokens: { [r.seat]: r.token } });
          ws.close(); // reconnect with the new token
        } catch (err) { toast(err.message, true); }
      } }, `Seat ${s.seat + 1}`))), h("p", { class: "help" }, "Or just watch: spectators see the public board."));
    el.join.hidden = false;
  }

  function renderHistory() {
    const items = msg.history.slice(-30).map((e) => h("li", { value: e.n },
      e.player < 0 ? `chance: ${e.action}` : `${seatName(e.player)}: ${e.action}`));
    el.history.replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, "Nothing public yet.")]));
    el.history.scrollTop = el.history.scrollHeight;
  }

  function renderOver() {
    if (!msg.over) { el.over.hidden = true; return; }
    const r = msg.result || {};
    const lines = (r.scores || []).map((sc, p) => h("li", {}, `${seatName(p)}: ${sc}${(r.winners || []).includes(p) ? " — wins" : ""}`));
    const stepBtn = h("button", { id: "replay-start", class: "secondary", onclick: () => startReplay() }, "Step through the game");
    const seat = targetSeat();
    const final = seat === null ? msg.spectator : msg.mine[String(seat)];
    el.over.replaceChildren(h("h2", {}, "Result"), h("ul", {}, lines),
      final ? h("details", {}, h("summary", { class: "button secondary" }, "Final position"), h("pre", { class: "board", id: "final-board" }, final.render)) : null,
      stepBtn,
      h("a", { class: "button secondary", href: `/api/rooms/${code}/record`, download: `${code}.json` }, "Record"));
    el.over.hidden = false;
  }

  async function startReplay() {
    replayAt = 0;
    const pre = h("pre", { class: "board", id: "replay-board" });
    const info = h("p", { class: "status", id: "replay-info" });
    const range = h("input", { type: "range", min: 0, max: msg.moves, value: 0, "aria-label": "Position" });
    const go = async (n) => {
      replayAt = Math.max(0, Math.min(msg.moves, n));
      try {
        const st = await api(`/api/rooms/${code}/step/${replayAt}`);
        pre.textContent = st.render;
        range.value = String(replayAt);
        const a = st.action;
        info.textContent = `Position ${st.position} of ${st.total}` +
          (a ? ` — ${a.player < 0 ? "chance" : seatName(a.player)}: ${a.action}` : " — the start");
      } catch (e) { toast(e.message, true); }
    };
    range.addEventListener("input", () => go(Number(range.value)));
    el.boardBox.replaceChildren(info, pre, h("div", { class: "replay" },
      h("button", { class: "secondary", "aria-label": "First", onclick: () => go(0) }, "⏮"),
      h("button", { class: "secondary", id: "replay-prev", "aria-label": "Previous", onclick: () => go(replayAt - 1) }, "◀"),
      range,
      h("button", { class: "secondary", id: "replay-next", "aria-label": "Next", onclick: () => go(replayAt + 1) }, "▶"),
      h("button", { class: "secondary", "aria-label": "Last", onclick: () => go(msg.moves) }, "⏭"),
      h("button", { onclick: () => { replayAt = null; el.boardBox.replaceChildren(); render(); } }, "Done")));
    go(0);
  }

  connect();
  return () => { closed = true; if (ws) ws.close(); };
}
