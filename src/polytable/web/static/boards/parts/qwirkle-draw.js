// Qwirkle Cubes' drawing parts: a cube (its colour, its colour's letter and its shape), a cube in words, a
// hand's cube button, and the table's pan and zoom (drag, pinch, wheel) kept in the board's state.
import { h, s } from "../../dom.js";
import { t } from "../../i18n.js";

const FILL = { R: "#d55e00", O: "#e69f00", Y: "#f0e442", G: "#009e73", B: "#0072b2", P: "#8e5aa8" };
const INK = { R: "#fff", O: "#000", Y: "#000", G: "#fff", B: "#fff", P: "#fff" };
export const C = 40;
const SHAPE_WORD = { "●": "circle", "■": "square", "◆": "diamond", "♣": "clover", "✦": "star4", "✸": "star8" };

// A cube in words for the labels and lines a player reads ("blue diamond"; Dutch "ruit, blauw"): its colour,
// and its shape as the engine's refusals name it. A cube's code ("B◆") is the notation.
export const cubeWords = (c) =>
  t("qc.cube", { colour: t(`qc.colour.${c[0]}`), shape: t(`error.engine.qwirkle.${SHAPE_WORD[c.slice(1)]}`) });

export function cube(c, x, y, size, extra = {}) {
  const col = c[0];
  return s(
    "g",
    { transform: `translate(${x},${y})`, ...extra },
    s("rect", { width: size - 2, height: size - 2, x: 1, y: 1, rx: 5, fill: FILL[col] || "#ccc", stroke: "#222" }),
    s(
      "text",
      {
        x: size / 2,
        y: size * 0.66,
        "text-anchor": "middle",
        "font-size": size * 0.5,
        fill: INK[col] || "#000",
        "pointer-events": "none",
      },
      c.slice(1),
    ),
    s(
      "text",
      {
        x: 4,
        y: size * 0.3,
        "font-size": size * 0.22,
        fill: INK[col] || "#000",
        "pointer-events": "none",
        "font-weight": 700,
      },
      col,
    ),
  );
}

// A cube in the hand. Its label names the colour letter drawn on the cube as well as the cube in words, so
// the name holds the text a player sees (what speech input says: WCAG's label in name).
export function cubeButton(c, attrs, label) {
  return h(
    "button",
    { type: "button", class: "cube", "aria-label": label, ...attrs },
    s("svg", { viewBox: "0 0 40 40", width: 36, height: 36, "aria-hidden": "true" }, cube(c, 0, 0, 40)),
  );
}

export function attachPanZoom(svg, st, redraw) {
  const pts = new Map();
  let start = null;
  const scale = () => (st.zoom * C) / (svg.getBoundingClientRect().width || 1);
  svg.addEventListener("pointerdown", (e) => {
    pts.set(e.pointerId, [e.clientX, e.clientY]);
    st.dragged = false;
    start = { center: [...st.center], zoom: st.zoom, pts: new Map([...pts].map(([k, v]) => [k, [...v]])) };
  });
  svg.addEventListener("pointermove", (e) => {
    if (!pts.has(e.pointerId) || !start) return;
    pts.set(e.pointerId, [e.clientX, e.clientY]);
    const ids = [...pts.keys()];
    if (ids.length === 1) {
      const [x0, y0] = start.pts.get(ids[0]) || [e.clientX, e.clientY];
      const dx = e.clientX - x0,
        dy = e.clientY - y0;
      if (Math.abs(dx) + Math.abs(dy) < 6 && !st.dragged) return;
      st.dragged = true;
      const k = scale() / C;
      st.center = [start.center[0] - dx * k, start.center[1] + dy * k];
      setBox(svg, st);
    } else if (ids.length === 2) {
      const d = (m) => {
        const [a, b] = ids.map((i) => m.get(i));
        return a && b ? Math.hypot(a[0] - b[0], a[1] - b[1]) : 0;
      };
      const d0 = d(start.pts),
        d1 = d(pts);
      if (d0 > 0 && d1 > 0) {
        st.dragged = true;
        st.zoom = Math.max(4, Math.min(40, (start.zoom * d0) / d1));
        setBox(svg, st);
      }
    }
  });
  const end = (e) => {
    pts.delete(e.pointerId);
    if (!pts.size) {
      start = null;
      setTimeout(() => {
        st.dragged = false;
      }, 0);
    }
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener(
    "wheel",
    (e) => {
      e.preventDefault();
      st.zoom = Math.max(4, Math.min(40, st.zoom * (e.deltaY > 0 ? 1.15 : 0.87)));
      setBox(svg, st);
    },
    { passive: false },
  );
  void redraw;
}

function setBox(svg, st) {
  const vw = st.zoom * C;
  svg.setAttribute("viewBox", `${st.center[0] * C - vw / 2} ${-st.center[1] * C - vw / 2} ${vw} ${vw}`);
}
