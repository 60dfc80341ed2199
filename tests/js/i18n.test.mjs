import { test } from "node:test";
import assert from "node:assert/strict";
import { fill, pickLang, translator } from "../../src/polytable/web/static/lib/i18n.js";
import { english, dutch } from "./_helpers.mjs";

const LANGS = { en: "English", nl: "Nederlands" };

test("fill replaces each named placeholder and leaves unknown ones", () => {
  assert.equal(fill("{a} and {b}", { a: 1, b: "two" }), "1 and two");
  assert.equal(fill("{a}{a}", { a: "x" }), "xx");
  assert.equal(fill("{missing} stays", {}), "{missing} stays");
  assert.equal(fill("zero {n}", { n: 0 }), "zero 0");
  assert.equal(fill("no params"), "no params");
});

test("pickLang: the saved choice, else the browser's first offered language, else English", () => {
  assert.equal(pickLang("nl", ["en-GB"], LANGS), "nl");
  assert.equal(pickLang("fr", ["fr-FR", "nl-BE", "en"], LANGS), "nl");
  assert.equal(pickLang(null, ["NL"], LANGS), "nl");
  assert.equal(pickLang(null, ["de-DE", "fr"], LANGS), "en");
  assert.equal(pickLang(null, [], LANGS), "en");
  assert.equal(pickLang(null, undefined, LANGS), "en");
});

test("t: this language, then English, then the key itself", () => {
  const { t } = translator({ hello: "Hallo {name}" }, { hello: "Hello {name}", bye: "Bye" });
  assert.equal(t("hello", { name: "Ann" }), "Hallo Ann");
  assert.equal(t("bye"), "Bye");
  assert.equal(t("no.such.key"), "no.such.key");
});

test("tOr and gameName fall back to the given text for what no language has", () => {
  const { tOr, gameName } = translator({ "game.forma.name": "Forma NL" }, { empty: "", x: "X {n}" });
  assert.equal(tOr("x", "fallback", { n: 3 }), "X 3");
  assert.equal(tOr("nope", "fallback"), "fallback");
  assert.equal(tOr("empty", "fallback"), "fallback");
  assert.equal(gameName("forma", "Forma"), "Forma NL");
  assert.equal(gameName("nim", "Nim"), "Nim"); // a new game: the server's name
  assert.equal(gameName("nim"), "nim");
});

test("tError: reasons, engine codes with nested coded params, and the English fallback", () => {
  const dict = {
    "error.full": "De kamer is vol ({n})",
    "error.engine.bad_cell": "{cell} ligt {side}",
    "error.engine.word_top": "boven",
  };
  const { tError } = translator(dict, {});
  assert.equal(tError(null), "");
  assert.equal(tError({ reason: "full", params: { n: 4 }, message: "room full" }), "De kamer is vol (4)");
  assert.equal(tError({ reason: "unknown_reason", message: "English text" }), "English text");
  assert.equal(tError({ reason: "unknown_reason", error: "from error" }), "from error");
  assert.equal(tError({ reason: "engine", message: "no code" }), "no code");
  assert.equal(tError({ message: "no reason" }), "no reason");
  const coded = { cell: "c3", side: { code: "word_top", message: "top", params: {} } };
  assert.equal(tError({ reason: "engine.bad_cell", params: coded, message: "c3 is top" }), "c3 ligt boven");
  // an engine code this language lacks: the engine's English message, never a half-translated template
  assert.equal(tError({ reason: "engine.other", params: {}, message: "raw English" }), "raw English");
  const nestedUnknown = { cell: "c3", side: { code: "word_left", message: "left" } };
  assert.equal(tError({ reason: "engine.bad_cell", params: nestedUnknown, message: "m" }), "c3 ligt left");
});

test("the shipped translations: the same keys and placeholders in English and Dutch", () => {
  const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  const missing = Object.keys(english).filter((k) => !(k in dutch));
  assert.deepEqual(missing, []);
  const differ = Object.keys(english).filter((k) => k in dutch && holes(english[k]).join() !== holes(dutch[k]).join());
  assert.deepEqual(differ, []);
  const { t } = translator(dutch, english);
  assert.equal(t("room.seat", { n: 2 }).includes("2"), true);
});
