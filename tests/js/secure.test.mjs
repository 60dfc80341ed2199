import { test } from "node:test";
import assert from "node:assert/strict";
import { originLimits, limitsText } from "../../src/polytable/web/static/lib/secure.js";
import { english, dutch, t } from "./_helpers.mjs";

const refused = Object.assign(new Error("An SSL certificate error occurred when fetching the script."), {
  name: "SecurityError",
});

test("an insecure address turns off offline play, installing and the camera; https brings them", () => {
  const limits = originLimits({ secure: false });
  assert.deepEqual(limits, { off: ["offline", "install", "camera"], fix: "https", cards: true });
  const text = limitsText(limits).map((k) => t(k));
  assert.match(text[0], /Offline play, installing the app and scanning cards with the camera are off/);
  assert.match(text.join(" "), /https/);
  // the fallbacks for printed QR cards: the number, a photo, the phone's own camera app
  assert.match(text.at(-1), /type a card's number/);
  assert.match(text.at(-1), /phone's own camera app/);
});

test("on https an untrusted certificate refuses the service worker only: trusting it is the way", () => {
  const limits = originLimits({ secure: true, workerError: refused });
  assert.deepEqual(limits, { off: ["offline", "install"], fix: "trust", cards: false });
  const text = limitsText(limits).map((k) => t(k));
  assert.match(text[0], /until this device trusts the table's certificate/);
  assert.match(text.join(" "), /Android/);
  assert.match(text.join(" "), /iPhone/);
});

test("nothing to say on a secure address whose service worker runs, or failed for another reason", () => {
  assert.equal(originLimits({ secure: true }), null);
  assert.equal(originLimits({ secure: true, workerError: new TypeError("network") }), null);
  assert.deepEqual(limitsText(null), []);
});

test("every line of the notice is said in English and in Dutch", () => {
  const keys = [
    ...limitsText(originLimits({ secure: false })),
    ...limitsText(originLimits({ secure: true, workerError: refused })),
    "secure.trustGet",
    "secure.trustAsk",
    "cp.cameraHttps",
  ];
  for (const key of keys) {
    assert.ok(english[key], `en: ${key}`);
    assert.ok(dutch[key] && dutch[key] !== english[key], `nl: ${key}`);
  }
});
