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

/** The file's card: {el, draw()}; ``changed()`` redraws the page after a design was loaded. */
export function fileCard(st, { navigate, changed }) {
  const text = h("textarea", { id: "ds-text", rows: 12, spellcheck: "false", "aria-label": t("ds.file") });
  const result = h("p", { id: "ds-result", role: "status", "aria-live": "polite" });
  const savedBox = h("div", { class: "row", id: "ds-saved" });
  const opponents = h(
    "select",
    { id: "ds-opponents", "aria-label": t("ds.opponents") },
    h("option", { value: "ai" }, t("ds.vsAi")),
    h("option", { value: "invite" }, t("ds.vsInvite")),
  );
  const paper = h(
    "select",
    { id: "ds-paper", "aria-label": t("ds.paper") },
    h("option", { value: "a4" }, "A4"),
    h("option", { value: "letter" }, "Letter"),
  );
  const view = {};
  view.draw = () => {
    if (text.value !== st.text) text.value = st.text;
    result.className = st.result ? (st.result.ok ? "ok" : "bad") : "";
    result.textContent = st.result ? st.result.text : "";
  };
  text.addEventListener("input", () => {
    typed(st, text.value);
    view.draw();
  });
  const fail = (e) => toast(e.message, true);

  async function validate() {
    const r = await api("/api/formfinity/validate", { variant_file: st.text });
    st.result = {
      ok: r.ok,
      text: r.ok
        ? t("ds.valid", { name: r.name, w: r.width, h: r.height, a: r.players[0], b: r.players[1] })
        : `✕ ${r.message}`,
    };
    view.draw();
    return r;
  }
  async function play() {
    const r = await validate();
    if (!r.ok) return;
    const n = r.players[0];
    const room = await api("/api/rooms", {
      game: "formfinity",
      players: n,
      options: { variant: "custom", variant_file: st.text },
      seats: playSeats(n, opponents.value),
    });
    saveRoom(room.code, { tokens: room.tokens, game: "formfinity", name: r.name });
    navigate(`/r/${room.code}`);
  }
  async function print() {
    const res = await fetch("/api/formfinity/print", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ variant_file: st.text, paper: paper.value }),
    });
    if (!res.ok) throw new Error(tError(await res.json()));
    const url = URL.createObjectURL(await res.blob());
    const a = h("a", { href: url, download: fileName(st, "pdf") });
    document.body.append(a);
    a.click();
    a.remove();
    st.result = { ok: true, text: t("ds.printed") };
    view.draw();
  }
  function save() {
    const all = savedDesigns();
    all[st.rules.name.trim() || "My variant"] = st.text;
    localStorage.setItem(KEY, JSON.stringify(all));
    drawSaved();
    toast(t("ds.saved"));
  }
  function drawSaved() {
    const all = savedDesigns();
    savedBox.replaceChildren(
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
  }
  // Balance: the report of `polytable analyse` for this design (balance.js), bounded by the server's figures.
  const balance = balancePanel({
    check: async () => (await validate()).ok,
    variantText: () => st.text,
    games: st.limits.balance_games,
  });
  const button = (id, key, onclick, secondary = false) =>
    h("button", { type: "button", id, class: secondary ? "secondary" : null, onclick }, t(key));
  view.el = h(
    "section",
    { class: "card" },
    h("h2", {}, t("ds.file")),
    text,
    h(
      "div",
      { class: "row" },
      button("ds-validate", "ds.validate", () => validate().catch(fail)),
      button("ds-save", "ds.save", save, true),
      h(
        "a",
        {
          class: "button secondary",
          id: "ds-download",
          href: "#",
          onclick: (e) => {
            e.currentTarget.href = `data:text/plain;charset=utf-8,${encodeURIComponent(st.text)}`;
            e.currentTarget.download = fileName(st, "toml");
          },
        },
        t("ds.download"),
      ),
    ),
    result,
    h(
      "div",
      { class: "row" },
      opponents,
      button("ds-play", "ds.play", () => play().catch(fail)),
    ),
    h(
      "div",
      { class: "row" },
      paper,
      button("ds-print", "ds.print", () => print().catch(fail), true),
    ),
    h(
      "div",
      { class: "row" },
      h("label", { for: balance.games.id }, t("ds.balanceGames")),
      balance.games,
      button("ds-balance-run", "ds.balance", () => balance.run().catch(fail), true),
    ),
    balance.bar,
    balance.out,
    h("h2", {}, t("ds.savedTitle")),
    savedBox,
  );
  drawSaved();
  return view;
}
