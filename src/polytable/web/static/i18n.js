// Translations: every string of the dedicated boards comes from static/i18n/<lang>.json. The language
// follows the browser (Dutch when it prefers nl, else English) and can be switched; the choice is kept in
// localStorage. A missing key falls back to English, then to the key itself.
const KEY = "polytable.lang";
export const LANGS = { en: "English", nl: "Nederlands" };

function pick() {
  try { const saved = localStorage.getItem(KEY); if (saved && LANGS[saved]) return saved; } catch { /* private mode */ }
  const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const l of prefs) { const base = String(l).slice(0, 2).toLowerCase(); if (LANGS[base]) return base; }
  return "en";
}

export const lang = pick();
async function load(l) {
  try { const r = await fetch(`/static/i18n/${l}.json`); return r.ok ? await r.json() : {}; } catch { return {}; }
}
const english = await load("en");
const dict = lang === "en" ? english : await load(lang);
document.documentElement.lang = lang;

export function t(key, params = {}) {
  const text = dict[key] ?? english[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
}

export function setLang(l) {
  if (!LANGS[l]) return;
  try { localStorage.setItem(KEY, l); } catch { /* ignore */ }
  location.reload();
}
