// Karanor Online's service worker (served at /sw.js: its scope is the whole site).
// - Keeps the offline page and shows it when a page cannot be loaded ("the server is not
//   reachable"); every other request goes to the network as usual.
// - Shows the server's Web Push notices (app/notices) and opens the room on a click.
const CACHE = "karanor-shell-1";
const OFFLINE = "/offline";
const KEPT = [OFFLINE, "/static/css/offline.css", "/static/icons/icon.svg", "/static/icons/icon-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEPT)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () => (await caches.match(OFFLINE)) || Response.error()));
    return;
  }
  const url = new URL(request.url);
  if (url.origin === self.location.origin && KEPT.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(async () => (await caches.match(request)) || Response.error()));
  }
});

self.addEventListener("push", (event) => {
  let notice = {};
  try { notice = event.data ? event.data.json() : {}; } catch { notice = { body: event.data?.text() }; }
  const title = notice.title || "Karanor Online";
  event.waitUntil(self.registration.showNotification(title, {
    body: notice.body || "",
    tag: notice.tag || undefined, // one notice per room: a newer one replaces it
    renotify: Boolean(notice.tag),
    icon: "/static/icons/icon-192.png",
    data: { url: notice.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const same = open.find((client) => client.url === target);
    if (same) return same.focus();
    return self.clients.openWindow(target);
  })());
});
