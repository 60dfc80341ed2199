import { t, tError } from "./i18n.js";

// Tiny DOM helpers. Text always goes in as text (textContent), never as markup: names and notation
// typed by people can never inject HTML.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Replace ``el``'s children by these nodes and texts, leaving out null, undefined and false (the DOM's own
 * replaceChildren would show them as the text "null"). */
export function put(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}

const SVGNS = "http://www.w3.org/2000/svg";
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// A message in the page's flow under the header (it pushes the page down rather than covering a control),
// brought into view when the page is scrolled past it; gone after a few seconds.
let toastTimer = 0;
export function toast(message, error = false) {
  const t = document.getElementById("toast");
  t.textContent = message;
  t.className = error ? "error" : "";
  t.hidden = false;
  if (t.getBoundingClientRect().top < 0) t.scrollIntoView({ block: "nearest" });
  clearTimeout(toastTimer);
  toastTimer = setTimeout(
    () => {
      t.hidden = true;
    },
    error ? 6000 : 3000,
  );
}

export async function api(path, body) {
  const init =
    body === undefined
      ? {}
      : {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        };
  const res = await fetch(path, init);
  let data;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  // Errors arrive with a reason (error.<reason> in the translation files) or, for the rules' own
  // messages, as English text translated by pattern; so do the {ok: false} answers of a check.
  if (!res.ok) throw new Error(data && data.error ? tError(data) : t("error.http", { status: res.status }));
  if (data && data.ok === false && typeof data.message === "string") data.message = tError(data);
  return data;
}

// Seat tokens live in this browser only (localStorage), per room code.
const KEY = "polytable.rooms";
export function myRooms() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}
export function saveRoom(code, info) {
  const all = myRooms();
  const old = all[code] || { tokens: {} };
  all[code] = { ...old, ...info, tokens: { ...old.tokens, ...(info.tokens || {}) }, seen: Date.now() };
  const codes = Object.keys(all).sort((a, b) => all[b].seen - all[a].seen);
  for (const c of codes.slice(50)) delete all[c];
  localStorage.setItem(KEY, JSON.stringify(all));
}
export function tokensFor(code) {
  const r = myRooms()[code];
  return r ? r.tokens || {} : {};
}
