// Companion mode: the app only deals cards. Every phone in the room shows the same card at the same moment.
// What differs between games comes from the server's message (the game's declared companion), never from
// the game's id. A game with printed QR cards may follow a printed deck instead: each drawn card is scanned
// (the browser's own barcode detection, else camera frames read by the server), photographed or typed.
import { t, tError } from "./i18n.js";
import { h, s, toast, myRooms } from "./dom.js";
import { codeFrom, decodeCard } from "./cardcode.js";
import { cachedGames, loadGames } from "./games.js";

// The seat colours of the dedicated boards, so a seat looks the same on paper and on screen.
const COLORS = ["#1d3557", "#e76f51", "#2a9d8f", "#8d5a97", "#b5651d", "#3a86ff", "#6a994e"];
const PENDING = "polytable.pendingCard";

export function cardSvg(card, size = 300) {
  const rows = card.shape || [];
  const w = Math.max(1, ...rows.map((r) => r.length));
  const hgt = Math.max(1, rows.length);
  const cell = 40;
  const pad = 50;
  const W = Math.max(5, w) * cell + 2 * pad;
  const H = Math.max(5, hgt) * cell + 2 * pad;
  const ox = (W - w * cell) / 2;
  const oy = (H - hgt * cell) / 2;
  const squares = [];
  rows.forEach((row, y) =>
    [...row].forEach((ch, x) => {
      if (ch === "#")
        squares.push(
          s("rect", {
            x: ox + x * cell,
            y: oy + y * cell,
            width: cell,
            height: cell,
            fill: "#1d3557",
            stroke: "#fff",
            "stroke-width": 3,
            rx: 4,
          }),
        );
    }),
  );
  const arrows = [];
  const tri = (cx, cy, dir) => {
    const a = 18;
    const pts = {
      T: [
        [cx - a, cy - a / 2],
        [cx + a, cy - a / 2],
        [cx, cy + a / 2],
      ],
      B: [
        [cx - a, cy + a / 2],
        [cx + a, cy + a / 2],
        [cx, cy - a / 2],
      ],
      L: [
        [cx - a / 2, cy - a],
        [cx - a / 2, cy + a],
        [cx + a / 2, cy],
      ],
      R: [
        [cx + a / 2, cy - a],
        [cx + a / 2, cy + a],
        [cx - a / 2, cy],
      ],
    }[dir];
    return s("polygon", { points: pts.map((p) => p.join(",")).join(" "), fill: "#e76f51" });
  };
  for (const d of card.arrows || "") {
    if (d === "T") arrows.push(tri(W / 2, 22, "T"));
    if (d === "B") arrows.push(tri(W / 2, H - 22, "B"));
    if (d === "L") arrows.push(tri(22, H / 2, "L"));
    if (d === "R") arrows.push(tri(W - 22, H / 2, "R"));
  }
  const labels = [];
  if (card.count)
    labels.push(
      s("text", { x: 14, y: H - 12, "font-size": 30, "font-weight": 700, fill: "#1b1b1b" }, `×${card.count}`),
    );
  if (card.rotate !== undefined)
    labels.push(
      s(
        "text",
        { x: W - 14, y: H - 12, "font-size": 30, "text-anchor": "end", fill: card.rotate ? "#2a9d8f" : "#999" },
        card.rotate ? "↻" : "⊘",
      ),
    );
  if (card.lane)
    labels.push(
      s(
        "text",
        { x: W - 14, y: 40, "font-size": 34, "font-weight": 700, "text-anchor": "end", fill: "#e76f51" },
        t("cp.laneShort", { n: card.lane }),
      ),
    );
  if (card.name)
    labels.push(s("text", { x: 14, y: 40, "font-size": 34, "font-weight": 700, fill: "#1d3557" }, card.name));
  return s(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, width: size, role: "img", "aria-label": describe(card) },
    s("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 18, fill: "#fff", stroke: "#1b1b1b", "stroke-width": 3 }),
    squares,
    arrows,
    labels,
  );
}

export function describe(card, opts = {}) {
  const parts = [];
  if (card.name && opts.start) parts.push(t("cp.ignoreBlock"));
  else if (card.name) parts.push(t("cp.block", { name: card.name }));
  if (card.lane && opts.start) parts.push(t("cp.startLane", { lane: card.lane }));
  else if (card.lane) parts.push(t("cp.barrierLane", { lane: card.lane }), t("cp.fallChoice"));
  if (card.count) parts.push(card.count > 1 ? t("cp.elements", { n: card.count }) : t("cp.element1"));
  if (card.arrows_apply === false) parts.push(t("cp.noArrows"));
  else if (card.arrows !== undefined)
    parts.push(
      card.arrows
        ? t("cp.enter", { sides: [...card.arrows].map((d) => t(`cp.${d}`)).join(t("cp.or")) })
        : t("cp.anywhere"),
    );
  if (card.rotate !== undefined) parts.push(card.rotate ? t("cp.mayRotate") : t("cp.noRotate"));
  return parts.join(", ") || card.text;
}

export function renderCompanion(el, c, deal) {
  const card = c.card;
  if (!c.can_give) stopCamera();
  const start = !!c.start && !!card; // a start card only sets the game up
  const title = start ? t("cp.start") : card ? t("cp.round", { n: c.round }) : t("cp.none");
  takePending(c, deal);
  const big = h(
    "div",
    { class: "bigcard", id: "companion-card" },
    h("h2", { id: "companion-round" }, title),
    turnLine(c),
    card ? cardSvg(card) : h("p", { class: "muted" }, t(c.can_give ? "cp.tapOrScan" : "cp.tapNext")),
    card ? h("p", { class: "status", id: "companion-text" }, describe(card, { start })) : null,
    startLanes(c),
  );
  const next = c.physical
    ? null
    : h(
        "button",
        { id: "deal", disabled: !c.can_deal, onclick: () => deal(false) },
        c.can_deal ? t("cp.next") : t("cp.empty"),
      );
  const back = h(
    "button",
    { id: "undeal", class: "secondary", disabled: !card, onclick: () => deal(true) },
    t("cp.back"),
  );
  const strip = h(
    "div",
    { class: "strip", "aria-label": t("cp.strip") },
    c.history
      .slice()
      .reverse()
      .map((k) => cardSvg(k, 64)),
  );
  const left = c.deck_left === null || c.deck_left === undefined ? "" : t("cp.left", { n: c.deck_left });
  el.replaceChildren(
    ...[
      big,
      h("div", { class: "row" }, next, back),
      c.can_give ? scanPanel(c, deal) : null,
      h(
        "p",
        { class: "help" },
        c.history.length === 1 ? t("cp.dealt1", { left }) : t("cp.dealt", { n: c.history.length, left }),
      ),
      strip,
      h("p", { class: "row" }, printLinks(c)),
    ].filter(Boolean),
  );
}

// Whose turn: the players take turns (seat 1 first), or all use the same card at once (together).
function turnLine(c) {
  if (c.turn === null || c.turn === undefined) {
    return c.together && c.card && c.round > 0
      ? h("p", { class: "help", id: "companion-turn" }, t("cp.everyone"))
      : null;
  }
  const name = (c.names || [])[c.turn] || t("room.player", { n: c.turn + 1 });
  const colour = t(`cp.colour${c.turn % COLORS.length}`);
  return h(
    "p",
    { class: "turn", id: "companion-turn" },
    h("span", { class: "dot on", style: `background:${COLORS[c.turn % COLORS.length]}` }),
    t(c.card ? "cp.turn" : "cp.turnFirst", { name, colour }),
  );
}

// A start card's lanes: each player's start square, in lane order from the starting player.
function startLanes(c) {
  if (!c.start_lanes || c.round !== 0) return null;
  return h(
    "ul",
    { class: "lanes", id: "companion-lanes" },
    c.start_lanes.map((lane, p) =>
      h(
        "li",
        {},
        h("span", { class: "dot on", style: `background:${COLORS[p % COLORS.length]}` }),
        t("cp.seatLane", { name: (c.names || [])[p] || t("room.player", { n: p + 1 }), lane }),
        p === c.starter ? ` ${t("cp.starts")}` : "",
      ),
    ),
  );
}

function printLinks(c) {
  const links = [];
  for (const name of c.printables || []) {
    if (name === c.game) {
      links.push([`/print/room/${c.code}.pdf`, c.shared_sheet ? t("cp.printSheet") : t("cp.printSheets")]);
    } else if (c.deck_print && name === c.deck_print.name) {
      links.push([`/print/${name}.pdf?${c.deck_print.query}`, t("cp.printCards")]);
    } else {
      links.push([`/print/${name}.pdf?players=${c.players || ""}`, t("cp.print", { name })]);
    }
  }
  return links.map(([href, label]) => h("a", { href, class: "button secondary print-link", target: "_blank" }, label));
}

// ------------------------------------------------------------------------------------ a printed deck
let scanner = null; // { room, video, stream, timer, panel, status } kept across renders while the camera runs

function scanPanel(c, deal) {
  if (scanner && scanner.room === c.code && scanner.panel) {
    scanner.deal = deal;
    if (scanner.physical !== c.physical && !scanner.stream)
      scanner.status.textContent = t(c.physical ? "cp.physical" : "cp.orPrinted");
    scanner.physical = c.physical;
    return scanner.panel;
  }
  stopCamera();
  const status = h(
    "p",
    { class: "help", id: "scan-status", "aria-live": "polite" },
    c.physical ? t("cp.physical") : t("cp.orPrinted"),
  );
  const number = h("input", {
    id: "card-number",
    type: "text",
    inputmode: "numeric",
    maxlength: 200,
    autocomplete: "off",
    placeholder: t("cp.number"),
    "aria-label": t("cp.number"),
  });
  const use = () => {
    // the server reads a number, a code, a card address or the notation alike
    const v = number.value.trim();
    if (!v) {
      number.focus();
      return;
    }
    give(v);
    number.value = "";
  };
  number.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      use();
    }
  });
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
  const video = h("video", { id: "scan-video", playsinline: true, muted: true, hidden: true });
  const camBtn = h(
    "button",
    { id: "scan", class: "secondary", onclick: () => (scanner.stream ? stopCamera(true) : startCamera()) },
    t("cp.scan"),
  );
  const panel = h(
    "div",
    { class: "scan", id: "scan-panel" },
    h(
      "div",
      { class: "row" },
      navigator.mediaDevices && navigator.mediaDevices.getUserMedia ? camBtn : null,
      h("button", { id: "photo", class: "secondary", onclick: () => photo.click() }, t("cp.photo")),
      photo,
    ),
    h(
      "div",
      { class: "row" },
      number,
      h("button", { id: "use-number", class: "secondary", onclick: use }, t("cp.use")),
    ),
    window.isSecureContext ? null : h("p", { class: "help", id: "scan-https" }, t("cp.cameraHttps")),
    video,
    status,
  );
  scanner = {
    room: c.code,
    panel,
    video,
    status,
    camBtn,
    deal,
    physical: c.physical,
    stream: null,
    timer: null,
    busy: false,
  };

  function give(card) {
    scanner.deal(false, card);
  }

  async function readPicture(blob) {
    status.textContent = t("cp.reading");
    try {
      const r = await fetch("/api/cards/read", {
        method: "POST",
        body: blob,
        headers: { "Content-Type": blob.type || "image/jpeg" },
      });
      const body = await r.json();
      if (!r.ok) {
        status.textContent = tError(body);
        return false;
      }
      status.textContent = t("cp.physical");
      give(body.code);
      return true;
    } catch (err) {
      status.textContent = String(err.message || err);
      return false;
    }
  }
  scanner.readPicture = readPicture;
  return panel;
}

async function startCamera() {
  const sc = scanner;
  try {
    sc.stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  } catch {
    sc.status.textContent = t("cp.noCamera");
    return;
  }
  sc.video.srcObject = sc.stream;
  sc.video.hidden = false;
  sc.camBtn.textContent = t("cp.stop");
  sc.status.textContent = t("cp.scanHint");
  await sc.video.play().catch(() => {});
  let detector = null;
  if ("BarcodeDetector" in window) {
    try {
      const formats = await window.BarcodeDetector.getSupportedFormats();
      if (formats.includes("qr_code")) detector = new window.BarcodeDetector({ formats: ["qr_code"] });
    } catch {
      detector = null;
    }
  }
  const canvas = document.createElement("canvas");
  const tick = async () => {
    if (sc !== scanner || !document.body.contains(sc.panel)) {
      stopCamera();
      return;
    } // the room was left
    if (!sc.stream || sc.busy || !sc.video.videoWidth) return;
    sc.busy = true;
    try {
      if (detector) {
        // the browser reads the code itself: nothing leaves the phone but the card
        for (const found of await detector.detect(sc.video)) {
          const code = codeFrom(found.rawValue);
          if (code && decodeCard(code)) {
            stopCamera(true);
            sc.deal(false, code);
            return;
          }
        }
      } else {
        // no barcode detection here: the server reads a frame now and then
        const scale = Math.min(1, 960 / sc.video.videoWidth);
        canvas.width = Math.round(sc.video.videoWidth * scale);
        canvas.height = Math.round(sc.video.videoHeight * scale);
        canvas.getContext("2d").drawImage(sc.video, 0, 0, canvas.width, canvas.height);
        const blob = await new Promise((res) => canvas.toBlob(res, "image/jpeg", 0.85));
        const r = blob
          ? await fetch("/api/cards/read", { method: "POST", body: blob, headers: { "Content-Type": "image/jpeg" } })
          : null;
        if (r && r.ok) {
          const body = await r.json();
          stopCamera(true);
          sc.deal(false, body.code);
          return;
        }
      }
    } catch {
      /* try the next frame */
    } finally {
      sc.busy = false;
    }
  };
  sc.timer = setInterval(tick, detector ? 250 : 900);
}

function stopCamera(keepPanel = false) {
  if (!scanner) return;
  clearInterval(scanner.timer);
  scanner.timer = null;
  if (scanner.stream) scanner.stream.getTracks().forEach((tr) => tr.stop());
  scanner.stream = null;
  if (scanner.video) {
    scanner.video.hidden = true;
    scanner.video.srcObject = null;
  }
  if (scanner.camBtn) scanner.camBtn.textContent = t("cp.scan");
  if (keepPanel && scanner.status) scanner.status.textContent = t("cp.physical");
  if (!keepPanel) scanner = null;
}

// A card opened from its QR code (the card page) and sent to this room: played once the room is shown.
function takePending(c, deal) {
  let pending = null;
  try {
    pending = JSON.parse(sessionStorage.getItem(PENDING) || "null");
  } catch {
    pending = null;
  }
  if (!pending || pending.room !== c.code) return;
  sessionStorage.removeItem(PENDING);
  if (c.can_give) setTimeout(() => deal(false, pending.code), 0);
  else toast(t("cp.cannotGive"), true);
}

// ------------------------------------------------------------------------------------ the card page
// What a phone shows when its camera opens a printed card's address (/c/CODE): the card, read from the
// address alone (works offline from the cached app), and the companion rooms it can be drawn in.
export function renderCardPage(el, code, navigate) {
  const card = decodeCard(code);
  if (!card) {
    el.replaceChildren(
      h("section", { class: "card" }, h("h1", {}, t("card.title")), h("p", { role: "alert" }, t("card.bad"))),
    );
    return;
  }
  const help = h("p", { class: "help" }, t("card.noRoom"));
  const buttons = h("div", { class: "row" });
  el.replaceChildren(
    h(
      "section",
      { class: "card bigcard", id: "card-page" },
      h("h1", {}, t("card.title")),
      cardSvg(card),
      h("p", { class: "status", id: "card-text" }, describe(card)),
      h("p", { class: "help" }, t("card.arrowsNote")),
      help,
      buttons,
    ),
  );
  cardGames().then((games) => {
    const rooms = Object.entries(myRooms())
      .filter(([, r]) => games.has(r.game))
      .slice(0, 5);
    if (rooms.length) help.textContent = t("card.drawHelp");
    buttons.replaceChildren(
      ...rooms.map(([room]) =>
        h(
          "button",
          {
            class: "draw-in",
            onclick: () => {
              sessionStorage.setItem(PENDING, JSON.stringify({ room, code: card.code }));
              navigate(`/r/${room}`);
            },
          },
          t("card.drawIn", { code: room }),
        ),
      ),
    );
  });
}

// The games whose printed cards a room can take: from the game list the home page keeps on this device
// (so the page works offline), else from the server.
async function cardGames() {
  let games = cachedGames();
  if (!games.some((g) => "printed_cards" in g)) games = (await loadGames()).list;
  return new Set(games.filter((g) => g.printed_cards).map((g) => g.id));
}
