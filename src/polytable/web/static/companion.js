// Companion mode: the app only deals cards. Every phone in the room shows the same card at the same moment.
import { t } from "./i18n.js";
import { h, s } from "./dom.js";

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
  rows.forEach((row, y) => [...row].forEach((ch, x) => {
    if (ch === "#") squares.push(s("rect", { x: ox + x * cell, y: oy + y * cell, width: cell, height: cell,
      fill: "#1d3557", stroke: "#fff", "stroke-width": 3, rx: 4 }));
  }));
  const arrows = [];
  const tri = (cx, cy, dir) => {
    const a = 18;
    const pts = { T: [[cx - a, cy - a / 2], [cx + a, cy - a / 2], [cx, cy + a / 2]],
      B: [[cx - a, cy + a / 2], [cx + a, cy + a / 2], [cx, cy - a / 2]],
      L: [[cx - a / 2, cy - a], [cx - a / 2, cy + a], [cx + a / 2, cy]],
      R: [[cx + a / 2, cy - a], [cx + a / 2, cy + a], [cx - a / 2, cy]] }[dir];
    return s("polygon", { points: pts.map((p) => p.join(",")).join(" "), fill: "#e76f51" });
  };
  for (const d of card.arrows || "") {
    if (d === "T") arrows.push(tri(W / 2, 22, "T"));
    if (d === "B") arrows.push(tri(W / 2, H - 22, "B"));
    if (d === "L") arrows.push(tri(22, H / 2, "L"));
    if (d === "R") arrows.push(tri(W - 22, H / 2, "R"));
  }
  const labels = [];
  if (card.count) labels.push(s("text", { x: 14, y: H - 12, "font-size": 30, "font-weight": 700, fill: "#1b1b1b" }, `×${card.count}`));
  if (card.rotate !== undefined) labels.push(s("text", { x: W - 14, y: H - 12, "font-size": 30, "text-anchor": "end",
    fill: card.rotate ? "#2a9d8f" : "#999" }, card.rotate ? "↻" : "⊘"));
  if (card.lane) labels.push(s("text", { x: W - 14, y: 40, "font-size": 34, "font-weight": 700, "text-anchor": "end", fill: "#e76f51" }, t("cp.laneShort", { n: card.lane })));
  if (card.name) labels.push(s("text", { x: 14, y: 40, "font-size": 34, "font-weight": 700, fill: "#1d3557" }, card.name));
  return s("svg", { viewBox: `0 0 ${W} ${H}`, width: size, role: "img", "aria-label": describe(card) },
    s("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 18, fill: "#fff", stroke: "#1b1b1b", "stroke-width": 3 }),
    squares, arrows, labels);
}

export function describe(card) {
  const parts = [];
  if (card.name) parts.push(t("cp.block", { name: card.name }));
  if (card.lane) parts.push(t("cp.lane", { lane: card.lane }));
  if (card.count) parts.push(card.count > 1 ? t("cp.elements", { n: card.count }) : t("cp.element1"));
  if (card.arrows !== undefined) parts.push(card.arrows ? t("cp.enter", { sides: [...card.arrows].map((d) => t(`cp.${d}`)).join(t("cp.or")) }) : t("cp.anywhere"));
  if (card.rotate !== undefined) parts.push(card.rotate ? t("cp.mayRotate") : t("cp.noRotate"));
  return parts.join(", ") || card.text;
}

export function renderCompanion(el, c, deal) {
  const card = c.card;
  const title = c.game === "foldris" && c.round === 0 && card ? t("cp.start") : card ? t("cp.round", { n: c.round }) : t("cp.none");
  const big = h("div", { class: "bigcard", id: "companion-card" },
    h("h2", { id: "companion-round" }, title),
    card ? cardSvg(card) : h("p", { class: "muted" }, t("cp.tapNext")),
    card ? h("p", { class: "status", id: "companion-text" }, describe(card)) : null);
  const next = h("button", { id: "deal", disabled: !c.can_deal, onclick: () => deal(false) }, c.can_deal ? t("cp.next") : t("cp.empty"));
  const back = h("button", { id: "undeal", class: "secondary", disabled: !card, onclick: () => deal(true) }, t("cp.back"));
  const strip = h("div", { class: "strip", "aria-label": t("cp.strip") },
    c.history.slice().reverse().map((k) => cardSvg(k, 64)));
  const left = c.deck_left === null || c.deck_left === undefined ? "" : t("cp.left", { n: c.deck_left });
  el.replaceChildren(big, h("div", { class: "row" }, next, back),
    h("p", { class: "help" }, c.history.length === 1 ? t("cp.dealt1", { left }) : t("cp.dealt", { n: c.history.length, left })),
    strip,
    h("p", { class: "row" }, (c.printables || []).map((name) => h("a", {
      href: `/print/${name}.pdf?players=${c.players || ""}`, class: "button secondary print-link", target: "_blank",
    }, t("cp.print", { name })))));
}
