// Translations: every string of the client comes from static/i18n/<lang>.json; server errors name a
// reason (error.<reason>), engine errors a code (reason engine.<code>: error.engine.<code>), game specs have
// keys (game.<id>.name ...). The language follows the browser (Dutch when it prefers nl, else English) and
// can be switched; the choice is kept in localStorage. A missing key falls back to English, then to the
// key itself; a missing engine key falls back to the engine's English message (see lib/i18n.js).
import { pickLang, translator } from "./lib/i18n.js";

const KEY = "polytable.lang";
export const LANGS = { en: "English", nl: "Nederlands" };

function saved() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null; // private mode
  }
}

const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
export const lang = pickLang(saved(), prefs, LANGS);
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

export const { t, tOr, gameName, tError, tSaid } = translator(dict, english);

export function setLang(l) {
  if (!LANGS[l]) return;
  try {
    localStorage.setItem(KEY, l);
  } catch {
    /* ignore */
  }
  location.reload();
}
