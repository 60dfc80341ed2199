// The room page: one WebSocket, the seats this browser holds, the board, hot-seat hand-over, replay.
// The server is the authority: this page never decides what is legal; it shows the views and legal
// actions it receives and sends actions in the game's notation with the version they were made on.
import { h, put, api, saveRoom, tokensFor } from "./dom.js";
import { loadBoard } from "./boards/index.js";
import { renderCompanion } from "./companion.js";
import { t, tOr, tError, gameName } from "./i18n.js";
import { call as offline } from "./offline/engine.js";
import { showReplay } from "./replay.js";
import { newCoach, guideChildren } from "./guide.js";
import { refusal, shareCard, undoStands } from "./story.js";
import * as R from "./lib/room.js";
import { roomSocket } from "./room/socket.js";
import { seatsBar, drawStatus, drawNotice, drawPass, joinPanel, historyPanel, drawOver } from "./room/panels.js";

// ``local``: a game on this device (a saved game from IndexedDB), played by the offline engine through a
// socket that speaks the same protocol as the server's (see static/offline/engine.js).
// ``guide``: a guided first game (a game id): a panel says what to do, offers the greedy player's move
// ("show me", drawn on the board as the player's own choice, played with one tap) and explains the points
// when the learner scores. Messages (a refused move and why) are shown in the page's flow under the status
// line, never over the controls.
export function openRoom(root, code, { where, local = null, guide = null }) {
  const st = R.newRoomState(); // everything the page knows (lib/room.js); the panels draw from it
  // The page's own workings: the board module once loaded, preview requests (id -> resolve), the guide's coach.
  const page = { board: null, boardAsked: false, closed: false, asks: 0, pending: new Map(), coach: newCoach(guide) };
  const name = (p) => R.seatName(st, p, t, tOr);
  const aiName = (ai) => R.aiName(ai, t, tOr);
  const seats = seatsBar();
  const join = joinPanel(code);
  const history = historyPanel(st, () => history.draw(name));
  const el = layout(root, code, { local, guide, seats, join, history });

  const socket = roomSocket(code, local, {
    hello: () => ({ type: "hello", tokens: Object.values(tokensFor(code)), text: st.textOn }),
    onMessage: receive,
    onLost: () => {
      el.status.textContent = t("room.lost");
    },
  });

  function receive(m) {
    if (m.type === "welcome") st.held = m.seats;
    else if (m.type === "state") {
      R.takeState(st, m, Date.now() / 1000);
      show();
    } else if (m.type === "hint") {
      const got = R.takeHint(st, m);
      if (got === "shown") render();
      else if (got === "none") notify(t("learn.noHint"));
    } else if (m.type === "preview") {
      const done = page.pending.get(m.ask);
      if (done) {
        page.pending.delete(m.ask);
        done(m.ok ? m : { ...m, message: refusal(m) });
      }
    } else if (m.type === "error") {
      if (m.code === "missing") {
        page.closed = true;
        socket.stop();
        showMissing(root, code);
        return;
      }
      notify(tError(m), m.code !== "stale");
    }
  }

  function send(obj) {
    if (socket.send(obj)) return true;
    notify(t("room.notConnected"), true);
    return false;
  }

  function notify(text, error = false) {
    R.setNotice(st, text, error);
    drawNotice(el.notice, st.notice);
  }

  function playMoves(seat, moves) {
    const first = R.playMoves(st, seat, moves);
    return first ? send(first) : false;
  }

  setInterval(() => {
    if (st.msg && st.msg.clock) seats.tick(st);
  }, 1000);

  // The engine's text is sent only while shown: by the generic board, or a dedicated board's open text view.
  function syncText() {
    const want = R.textWish(st, page.board.dedicated);
    if (want !== null && socket.ready()) socket.send({ type: "text", on: want });
  }

  // Draw the latest state. The first state loads the board module: states arriving meanwhile only replace
  // the message, and the page is drawn once, with the latest, when the module is there.
  function show() {
    if (page.board) render();
    else if (!page.boardAsked) {
      page.boardAsked = true;
      loadBoard(st.msg.room.game).then((b) => {
        page.board = b;
        if (!page.closed) render();
      });
    }
  }

  function render() {
    const { msg } = st;
    root.polytableState = msg; // a copy of the state on screen for tests and debugging (never read here)
    root.dataset.version = String(msg.version);
    syncText();
    drawHeader(msg.room);
    seats.draw(st, name, aiName);
    el.alert.replaceChildren(
      msg.error
        ? h(
            "p",
            { class: "card", role: "alert" },
            tError({ reason: msg.error_reason, params: msg.error_params, message: msg.error }),
          )
        : "",
    );
    join.draw(st, { joined: () => socket.reconnect(), notify });
    history.draw(name);
    drawNotice(el.notice, st.notice);
    if (msg.room.mode === "companion") return renderCompanionBoard();
    const queued = R.nextQueued(st);
    if (queued) playMoves(queued.seat, queued.moves);
    const target = R.targetSeat(st);
    st.shown = target;
    const pass = R.passTo(st, target);
    if (pass) return renderPass(pass);
    el.pass.hidden = true;
    drawStatus(el.status, st, target, name);
    const people = R.peopleHere(st);
    const over = { code, local, me: people.length === 1 ? people[0] : null, name, replay: startReplay, notify };
    drawOver(el.over, st, over);
    if (st.replaying) return; // the replay panel owns the board while stepping
    const part = target === null ? msg.spectator : msg.mine[String(target)];
    renderGuide(target, part);
    page.board.render(el.boardBox, boardContext(target, part));
  }

  function drawHeader(room) {
    const place = local ? t("offline.onDevice") : room.code;
    const companion = room.mode === "companion" ? t("room.companion") : "";
    where.textContent = `${gameName(room.game, room.name)} · ${place}${companion}`;
    el.title.textContent = where.textContent;
    if (!local) saveRoom(code, { game: room.game, name: room.name });
    el.rules.setAttribute("href", `/rules/${room.game}`);
  }

  function renderCompanionBoard() {
    const { msg } = st;
    el.pass.hidden = true;
    el.status.textContent = "";
    renderCompanion(
      el.boardBox,
      { ...msg.companion, code: msg.room.code, names: msg.room.seats.map((s) => name(s.seat)) },
      (undo, card) => send({ type: undo ? "undeal" : "deal", version: msg.version, card }),
    );
  }

  function renderPass(pass) {
    el.boardBox.replaceChildren();
    el.status.textContent = "";
    drawPass(el.pass, pass, name, {
      confirm: () => {
        st.confirmed = pass.target;
        el.pass.hidden = true;
        render();
      },
      undo: (back) => {
        st.shown = st.confirmed = back; // the one who undoes holds the device: their board comes back
        send({ type: "undo", seat: back, version: st.msg.version });
      },
    });
  }

  // What a board is given: the state, its seat, and the ways to act, undo, preview and hint.
  function boardContext(target, part) {
    const { msg } = st;
    const why = part && !part.can_undo && part.undo_why && !msg.over ? undoStands(part.undo_why, name) : "";
    return {
      msg,
      part,
      seat: target,
      seatName: name,
      hint: R.currentHint(st, target),
      undoWhy: why,
      play: (text) => {
        st.hint = null;
        return send({ type: "act", seat: target, version: msg.version, action: text });
      },
      // Several moves in a row (a hint's pick and placement): each sent once the one before is played.
      playAll: (moves) => {
        st.hint = null;
        return playMoves(target, moves);
      },
      undo: () => send({ type: "undo", seat: target, version: msg.version }),
      wantText: (on) => {
        st.textWanted = on;
        syncText();
      },
      preview: (text) => askPreview(target, text),
      announce,
    };
  }

  // What a move would do (scores before/after, the seat's view after it), asked of the server.
  function askPreview(seat, text) {
    return new Promise((resolve) => {
      const ask = ++page.asks;
      page.pending.set(ask, resolve);
      if (!send({ type: "preview", seat, action: text, ask })) {
        page.pending.delete(ask);
        resolve(null);
      }
      setTimeout(() => {
        if (page.pending.delete(ask)) resolve(null);
      }, 5000);
    });
  }

  // The guided first game's panel (guide.js); the hint itself is drawn on the board.
  function renderGuide(target, part) {
    if (!guide) return;
    const hinted = !!R.currentHint(st, target);
    const askHint = () => send(R.askHint(st, target));
    put(el.guide, guideChildren(page.coach, { msg: st.msg, target, part, seatName: name, hinted, askHint }));
  }

  function startReplay() {
    st.replaying = true;
    showReplay(el.boardBox, {
      state: () => st.msg,
      board: page.board,
      step: (n) => (local ? offline("step", n) : api(`/api/rooms/${code}/step/${n}`)),
      seat: R.targetSeat(st),
      seatName: name,
      done: () => {
        st.replaying = false;
        el.boardBox.replaceChildren();
        render();
      },
    });
  }

  socket.open();
  return () => {
    page.closed = true;
    socket.close();
  };
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
    boardBox: h("div", { id: "board" }),
    rules: h("a", { class: "button secondary", id: "rules-link", "data-nav": true, href: "/rules" }, t("room.howto")),
  };
  el.main.append(el.status, el.notice, el.boardBox);
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
