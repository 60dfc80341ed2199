// Translations: every string of the client comes from static/i18n/<lang>.json; server errors name a
// reason (error.<reason>), engine errors a code (reason engine.<code>: error.engine.<code>), game specs have
// keys (game.<id>.name ...). The language follows the browser (Dutch when it prefers nl, else English) and
// can be switched; the choice is kept in localStorage. A missing key falls back to English, then to the
// key itself; a missing engine key falls back to the engine's English message.
const KEY = "polytable.lang";
export const LANGS = { en: "English", nl: "Nederlands" };

function pick() {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved && LANGS[saved]) return saved;
  } catch {
    /* private mode */
  }
  const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const l of prefs) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (LANGS[base]) return base;
  }
  return "en";
}

export const lang = pick();
async function load(l) {
  try {
    const r = await fetch(`/static/i18n/${l}.json`);
    return r.ok ? await r.json() : {};
  } catch {
    return {};
  }
}
const english = await load("en");
const dict = lang === "en" ? english : await load(lang);
document.documentElement.lang = lang;

export function t(key, params = {}) {
  const text = dict[key] ?? english[key] ?? key;
  return fill(text, params);
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
}

/** t(key, params) if the key is translated in this language or in English, else the fallback text. */
export function tOr(key, fallback, params = {}) {
  return (dict[key] ?? english[key]) ? t(key, params) : fallback;
}

/** A game's name in this language (game.<id>.name), the server's spec name for a game not translated yet. */
export function gameName(id, fallback) {
  return tOr(`game.${id}.name`, fallback || id);
}

// An engine error is shown from error.engine.<code> of this language with its params, or else as the
// engine's English message (never an English template with translated parts). A param may itself be a
// coded part ({code, params, message}: a word such as "top", a reason relayed from another error); it is
// shown the same way.
function engineText(code, message, raw) {
  const text = dict[`error.engine.${code}`];
  return text === undefined ? String(message ?? "") : fill(text, params(raw));
}

function params(raw) {
  const out = {};
  for (const [k, v] of Object.entries(raw || {})) {
    out[k] = v && typeof v === "object" && typeof v.code === "string" ? engineText(v.code, v.message, v.params) : v;
  }
  return out;
}

/** The text of an error from the server ({reason, params, message} or {reason, params, error}): an engine
 * error has the reason engine.<code>; one without a code (reason "engine") is shown in English. */
export function tError(err) {
  if (!err) return "";
  const message = err.message ?? err.error ?? "";
  if (!err.reason || err.reason === "engine") return message;
  if (err.reason.startsWith("engine.")) return engineText(err.reason.slice(7), message, err.params);
  return tOr(`error.${err.reason}`, message, params(err.params));
}

export function setLang(l) {
  if (!LANGS[l]) return;
  try {
    localStorage.setItem(KEY, l);
  } catch {
    /* ignore */
  }
  location.reload();
}
