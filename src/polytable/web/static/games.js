// The games the server offers (GET /api/games): the client's one game list, read by the home page, the rules
// pages and the room's board. The list the server last sent is kept in localStorage, so every page works
// offline with it; no game is named in the client.
import { api } from "./dom.js";
import { boardIn } from "./lib/games.js";

const KEY = "polytable.games";

/** The list the server last sent (empty when it never did, or in private mode). */
export function cachedGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY));
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** The server's list (then kept for offline) and online: true; the kept list and online: false without one. */
export async function loadGames() {
  let list;
  try {
    list = await api("/api/games");
  } catch {
    return { list: cachedGames(), online: false };
  }
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    /* private mode */
  }
  return { list, online: true };
}

/** The board module of a game (its `board` field), or null for the generic board; the kept list answers
 * when it knows the game, else the server is asked. */
export async function boardOf(gameId) {
  const known = boardIn(cachedGames(), gameId);
  if (known !== undefined) return known;
  return boardIn((await loadGames()).list, gameId) ?? null;
}
