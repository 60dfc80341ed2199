// Shared by the client's unit tests: the static folder and an English translator over the shipped en.json.
import { readFileSync } from "node:fs";
import { translator } from "../../src/polytable/web/static/lib/i18n.js";

export const STATIC = new URL("../../src/polytable/web/static/", import.meta.url);
export const english = JSON.parse(readFileSync(new URL("i18n/en.json", STATIC), "utf-8"));
export const dutch = JSON.parse(readFileSync(new URL("i18n/nl.json", STATIC), "utf-8"));
export const { t } = translator(english, english);
