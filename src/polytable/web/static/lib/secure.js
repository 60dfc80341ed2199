// What the page's address lets the browser do (no DOM; unit-tested by tests/js). A service worker (offline
// play, installing the app) and the camera need a secure context: https, or this computer's own address. On
// https a service worker also needs a certificate the device trusts: the table's own certificate accepted
// with "Proceed" still refuses it (the registration fails with a SecurityError), while the camera works.

/** What is off here and what brings it back, or null when nothing is: ``off`` lists "offline", "install"
 * and "camera"; ``fix`` is "https" (open the table by an https address) or "trust" (trust its certificate);
 * ``cards`` says the printed QR cards' fallbacks apply (type the number, a photo, the phone's camera app). */
export function originLimits({ secure, workerError = null }) {
  if (!secure) return { off: ["offline", "install", "camera"], fix: "https", cards: true };
  if (workerError && workerError.name === "SecurityError")
    return { off: ["offline", "install"], fix: "trust", cards: false };
  return null;
}

/** The translation keys of the notice for ``limits`` (from originLimits), in the order shown. */
export function limitsText(limits) {
  if (!limits) return [];
  if (limits.fix === "https") return ["secure.offTitle", "secure.offWhy", "secure.offHow", "secure.offCards"];
  return [
    "secure.trustTitle",
    "secure.trustWhy",
    "secure.trustAndroid",
    "secure.trustIos",
    "secure.trustDesktop",
    "secure.trustThen",
  ];
}
