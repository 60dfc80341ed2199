// A board's squares reached from the keyboard (FORMFINITY's template, Foldris's sheet): the square at the
// board's cursor (kept in the board's own state) takes Tab, the arrow keys move the cursor (lib/grid-keys.js)
// and Enter or Space presses the square under it, as a tap would. Each square is a button named for
// assistive technology; the board draws itself again after a key and puts the focus back on the cursor.
import { gridKey } from "../../lib/grid-keys.js";

/** The attributes of square (x, y) on a grid (``grid``: {width, height, up, ok}, see gridKey) with the cursor
 * at ``cursor``: a button named ``label`` that a tap or Enter/Space presses (``press(x, y)``) and whose arrow
 * keys move the cursor (``move([x, y])``). */
export function squareAttrs(grid, cursor, { press, move }) {
  return (x, y, label) => ({
    role: "button",
    tabindex: cursor && cursor[0] === x && cursor[1] === y ? 0 : -1,
    "aria-label": label,
    onclick: () => press(x, y),
    onkeydown: (e) => {
      const does = gridKey(e.key, [x, y], grid);
      if (!does) return;
      e.preventDefault();
      if (does.press) press(x, y);
      else if (does.to) move(does.to);
    },
  });
}

/** Whether the focus is inside ``box`` (a board about to be drawn again keeps it). */
export function holdsFocus(box) {
  return !!box && box.contains(document.activeElement);
}

/** Put the focus on the square that takes Tab in ``board`` (the cursor's), drawn just now. */
export function focusCursor(board) {
  const square = board && board.querySelector('[tabindex="0"]');
  if (square) square.focus();
}
