{% autoescape off %}/* Junta's service worker, served at /sw.js by junta/site/pwa.py (its scope: the whole site).

- Navigations go to the network first; when it fails (no connection), the answer is the offline
  page kept at installation, which static/js/pwa.js fills with the copy of the page asked for, as
  last seen. No other page is ever kept or answered from here: a stale Orders page or form is
  never shown.
- The static files the offline page needs are kept at installation; a static file whose name
  carries its hash (WhiteNoise's manifest storage) is answered from the cache first, any other
  from the network and from the cache only when the network fails.
- A push message (UTF-8 JSON: title, body, url, tag) always shows a notification; a click on it
  brings a window of the site to its url, a path on this site (anything else: the dashboard).
*/
"use strict";

const CONFIG = {{ config }};
const SHELL = "junta-shell-" + CONFIG.version;  // this version's offline page and files
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(CONFIG.shell))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith("junta-shell-") && name !== SHELL)
    .map((name) => caches.delete(name)))).then(() => self.clients.claim()));
});

async function navigate(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const kept = await caches.match(CONFIG.offline, {cacheName: SHELL});
    if (kept) return kept;
    throw error;
  }
}

async function staticFile(request, path) {
  const cache = await caches.open(SHELL);
  if (HASHED.test(path)) {
    const kept = await cache.match(request);
    if (kept) return kept;
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  }
  try {
    return await fetch(request);
  } catch (error) {
    const kept = await cache.match(request, {ignoreSearch: true});
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(request));
  } else if (url.pathname.startsWith(CONFIG.staticPrefix)) {
    event.respondWith(staticFile(request, url.pathname));
  }
});

/* A path on this site from a message's url: "/games/3/status/" stays, anything else
   (another site, "//elsewhere", "javascript:...", not a string) is the dashboard. */
function sitePath(value) {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return "/";
  const url = new URL(value, self.location.origin);
  return url.origin === self.location.origin ? url.pathname + url.search + url.hash : "/";
}

function text(value) {
  return typeof value === "string" ? value : "";
}

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (error) {
    message = {};
  }
  if (message === null || typeof message !== "object") message = {};
  const options = {
    body: text(message.body),
    data: {url: sitePath(message.url)},
    icon: CONFIG.icon,
    badge: CONFIG.badge,
  };
  if (text(message.tag)) options.tag = message.tag;
  event.waitUntil(self.registration.showNotification(text(message.title) || "Junta", options));
});

async function openPath(path) {
  const target = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({type: "window", includeUncontrolled: true});
  for (const client of windows) {
    if (new URL(client.url).origin !== self.location.origin) continue;
    try {
      const moved = client.url === target ? client : await client.navigate(target);
      if (moved) {
        await moved.focus().catch(() => undefined);
        return;
      }
    } catch (error) {
      // not controlled by this worker (navigate refuses): try the next window
    }
  }
  await self.clients.openWindow(target);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(openPath(sitePath(data.url)));
});
{% endautoescape %}
