// What a page left open asks the server (static/js/live.js, static/js/talk.js): a JSON answer,
// sent with the ETag of the last one, so that the server answers 304 when nothing changed;
// `juntaChanged(url, last)` gives the answer, or null for a 304, and keeps the new ETag in
// `last.etag`. Brought by each page that polls, perhaps twice: the second copy does nothing.
(function () {
  "use strict";
  if (window.juntaChanged) { return; }
  window.juntaChanged = function (url, last) {
    var headers = { "Accept": "application/json" };
    if (last.etag) { headers["If-None-Match"] = last.etag; }
    return fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 304) { return null; }
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        last.etag = response.headers.get("ETag");
        return response.json();
      });
  };
})();
