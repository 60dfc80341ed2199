import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { gameWords, readingNotes, rulesPage } from "../../src/polytable/web/static/lib/rules.js";
import { STATIC, english, dutch } from "./_helpers.mjs";

const json = (path) => JSON.parse(readFileSync(new URL(path, STATIC), "utf-8"));
const readings = json("i18n/readings.json");
const rulesJs = readFileSync(new URL("rules.js", STATIC), "utf-8");
// The sections of each page, as rules.js lists them (the same list the page draws).
const SECTIONS = Function(
  `return ${rulesJs.slice(rulesJs.indexOf("{", rulesJs.indexOf("const SECTIONS")), rulesJs.indexOf("};", rulesJs.indexOf("const SECTIONS")) + 1)}`,
)();
const lookup = (dict) => (key) => (key in dict ? dict[key] : null);

for (const [lang, dict] of [
  ["en", english],
  ["nl", dutch],
]) {
  test(`every flagged rule carries its notes on the page model, and only those (${lang})`, () => {
    for (const page of Object.keys(SECTIONS)) {
      const model = rulesPage(page, SECTIONS[page], lookup(dict), readings);
      const flagged = Object.keys(readings[page].items).map((item) => `rules.${page}.${item}`);
      const marked = model.readings.map((i) => i.key);
      assert.deepEqual(marked.sort(), flagged.sort(), page);
      for (const item of model.readings) {
        assert.ok(item.text && !item.text.startsWith("rules."), item.key);
        for (const n of item.notes) assert.ok(["inferred", "chosen", "accepted"].includes(n.kind), n.note);
      }
      assert.equal(model.file, readings[page].notes);
      // Every item of every section is on the page, in order, numbered from 1.
      for (const sec of model.sections) {
        assert.ok(sec.items.length >= 1, `${page}.${sec.id}`);
        sec.items.forEach((item, i) => assert.equal(item.key, `rules.${page}.${sec.id}.${i + 1}`));
      }
    }
  });
}

test("the notes of a page are listed once each, in page order", () => {
  const model = rulesPage("formfinity", SECTIONS.formfinity, lookup(english), readings);
  const notes = readingNotes(model).map((n) => n.note);
  assert.equal(new Set(notes).size, notes.length);
  assert.ok(notes.includes("FF48") && notes.indexOf("FFC3") < notes.indexOf("FF48"));
  assert.deepEqual(
    model.readings.find((i) => i.key === "rules.formfinity.v3.5").notes.map((n) => n.kind),
    ["accepted", "chosen"],
  );
});

test("a page without readings has no marks; a game without a glossary has no words", () => {
  const model = rulesPage("formfinity", SECTIONS.formfinity, lookup(english), {});
  assert.equal(model.readings.length, 0);
  assert.deepEqual(gameWords({}, "nim"), []);
  const words = gameWords(json("i18n/glossary-nl.json"), "forma");
  assert.ok(words.some((w) => w.term === "legvorm" && w.means));
});
