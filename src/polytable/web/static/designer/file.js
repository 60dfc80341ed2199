// The designer's variant file and what can be done with it: check it on the server, save it on this device,
// download it, play it in a room (against an AI or with invited people), print it and check its balance
// (balance.js). The file shown is the state's (lib/designer.js); its text box writes back what is typed.
import { h, api, toast, saveRoom } from "../dom.js";
import { t, tError } from "../i18n.js";
import { fileName, load, playSeats, typed } from "../lib/designer.js";
import { balancePanel } from "../balance.js";

const KEY = "polytable.designs";

/** The designs saved on this device: {name: variant file}. */
function savedDesigns() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

/** Check the file on the server; the answer becomes the design's last check. */
async function validate(st) {
  const r = await api("/api/formfinity/validate", { variant_file: st.text });
  st.result = {
    ok: r.ok,
    text: r.ok
      ? t("ds.valid", { name: r.name, w: r.width, h: r.height, a: r.players[0], b: r.players[1] })
      : `✕ ${r.message}`,
  };
  return r;
}

/** A room that plays the design (if valid) for its smallest player count, against ``opponents``. */
async function play(st, opponents, navigate) {
  const r = await validate(st);
  if (!r.ok) return r;
  const n = r.players[0];
  const room = await api("/api/rooms", {
    game: "formfinity",
    players: n,
    options: { variant: "custom", variant_file: st.text },
    seats: playSeats(n, opponents),
  });
  saveRoom(room.code, { tokens: room.tokens, game: "formfinity", name: r.name });
  navigate(`/r/${room.code}`);
  return r;
}

/** Download the printable template (PDF) on ``paper``. */
async function print(st, paper) {
  const res = await fetch("/api/formfinity/print", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ variant_file: st.text, paper }),
  });
  if (!res.ok) throw new Error(tError(await res.json()));
  const url = URL.createObjectURL(await res.blob());
  const a = h("a", { href: url, download: fileName(st, "pdf") });
  document.body.append(a);
  a.click();
  a.remove();
  st.result = { ok: true, text: t("ds.printed") };
}

/** The designs saved on this device, each a button that loads it: {el, save(), draw()}. */
function savedList(st, changed) {
  const view = { el: h("div", { class: "row", id: "ds-saved" }) };
  view.draw = () => {
    const all = savedDesigns();
    view.el.replaceChildren(
      ...Object.keys(all).map((k) =>
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            onclick: () => {
              load(st, all[k]);
              changed();
            },
          },
          k,
        ),
      ),
    );
  };
  view.save = () => {
    const all = savedDesigns();
    all[st.rules.name.trim() || "My variant"] = st.text;
    localStorage.setItem(KEY, JSON.stringify(all));
    view.draw();
    toast(t("ds.saved"));
  };
  view.draw();
  return view;
}

// A drop-down of ``options`` ([value, text]) whose choice is kept in ``chosen[field]`` (the first at the start).
function choice(id, key, options, chosen, field) {
  chosen[field] = options[0][0];
  return h(
    "select",
    { id, "aria-label": t(key), onchange: (e) => (chosen[field] = e.target.value) },
    options.map(([value, text]) => h("option", { value }, text)),
  );
}

const button = (id, key, onclick, secondary = false) =>
  h("button", { type: "button", id, class: secondary ? "secondary" : null, onclick }, t(key));

/** The file's card: {el, draw()}; ``changed()`` redraws the page after a design was loaded. */
export function fileCard(st, { navigate, changed }) {
  const view = fileText(st);
  // Each action redraws the file's card when it is done (its answer), or says why it failed.
  const act = (fn) => () =>
    fn()
      .then((r) => {
        view.draw();
        return r;
      })
      .catch((e) => toast(e.message, true));
  const saved = savedList(st, changed);
  const chosen = {}; // the opponents to play against and the paper to print on, as chosen in the card
  view.el = h(
    "section",
    { class: "card" },
    h("h2", {}, t("ds.file")),
    view.text,
    h(
      "div",
      { class: "row" },
      button(
        "ds-validate",
        "ds.validate",
        act(() => validate(st)),
      ),
      button("ds-save", "ds.save", saved.save, true),
      downloadLink(st),
    ),
    view.result,
    playRow(st, act, chosen, navigate),
    printRow(st, act, chosen),
    balanceRows(st, view),
    h("h2", {}, t("ds.savedTitle")),
    saved.el,
  );
  return view;
}

// Play the design against the AI or invited people (``chosen.vs``).
function playRow(st, act, chosen, navigate) {
  return h(
    "div",
    { class: "row" },
    choice(
      "ds-opponents",
      "ds.opponents",
      [
        ["ai", t("ds.vsAi")],
        ["invite", t("ds.vsInvite")],
      ],
      chosen,
      "vs",
    ),
    button(
      "ds-play",
      "ds.play",
      act(() => play(st, chosen.vs, navigate)),
    ),
  );
}

// Print the design on the paper chosen (``chosen.paper``).
function printRow(st, act, chosen) {
  return h(
    "div",
    { class: "row" },
    choice(
      "ds-paper",
      "ds.paper",
      [
        ["a4", "A4"],
        ["letter", "Letter"],
      ],
      chosen,
      "paper",
    ),
    button(
      "ds-print",
      "ds.print",
      act(() => print(st, chosen.paper)),
      true,
    ),
  );
}

// The file's text box (what is typed becomes the design's text) and the line under it with the last check's
// answer: {text, result, draw()}.
function fileText(st) {
  const text = h("textarea", { id: "ds-text", rows: 12, spellcheck: "false", "aria-label": t("ds.file") });
  const result = h("p", { id: "ds-result", role: "status", "aria-live": "polite" });
  const view = { text, result };
  view.draw = () => {
    if (text.value !== st.text) text.value = st.text;
    result.className = st.result ? (st.result.ok ? "ok" : "bad") : "";
    result.textContent = st.result ? st.result.text : "";
  };
  text.addEventListener("input", () => {
    typed(st, text.value);
    view.draw();
  });
  return view;
}

// Download: the design's file, as it is when the link is followed.
function downloadLink(st) {
  const link = h(
    "a",
    {
      class: "button secondary",
      id: "ds-download",
      href: "#",
      onclick: () => {
        link.href = `data:text/plain;charset=utf-8,${encodeURIComponent(st.text)}`;
        link.download = fileName(st, "toml");
      },
    },
    t("ds.download"),
  );
  return link;
}

// Balance: the report of `polytable analyse` for this design (balance.js), bounded by the server's figures;
// its games field and button, its progress bar and its report.
function balanceRows(st, view) {
  const balance = balancePanel({
    check: async () => {
      const ok = (await validate(st)).ok;
      view.draw();
      return ok;
    },
    variantText: () => st.text,
    games: st.limits.balance_games,
  });
  return [
    h(
      "div",
      { class: "row" },
      h("label", { for: balance.games.id }, t("ds.balanceGames")),
      balance.games,
      button("ds-balance-run", "ds.balance", () => balance.run().catch((e) => toast(e.message, true)), true),
    ),
    balance.bar,
    balance.out,
  ];
}
