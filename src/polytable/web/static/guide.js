// The guided first game's panel (/learn/<game>): what the game is, what to do now, whom the learner waits
// for, the points explained when the learner scores, and "Show me a good move" (the hint is drawn on the
// board by the board itself: nothing here is notation; the same button serves any room where no other
// person plays). Its only state is the coach object it is given.
import { h } from "./dom.js";
import { t, tOr } from "./i18n.js";

/** A coach for one guided game: what it said since the last change of the game. */
export function newCoach(guide) {
  return { guide, version: -1, scores: null, said: [] };
}

/** The panel's children for the latest state: ``hinted`` (a hint is on the board), ``askHint()`` asks one. */
export function guideChildren(coach, { msg, target, part, seatName, hinted, askHint }) {
  const guide = coach.guide;
  if (coach.version !== msg.version) {
    const scores = msg.scores || [];
    const gained = coach.scores && target !== null ? (scores[target] || 0) - (coach.scores[target] || 0) : 0;
    const why = tOr(`learn.${guide}.score`, "");
    coach.said = [];
    // What the game is, until the learner's first move (an AI moving first or alongside does not hide it).
    if (!(msg.history || []).some((e) => e.player === target)) coach.said.push(t(`learn.${guide}.intro`));
    if (gained > 0) coach.said.push([t("learn.scored", { n: gained }), why].filter(Boolean).join(" "));
    coach.version = msg.version;
    coach.scores = scores;
  }
  const lines = [...coach.said, now(guide, msg, part, seatName)].filter(Boolean);
  return [
    h("h2", {}, t("learn.title")),
    ...lines.map((x) => h("p", {}, x)),
    ...hintChildren(msg, part, hinted, askHint),
  ];
}

/** "Show me a good move" while the seat is to act, and the line that says the hint is on the board: in the
 * guided game's panel, and over the board in any room where no other person plays (against AIs, hot-seat). */
export function hintChildren(msg, part, hinted, askHint) {
  const toAct = !msg.over && part && part.to_act;
  const show = toAct
    ? h(
        "button",
        { type: "button", class: "secondary", id: "learn-hint", disabled: !!hinted, onclick: askHint },
        t("learn.showMe"),
      )
    : null;
  return [show, h("p", { id: "learn-try", class: "help" }, toAct && hinted ? t("learn.shown") : "")];
}

// The line for this moment: the end, the learner's turn, or whom the learner waits for.
function now(guide, msg, part, seatName) {
  if (msg.over) return t(`learn.${guide}.end`);
  if (part && part.to_act) return t(`learn.${guide}.turn`);
  const who = msg.acting.map(seatName).join(", ");
  return who ? t("learn.waitFor", { who }) : "";
}
