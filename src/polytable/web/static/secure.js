// Where the browser refuses what a table needs most, the home page says so in words: what is off (offline
// play, installing the app, the camera scan), how to have it (an https address; trusting the table's own
// certificate) and what works meanwhile (printed QR cards: type the number, a photo, the phone's own camera
// app). What is off when is decided by lib/secure.js.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { originLimits, limitsText } from "./lib/secure.js";

let workerError = null;
const waiting = new Set();

/** Register the service worker where the browser allows one; a refusal updates the notice on screen. */
export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js").catch((err) => {
    workerError = err;
    for (const show of waiting) show();
    waiting.clear();
  });
}

/** The notice (a collapsed card whose title says what is off), hidden while nothing is. */
export function secureNote() {
  const box = h("details", { class: "card secure-note", id: "secure-note", hidden: true });
  const show = () => {
    const limits = originLimits({ secure: window.isSecureContext, workerError });
    if (!limits) return false;
    const [title, ...rest] = limitsText(limits);
    box.replaceChildren(
      h("summary", {}, t(title)),
      ...rest.map((key) => h("p", { class: key === "secure.offCards" ? "help" : null }, withCommand(key))),
    );
    if (limits.fix === "trust") addCertificateLink(box);
    box.hidden = false;
    return true;
  };
  if (!show()) waiting.add(show);
  return box;
}

// A text naming the command that serves https shows it as code, never broken across lines.
function withCommand(key) {
  const parts = t(key, { command: "\u0000" }).split("\u0000");
  return parts.length === 2 ? [parts[0], h("code", {}, COMMAND), parts[1]] : parts[0];
}
const COMMAND = "polytable serve --https";

// The table's own certificate (polytable serve --https) is served for devices to trust; another server's
// certificate comes from whoever runs it.
async function addCertificateLink(box) {
  let have;
  try {
    have = (await fetch("/tls/ca.crt", { method: "HEAD" })).ok;
  } catch {
    have = false;
  }
  const why = box.querySelector("p");
  const get = have
    ? h(
        "p",
        {},
        h(
          "a",
          { class: "button", href: "/tls/ca.crt", id: "get-ca", download: "polytable-table-ca.crt" },
          t("secure.trustGet"),
        ),
      )
    : h("p", {}, t("secure.trustAsk"));
  why.after(get);
}
