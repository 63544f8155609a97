/* The installable web app's side of every page (templates/base.html loads it).

- Registers the service worker (/sw.js, junta/site/templates/site/sw.js).
- Keeps what was last seen for the offline page: on the pages marked `data-pwa-keep` (the
  dashboard and each campaign's Status page) a copy of <main> with every form, button, input,
  select and textarea removed (never a stale form that could be sent), its title and the time,
  in the Cache Storage "junta-seen", under the page's path.
- Those copies belong to the person logged in: <body data-pwa-user> is his opaque id ("" for a
  visitor); when it differs from the one the copies were kept for (he logged out, another logged
  in), they are all thrown away first.
- On the offline page (`data-pwa-offline`, the worker's answer when the network is gone): shows
  the copy of the page asked for, marked "Offline, as of" its time, or the list of those kept.
*/
(function () {
  "use strict";
  const SEEN = "junta-seen";
  const OWNER = "/.pwa-owner";  // the key of the id the copies were kept for
  // never in a copy: what could be sent, what runs, and the messages of that moment
  const STRIP = "form, button, input, select, textarea, script, template, iframe, object, embed, "
    + "[data-page-alert]";
  const body = document.body;

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => undefined);
  }
  if (!("caches" in window)) return;

  function stripped(root) {
    root.querySelectorAll(STRIP).forEach((node) => node.remove());
    root.querySelectorAll("[data-countdown-text]").forEach((node) => { node.textContent = ""; });
    return root;
  }

  // The page's title without the site's name nor the message it began with ("Order added. — ")
  function label() {
    const title = document.title.replace(/ · Junta$/, "");
    const alert = document.querySelector("[data-page-alert]") ? title.indexOf(" — ") : -1;
    return alert >= 0 ? title.slice(alert + 3) : title;
  }

  async function keep(owner) {
    if (!owner) {  // nobody logged in (after a log-out): nobody's copies stay
      await caches.delete(SEEN);
      return;
    }
    let cache = await caches.open(SEEN);
    const mark = await cache.match(OWNER);
    if (!mark || (await mark.text()) !== owner) {  // another person's, or none yet
      await caches.delete(SEEN);
      cache = await caches.open(SEEN);
      await cache.put(OWNER, new Response(owner));
    }
    if (!body.hasAttribute("data-pwa-keep")) return;
    const main = document.querySelector("main");
    if (!main) return;
    const copy = {
      path: location.pathname,
      title: label(),
      html: stripped(main.cloneNode(true)).innerHTML,
      saved: new Date().toISOString(),
    };
    await cache.put(location.pathname, new Response(JSON.stringify(copy),
      {headers: {"Content-Type": "application/json"}}));
  }

  async function copies() {
    const cache = await caches.open(SEEN);
    const found = [];
    for (const request of await cache.keys()) {
      if (new URL(request.url).pathname === OWNER) continue;
      const response = await cache.match(request);
      try {
        found.push(await response.json());
      } catch (error) {
        // not a copy: skip it
      }
    }
    return found.sort((a, b) => a.path.localeCompare(b.path));
  }

  function when(iso) {
    const time = document.createElement("time");
    time.dateTime = iso;
    time.textContent = new Date(iso).toLocaleString();
    return time;
  }

  async function showOffline() {
    const kept = await copies();
    const list = document.getElementById("offline-list");
    for (const copy of kept) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = copy.path;
      link.textContent = copy.title || copy.path;
      item.append(link, " (as of ", when(copy.saved), ")");
      list.append(item);
    }
    document.getElementById("offline-none").hidden = kept.length > 0;
    const asked = kept.find((copy) => copy.path === location.pathname);
    if (!asked) return;
    const template = document.createElement("template");
    template.innerHTML = asked.html;
    const shown = document.getElementById("offline-copy");
    shown.append(stripped(template.content));
    const note = document.getElementById("offline-as-of");
    note.append(when(asked.saved), ". This copy cannot be changed or sent; reconnect to act.");
    note.hidden = false;
    shown.hidden = false;
    document.getElementById("offline-page").hidden = true;
    document.title = "Offline · " + asked.title + " · Junta";
  }

  if (body.hasAttribute("data-pwa-offline")) {
    showOffline();
  } else if (body.hasAttribute("data-pwa-user")) {
    keep(body.dataset.pwaUser).catch(() => undefined);
  }
})();
