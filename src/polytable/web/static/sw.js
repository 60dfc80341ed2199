// Service worker: the app shell (HTML, modules, styles, icon) and the offline engine (Pyodide and the rules
// wheel) are kept in a cache so the app opens and plays without a network and can be installed to the home
// screen. Network first, so an updated server is always used when it can be reached; rooms and the API are
// never cached (they always come from the server), except the static piece tables the boards read and the
// designer's figures.
// The Pyodide version is part of the cache's name: its files never change within a version, so they are
// served from the cache first (13 MB are not fetched again on every visit); a new version is a new cache.
const PYODIDE = "314.0.8"; // as pinned in scripts/npm-assets.sh (a test keeps the two equal)
const CACHE = `polytable-shell-v14-pyodide-${PYODIDE}`;
const SHELL = [
  "/",
  "/static/app.js",
  "/static/balance.js",
  "/static/boards/foldris.js",
  "/static/boards/forma.js",
  "/static/boards/formfinity.js",
  "/static/boards/generic.js",
  "/static/boards/index.js",
  "/static/boards/parts/forma-draw.js",
  "/static/boards/parts/forma-panels.js",
  "/static/boards/parts/quadefy-puzzle.js",
  "/static/boards/parts/quadefy-views.js",
  "/static/boards/parts/qwirkle-draw.js",
  "/static/boards/parts/qwirkle-panels.js",
  "/static/boards/parts/roving.js",
  "/static/boards/quadefy.js",
  "/static/boards/qwirkle-cubes.js",
  "/static/cardcode.js",
  "/static/companion.js",
  "/static/companion/card.js",
  "/static/companion/scan.js",
  "/static/designer.js",
  "/static/designer/fields.js",
  "/static/designer/file.js",
  "/static/designer/grid.js",
  "/static/dom.js",
  "/static/games.js",
  "/static/guide.js",
  "/static/i18n.js",
  "/static/i18n/en.json",
  "/static/i18n/glossary-en.json",
  "/static/i18n/glossary-nl.json",
  "/static/i18n/nl.json",
  "/static/i18n/readings.json",
  "/static/icon.svg",
  "/static/lib/companion.js",
  "/static/lib/designer.js",
  "/static/lib/foldris.js",
  "/static/lib/forma.js",
  "/static/lib/formfinity.js",
  "/static/lib/games.js",
  "/static/lib/grid-keys.js",
  "/static/lib/i18n.js",
  "/static/lib/newgame.js",
  "/static/lib/quadefy.js",
  "/static/lib/quadefy-views.js",
  "/static/lib/qwirkle-cubes.js",
  "/static/lib/room.js",
  "/static/lib/rules.js",
  "/static/lib/secure.js",
  "/static/lib/text.js",
  "/static/lib/reconnect.js",
  "/static/newgame.js",
  "/static/offline/engine.js",
  "/static/offline/worker.js",
  "/static/replay.js",
  "/static/room.js",
  "/static/room/panels.js",
  "/static/room/socket.js",
  "/static/rules.js",
  "/static/secure.js",
  "/static/story.js",
  "/static/style.css",
  "/manifest.webmanifest",
];
// The offline engine: cached apart from the shell, so a server without Pyodide (no npm at set-up) still
// caches its shell. About 13 MB, downloaded once.
const ENGINE = [
  "/offline/rules.whl",
  "/api/boards/forma",
  "/api/boards/quadefy",
  "/api/formfinity/designer",
  ...["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"].map(
    (f) => `/static/vendor/pyodide/${f}`,
  ),
];
const CACHED_API = new Set(["/api/boards/forma", "/api/boards/quadefy", "/api/formfinity/designer"]);
// Room, card, local and guided-game pages are the app shell; a card page reads its card from the address alone.
const APP_PAGES = /^\/(r|c|local|learn)\/|^\/(rules|designer|local)(\/|$)/;

self.addEventListener("install", (e) => {
  e.waitUntil(
    caches
      .open(CACHE)
      .then((c) => Promise.all([c.addAll(SHELL).catch(() => {}), ...ENGINE.map((url) => c.add(url).catch(() => {}))])),
  );
  self.skipWaiting();
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k)))));
  self.clients.claim();
});

self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== location.origin) return;
  const api = url.pathname.startsWith("/api/") && !CACHED_API.has(url.pathname);
  if (api || url.pathname.startsWith("/ws/") || url.pathname.startsWith("/print/")) return;
  const page = APP_PAGES.test(url.pathname);
  const key = page
    ? "/"
    : url.pathname.startsWith("/static/") || url.pathname.startsWith("/offline/")
      ? url.pathname
      : e.request;
  if (url.pathname.startsWith("/static/vendor/pyodide/")) {
    e.respondWith(
      caches.match(key).then(
        (hit) =>
          hit ||
          fetch(e.request).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              caches.open(CACHE).then((c) => c.put(key, copy));
            }
            return res;
          }),
      ),
    );
    return;
  }
  e.respondWith(
    fetch(e.request)
      .then((res) => {
        if (res.ok && !page) {
          const copy = res.clone();
          caches.open(CACHE).then((c) => c.put(key, copy));
        }
        return res;
      })
      .catch(() => caches.match(key)),
  );
});
