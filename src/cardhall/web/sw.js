// The service worker: it keeps the client's files (the page and every file under /static/) so that the
// site opens at once on a later visit, and opens at all without a network (the page then says there is
// none: offline.js). The server serves this file at /sw.js with VERSION and FILES filled in
// (cardhall.server.pages): the version is a hash of every client file, so any change on the server makes
// a new worker, which the browser finds at the next visit.
//
// Decisions:
// - Each version's files live in a cache of their own (cardhall-<version>), fetched whole when the
//   worker installs; a page is always served from one version's cache, never a mix of two (a module of
//   one version importing a module of another could fail).
// - A new worker waits until the page lets it take over (offline.js: at once when the page has just
//   opened, else when the person reloads from its notice), then drops the older caches. So a new version
//   reaches the browser at the latest on the visit after the one that found it: no page is stale for ever.
// - Only the page's own addresses and /static/ files are answered here; the API, the websocket, the
//   health and metrics routes go to the network as they would without a worker.
const VERSION = "__VERSION__";
const FILES = ["__FILES__"];
const CACHE = `cardhall-${VERSION}`;
// The addresses of the page's screens (as the server routes them: cardhall.server.pages).
const PAGE = /^\/(?:tables\/[\w-]+(?:\/replay)?|players\/\d+|rules\/\w+)?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys().then((keys) => Promise.all(keys.filter((k) => k.startsWith("cardhall-") && k !== CACHE).map((k) => caches.delete(k)))),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "take-over") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  let key = null;
  if (request.mode === "navigate" && PAGE.test(url.pathname)) key = "/"; // every screen is the one page
  else if (url.pathname.startsWith("/static/") && FILES.includes(url.pathname)) key = url.pathname;
  if (!key) return;
  event.respondWith(
    caches
      .open(CACHE)
      .then((cache) => cache.match(key))
      .then((kept) => kept || fetch(request)),
  );
});
