// The translation logic of i18n.js, with no DOM or network (unit-tested by tests/js): a key is looked up in
// the page's language, then English, then stands for itself; {name} placeholders are filled from params.

/** ``text`` with each {name} replaced by params[name] (a placeholder without a value stays as it is). */
export function fill(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
}

/** The language to show: the saved choice if offered, else the first offered of the browser's preferences
 * (by their first two letters), else English. */
export function pickLang(saved, prefs, langs) {
  if (saved && langs[saved]) return saved;
  for (const l of prefs || []) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (langs[base]) return base;
  }
  return "en";
}

/** The translation functions over a language's dictionary and the English one. */
export function translator(dict, english) {
  function t(key, params = {}) {
    return fill(dict[key] ?? english[key] ?? key, params);
  }

  /** t(key, params) if the key has a (non-empty) text in this language or in English, else the fallback. */
  function tOr(key, fallback, params = {}) {
    return (dict[key] ?? english[key]) ? t(key, params) : fallback;
  }

  /** A game's name in this language (game.<id>.name), the server's spec name for a game not translated yet. */
  function gameName(id, fallback) {
    return tOr(`game.${id}.name`, fallback || id);
  }

  return { t, tOr, gameName, ...engineTexts(dict, english, tOr) };
}

/** The texts of the engine's errors and of what a game says ({code, params, message}), over a language's
 * dictionary and the English one (``tOr``: the translator's, for the server's own reasons). */
function engineTexts(dict, english, tOr) {
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
  function tError(err) {
    if (!err) return "";
    const message = err.message ?? err.error ?? "";
    if (!err.reason || err.reason === "engine") return message;
    if (err.reason.startsWith("engine.")) return engineText(err.reason.slice(7), message, err.params);
    return tOr(`error.${err.reason}`, message, params(err.params));
  }

  /** What a game says in words (a history entry, why a game ended: {code, params, message}, see
   * core/_said.py): shown from error.engine.<code> like an engine error, except that a param named seat...
   * is a seat (0-based) shown by ``seatName``; the sentence starts with a capital. */
  function tSaid(part, seatName) {
    if (!part || typeof part !== "object") return "";
    const text = said(part, seatName);
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function said(part, seatName) {
    const template = dict[`error.engine.${part.code}`] ?? english[`error.engine.${part.code}`];
    if (template === undefined) return String(part.message ?? "");
    const out = {};
    for (const [k, v] of Object.entries(part.params || {})) {
      if (k.startsWith("seat") && typeof v === "number") out[k] = seatName(v);
      else out[k] = v && typeof v === "object" && typeof v.code === "string" ? said(v, seatName) : v;
    }
    return fill(template, out);
  }

  return { tError, tSaid };
}
