// Board registry: a game with a dedicated board module gets it; every other game gets the generic one.
// Each dedicated board lives in its own file so a bug in it never breaks the generic board.
import * as generic from "./generic.js";
import * as formfinity from "./formfinity.js";
import * as foldris from "./foldris.js";
import * as forma from "./forma.js";
import * as qwirkle from "./qwirkle.js";
import * as quadefy from "./quadefy.js";

const BOARDS = { formfinity, foldris, forma, "qwirkle-cubes": qwirkle, quadefy };

export function hasBoard(gameId) {
  return Object.hasOwn(BOARDS, gameId);
}

export function boardFor(gameId) {
  const b = BOARDS[gameId];
  if (!b) return generic;
  return {
    render(el, ctx) {
      try {
        b.render(el, ctx);
      } catch (err) {
        console.error(err);
        generic.render(el, ctx);
      }
    },
  };
}
