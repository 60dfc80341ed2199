// Text helpers of the client with no DOM (unit-tested by tests/js): clocks and the like.

/** A clock's time left as shown on a seat: "m:ss" under an hour, room.clockHours ("{h} h {m} min") above;
 * ``t`` is the translation function (i18n.js), negative times show as 0:00. */
export function clockText(seconds, t) {
  const left = Math.max(0, seconds);
  if (left >= 3600) return t("room.clockHours", { h: Math.floor(left / 3600), m: Math.floor((left % 3600) / 60) });
  const s = Math.floor(left);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
