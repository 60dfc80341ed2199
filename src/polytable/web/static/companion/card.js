// A FORMFINITY card drawn as SVG (the companion's big card and strip, the board's card, the card page),
// from its layout in lib/companion.js; its accessible name is the card in words.
import { s } from "../dom.js";
import { t } from "../i18n.js";
import { SEAT_COLORS, cardLayout, describe } from "../lib/companion.js";

const INK = "#1b1b1b";
const BLOCK = SEAT_COLORS[0];
const ARROW = SEAT_COLORS[1];

/** The marks in the card's corners: element count, rotation symbol, barrier lane, block name. */
function marks(card, W, H) {
  const text = (attrs, body) => s("text", { "font-weight": 700, ...attrs }, body);
  return [
    card.count ? text({ x: 14, y: H - 12, "font-size": 30, fill: INK }, `×${card.count}`) : null,
    card.rotate === undefined
      ? null
      : text(
          {
            x: W - 14,
            y: H - 12,
            "font-size": 30,
            "font-weight": null,
            "text-anchor": "end",
            fill: card.rotate ? "#2a9d8f" : "#999",
          },
          card.rotate ? "↻" : "⊘",
        ),
    card.lane
      ? text(
          { x: W - 14, y: 40, "font-size": 34, "text-anchor": "end", fill: ARROW },
          t("cp.laneShort", { n: card.lane }),
        )
      : null,
    card.name ? text({ x: 14, y: 40, "font-size": 34, fill: BLOCK }, card.name) : null,
  ];
}

/** The card as an SVG image ``size`` pixels wide. */
export function cardSvg(card, size = 300) {
  const { W, H, cell, squares, arrows } = cardLayout(card);
  return s(
    "svg",
    { viewBox: `0 0 ${W} ${H}`, width: size, role: "img", "aria-label": describe(card, t) },
    s("rect", { x: 2, y: 2, width: W - 4, height: H - 4, rx: 18, fill: "#fff", stroke: INK, "stroke-width": 3 }),
    squares.map(({ x, y }) =>
      s("rect", { x, y, width: cell, height: cell, fill: BLOCK, stroke: "#fff", "stroke-width": 3, rx: 4 }),
    ),
    arrows.map((pts) => s("polygon", { points: pts.map((p) => p.join(",")).join(" "), fill: ARROW })),
    marks(card, W, H),
  );
}
