// Translations: every string of the client comes from static/i18n/<lang>.json; server errors name a
// reason (error.<reason>), game specs have keys (game.<id>.name ...), engine messages are matched by
// pattern (engine.<lang>.json). The language follows the browser (Dutch when it prefers nl, else English) and can be switched; the choice is kept in
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
// The rules' own messages (English f-strings raised by the engine), as English template -> translation;
// English needs none (see src/polytable/web/_i18n.py for where the templates come from).
const engine = lang === "en" ? {} : await load(`engine.${lang}`);
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
  return dict[key] ?? english[key] ? t(key, params) : fallback;
}

/** A game's name in this language (game.<id>.name), the server's spec name for a game not translated yet. */
export function gameName(id, fallback) {
  return tOr(`game.${id}.name`, fallback || id);
}

// Engine messages: each English template becomes an anchored pattern ({x} matches any text); a message is
// matched against them, most specific first, and the translation is filled with the parts it captured.
// A captured part is itself translated when it is a whole engine message ("{move} is not allowed: {why}")
// and otherwise has its few English words ("Player", "top", "and") replaced from the words table.
let compiled = null;
function patterns() {
  if (compiled) return compiled;
  compiled = Object.entries(engine.patterns || {}).map(([src, out]) => {
    const names = [];
    const re = src.replace(/\{(\w+)\}|[^{]+|\{/g, (m, name) => {
      if (name) { names.push(name); return "([\\s\\S]*?)"; }
      return m.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    });
    return { re: new RegExp(`^${re}$`), names, out, weight: src.replace(/\{\w+\}/g, "").length };
  }).sort((a, b) => b.weight - a.weight);
  return compiled;
}

let wordList = null;
function words(text) {
  if (!wordList) {
    wordList = Object.entries(engine.words || {}).sort((a, b) => b[0].length - a[0].length)
      .map(([en, out]) => [new RegExp(`(^|[^\\w'])${en.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w])`, "g"), out]);
  }
  let out = text;
  for (const [re, to] of wordList) out = out.replace(re, (m, pre) => pre + to);
  return out;
}

function match(message, depth) {
  for (const p of patterns()) {
    let m = p.re.exec(message);
    let upper = false;
    if (!m && /^[A-Z]/.test(message)) {
      m = p.re.exec(message[0].toLowerCase() + message.slice(1));
      upper = m !== null;
    }
    if (!m) continue;
    const params = {};
    p.names.forEach((n, i) => {
      if (params[n] !== undefined) return;
      const part = m[i + 1];
      params[n] = (depth < 2 && part ? match(part, depth + 1) : null) ?? words(part);
    });
    const out = fill(p.out, params);
    return upper ? out[0].toUpperCase() + out.slice(1) : out;
  }
  return null;
}

/** An engine message in the chosen language (unchanged when English or when no pattern fits). */
export function tEngine(message) {
  if (lang === "en" || typeof message !== "string" || !message) return message;
  return match(message, 0) ?? message;
}

/** The text of an error from the server ({reason, params, message} or {reason, params, error}). */
export function tError(err) {
  if (!err) return "";
  const message = err.message ?? err.error ?? "";
  if (!err.reason || err.reason === "engine") return tEngine(message);
  return tOr(`error.${err.reason}`, tEngine(message), err.params || {});
}

export function setLang(l) {
  if (!LANGS[l]) return;
  try { localStorage.setItem(KEY, l); } catch { /* ignore */ }
  location.reload();
}
