// A printed deck: each drawn card is scanned (the browser's own barcode detection, else camera frames read
// by the server), photographed or typed. One panel at a time, kept across the room's renders while the
// camera runs; its state (lib/companion.js newScan) says whether the camera is on and what the status line
// says, and ``draw`` shows it. The camera's stream and timer are the panel's, never the DOM's.
import { t, tError } from "../i18n.js";
import { h } from "../dom.js";
import { codeFrom, decodeCard } from "../cardcode.js";
import { newScan, scanFollows, scanStatus } from "../lib/companion.js";

let current = null; // the panel on screen, or null

/** The scan panel of companion message ``c`` (its room's, kept if already shown); ``deal(false, code)``
 * gives the room a card. */
export function scanPanel(c, deal) {
  if (current && current.st.room === c.code) {
    current.deal = deal;
    scanFollows(current.st, c.physical);
    current.draw();
    return current.el;
  }
  stopScanner();
  current = makePanel(c, deal);
  return current.el;
}

/** The room no longer takes cards (or was left): the camera stops and the panel goes. */
export function stopScanner() {
  if (current) current.stop();
  current = null;
}

/** Read a picture of a card on the server: its code, or null with the reason as the status. */
async function readOnServer(st, blob) {
  const r = await fetch("/api/cards/read", {
    method: "POST",
    body: blob,
    headers: { "Content-Type": blob.type || "image/jpeg" },
  });
  const body = await r.json();
  if (!r.ok) {
    st.status = { text: tError(body) };
    return null;
  }
  return body.code;
}

/** The first card code a barcode detector finds in the video, else null. */
async function detected(detector, video) {
  for (const found of await detector.detect(video)) {
    const code = codeFrom(found.rawValue);
    if (code && decodeCard(code)) return code;
  }
  return null;
}

/** A frame of the video as a JPEG (at most 960 pixels wide), for the server to read. */
function frame(video, canvas) {
  const scale = Math.min(1, 960 / video.videoWidth);
  canvas.width = Math.round(video.videoWidth * scale);
  canvas.height = Math.round(video.videoHeight * scale);
  canvas.getContext("2d").drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((res) => canvas.toBlob(res, "image/jpeg", 0.85));
}

/** The browser's QR detector, or null where there is none (the server then reads frames). */
async function qrDetector() {
  if (!("BarcodeDetector" in window)) return null;
  try {
    const formats = await window.BarcodeDetector.getSupportedFormats();
    return formats.includes("qr_code") ? new window.BarcodeDetector({ formats: ["qr_code"] }) : null;
  } catch {
    return null;
  }
}

/** The card's number typed (the server reads a number, a code, a card address or the notation alike). */
function numberRow(give) {
  const number = h("input", {
    id: "card-number",
    type: "text",
    inputmode: "numeric",
    maxlength: 200,
    autocomplete: "off",
    placeholder: t("cp.number"),
    "aria-label": t("cp.number"),
  });
  let typed = "";
  const use = () => {
    const v = typed.trim();
    if (!v) {
      number.focus();
      return;
    }
    give(v);
    number.value = typed = "";
  };
  number.addEventListener("input", () => {
    typed = number.value;
  });
  number.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      use();
    }
  });
  return h(
    "div",
    { class: "row" },
    number,
    h("button", { id: "use-number", class: "secondary", onclick: use }, t("cp.use")),
  );
}

function makePanel(c, deal) {
  const st = newScan(c.code, c.physical);
  const panel = { st, deal, stream: null, timer: null };
  const give = (code) => panel.deal(false, code);
  const status = h("p", { class: "help", id: "scan-status", "aria-live": "polite" });
  const photo = photoInput(panel, give);
  const video = h("video", { id: "scan-video", playsinline: true, muted: true, hidden: true });
  const camBtn = h(
    "button",
    { id: "scan", class: "secondary", onclick: () => (st.camera ? panel.stop(true) : startCamera(panel, video)) },
    t("cp.scan"),
  );
  panel.el = h(
    "div",
    { class: "scan", id: "scan-panel" },
    h(
      "div",
      { class: "row" },
      navigator.mediaDevices && navigator.mediaDevices.getUserMedia ? camBtn : null,
      h("button", { id: "photo", class: "secondary", onclick: () => photo.click() }, t("cp.photo")),
      photo,
    ),
    numberRow(give),
    window.isSecureContext ? null : h("p", { class: "help", id: "scan-https" }, t("cp.cameraHttps")),
    video,
    status,
  );
  panel.draw = () => {
    status.textContent = scanStatus(st, t);
    video.hidden = !st.camera;
    camBtn.textContent = t(st.camera ? "cp.stop" : "cp.scan");
  };
  /** Stop the camera; ``keep``: the panel stays (the status says a printed card may be given). */
  panel.stop = (keep = false) => stopCamera(panel, video, keep);
  panel.draw();
  return panel;
}

// The photo button's hidden file input: a picture of the card, read on the server (the status says so).
function photoInput(panel, give) {
  const { st } = panel;
  const readPicture = async (blob) => {
    st.status = { key: "cp.reading" };
    panel.draw();
    try {
      const code = await readOnServer(st, blob);
      if (code) {
        st.status = { key: "cp.physical" };
        give(code);
      }
    } catch (err) {
      st.status = { text: String(err.message || err) };
    }
    panel.draw();
  };
  const photo = h("input", {
    id: "card-photo",
    type: "file",
    accept: "image/*",
    capture: "environment",
    hidden: true,
    onchange: () => {
      if (photo.files[0]) readPicture(photo.files[0]);
      photo.value = "";
    },
  });
  return photo;
}

// Stop the panel's camera (its stream and timer); ``keep``: the status says a printed card may be given.
function stopCamera(panel, video, keep) {
  clearInterval(panel.timer);
  panel.timer = null;
  if (panel.stream) panel.stream.getTracks().forEach((tr) => tr.stop());
  panel.stream = null;
  video.srcObject = null;
  panel.st.camera = false;
  if (keep) panel.st.status = { key: "cp.physical" };
  panel.draw();
}

async function startCamera(panel, video) {
  const { st } = panel;
  try {
    panel.stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  } catch {
    st.status = { key: "cp.noCamera" };
    panel.draw();
    return;
  }
  video.srcObject = panel.stream;
  st.camera = true;
  st.status = { key: "cp.scanHint" };
  panel.draw();
  await video.play().catch(() => {});
  const detector = await qrDetector();
  const canvas = document.createElement("canvas");
  const found = (code) => {
    panel.stop(true);
    panel.deal(false, code);
  };
  const tick = async () => {
    if (panel !== current || !document.body.contains(panel.el)) {
      panel.stop(); // the room was left
      return;
    }
    if (!panel.stream || st.busy || !video.videoWidth) return;
    st.busy = true;
    try {
      if (detector) {
        // the browser reads the code itself: nothing leaves the phone but the card
        const code = await detected(detector, video);
        if (code) found(code);
      } else {
        // no barcode detection here: the server reads a frame now and then
        const blob = await frame(video, canvas);
        const r = blob
          ? await fetch("/api/cards/read", { method: "POST", body: blob, headers: { "Content-Type": "image/jpeg" } })
          : null;
        if (r && r.ok) found((await r.json()).code);
      }
    } catch {
      /* try the next frame */
    } finally {
      st.busy = false;
    }
  };
  panel.timer = setInterval(tick, detector ? 250 : 900);
}
