// The replay of a campaign (junta/games/replay_views.py): steps without reloading the page.
// Each step is a page of its own drawn by the server (its links and its slider's form work
// without this script); here First/Previous/Next/Last, the slider and the keys Left, Right,
// Home and End fetch the step's page and put its replay in place of this one, keeping the
// address shareable (history.pushState) and saying the step in a polite live region. The
// moves of a step are drawn one after another, then the units at their new places (the Web
// Animations API); with reduced motion asked, the end state at once. When the drawing is done
// the step carries data-drawn: "animated", or "at-once" when nothing was animated.
(function () {
  "use strict";
  var root = document.querySelector("[data-replay]");
  if (!root || !window.fetch || !window.DOMParser) { return; }
  var live = document.querySelector("[data-replay-live]");
  var motion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var asked = 0;  // the latest step asked for: an older answer is dropped

  function urls() { return root.getAttribute("data-urls").split(" "); }

  function current() {
    var slider = root.querySelector("[data-replay-slider]");
    return slider ? parseInt(slider.value, 10) : 1;
  }

  function reduced() { return !!(motion && motion.matches); }

  function draw() {
    var step = root.querySelector("[data-replay-step]");
    if (!step) { return; }
    var svg = step.querySelector("svg.citymap");
    var arrows = svg ? Array.prototype.slice.call(svg.querySelectorAll(".cm-move")) : [];
    function done(how) { return function () { step.setAttribute("data-drawn", how); }; }
    if (reduced() || !arrows.length || typeof step.animate !== "function") {
      done("at-once")();
      return;
    }
    var after = Array.prototype.slice.call(svg.querySelectorAll(
      ".cm-counter, .cm-battle-rings, .cm-battles, .cm-retreats"));
    var each = Math.min(250, 1200 / arrows.length);
    var running = arrows.map(function (arrow, i) {
      return arrow.animate([{ opacity: 0 }, { opacity: 1 }],
        { duration: each, delay: i * each, fill: "backwards", easing: "ease-out" });
    });
    after.forEach(function (el) {
      running.push(el.animate([{ opacity: 0 }, { opacity: 1 }],
        { duration: 300, delay: arrows.length * each, fill: "backwards" }));
    });
    Promise.all(running.map(function (a) { return a.finished; }))
      .then(done("animated"), done("animated"));
  }

  function focusKey() {
    var el = document.activeElement;
    if (!el || !root.contains(el)) { return null; }
    if (el.hasAttribute("data-replay-slider")) { return "[data-replay-slider]"; }
    var go = el.getAttribute("data-replay-go");
    return go ? "[data-replay-go='" + go + "']" : null;
  }

  function show(url, push) {
    var ask = ++asked;
    var keep = focusKey();
    root.setAttribute("aria-busy", "true");
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      })
      .then(function (html) {
        if (ask !== asked) { return; }
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.querySelector("[data-replay]");
        if (!fresh) { throw new Error("no replay"); }
        root.innerHTML = fresh.innerHTML;
        ["data-urls", "data-say", "data-title"].forEach(function (name) {
          root.setAttribute(name, fresh.getAttribute(name) || "");
        });
        root.removeAttribute("aria-busy");
        document.title = root.getAttribute("data-title");
        if (push) { history.pushState({ replay: url }, "", url); }
        if (live) { live.textContent = root.getAttribute("data-say"); }
        var target = keep && (root.querySelector(keep) || root.querySelector("[data-replay-slider]"));
        if (target) { target.focus(); }
        draw();
      })
      .catch(function () {
        if (ask === asked) { window.location.assign(url); }  // the page itself says why
      });
  }

  function go(n) {
    var all = urls();
    n = Math.max(1, Math.min(all.length, n));
    if (n === current()) { return; }
    show(all[n - 1], true);
  }

  root.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-replay-go]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button) { return; }
    event.preventDefault();
    var n = urls().indexOf(link.getAttribute("href"));
    if (n >= 0) { go(n + 1); }
  });
  root.addEventListener("input", function (event) {
    if (!event.target.hasAttribute("data-replay-slider")) { return; }
    var count = root.querySelector("[data-replay-count]");
    if (count) { count.textContent = event.target.value + " of " + urls().length; }
  });
  root.addEventListener("change", function (event) {
    if (event.target.hasAttribute("data-replay-slider")) {
      show(urls()[parseInt(event.target.value, 10) - 1], true);
    }
  });
  root.addEventListener("submit", function (event) {
    event.preventDefault();
    var slider = root.querySelector("[data-replay-slider]");
    if (slider) { show(urls()[parseInt(slider.value, 10) - 1], true); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var t = event.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(t.tagName))) {
      return;  // the slider steps by itself (then "change"); a field keeps its keys
    }
    if (t && t.closest && t.closest(".citymap-frame, .table-scroll")) { return; }  // scrolls
    var n = { ArrowLeft: current() - 1, ArrowRight: current() + 1, Home: 1,
              End: urls().length }[event.key];
    if (n === undefined) { return; }
    event.preventDefault();
    go(n);
  });
  window.addEventListener("popstate", function () {
    if (urls().indexOf(window.location.pathname) >= 0) { show(window.location.pathname, false); }
  });
  draw();
}());
