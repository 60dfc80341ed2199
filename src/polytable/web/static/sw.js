// Service worker: the app shell (HTML, modules, styles, icon) is kept in a cache so the app opens without a
// network and can be installed to the home screen. Network first, so an updated server is always used when
// it can be reached; the API and WebSockets are never cached (rooms always come from the server).
const CACHE = "polytable-shell-v4";
const SHELL = ["/", "/static/app.js", "/static/room.js", "/static/dom.js", "/static/companion.js", "/static/cardcode.js",
  "/static/boards/index.js", "/static/boards/generic.js", "/static/boards/formfinity.js", "/static/boards/foldris.js",
  "/static/boards/forma.js", "/static/boards/qwirkle.js", "/static/boards/quadefy.js", "/static/i18n.js",
  "/static/i18n/en.json", "/static/i18n/nl.json", "/static/i18n/engine.nl.json", "/static/rules.js", "/static/designer.js",
  "/static/style.css", "/static/icon.svg", "/manifest.webmanifest"];

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).catch(() => {}));
  self.skipWaiting();
});

self.addEventListener("activate", (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k)))));
  self.clients.claim();
});

self.addEventListener("fetch", (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/") || url.pathname.startsWith("/print/")) return;
  // Room and card pages are the app shell; a card page then reads its card from the address alone.
  const shellPage = url.pathname.startsWith("/r/") || url.pathname.startsWith("/c/");
  const key = shellPage ? "/" : e.request;
  e.respondWith(
    fetch(e.request).then((res) => {
      if (res.ok && !shellPage) {
        const copy = res.clone();
        caches.open(CACHE).then((c) => c.put(e.request, copy));
      }
      return res;
    }).catch(() => caches.match(key)),
  );
});
