// Text helpers of the client with no DOM (unit-tested by tests/js): clocks and the like.

/** A clock's time left as shown on a seat: "m:ss" under an hour, room.clockHours ("{h} h {m} min") above;
 * ``t`` is the translation function (i18n.js), negative times show as 0:00. */
export function clockText(seconds, t) {
  const left = Math.max(0, seconds);
  if (left >= 3600) return t("room.clockHours", { h: Math.floor(left / 3600), m: Math.floor((left % 3600) / 60) });
  const s = Math.floor(left);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The first line of a finished game's result: who won (room.winsOne, or room.youWin when ``me`` is the
 * seat of the one person at this device), a shared win (room.winsShared with the names joined), nobody
 * (room.winsNobody), or for one player whether the game counts as won (room.soloWon / room.soloDone);
 * ``seatName(p)`` names a seat, ``t`` translates. */
export function resultHeadline(result, players, seatName, t, me = null) {
  const winners = (result && result.winners) || [];
  if (players === 1) return t(winners.length ? "room.soloWon" : "room.soloDone");
  if (!winners.length) return t("room.winsNobody");
  if (winners.length === 1 && winners[0] === me) return t("room.youWin");
  if (winners.length === 1) return t("room.winsOne", { name: seatName(winners[0]) });
  const names = winners.map(seatName);
  return t("room.winsShared", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}
