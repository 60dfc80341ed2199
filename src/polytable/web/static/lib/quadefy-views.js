// The geometry of Quadefy's two cube drawings, with no DOM (unit-tested by tests/js): where the layer view's
// squares go and how they are filled, the 3D view's projection, which faces and dots it paints in which order
// and which cell each stands for, and how a press on it turns the cube or picks a cell. The drawings
// (boards/parts/quadefy-views.js) only turn these into SVG and bind the handlers.
import { OWN, idx } from "./quadefy.js";

// ------------------------------------------------------------------------------------------ the layer view
/** The layer view's square size and the gap between its plans. */
export const LAYER = { cell: 22, gap: 12 };

/** The top-left corner of layer z's plan (z 0-3: two plans a row, the floor top left). */
export function planOrigin(z) {
  const { cell: C, gap } = LAYER;
  return [(z % 2) * (4 * C + gap) + 14, Math.floor(z / 2) * (4 * C + gap + 14) + 14];
}

/** The layer view's viewBox (four plans and their titles). */
export function layersViewBox() {
  const { cell: C, gap } = LAYER;
  return `0 0 ${8 * C + gap + 28} ${8 * C + gap + 44}`;
}

/** The top-left corner of cell (x, y) in layer z's plan: row 4 at the top, columns a-d left to right. */
export function layerCellAt(x, y, z) {
  const [ox, oy] = planOrigin(z);
  return [ox + x * LAYER.cell, oy + (3 - y) * LAYER.cell];
}

/** A layer view square's fill: its block's colour, else the tint (the puzzle's dark squares), else the reach
 * of the chosen block (a light green), else white. */
export function layerFill(c, i, tint, reach) {
  if (c) return OWN[c.owner].fill;
  if (tint && tint.has(i)) return "#9a9ab0";
  if (reach.has(i)) return "#dff3e4";
  return "#fff";
}

// -------------------------------------------------------------------------------------------- the 3D view
/** How far the cube may tip (degrees): from a little below the floor to almost straight above. */
export const PITCH = { min: -10, max: 85 };
const clampPitch = (p) => Math.max(PITCH.min, Math.min(PITCH.max, p));

/** The four corners of each face of a unit cube (x, up, z), and the cell beyond each face (column, row,
 * layer): front, back, left, right, bottom, top. */
const FACES = [
  [
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 0],
    [0, 1, 0],
  ],
  [
    [0, 0, 1],
    [0, 1, 1],
    [1, 1, 1],
    [1, 0, 1],
  ],
  [
    [0, 0, 0],
    [0, 1, 0],
    [0, 1, 1],
    [0, 0, 1],
  ],
  [
    [1, 0, 0],
    [1, 0, 1],
    [1, 1, 1],
    [1, 1, 0],
  ],
  [
    [0, 0, 0],
    [0, 0, 1],
    [1, 0, 1],
    [1, 0, 0],
  ],
  [
    [0, 1, 0],
    [1, 1, 0],
    [1, 1, 1],
    [0, 1, 1],
  ],
];
const NEXT = [
  [0, -1, 0],
  [0, 1, 0],
  [-1, 0, 0],
  [1, 0, 0],
  [0, 0, -1],
  [0, 0, 1],
];

/** The projection of the view turned by ``yaw`` and tipped by ``pitch`` (degrees): a world point [X, Y, Z]
 * (X the column, Y the layer going up, Z the row with row 1 at the front; the cube spans 0-4) to
 * [x, y, depth] on a 200 x 200 drawing centred on 0 (depth grows towards the viewer: painted in rising depth). */
export function projector(yaw, pitch, scale = 26) {
  const a = (yaw * Math.PI) / 180,
    b = (pitch * Math.PI) / 180;
  return ([X, Y, Z]) => {
    const x = X - 2,
      y = Y - 2,
      z = Z - 2;
    const x1 = x * Math.cos(a) - z * Math.sin(a),
      z1 = x * Math.sin(a) + z * Math.cos(a);
    const y2 = y * Math.cos(b) - z1 * Math.sin(b),
      z2 = y * Math.sin(b) + z1 * Math.cos(b);
    return [x1 * scale, -y2 * scale, z2];
  };
}

/** Points as an SVG points attribute (one decimal). */
export const svgPoints = (pts) => pts.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");

const inside = (x, y, z) => x >= 0 && y >= 0 && z >= 0 && x < 4 && y < 4 && z < 4;
const xyz = (i) => [i % 4, Math.floor(i / 4) % 4, Math.floor(i / 16)];

/** The faces of cell i's cube that face the viewer: {points, depth, top, cell}, ``cell`` being what a tap on
 * it chooses (the cell beyond the face, null outside the cube; for a ghost cube, its own cell). */
export function cubeFaces(i, proj, ghost) {
  const [x, y, z] = xyz(i);
  const out = [];
  for (const [fi, f] of FACES.entries()) {
    const pts = f.map(([a, b, c]) => proj([x + a, z + b, 4 - (y + c)]));
    const [ax, ay] = pts[0],
      [bx, by] = pts[1],
      [cx, cy] = pts[2];
    if ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax) >= 0) continue; // faces away from the viewer
    const [dx, dy, dz] = NEXT[fi];
    const beyond = ghost ? i : inside(x + dx, y + dy, z + dz) ? idx(x + dx, y + dy, z + dz) : null;
    out.push({ points: pts, depth: pts.reduce((d, p) => d + p[2], 0) / 4, top: fi >= 4, cell: beyond });
  }
  return out;
}

/** What the 3D view paints over its floor, back to front: the faces of every filled cell's cube and of the
 * ghost's (kind "face", with the colours ``fill`` and ``edge``, ``ghost`` for the ghost's), and with ``pick``
 * ({reach, cursor}: the player's turn) a dot (kind "dot", at cx, cy) on each empty cell a placement of the
 * chosen block can cover and on the chosen cell (``here``). A shape's ``cell`` is the cell a tap on it
 * chooses, null where a tap chooses none (and always null without ``pick``). */
export function cubeScene(cells, ghost, view, pick = null) {
  const proj = projector(view.yaw, view.pitch);
  const g = new Set(ghost);
  const shapes = [];
  const faces = (i, style, isGhost) => {
    for (const f of cubeFaces(i, proj, isGhost))
      shapes.push({
        kind: "face",
        ...f,
        fill: style.fill,
        edge: style.edge,
        ghost: isGhost,
        cell: pick ? f.cell : null,
      });
  };
  cells.forEach((c, i) => {
    if (c) faces(i, OWN[c.owner], false);
  });
  for (const i of g) faces(i, { fill: "#e63946", edge: "#7a0c14" }, true);
  if (pick) {
    for (const i of new Set([...pick.reach, ...(pick.cursor !== null ? [pick.cursor] : [])])) {
      if (cells[i] || g.has(i)) continue;
      const [x, y, z] = xyz(i);
      const [cx, cy, depth] = proj([x + 0.5, z + 0.5, 4 - (y + 0.5)]);
      shapes.push({ kind: "dot", cx, cy, depth, here: i === pick.cursor, reach: pick.reach.has(i), cell: i });
    }
  }
  shapes.sort((a, b) => a.depth - b.depth);
  return { floor: floorOutline(proj), squares: pick ? floorSquares(proj) : [], shapes };
}

/** The floor's outline, projected. */
function floorOutline(proj) {
  return [
    [0, 0, 0],
    [4, 0, 0],
    [4, 0, 4],
    [0, 0, 4],
  ].map(proj);
}

/** The floor as 16 squares, each {points, cell}: the layer-1 cell on it. */
function floorSquares(proj) {
  const out = [];
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 4; x++) {
      const corners = [
        [x, 0, 4 - y],
        [x + 1, 0, 4 - y],
        [x + 1, 0, 3 - y],
        [x, 0, 3 - y],
      ];
      out.push({ points: corners.map(proj), cell: idx(x, y, 0) });
    }
  return out;
}

// A press on the 3D view: a tap (a press and release that moved less than a few pixels) chooses the cell of
// the shape pressed; a drag turns the cube (0.6 degree a pixel across, 0.4 up and down).
const TAP = 6;

/** A press at (x, y) on the view ``view`` ({yaw, pitch}) on the shape standing for ``cell`` (or null). */
export function pressStart(view, x, y, cell) {
  return { x, y, yaw: view.yaw, pitch: view.pitch, cell, moved: false };
}

/** The pointer moved to (x, y) during ``press``: the view's new {yaw, pitch}, or null while it is still a tap
 * (marks the press as a drag once it moved far enough). */
export function pressMove(press, x, y) {
  if (!press.moved && Math.hypot(x - press.x, y - press.y) < TAP) return null;
  press.moved = true;
  return { yaw: press.yaw + (x - press.x) * 0.6, pitch: clampPitch(press.pitch + (y - press.y) * 0.4) };
}

/** The cell a released press chooses: that of the shape pressed, when it did not turn into a drag; else null. */
export function pressTap(press) {
  return press && !press.moved && press.cell !== null && press.cell !== undefined ? press.cell : null;
}

/** An arrow key's turn of ``view``: the new {yaw, pitch} (15 degrees around, 10 up or down), or null for any
 * other key. */
export function keyTurn(view, key) {
  const d = { ArrowLeft: [-15, 0], ArrowRight: [15, 0], ArrowUp: [0, 10], ArrowDown: [0, -10] }[key];
  return d ? { yaw: view.yaw + d[0], pitch: clampPitch(view.pitch + d[1]) } : null;
}
