// A campaign's page left open stays current (junta/site/live.py answers): every few seconds
// while the page is in view (the game menu's data-live-interval), and at once when it comes
// back into view, it asks what changed; an ETag lets the server answer 304 when nothing did
// (static/js/changed.js).
// In place: the game menu's unread count, the Status page's "Who is in" and, once the phase the
// page shows has its results out, a banner (a polite live region: it is read out, the focus
// stays where it is) with a link to reload. After an error it waits longer each time. Without
// it the pages are as they were drawn.
(function () {
  "use strict";
  var nav = document.querySelector("[data-live]");
  if (!nav || !window.fetch || !window.juntaChanged) { return; }
  var url = nav.getAttribute("data-live");
  var every = parseInt(nav.getAttribute("data-live-interval"), 10) || 15000;
  var banner = document.querySelector("[data-live-banner]");
  var shown = banner ? banner.getAttribute("data-live-phase") : "";
  if (shown) { url += "?phase=" + encodeURIComponent(shown); }
  var last = { etag: null };
  var busy = false;
  var wait = every;
  var timer = null;

  function count(name, n) {
    var link = nav.querySelector('[data-live-count="' + name + '"]');
    if (!link) { return; }
    var badge = link.querySelector(".badge");
    if (!n) { if (badge) { badge.remove(); } return; }
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "badge badge-new";
      link.appendChild(document.createTextNode(" "));
      link.appendChild(badge);
    }
    badge.textContent = String(n);
    var hidden = document.createElement("span");
    hidden.className = "visually-hidden";
    hidden.textContent = " " + (link.getAttribute("data-live-unread") || "unread");  // translated
    badge.appendChild(hidden);
  }

  function whoIsIn(rows) {
    rows.forEach(function (row) {
      var cell = document.querySelector('[data-live-seat="' + row.seat + '"] [data-orders]');
      if (!cell || cell.getAttribute("data-orders") === row.orders) { return; }
      cell.setAttribute("data-orders", row.orders);
      cell.className = "in-orders-" + row.orders;
      cell.textContent = row.orders;
    });
  }

  function showBanner(phase) {
    if (!banner || banner.childElementCount) { return; }
    var p = document.createElement("p");
    p.appendChild(document.createTextNode(phase.published
      ? "The results of " + phase.label + " are out. "
      : "The campaign has moved on from " + phase.label + ". "));
    var link = document.createElement("a");
    link.href = window.location.pathname + window.location.search;
    link.textContent = phase.published ? "Reload the page to read them" : "Reload the page";
    p.appendChild(link);
    banner.appendChild(p);
  }

  function apply(data) {
    count("talk", data.unread && data.unread.talk);
    if (data.shown && data.shown.changed) {
      showBanner(data.shown);  // the table is of a phase gone by: leave it as it was
    } else {
      whoIsIn(data.who_is_in || []);
    }
  }

  function later() {
    window.clearTimeout(timer);
    timer = window.setTimeout(poll, wait);
  }

  function poll() {
    if (busy) { return; }
    if (document.visibilityState === "hidden") { later(); return; }
    busy = true;
    window.juntaChanged(url, last)
      .then(function (data) {
        if (data) { apply(data); }
        wait = every;
      })
      .catch(function () { wait = Math.min(wait * 2, 300000); })
      .then(function () { busy = false; later(); });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { poll(); }
  });
  later();
})();
