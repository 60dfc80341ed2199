// The room page: one WebSocket, the seats this browser holds, the board, hot-seat hand-over, replay.
// The server is the authority: this page never decides what is legal; it shows the views and legal
// actions it receives and sends actions in the game's notation with the version they were made on.
import { h, put, api, saveRoom, tokensFor } from "./dom.js";
import { loadBoard } from "./boards/index.js";
import { renderCompanion } from "./companion.js";
import { t, tOr, tError, gameName } from "./i18n.js";
import { call as offline } from "./offline/engine.js";
import { showReplay } from "./replay.js";
import { newCoach, guideChildren, hintChildren } from "./guide.js";
import { refusal, shareCard, undoStands } from "./story.js";
import * as R from "./lib/room.js";
import { roomSocket } from "./room/socket.js";
import { moveTracker } from "./lib/reconnect.js";
import { seatsBar, drawStatus, drawNotice, drawPass, joinPanel, historyPanel, drawOver } from "./room/panels.js";

// ``local``: a game on this device (a saved game from IndexedDB), played by the offline engine through a
// socket that speaks the same protocol as the server's (see static/offline/engine.js).
// ``guide``: a guided first game (a game id): a panel says what to do, offers the greedy player's move
// ("show me", drawn on the board as the player's own choice, played with one tap) and explains the points
// when the learner scores. Messages (a refused move and why) are shown in the page's flow under the status
// line, never over the controls. Returns the function that closes the page.
export function openRoom(root, code, { where, local = null, guide = null }) {
  const room = newPage(root, code, { where, local, guide });
  room.socket = roomSocket(code, local, {
    hello: () => ({ type: "hello", tokens: Object.values(tokensFor(code)), text: room.st.textOn }),
    onMessage: (m) => receive(room, m),
    onLost: () => {
      room.el.status.textContent = t("room.lost");
      room.inFlight.dropped();
    },
  });
  const clocks = setInterval(() => room.st.msg && room.st.msg.clock && room.seats.tick(room.st), 1000);
  room.socket.open();
  return () => {
    room.closed = true;
    clearInterval(clocks);
    room.socket.close();
  };
}

// One open room page: its state (lib/room.js: ``st``, everything the page knows, which the panels draw
// from), its panels and elements, and its own workings (the board module once loaded, the board's own
// state ``keep``, preview requests by id, the guide's coach).
function newPage(root, code, { where, local, guide }) {
  const st = R.newRoomState();
  const room = { root, code, where, local, guide, st, board: null, boardAsked: false, closed: false, keep: {} };
  Object.assign(room, { asks: 0, pending: new Map(), coach: newCoach(guide), socket: null });
  room.inFlight = moveTracker(); // a move whose answer a dropped socket took: the next state settles it
  room.name = (p) => R.seatName(st, p, t, tOr);
  room.aiName = (ai) => R.aiName(ai, t, tOr);
  room.seats = seatsBar();
  room.join = joinPanel(code);
  room.history = historyPanel(st, () => room.history.draw(room.name));
  room.el = layout(root, code, { local, guide, seats: room.seats, join: room.join, history: room.history });
  return room;
}

function receive(room, m) {
  const { st } = room;
  if (m.type === "welcome") st.held = m.seats;
  else if (m.type === "state") {
    R.takeState(st, m, Date.now() / 1000);
    const fate = room.inFlight.state(m);
    show(room);
    if (fate) notify(room, t(fate === "made" ? "room.moveMade" : "room.moveNotMade"), fate !== "made");
  } else if (m.type === "hint") {
    const got = R.takeHint(st, m);
    if (got === "shown") render(room);
    else if (got === "none") notify(room, t("learn.noHint"));
  } else if (m.type === "preview") {
    const done = room.pending.get(m.ask);
    if (done) {
      room.pending.delete(m.ask);
      done(m.ok ? m : { ...m, message: refusal(m) });
    }
  } else if (m.type === "error" && m.code === "missing") {
    room.closed = true;
    room.socket.stop();
    showMissing(room.root, room.code);
  } else if (m.type === "error") {
    room.inFlight.answered();
    notify(room, tError(m), m.code !== "stale");
  }
}

function send(room, obj) {
  if (room.socket.send(obj)) return true;
  notify(room, t("room.notConnected"), true);
  return false;
}

function notify(room, text, error = false) {
  R.setNotice(room.st, text, error);
  drawNotice(room.el.notice, room.st.notice);
}

function playMoves(room, seat, moves) {
  const first = R.playMoves(room.st, seat, moves);
  if (!first || !send(room, first)) return false;
  room.inFlight.sent(seat, first.version, first.action);
  return true;
}

// The engine's text is sent only while shown: by the generic board, or a dedicated board's open text view.
function syncText(room) {
  const want = R.textWish(room.st, room.board.dedicated);
  if (want !== null && room.socket.ready()) room.socket.send({ type: "text", on: want });
}

// Draw the latest state. The first state loads the board module: states arriving meanwhile only replace
// the message, and the page is drawn once, with the latest, when the module is there.
function show(room) {
  if (room.board) render(room);
  else if (!room.boardAsked) {
    room.boardAsked = true;
    loadBoard(room.st.msg.room.game).then((b) => {
      room.board = b;
      if (!room.closed) render(room);
    });
  }
}

function render(room) {
  const { st, el, root, name } = room;
  const { msg } = st;
  root.polytableState = msg; // a copy of the state on screen for tests and debugging (never read here)
  root.dataset.version = String(msg.version);
  syncText(room);
  drawHeader(room, msg.room);
  room.seats.draw(st, name, room.aiName);
  el.alert.replaceChildren(
    msg.error
      ? h(
          "p",
          { class: "card", role: "alert" },
          tError({ reason: msg.error_reason, params: msg.error_params, message: msg.error }),
        )
      : "",
  );
  room.join.draw(st, { joined: () => room.socket.reconnect(), notify: (text, error) => notify(room, text, error) });
  room.history.draw(name);
  drawNotice(el.notice, st.notice);
  if (msg.room.mode === "companion") return renderCompanionBoard(room);
  const queued = R.nextQueued(st);
  if (queued) playMoves(room, queued.seat, queued.moves);
  const target = R.targetSeat(st);
  st.shown = target;
  const pass = R.passTo(st, target);
  if (pass) return renderPass(room, pass);
  el.pass.hidden = true;
  drawStatus(el.status, st, target, name);
  drawOver(el.over, st, overActions(room));
  if (st.replaying) return; // the replay panel owns the board while stepping
  const part = target === null ? msg.spectator : msg.mine[String(target)];
  renderGuide(room, target, part);
  room.board.render(el.boardBox, boardContext(room, target, part));
}

function drawHeader(room, summary) {
  const { el, local } = room;
  const place = local ? t("offline.onDevice") : summary.code;
  const companion = summary.mode === "companion" ? t("room.companion") : "";
  room.where.textContent = `${gameName(summary.game, summary.name)} · ${place}${companion}`;
  el.title.textContent = room.where.textContent;
  if (!local) saveRoom(room.code, { game: summary.game, name: summary.name });
  el.rules.setAttribute("href", `/rules/${summary.game}`);
}

function renderCompanionBoard(room) {
  const { el, st } = room;
  const { msg } = st;
  el.pass.hidden = true;
  el.status.textContent = "";
  renderCompanion(
    el.boardBox,
    { ...msg.companion, code: msg.room.code, names: msg.room.seats.map((s) => room.name(s.seat)) },
    (undo, card) => send(room, { type: undo ? "undeal" : "deal", version: msg.version, card }),
  );
}

function renderPass(room, pass) {
  const { el, st } = room;
  el.boardBox.replaceChildren();
  el.hint.hidden = true;
  el.status.textContent = "";
  drawPass(el.pass, pass, room.name, {
    confirm: () => {
      st.confirmed = pass.target;
      el.pass.hidden = true;
      render(room);
    },
    undo: (back) => {
      st.shown = st.confirmed = back; // the one who undoes holds the device: their board comes back
      send(room, { type: "undo", seat: back, version: st.msg.version });
    },
  });
}

// What the result panel needs: who "you" are (the one person at this device), the replay and a notice.
function overActions(room) {
  const people = R.peopleHere(room.st);
  return {
    code: room.code,
    local: room.local,
    me: people.length === 1 ? people[0] : null,
    name: room.name,
    replay: () => startReplay(room),
    notify: (text, error) => notify(room, text, error),
  };
}

// What a board is given: the state, its seat, and the ways to act, undo, preview and hint.
function boardContext(room, target, part) {
  const { st } = room;
  const { msg } = st;
  const why = part && !part.can_undo && part.undo_why && !msg.over ? undoStands(part.undo_why, room.name) : "";
  return {
    msg,
    part,
    seat: target,
    seatName: room.name,
    hint: R.currentHint(st, target),
    undoWhy: why,
    play: (text) => {
      st.hint = null;
      return playMoves(room, target, [text]);
    },
    // Several moves in a row (a hint's pick and placement): each sent once the one before is played.
    playAll: (moves) => {
      st.hint = null;
      return playMoves(room, target, moves);
    },
    undo: () => send(room, { type: "undo", seat: target, version: msg.version }),
    wantText: (on) => {
      st.textWanted = on;
      syncText(room);
    },
    preview: (text) => askPreview(room, target, text),
    announce,
    keep: room.keep, // the board keeps what it selected and showed last here, never on its elements
  };
}

// What a move would do (scores before/after, the seat's view after it), asked of the server.
function askPreview(room, seat, text) {
  return new Promise((resolve) => {
    const ask = ++room.asks;
    room.pending.set(ask, resolve);
    if (!send(room, { type: "preview", seat, action: text, ask })) {
      room.pending.delete(ask);
      resolve(null);
    }
    setTimeout(() => {
      if (room.pending.delete(ask)) resolve(null);
    }, 5000);
  });
}

// The guided first game's panel (guide.js); elsewhere, where every person's seat is held here (against
// AIs, hot-seat), "Show me a good move" over the board. The hint itself is drawn on the board.
function renderGuide(room, target, part) {
  const { st, el } = room;
  const { msg } = st;
  const hinted = !!R.currentHint(st, target);
  const askHint = () => send(room, R.askHint(st, target));
  if (room.guide) put(el.guide, guideChildren(room.coach, { msg, target, part, seatName: room.name, hinted, askHint }));
  const alone = target !== null && msg.room.seats.every((s) => s.kind === "ai" || st.held.includes(s.seat));
  const hidden = !!room.guide || !alone || !part || !part.to_act || !!msg.over;
  el.hint.hidden = hidden;
  if (hidden) el.hint.replaceChildren();
  else put(el.hint, hintChildren(msg, part, hinted, askHint));
}

function startReplay(room) {
  const { st, el, local, code } = room;
  st.replaying = true;
  showReplay(el.boardBox, {
    state: () => st.msg,
    board: room.board,
    step: (n) => (local ? offline("step", n) : api(`/api/rooms/${code}/step/${n}`)),
    seat: R.targetSeat(st),
    seatName: room.name,
    done: () => {
      st.replaying = false;
      el.boardBox.replaceChildren();
      render(room);
    },
  });
}

// The page's frame: the title, the guide, the seats, the alert, the join panel, the board's card (status,
// notice, board), the side (result, rules, history, invitation) and the hot-seat pass screen.
function layout(root, code, { local, guide, seats, join, history }) {
  const el = {
    title: h("h1", { class: "sr-only", id: "room-title" }),
    guide: h("section", { class: "card guide", id: "guide", role: "status", hidden: !guide }),
    alert: h("div", { id: "alert" }),
    main: h("section", { class: "card", id: "main" }),
    over: h("section", { class: "card", id: "over", hidden: true }),
    share: h("section", { class: "card", id: "share" }),
    pass: h("div", { class: "pass", id: "pass", hidden: true }),
    status: h("p", { class: "status", id: "status" }, t("room.connecting")),
    notice: h("p", { class: "notice", id: "notice", role: "alert", hidden: true }),
    hint: h("div", { class: "row hint", id: "hint-bar", hidden: true }), // a hint, where no other person plays
    boardBox: h("div", { id: "board" }),
    rules: h("a", { class: "button secondary", id: "rules-link", "data-nav": true, href: "/rules" }, t("room.howto")),
  };
  el.main.append(el.status, el.notice, el.hint, el.boardBox);
  const side = h(
    "div",
    {},
    el.over,
    h("p", {}, el.rules),
    h(
      "section",
      { class: "card" },
      h("div", { class: "row spread" }, h("h2", {}, t("room.history")), history.toggle),
      history.list,
    ),
    el.share,
  );
  root.append(
    el.title,
    el.guide,
    seats.box,
    el.alert,
    join.box,
    h("div", { class: "roomgrid" }, h("div", {}, el.main), side),
    el.pass,
  );
  if (local || guide)
    el.share.hidden = true; // a game on this device, or a guided game: nobody to invite
  else put(el.share, shareCard(code));
  return el;
}

function showMissing(root, code) {
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
