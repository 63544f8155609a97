// A conversation left open shows new messages without a reload: every few seconds while the
// page is in view it asks for the messages after the last one shown (static/js/changed.js,
// loaded before it: an ETag lets the server answer 304 when nothing was written). A message
// written is sent in place (the view answers the script in JSON): it joins the list, the box
// empties and keeps the focus, and what came of it is said in the form's status line and at
// the head of the title, as a page sent back says it (static/js/page_alert.js); a refusal
// keeps the text in the box. If the server cannot be reached, the form is sent as without
// the script.
(function () {
  var list = document.querySelector("[data-talk-poll]");
  if (!list || !window.fetch || !window.juntaChanged) { return; }
  var sendForm = document.querySelector("form[data-talk-send]");
  var status = document.querySelector("[data-talk-status]");
  var title = document.title;
  if (document.querySelector("[data-page-alert]")) { title = title.replace(/^.*? — /, ""); }

  function show(html, id) {
    if (document.getElementById("m" + id)) { return; }
    var empty = list.querySelector("p.muted");
    if (empty) { empty.remove(); }
    list.insertAdjacentHTML("beforeend", html);
  }

  function say(text, error) {
    status.textContent = (error ? "Error: " : "") + text;
    status.className = "talk-sent " + (error ? "error" : "status status-good");
    document.title = (error ? "Error: " : "") + text + " — " + title;
  }

  if (sendForm && status) {
    var box = sendForm.querySelector("textarea");
    var button = sendForm.querySelector("button[type=submit]");
    sendForm.addEventListener("submit", function (event) {
      event.preventDefault();
      if (button.disabled) { return; }
      button.disabled = true;
      fetch(window.location.pathname, {
        method: "POST", body: new FormData(sendForm), credentials: "same-origin",
        headers: { "Accept": "application/json" }
      })
        .then(function (response) {
          var type = response.headers.get("Content-Type") || "";
          if (type.indexOf("application/json") !== 0) { throw new Error("not JSON"); }
          return response.json();
        })
        .then(function (data) {
          button.disabled = false;
          // the box keeps the focus; refused, it is marked so and described by why
          var described = (box.getAttribute("aria-describedby") || "").split(" ")
            .filter(function (id) { return id && id !== status.id; });
          if (data.sent) {
            show(data.html, data.id);
            box.value = "";
            box.removeAttribute("aria-invalid");
            say(data.message, false);
          } else {
            box.setAttribute("aria-invalid", "true");
            described.push(status.id);
            say(data.errors.join(" "), true);
          }
          box.setAttribute("aria-describedby", described.join(" "));
          box.focus();
        })
        .catch(function () { sendForm.submit(); });  // as without the script
    });
  }
  var url = list.getAttribute("data-talk-poll");
  var after = list.getAttribute("data-after") || "0";
  var read = list.getAttribute("data-read") === "1";
  var last = { etag: null };
  var busy = false;
  var delay = 4000;

  function poll() {
    if (busy || document.visibilityState === "hidden") { return; }
    busy = true;
    window.juntaChanged(url + "?after=" + encodeURIComponent(after) + (read ? "&read=1" : ""),
                        last)
      .then(function (data) {
        if (!data || !data.messages) { return; }
        data.messages.forEach(function (m) { show(m.html, m.id); });
        after = String(data.last);
      })
      .catch(function () { /* the next tick tries again */ })
      .then(function () { busy = false; });
  }
  setInterval(poll, delay);
  document.addEventListener("visibilitychange", poll);
})();
