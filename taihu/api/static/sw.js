// The page's service worker: the page opens with no network. Its own files (and the rules, the palette,
// the API's document and a ledger as last read) come from the network while there is one, and from the
// cache when there is not. Nothing else is touched: changes (POST, DELETE), anything sent with a token,
// and the live event stream always go to the server, so a deal is never answered from a cache.
"use strict";

const CACHE = "taihu-page";
const SHELL = ["./", "static/page.js", "static/qr.js", "static/reference.js", "static/page.css", "palette.json", "manifest.webmanifest",
  "static/icon-192.png", "favicon.ico"];
const KEPT = /\/(|static\/[\w./-]+|palette\.json|manifest\.webmanifest|favicon\.ico|rules|openapi\.json|ledgers\/[A-Za-z0-9_-]+)$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function kept(request) {
  if (request.method !== "GET" || request.headers.has("authorization")) return false;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return false;
  return KEPT.test(`/${url.pathname.slice(scope.pathname.length)}`);
}

self.addEventListener("fetch", (event) => {
  if (!kept(event.request)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const answer = await fetch(event.request);
      if (answer.ok) await cache.put(event.request, answer.clone());
      return answer;
    } catch (error) {
      const stored = await cache.match(event.request) ?? await cache.match(event.request, { ignoreSearch: true });
      if (stored) return stored;
      throw error;
    }
  })());
});
