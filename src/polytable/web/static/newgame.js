// The new-game form of the home page: game, players, mode, seats (here, invited, AI), options and time
// control, for a room on the server or a game on this device (the offline engine).
import { h, api, toast, saveRoom } from "./dom.js";
import { t, tOr, gameName } from "./i18n.js";
import { saveGame } from "./offline/engine.js";

// A game's summary and option texts come from the translation files (keys derived from the game id and
// option name, see src/polytable/web/_i18n.py); the server's English is the fallback for a new game.
const optText = (g, opt, what, fallback) => tOr(`option.${g}.${opt.name}.${what}`, fallback);

// Time control: none, real-time (minutes a player + seconds a move) or turn-based (hours a move), and
// what a timeout does (the seat's AI moves, or the seat forfeits). The server keeps the clocks.
function timeControl() {
  const kind = h(
    "select",
    { id: "tc-kind", name: "tc-kind" },
    ["none", "realtime", "turn"].map((k) => h("option", { value: k }, t(`home.tc.${k}`))),
  );
  const field = (id, label, value, step) =>
    h(
      "div",
      { class: "tc-field", "data-for": id.split("-")[1] },
      h("label", { for: id }, label),
      h("input", { id, name: id, type: "number", min: 0, step, value }),
    );
  const minutes = field("tc-minutes", t("home.tc.minutes"), 10, "any");
  const increment = field("tc-increment", t("home.tc.increment"), 5, "any");
  const hours = field("tc-hours", t("home.tc.hours"), 24, "any");
  const onTimeout = h(
    "select",
    { id: "tc-timeout", name: "tc-timeout", "aria-label": t("home.tc.onTimeout") },
    h("option", { value: "ai" }, t("home.tc.ai")),
    h("option", { value: "forfeit" }, t("home.tc.forfeit")),
  );
  const rest = h(
    "div",
    { hidden: true },
    minutes,
    increment,
    hours,
    h("label", { for: "tc-timeout" }, t("home.tc.onTimeout")),
    onTimeout,
  );
  const show = () => {
    rest.hidden = kind.value === "none";
    minutes.hidden = increment.hidden = kind.value !== "realtime";
    hours.hidden = kind.value !== "turn";
  };
  kind.addEventListener("change", show);
  return h(
    "details",
    {},
    h("summary", { class: "button secondary" }, t("home.tc.title")),
    h("label", { for: "tc-kind" }, t("home.tc.kind")),
    kind,
    rest,
  );
}

function readTimeControl(form) {
  const kind = form.querySelector("#tc-kind").value;
  if (kind === "none") return null;
  const num = (id) => Number(form.querySelector(id).value);
  const onTimeout = form.querySelector("#tc-timeout").value;
  return kind === "realtime"
    ? { kind, minutes: num("#tc-minutes"), increment: num("#tc-increment"), on_timeout: onTimeout }
    : { kind, hours: num("#tc-hours"), on_timeout: onTimeout };
}

function optionInput(g, opt) {
  const id = `opt-${opt.name}`;
  const label = optText(g, opt, "label", opt.name);
  const help = optText(g, opt, "help", opt.help);
  let input;
  if (opt.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: opt.name, checked: !!opt.default });
    return h("div", {}, h("label", { class: "inline", for: id }, input, label), h("p", { class: "help" }, help));
  }
  if (opt.kind === "choice") {
    input = h(
      "select",
      { id, name: opt.name },
      opt.choices.map((c) => h("option", { value: c, selected: c === opt.default }, optText(g, opt, `choice.${c}`, c))),
    );
  } else if (opt.kind === "int" || opt.kind === "float") {
    input = h("input", {
      id,
      name: opt.name,
      type: "number",
      inputmode: "numeric",
      value: opt.default ?? "",
      min: opt.min,
      max: opt.max,
      step: opt.kind === "int" ? 1 : "any",
    });
  } else if (opt.kind === "text") {
    input = h("textarea", { id, name: opt.name, rows: 3, placeholder: t("home.paste") });
  } else {
    input = h("input", { id, name: opt.name, value: opt.default ?? "", maxlength: 200 });
  }
  input.dataset.kind = opt.kind;
  return h("div", {}, h("label", { for: id }, label), input, h("p", { class: "help" }, help));
}

export function createForm(games, { offlineOnly = false, navigate }) {
  if (!games.length) return h("p", { class: "muted" }, t("home.noGames"));
  const gameSel = h(
    "select",
    { id: "game", "aria-label": t("home.game") },
    games.map((g) => h("option", { value: g.id }, gameName(g.id, g.name))),
  );
  const playersSel = h("select", { id: "players", "aria-label": t("home.players") });
  const modeSel = h("select", { id: "mode", "aria-label": t("home.mode") });
  const options = h("div", { id: "options" });
  const seats = h("div", { id: "seats" });
  const form = h(
    "form",
    { onsubmit: submit },
    h("label", { for: "game" }, t("home.game")),
    gameSel,
    h(
      "div",
      { class: "grid2 narrow-first" },
      h("div", {}, h("label", { for: "players" }, t("home.players")), playersSel),
      h("div", {}, h("label", { for: "mode" }, t("home.mode")), modeSel),
    ),
    h("p", { class: "help", id: "summary" }),
    seats,
    h("details", {}, h("summary", { class: "button secondary" }, t("home.options")), options),
    offlineOnly ? null : timeControl(),
    h(
      "p",
      { class: "row" },
      offlineOnly ? null : h("button", { type: "submit", id: "create-room" }, t("home.create")),
      h(
        "button",
        { type: "button", class: offlineOnly ? "" : "secondary", id: "create-local", onclick: startLocal },
        t("offline.playHere"),
      ),
    ),
  );

  const spec = () => games.find((g) => g.id === gameSel.value);
  // The player counts the chosen options allow (the server lists the option values that narrow them,
  // e.g. FORMFINITY's variants 3 and 4 are for two players).
  function fillPlayers() {
    const g = spec();
    const before = Number(playersSel.value) || g.players.default;
    let counts = Array.from({ length: g.players.max - g.players.min + 1 }, (_, i) => g.players.min + i);
    for (const [name, byValue] of Object.entries(g.player_counts || {})) {
      const el = options.querySelector(`[name="${name}"]`);
      const allowed = el && byValue[el.value];
      if (allowed) counts = counts.filter((n) => allowed.includes(n));
    }
    const pick = counts.includes(before) ? before : counts.includes(g.players.default) ? g.players.default : counts[0];
    playersSel.replaceChildren(...counts.map((n) => h("option", { value: n, selected: n === pick }, String(n))));
  }
  function fillGame() {
    const g = spec();
    modeSel.replaceChildren(
      h("option", { value: "play" }, t("home.inApp")),
      g.companion ? h("option", { value: "companion" }, t("home.companion")) : null,
    );
    form.querySelector("#summary").textContent = tOr(`game.${g.id}.summary`, g.summary || "");
    options.replaceChildren(...g.options.map((o) => optionInput(g.id, o)));
    playersSel.value = "";
    fillPlayers();
    seats.replaceChildren(); // a new game: its seats start afresh
    fillSeats();
  }
  function fillSeats() {
    const g = spec();
    const n = Number(playersSel.value);
    const companion = modeSel.value === "companion";
    // What was chosen for each seat so far stays chosen when the rows are drawn again.
    const kept = Array.from({ length: n }, (_, p) =>
      ["kind", "ai", "name"].map((f) => {
        const el = seats.querySelector(`[name=${f}-${p}]`);
        return el ? el.value : null;
      }),
    );
    seats.hidden = companion;
    seats.replaceChildren(
      h("h2", {}, t("home.seats")),
      ...Array.from({ length: n }, (_, p) => {
        const kind = h(
          "select",
          { name: `kind-${p}`, "aria-label": t("home.seatIs", { n: p + 1 }) },
          h("option", { value: "here" }, t("home.here")),
          offlineOnly ? null : h("option", { value: "invite" }, t("home.invited")),
          h("option", { value: "ai" }, t("home.ai")),
        );
        const ai = h(
          "select",
          { name: `ai-${p}`, "aria-label": t("home.seatAi", { n: p + 1 }), hidden: true },
          g.ai.map((a) => h("option", { value: a, selected: a === "greedy" }, tOr(`ai.${a}`, a))),
        );
        const name = h("input", {
          name: `name-${p}`,
          placeholder: t("room.player", { n: p + 1 }),
          maxlength: 24,
          "aria-label": t("home.seatName", { n: p + 1 }),
        });
        const show = () => {
          ai.hidden = kind.value !== "ai";
          name.hidden = kind.value === "ai";
        };
        const [k0, a0, n0] = kept[p];
        if (k0 !== null) kind.value = k0;
        if (a0 !== null && g.ai.includes(a0)) ai.value = a0;
        if (n0 !== null) name.value = n0;
        show();
        kind.addEventListener("change", show);
        return h(
          "div",
          { class: "seatrow" },
          h("span", { class: "who" }, t("room.seat", { n: p + 1 })),
          kind,
          name,
          ai,
        );
      }),
    );
  }
  gameSel.addEventListener("change", fillGame);
  playersSel.addEventListener("change", fillSeats);
  options.addEventListener("change", () => {
    const before = playersSel.value;
    fillPlayers();
    if (playersSel.value !== before) fillSeats();
  });
  modeSel.addEventListener("change", fillSeats);
  fillGame();

  // The same choices, played on this device by the offline engine (no server needed, saved in IndexedDB).
  async function startLocal() {
    const { g, n, opts, mode, seatList } = collect(true);
    const id = `g${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const seed = Math.floor(Math.random() * 2 ** 31);
    const seats = seatList.map((s) => ({ name: s.name || "", ai: s.kind === "ai" ? s.ai : null }));
    await saveGame({
      id,
      game: g.id,
      name: g.name,
      seats,
      start: { game: g.id, players: n, options: opts, seed, mode },
      saved: Date.now(),
    });
    navigate(`/local/${id}`);
  }

  function collect(local) {
    const g = spec();
    const n = Number(playersSel.value);
    const opts = {};
    for (const el of options.querySelectorAll("[name]")) {
      const o = g.options.find((x) => x.name === el.name);
      if (o.kind === "bool") {
        if (el.checked !== !!o.default) opts[o.name] = el.checked;
        continue;
      }
      const v = el.value;
      if (v === "" || v === String(o.default ?? "")) continue;
      opts[o.name] = o.kind === "int" ? Number.parseInt(v, 10) : o.kind === "float" ? Number(v) : v;
    }
    const mode = modeSel.value;
    const seatList = Array.from({ length: n }, (_, p) => {
      let kind = mode === "companion" ? "here" : form.querySelector(`[name=kind-${p}]`).value;
      if (local && kind === "invite") kind = "here";
      const seat = { kind };
      if (kind === "ai") seat.ai = form.querySelector(`[name=ai-${p}]`).value;
      else {
        const nm = form.querySelector(`[name=name-${p}]`).value.trim();
        if (nm) seat.name = nm;
      }
      return seat;
    });
    return { g, n, opts, mode, seatList };
  }

  async function submit(e) {
    e.preventDefault();
    if (offlineOnly) {
      startLocal();
      return;
    }
    const { g, n, opts, mode, seatList } = collect(false);
    const btn = form.querySelector("#create-room");
    btn.disabled = true;
    try {
      const request = { game: g.id, players: n, options: opts, seats: seatList, mode };
      const clock = readTimeControl(form);
      if (clock && mode === "play") request.time_control = clock;
      const r = await api("/api/rooms", request);
      saveRoom(r.code, { tokens: r.tokens, game: g.id, name: g.name });
      navigate(`/r/${r.code}`);
    } catch (err) {
      toast(err.message, true);
    } finally {
      btn.disabled = false;
    }
  }
  return form;
}
