// A conversation left open shows new messages without a reload: every few seconds while the
// page is in view it asks for the messages after the last one shown (an ETag lets the server
// answer 304 when nothing was written). No dependencies.
(function () {
  var list = document.querySelector("[data-talk-poll]");
  if (!list || !window.fetch) { return; }
  var url = list.getAttribute("data-talk-poll");
  var after = list.getAttribute("data-after") || "0";
  var read = list.getAttribute("data-read") === "1";
  var etag = null;
  var busy = false;
  var delay = 4000;

  function poll() {
    if (busy || document.visibilityState === "hidden") { return; }
    busy = true;
    var headers = { "Accept": "application/json" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(url + "?after=" + encodeURIComponent(after) + (read ? "&read=1" : ""),
          { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 304) { return null; }
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        etag = response.headers.get("ETag");
        return response.json();
      })
      .then(function (data) {
        if (!data || !data.messages) { return; }
        var empty = list.querySelector("p.muted");
        data.messages.forEach(function (m) {
          if (document.getElementById("m" + m.id)) { return; }
          if (empty) { empty.remove(); empty = null; }
          list.insertAdjacentHTML("beforeend", m.html);
        });
        after = String(data.last);
      })
      .catch(function () { /* the next tick tries again */ })
      .then(function () { busy = false; });
  }
  setInterval(poll, delay);
  document.addEventListener("visibilitychange", poll);
})();
