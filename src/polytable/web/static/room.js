// The room page: one WebSocket, the seats this browser holds, the board, hot-seat hand-over, replay.
// The server is the authority: this page never decides what is legal; it shows the views and legal
// actions it receives and sends actions in the game's notation with the version they were made on.
import { h, put, api, saveRoom, tokensFor } from "./dom.js";
import { loadBoard } from "./boards/index.js";
import { renderCompanion } from "./companion.js";
import { t, tOr, tError, gameName } from "./i18n.js";
import { LocalSocket, call as offline } from "./offline/engine.js";
import { clockText } from "./lib/text.js";
import { showReplay } from "./replay.js";
import { newCoach, guideChildren, hintChildren } from "./guide.js";
import { historyItems, resultParts, recordLink, refusal, shareCard, undoStands } from "./story.js";

// ``local``: a game on this device (a saved game from IndexedDB), played by the offline engine through a
// socket that speaks the same protocol as the server's (see static/offline/engine.js).
// ``guide``: a guided first game (a game id): a panel says what to do, offers the greedy player's move
// ("show me", drawn on the board as the player's own choice, played with one tap) and explains the points
// when the learner scores. Messages (a refused move and why) are shown in the page's flow under the status
// line, never over the controls.
export function openRoom(root, code, { where, local = null, guide = null }) {
  let ws = null;
  let closed = false;
  let retry = 500;
  let skew = 0; // seconds our clock is ahead of the server's (clocks are shown from the server's figures)
  let msg = null; // the last state message
  let held = []; // seats this connection holds (from the welcome)
  let shown = null; // the seat whose board is on screen (hot-seat)
  let confirmed = null; // the seat that confirmed the pass screen
  let replaying = false; // stepping through a finished game (the replay panel owns the board)
  let asks = 0; // preview requests: id -> resolve
  let textOn = true; // the server sends the engine's text rendering until this page says it shows none
  let textWanted = false; // a dedicated board's text view is open (or a board fell back to the generic one)
  let board = null; // the game's board, once its module is loaded (the page draws nothing before)
  let boardAsked = false;
  const pending = new Map();
  let joinSeats = ""; // the open seats the join panel was drawn for
  // What this page shows beside the state: the last message (a refused move and why, until the next
  // change), whether the history shows the notation, the hint on the board, and moves still to send.
  const ui = {
    notice: null, // {text, error, version}
    notation: false,
    hint: null, // {seat, version, moves}: the suggested moves, the first drawn on the board
    hintAsk: 0, // the hint request in flight
    queued: null, // {seat, moves}: the moves that follow one sent (a touch-move pick, then its placement)
  };

  const el = {
    title: h("h1", { class: "sr-only", id: "room-title" }),
    guide: h("section", { class: "card guide", id: "guide", role: "status", hidden: !guide }),
    seats: h("div", { class: "seats", id: "seats" }),
    alert: h("div", { id: "alert" }),
    join: h("section", { class: "card", id: "join", hidden: true }),
    joinName: h("input", {
      id: "join-name",
      placeholder: t("room.yourName"),
      maxlength: 24,
      "aria-label": t("room.yourName"),
    }),
    main: h("section", { class: "card", id: "main" }),
    side: h("div", {}),
    history: h("ol", { class: "history", id: "history" }),
    over: h("section", { class: "card", id: "over", hidden: true }),
    share: h("section", { class: "card", id: "share" }),
    pass: h("div", { class: "pass", id: "pass", hidden: true }),
    status: h("p", { class: "status", id: "status" }, t("room.connecting")),
    notice: h("p", { class: "notice", id: "notice", role: "alert", hidden: true }),
    hint: h("div", { class: "row hint", id: "hint-bar", hidden: true }), // a hint, where no other person plays
    boardBox: h("div", { id: "board" }),
    rules: h("a", { class: "button secondary", id: "rules-link", "data-nav": true, href: "/rules" }, t("room.howto")),
  };
  el.notationToggle = h(
    "button",
    {
      type: "button",
      class: "secondary small",
      id: "history-notation",
      "aria-pressed": "false",
      onclick: () => {
        ui.notation = !ui.notation;
        renderHistory();
      },
    },
    t("room.showNotation"),
  );
  el.main.append(el.status, el.notice, el.hint, el.boardBox);
  el.side.append(
    el.over,
    h("p", {}, el.rules),
    h(
      "section",
      { class: "card" },
      h("div", { class: "row spread" }, h("h2", {}, t("room.history")), el.notationToggle),
      el.history,
    ),
    el.share,
  );
  root.append(
    el.title,
    el.guide,
    el.seats,
    el.alert,
    el.join,
    h("div", { class: "roomgrid" }, h("div", {}, el.main), el.side),
    el.pass,
  );
  if (local || guide)
    el.share.hidden = true; // a game on this device, or a guided game: nobody to invite
  else put(el.share, shareCard(code));

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    ws = local ? new LocalSocket(local) : new WebSocket(`${proto}://${location.host}/ws/${code}`);
    ws.onopen = () => {
      retry = 500;
      ws.send(JSON.stringify({ type: "hello", tokens: Object.values(tokensFor(code)), text: textOn }));
    };
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (m.type === "welcome") {
        held = m.seats;
      } else if (m.type === "state") {
        skew = Date.now() / 1000 - m.now; // the server's clock is the truth; this is how far ours is off
        msg = m;
        show();
      } else if (m.type === "hint") {
        takeHint(m);
      } else if (m.type === "preview") {
        const done = pending.get(m.ask);
        if (done) {
          pending.delete(m.ask);
          done(m.ok ? m : { ...m, message: refusal(m) });
        }
      } else if (m.type === "error") {
        if (m.code === "missing") {
          closed = true;
          showMissing();
          return;
        }
        notify(tError(m), m.code !== "stale");
      }
    };
    ws.onclose = () => {
      if (closed) return;
      el.status.textContent = t("room.lost");
      setTimeout(() => {
        if (!closed) connect();
      }, retry);
      retry = Math.min(retry * 2, 5000);
    };
  }

  function send(obj) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      notify(t("room.notConnected"), true);
      return false;
    }
    ws.send(JSON.stringify(obj));
    return true;
  }

  // A message for the player in the page's flow, under the status line (it never covers a control); it
  // stays until the game changes.
  function notify(text, error = false) {
    ui.notice = text ? { text, error, version: msg ? msg.version : -1 } : null;
    showNotice();
  }

  function showNotice() {
    const n = ui.notice;
    el.notice.hidden = !n;
    el.notice.textContent = n ? n.text : "";
    el.notice.className = `notice${n && n.error ? " error" : ""}`;
  }

  // Moves to send for a seat: the first now, the others one by one as each state arrives (a touch-move
  // pick, then the placement it commits to), each only while it is still legal.
  function playMoves(seat, moves) {
    if (!moves.length) return false;
    ui.queued = moves.length > 1 ? { seat, moves: moves.slice(1), after: msg.version } : null;
    return send({ type: "act", seat, version: msg.version, action: moves[0] });
  }

  function sendQueued() {
    const q = ui.queued;
    if (!q || msg.version <= q.after) return;
    ui.queued = null;
    const part = msg.mine[String(q.seat)];
    if (part && part.to_act && (part.legal || []).includes(q.moves[0])) playMoves(q.seat, q.moves);
  }

  function askHint(seat) {
    const ask = ++ui.hintAsk;
    send({ type: "hint", seat, ask });
  }

  function takeHint(m) {
    if (m.ask !== ui.hintAsk || !msg || m.version !== msg.version || !m.moves || !m.moves.length) {
      if (m.ask === ui.hintAsk && m.moves && !m.moves.length) notify(t("learn.noHint"));
      return;
    }
    ui.hint = { seat: m.seat, version: m.version, moves: m.moves };
    render();
  }

  function currentHint(seat) {
    const hint = ui.hint;
    return hint && hint.seat === seat && hint.version === msg.version ? hint.moves : null;
  }

  function showMissing() {
    root.replaceChildren(
      h(
        "section",
        { class: "card" },
        h("h1", {}, t("room.missing", { code })),
        h("p", {}, t("room.missingHelp")),
        h("a", { class: "button", href: "/", "data-nav": true }, t("room.home")),
      ),
    );
  }

  // An AI as a player is called in its own words ("Greedy AI", "Gretige AI"): ai.<name>.named.
  const aiName = (ai) => tOr(`ai.${ai}.named`, t("room.aiName", { ai: tOr(`ai.${ai}`, ai) }));

  // A name nobody typed ("Player 2", "Greedy AI") is the server's default: shown in this language.
  function seatName(p) {
    const s = msg.room.seats[p];
    if (!s || s.default_name) {
      return s && s.kind === "ai" ? aiName(s.ai) : t("room.player", { n: p + 1 });
    }
    return s.name;
  }

  // Which of our seats is on screen: the one that must act (first of ours), else the last one shown.
  function targetSeat() {
    const acting = msg.acting.filter((p) => held.includes(p));
    if (acting.length) return acting.includes(shown) ? shown : acting[0];
    if (shown !== null && held.includes(shown)) return shown;
    return held.length ? held[0] : null;
  }

  // Seconds a seat has left: the server's figure at clock.since, less the time since if its clock runs.
  function seatClock(p) {
    const c = msg.clock;
    const running = c.running.includes(p) && !msg.over;
    const left = Math.max(0, c.remaining[p] - (running ? Date.now() / 1000 - skew - c.since : 0));
    return clockText(left, t);
  }

  setInterval(() => {
    if (!msg || !msg.clock) return;
    for (const span of el.seats.querySelectorAll(".clock")) span.textContent = seatClock(Number(span.dataset.seat));
  }, 1000);

  // The engine's text is sent only while shown: by the generic board, or a dedicated board's open text view.
  function syncText() {
    const want = textWanted || !board.dedicated;
    if (want === textOn || !ws || ws.readyState !== WebSocket.OPEN) return;
    textOn = want;
    ws.send(JSON.stringify({ type: "text", on: want }));
  }

  // Draw the latest state. The first state loads the board module: states arriving meanwhile only replace
  // msg, and the page is drawn once, with the latest, when the module is there.
  function show() {
    if (board) {
      render();
      return;
    }
    if (boardAsked) return;
    boardAsked = true;
    loadBoard(msg.room.game).then((b) => {
      board = b;
      if (!closed) render();
    });
  }

  function render() {
    const room = msg.room;
    root.polytableState = msg; // the state on screen, for tests and debugging
    syncText();
    root.dataset.version = String(msg.version);
    const place = local ? t("offline.onDevice") : room.code;
    const companion = room.mode === "companion" ? t("room.companion") : "";
    where.textContent = `${gameName(room.game, room.name)} · ${place}${companion}`;
    el.title.textContent = where.textContent;
    if (!local) saveRoom(code, { game: room.game, name: room.name });
    el.rules.setAttribute("href", `/rules/${room.game}`);
    el.seats.hidden = room.mode === "companion";
    el.seats.replaceChildren(
      ...room.seats.map((s) =>
        h(
          "span",
          {
            class: `seat${msg.acting.includes(s.seat) ? " acting" : ""}${held.includes(s.seat) ? " me" : ""}`,
            title: t({ here: "home.here", invite: "home.invited", ai: "home.ai" }[s.kind] || "home.here"),
          },
          h("span", { class: `dot${s.connected ? " on" : ""}` }),
          `${s.seat + 1}. ${seatName(s.seat)}`,
          s.kind === "ai" && !s.default_name ? t("room.ai", { ai: aiName(s.ai) }) : s.open ? t("room.open") : "",
          msg.clock
            ? h("span", { class: "clock", "data-seat": s.seat, title: t("room.clock") }, seatClock(s.seat))
            : "",
        ),
      ),
    );
    el.alert.replaceChildren(
      msg.error
        ? h(
            "p",
            { class: "card", role: "alert" },
            tError({ reason: msg.error_reason, params: msg.error_params, message: msg.error }),
          )
        : "",
    );
    renderJoin();
    renderHistory();
    if (ui.notice && ui.notice.version !== msg.version) ui.notice = null; // the game moved on
    showNotice();
    if (room.mode === "companion") {
      el.pass.hidden = true;
      el.status.textContent = "";
      renderCompanion(
        el.boardBox,
        { ...msg.companion, code: room.code, names: room.seats.map((s) => seatName(s.seat)) },
        (undo, card) => send({ type: undo ? "undeal" : "deal", version: msg.version, card }),
      );
      return;
    }
    sendQueued();
    const target = targetSeat();
    const people = held.filter((p) => room.seats[p].kind !== "ai");
    if (target !== null && people.length > 1 && target !== confirmed && !msg.over) {
      renderPass(target, people);
      return;
    }
    el.pass.hidden = true;
    shown = target;
    renderStatus(target);
    renderOver();
    const part = replaying ? null : target === null ? msg.spectator : msg.mine[String(target)];
    if (replaying) return; // the replay panel owns the board while stepping
    renderGuide(target, part);
    board.render(el.boardBox, boardContext(target, part));
  }

  // Hot-seat: hide everything of the previous player until the next one says they hold the phone. Until
  // then the previous player may still take their move back (their undo, as on their own board).
  function renderPass(target, people) {
    shown = target;
    el.boardBox.replaceChildren();
    el.hint.hidden = true;
    el.status.textContent = "";
    const back = people.find((p) => p !== target && (msg.mine[String(p)] || {}).can_undo);
    put(
      el.pass,
      h("h2", {}, t("room.passTo", { name: seatName(target) })),
      h("p", {}, t("room.passHidden")),
      h(
        "button",
        {
          id: "pass-ok",
          onclick: () => {
            confirmed = target;
            el.pass.hidden = true;
            render();
          },
        },
        t("room.iAm", { name: seatName(target) }),
      ),
      back === undefined
        ? null
        : h(
            "button",
            {
              id: "pass-undo",
              class: "secondary",
              onclick: () => {
                shown = confirmed = back; // the one who undoes holds the device: their board comes back
                send({ type: "undo", seat: back, version: msg.version });
              },
            },
            t("room.undoOf", { name: seatName(back) }),
          ),
    );
    el.pass.hidden = false;
  }

  // What a board is given: the state, its seat, and the ways to act, undo, preview and hint.
  function boardContext(target, part) {
    const why = part && !part.can_undo && part.undo_why && !msg.over ? undoStands(part.undo_why, seatName) : "";
    return {
      msg,
      part,
      seat: target,
      seatName,
      hint: currentHint(target),
      undoWhy: why,
      play: (text) => {
        ui.hint = null;
        return send({ type: "act", seat: target, version: msg.version, action: text });
      },
      // Several moves in a row (a hint's pick and placement): each sent once the one before is played.
      playAll: (moves) => {
        ui.hint = null;
        return playMoves(target, moves);
      },
      undo: () => send({ type: "undo", seat: target, version: msg.version }),
      wantText: (on) => {
        textWanted = on;
        syncText();
      },
      // What a move would do (scores before/after, the seat's view after it), asked of the server.
      preview: (text) =>
        new Promise((resolve) => {
          const ask = ++asks;
          pending.set(ask, resolve);
          if (!send({ type: "preview", seat: target, action: text, ask })) {
            pending.delete(ask);
            resolve(null);
          }
          setTimeout(() => {
            if (pending.delete(ask)) resolve(null);
          }, 5000);
        }),
      announce,
    };
  }

  // The guided first game's panel (guide.js); elsewhere, where every person's seat is held here (against
  // AIs, hot-seat), "Show me a good move" over the board. The hint itself is drawn on the board.
  const coach = newCoach(guide);
  function renderGuide(target, part) {
    const hinted = !!currentHint(target);
    const ask = () => askHint(target);
    if (guide) put(el.guide, guideChildren(coach, { msg, target, part, seatName, hinted, askHint: ask }));
    const alone = target !== null && msg.room.seats.every((s) => s.kind === "ai" || held.includes(s.seat));
    el.hint.hidden = !!guide || !alone || !part || !part.to_act || msg.over;
    if (el.hint.hidden) el.hint.replaceChildren();
    else put(el.hint, hintChildren(msg, part, hinted, ask));
  }

  // Screen readers hear each move as it happens (a polite live region).
  function announce(text) {
    const live = document.getElementById("announce");
    if (live && text) {
      live.textContent = "";
      setTimeout(() => {
        live.textContent = text;
      }, 30);
    }
  }

  function renderStatus(target) {
    const s = el.status;
    s.className = "status";
    if (msg.over) {
      s.textContent = t("room.over");
      return;
    }
    if (target === null) {
      const who = msg.acting.map(seatName).join(", ");
      s.textContent = who ? t("room.watching", { who }) : t("room.watchingOnly");
      return;
    }
    const part = msg.mine[String(target)];
    if (part && part.to_act) {
      s.textContent = t("room.yourMove", { name: seatName(target) });
      s.classList.add("turn");
    } else if (msg.acting.length)
      s.textContent = t("room.waitingFor", { name: seatName(target), who: msg.acting.map(seatName).join(", ") });
    else s.textContent = t("room.waiting");
  }

  function renderJoin() {
    const open = msg.room.seats.filter((s) => s.open);
    if (!open.length || held.length || msg.room.mode !== "play") {
      el.join.hidden = true;
      joinSeats = "";
      return;
    }
    // Drawn again only when the open seats change: a state arriving while someone types (another phone
    // connecting, a move) keeps the name typed so far and the field's focus.
    const seats = open.map((s) => s.seat).join(",");
    if (seats === joinSeats && !el.join.hidden) return;
    joinSeats = seats;
    const name = el.joinName;
    el.join.replaceChildren(
      h("h2", {}, t("room.takeSeat")),
      name,
      h(
        "div",
        { class: "row", style: "margin-top:8px" },
        open.map((s) =>
          h(
            "button",
            {
              class: "take",
              dataset: { seat: s.seat },
              onclick: async () => {
                try {
                  const r = await api(`/api/rooms/${code}/join`, { seat: s.seat, name: name.value.trim() });
                  saveRoom(code, { tokens: { [r.seat]: r.token } });
                  ws.close(); // reconnect with the new token
                } catch (err) {
                  notify(err.message, true);
                }
              },
            },
            t("room.seat", { n: s.seat + 1 }),
          ),
        ),
      ),
      h("p", { class: "help" }, t("room.orWatch")),
    );
    el.join.hidden = false;
  }

  // The history in words, the notation on demand (story.js).
  function renderHistory() {
    el.history.replaceChildren(...historyItems(msg, ui.notation, seatName));
    el.history.scrollTop = el.history.scrollHeight;
    el.notationToggle.hidden = msg.room.mode === "companion";
    el.notationToggle.setAttribute("aria-pressed", ui.notation ? "true" : "false");
    el.notationToggle.textContent = t(ui.notation ? "room.hideNotation" : "room.showNotation");
  }

  // The end: who won (or shared the win), each seat's score, and why, in the game's own words.
  function renderOver() {
    if (!msg.over) {
      el.over.hidden = true;
      return;
    }
    const people = held.filter((p) => msg.room.seats[p].kind !== "ai");
    const me = people.length === 1 ? people[0] : null; // "You win" for the one person at this device
    const stepBtn = h(
      "button",
      { id: "replay-start", class: "secondary", onclick: () => startReplay() },
      t("room.step"),
    );
    // A rematch keeps the seats: this device's tokens of this room hold the same seats in the new one.
    const rematch =
      held.length && msg.room.mode === "play"
        ? h(
            "button",
            {
              id: "rematch",
              onclick: async () => {
                try {
                  const r = await api(`/api/rooms/${code}/rematch`, { tokens: Object.values(tokensFor(code)) });
                  saveRoom(r.code, { tokens: tokensFor(code), game: msg.room.game, name: msg.room.name });
                  location.assign(`/r/${r.code}`);
                } catch (err) {
                  notify(err.message, true);
                }
              },
            },
            msg.room.rematch ? t("room.rematchOpen") : t("room.rematch"),
          )
        : "";
    put(
      el.over,
      h("h2", {}, t("room.result")),
      resultParts(msg, me, seatName),
      h("div", { class: "row" }, local ? null : rematch, stepBtn, recordLink(code, local)),
    );
    el.over.hidden = false;
  }

  function startReplay() {
    replaying = true;
    showReplay(el.boardBox, {
      state: () => msg,
      board,
      step: (n) => (local ? offline("step", n) : api(`/api/rooms/${code}/step/${n}`)),
      seat: targetSeat(),
      seatName,
      done: () => {
        replaying = false;
        el.boardBox.replaceChildren();
        render();
      },
    });
  }

  connect();
  return () => {
    closed = true;
    if (ws) ws.close();
  };
}
