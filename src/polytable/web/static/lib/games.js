// Reading the server's game list (/api/games), with no DOM or network (unit-tested by tests/js).

/** A game's `board` in a list: the board module's name, null (the generic board), or undefined when the list
 * does not say (the game is not in it, or the list predates the field). A name that is not a plain module
 * name (letters, digits, dashes) counts as none. */
export function boardIn(list, gameId) {
  const g = (list || []).find((x) => x && x.id === gameId);
  if (!g || g.board === undefined) return undefined;
  return typeof g.board === "string" && /^[a-z0-9][a-z0-9-]*$/.test(g.board) ? g.board : null;
}
