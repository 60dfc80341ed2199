// Board registry: a game's dedicated board is static/boards/<board>.js, <board> being the `board` field of
// its /api/games entry; it is imported when a room of the game first draws. Every other game, and a board
// that fails to load or to draw, gets the generic board, so a new game needs no JS at all. A board keeps its
// own state (what the player selected, what it showed last) in ``ctx.keep``, an object the page gives each
// board box, never on its elements.
import * as generic from "./generic.js";
import { boardOf } from "../games.js";

const modules = new Map(); // board name -> Promise of its module (null when it could not be loaded)

function loadModule(name) {
  if (!modules.has(name)) {
    modules.set(
      name,
      import(`./${name}.js`).catch((err) => {
        console.error(err);
        return null;
      }),
    );
  }
  return modules.get(name);
}

/** The board of a game: {dedicated, render(el, ctx)}. Never rejects: the generic board is the fallback. */
export async function loadBoard(gameId) {
  let mod = null;
  try {
    const name = await boardOf(gameId);
    if (name) mod = await loadModule(name);
  } catch (err) {
    console.error(err);
  }
  return boardFrom(mod);
}

/** A board around a module (null: the generic board); a dedicated board that throws draws the generic one. */
export function boardFrom(mod) {
  if (!mod || typeof mod.render !== "function") return { dedicated: false, render: generic.render };
  return {
    dedicated: true,
    render(el, ctx) {
      try {
        mod.render(el, ctx);
      } catch (err) {
        console.error(err);
        generic.render(el, ctx);
      }
    },
  };
}
