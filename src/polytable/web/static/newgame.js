// The new-game form of the home page: game, players, mode, seats (here, invited, AI), options and time
// control, for a room on the server or a game on this device (the offline engine). The form's state is
// lib/newgame.js; each part below draws it and writes back what its own fields' events carry.
import { h, api, toast, saveRoom } from "./dom.js";
import { t, tOr, gameName } from "./i18n.js";
import { saveGame } from "./offline/engine.js";
import * as F from "./lib/newgame.js";

// A game's summary and option texts come from the translation files (keys derived from the game id and
// option name, see src/polytable/web/_i18n.py); the server's English is the fallback for a new game.
const optText = (g, opt, what, fallback) => tOr(`option.${g}.${opt.name}.${what}`, fallback);

/** A field bound to the state: ``set(value)`` on its event (``input`` for text typed, else ``change``);
 * ``get()`` is the value drawn. */
function bind(el, get, set, event = "change") {
  const box = el.type === "checkbox";
  el.addEventListener(event, () => set(box ? el.checked : el.value));
  return () => {
    const v = get();
    if (box) el.checked = v;
    else if (el.value !== String(v)) el.value = String(v);
  };
}

// Time control: none, real-time (minutes a player + seconds a move) or turn-based (hours a move), and
// what a timeout does (the seat's AI moves, or the seat forfeits). The server keeps the clocks.
function timeControl(st) {
  const draws = [];
  const field = (name, tag, attrs, ...children) => {
    const el = h(tag, { id: `tc-${name}`, name: `tc-${name}`, ...attrs }, ...children);
    const key = name === "timeout" ? "on_timeout" : name;
    const set = (v) => {
      F.setClock(st, key, v);
      show();
    };
    draws.push(bind(el, () => st.clock[key], set, tag === "input" ? "input" : "change"));
    return el;
  };
  const number = (name, key) =>
    h(
      "div",
      { class: "tc-field", "data-for": name },
      h("label", { for: `tc-${name}` }, t(key)),
      field(name, "input", { type: "number", min: 0, step: "any" }),
    );
  const kind = field(
    "kind",
    "select",
    {},
    F.CLOCK_KINDS.map((k) => h("option", { value: k }, t(`home.tc.${k}`))),
  );
  const minutes = number("minutes", "home.tc.minutes");
  const increment = number("increment", "home.tc.increment");
  const hours = number("hours", "home.tc.hours");
  const onTimeout = field(
    "timeout",
    "select",
    { "aria-label": t("home.tc.onTimeout") },
    h("option", { value: "ai" }, t("home.tc.ai")),
    h("option", { value: "forfeit" }, t("home.tc.forfeit")),
  );
  const rest = h(
    "div",
    {},
    minutes,
    increment,
    hours,
    h("label", { for: "tc-timeout" }, t("home.tc.onTimeout")),
    onTimeout,
  );
  function show() {
    draws.forEach((d) => d());
    rest.hidden = st.clock.kind === "none";
    minutes.hidden = increment.hidden = st.clock.kind !== "realtime";
    hours.hidden = st.clock.kind !== "turn";
  }
  show();
  return h(
    "details",
    {},
    h("summary", { class: "button secondary" }, t("home.tc.title")),
    h("label", { for: "tc-kind" }, t("home.tc.kind")),
    kind,
    rest,
  );
}

/** One option's field, bound to ``st.options``; ``changed()`` after it changed. */
function optionField(st, g, opt, changed) {
  const id = `opt-${opt.name}`;
  const label = optText(g.id, opt, "label", opt.name);
  const help = h("p", { class: "help" }, optText(g.id, opt, "help", opt.help));
  let input;
  if (opt.kind === "bool") input = h("input", { type: "checkbox", id, name: opt.name });
  else if (opt.kind === "choice")
    input = h(
      "select",
      { id, name: opt.name },
      opt.choices.map((c) => h("option", { value: c }, optText(g.id, opt, `choice.${c}`, c))),
    );
  else if (opt.kind === "int" || opt.kind === "float")
    input = h("input", {
      id,
      name: opt.name,
      type: "number",
      inputmode: "numeric",
      min: opt.min,
      max: opt.max,
      step: opt.kind === "int" ? 1 : "any",
    });
  else if (opt.kind === "text") input = h("textarea", { id, name: opt.name, rows: 3, placeholder: t("home.paste") });
  else input = h("input", { id, name: opt.name, maxlength: 200 });
  // typed fields follow each keystroke, so a form sent with Enter sends what is typed
  const typed = input.tagName === "TEXTAREA" || (input.tagName === "INPUT" && opt.kind !== "bool");
  const draw = bind(
    input,
    () => st.options[opt.name],
    (v) => {
      F.setOption(st, opt.name, v);
      changed();
    },
    typed ? "input" : "change",
  );
  draw();
  if (opt.kind === "bool") return h("div", {}, h("label", { class: "inline", for: id }, input, label), help);
  return h("div", {}, h("label", { for: id }, label), input, help);
}

/** A seat's row: here, invited (not offline) or an AI, with a name or the AI chosen. */
function seatRow(st, g, p, offlineOnly) {
  const kind = h(
    "select",
    { name: `kind-${p}`, "aria-label": t("home.seatIs", { n: p + 1 }) },
    h("option", { value: "here" }, t("home.here")),
    offlineOnly ? null : h("option", { value: "invite" }, t("home.invited")),
    h("option", { value: "ai" }, t("home.ai")),
  );
  const ai = h(
    "select",
    { name: `ai-${p}`, "aria-label": t("home.seatAi", { n: p + 1 }) },
    g.ai.map((a) => h("option", { value: a }, tOr(`ai.${a}`, a))),
  );
  const name = h("input", {
    name: `name-${p}`,
    placeholder: t("room.player", { n: p + 1 }),
    maxlength: 24,
    "aria-label": t("home.seatName", { n: p + 1 }),
  });
  const show = () => {
    ai.hidden = st.seats[p].kind !== "ai";
    name.hidden = st.seats[p].kind === "ai";
  };
  const set = (field) => (v) => {
    F.setSeat(st, p, field, v);
    show();
  };
  bind(kind, () => st.seats[p].kind, set("kind"))();
  bind(ai, () => st.seats[p].ai, set("ai"))();
  bind(name, () => st.seats[p].name, set("name"), "input")();
  show();
  return h("div", { class: "seatrow" }, h("span", { class: "who" }, t("room.seat", { n: p + 1 })), kind, name, ai);
}

// The form's choices, played on this device by the offline engine (no server needed, saved in IndexedDB).
async function playHere(st, navigate) {
  const g = F.spec(st);
  const id = `g${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const seed = Math.floor(Math.random() * 2 ** 31);
  const seats = F.chosenSeats(st, true).map((s) => ({ name: s.name || "", ai: s.kind === "ai" ? s.ai : null }));
  await saveGame({
    id,
    game: g.id,
    name: g.name,
    seats,
    start: { game: g.id, players: st.players, options: F.chosenOptions(st), seed, mode: st.mode },
    saved: Date.now(),
  });
  navigate(`/local/${id}`);
}

// A room on the server with the form's choices; its seats' tokens are kept on this device.
async function createRoom(st, navigate) {
  const g = F.spec(st);
  try {
    const r = await api("/api/rooms", F.roomRequest(st));
    saveRoom(r.code, { tokens: r.tokens, game: g.id, name: g.name });
    navigate(`/r/${r.code}`);
  } catch (err) {
    toast(err.message, true);
  }
}

export function createForm(games, { offlineOnly = false, navigate }) {
  if (!games.length) return h("p", { class: "muted" }, t("home.noGames"));
  const st = F.newForm(games);
  const el = formElements(games, offlineOnly);
  const draw = formDrawer(st, el, offlineOnly);
  // Each drop-down changes the state by what its change event carries, then the form is drawn from it.
  const change = (sel, set) =>
    sel.addEventListener("change", (e) => {
      set(st, e.target.value);
      draw();
    });
  change(el.game, F.chooseGame);
  change(el.players, F.setPlayers);
  change(el.mode, F.setMode);
  const startLocal = () => playHere(st, navigate);
  async function submit(e) {
    e.preventDefault();
    if (offlineOnly) {
      startLocal();
      return;
    }
    el.create.disabled = true;
    await createRoom(st, navigate);
    el.create.disabled = false;
  }
  const form = formLayout(st, el, { offlineOnly, submit, startLocal });
  draw();
  return form;
}

// The form's parts that are drawn again from the state: the game, player count and mode drop-downs, the
// game's summary, its option fields, the seat rows, and the create button (none when offline only).
function formElements(games, offlineOnly) {
  return {
    game: h(
      "select",
      { id: "game", "aria-label": t("home.game") },
      games.map((g) => h("option", { value: g.id }, gameName(g.id, g.name))),
    ),
    players: h("select", { id: "players", "aria-label": t("home.players") }),
    mode: h("select", { id: "mode", "aria-label": t("home.mode") }),
    summary: h("p", { class: "help", id: "summary" }),
    options: h("div", { id: "options" }),
    seats: h("div", { id: "seats" }),
    create: offlineOnly ? null : h("button", { type: "submit", id: "create-room" }, t("home.create")),
  };
}

// The form drawn from the state (``draw()``): a new game's fields and seats are built afresh, a new player
// count or mode rebuilds the seats (each keeping its choices), everything else is updated in place.
function formDrawer(st, el, offlineOnly) {
  let drawn = { game: null, seats: null }; // what the option fields and the seat rows were built for
  const draw = () => {
    const g = F.spec(st);
    if (drawn.game !== st.game) {
      el.game.value = st.game;
      el.mode.replaceChildren(
        h("option", { value: "play" }, t("home.inApp")),
        g.companion ? h("option", { value: "companion" }, t("home.companion")) : null,
      );
      el.summary.textContent = tOr(`game.${g.id}.summary`, g.summary || "");
      el.options.replaceChildren(...g.options.map((o) => optionField(st, g, o, draw)));
    }
    const counts = F.playerCounts(st);
    el.players.replaceChildren(...counts.map((n) => h("option", { value: n, selected: n === st.players }, String(n))));
    el.mode.value = st.mode;
    const shape = `${st.game}|${st.players}|${st.mode}`;
    if (drawn.seats !== shape) {
      el.seats.hidden = st.mode === "companion";
      el.seats.replaceChildren(h("h2", {}, t("home.seats")), ...st.seats.map((_, p) => seatRow(st, g, p, offlineOnly)));
    }
    drawn = { game: st.game, seats: shape };
  };
  return draw;
}

// The form's layout: the game, player count and mode, the summary, the seats, the options folded away, the
// time control (rooms only), and the buttons to create the room and to play on this device.
function formLayout(st, el, { offlineOnly, submit, startLocal }) {
  return h(
    "form",
    { onsubmit: submit },
    h("label", { for: "game" }, t("home.game")),
    el.game,
    h(
      "div",
      { class: "grid2 narrow-first" },
      h("div", {}, h("label", { for: "players" }, t("home.players")), el.players),
      h("div", {}, h("label", { for: "mode" }, t("home.mode")), el.mode),
    ),
    el.summary,
    el.seats,
    h("details", {}, h("summary", { class: "button secondary" }, t("home.options")), el.options),
    offlineOnly ? null : timeControl(st),
    h(
      "p",
      { class: "row" },
      el.create,
      h(
        "button",
        { type: "button", class: offlineOnly ? "" : "secondary", id: "create-local", onclick: startLocal },
        t("offline.playHere"),
      ),
    ),
  );
}
