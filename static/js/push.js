// The profile's "Notifications on your phone" (junta/notify/templates/notify/_push_panel.html):
// says whether this browser gets push notifications and, on the button's click only, asks the
// browser's permission, subscribes with the site's VAPID public key (data-public-key) through
// the service worker /sw.js, and posts the subscription (its toJSON(): endpoint, keys.p256dh,
// keys.auth) with the CSRF token to data-subscribe-url. The page then reloads, saying what came
// of it (the site's alert); a refusal is said here, in the page, and the focus moves to it.
(function () {
  "use strict";
  var panel = document.querySelector("[data-push]");
  if (!panel) { return; }
  var status = document.getElementById("push-status");
  var button = document.getElementById("push-on");
  var error = document.getElementById("push-error");
  var READY_WAIT = 15000;  // ms for the service worker to start before we say it did not
  // the words in the page's language (base.html loads the catalogue: junta/site/javascript.py)
  var _ = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace("%s", values[0]);
  };

  function say(text) { status.textContent = text; }

  function fail(text) {
    error.textContent = text;
    error.hidden = false;
    error.focus();
    button.disabled = false;
  }

  // the VAPID key as the browser wants it (applicationServerKey): base64url to bytes
  function keyBytes(base64url) {
    var base64 = (base64url + "===".slice((base64url.length + 3) % 4))
      .replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(base64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }

  function csrfToken() {
    var input = panel.closest("section").querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) ||
      !("Notification" in window)) {
    say(_("This browser cannot get push notifications."));
    return;
  }
  button.hidden = false;
  if (Notification.permission === "denied") {
    say(_("Notifications from this site are blocked in this browser's settings: allow them there, then turn them on here."));
  } else {
    say(_("This device gets no notifications from Junta yet."));
    navigator.serviceWorker.getRegistration("/").then(function (registration) {
      return registration ? registration.pushManager.getSubscription() : null;
    }).then(function (subscription) {
      if (subscription && Notification.permission === "granted") {
        say(_("This device gets notifications from Junta."));
        button.textContent = _("Turn on notifications on this device again");
      }
    }).catch(function () { /* the status above stands */ });
  }

  function ready() {
    return new Promise(function (resolve, reject) {
      var timer = window.setTimeout(function () {
        reject(new Error("the service worker did not start"));
      }, READY_WAIT);
      navigator.serviceWorker.ready.then(function (registration) {
        window.clearTimeout(timer);
        resolve(registration);
      });
    });
  }

  button.addEventListener("click", function () {
    button.disabled = true;
    error.hidden = true;
    say(_("Asking this browser for its permission…"));
    // the permission is asked here only: on this click, never when the page opens
    Promise.resolve(Notification.requestPermission()).then(function (permission) {
      if (permission !== "granted") {
        throw new Error("the browser did not allow notifications (" + permission + ")");
      }
      say(_("Turning notifications on…"));
      return navigator.serviceWorker.register("/sw.js").catch(function (reason) {
        throw new Error("the site's service worker (/sw.js) could not be loaded: " + reason);
      });
    }).then(ready).then(function (registration) {
      return registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(panel.getAttribute("data-public-key"))
      });
    }).then(function (subscription) {
      return fetch(panel.getAttribute("data-subscribe-url"), {
        method: "POST",
        credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken()},
        body: JSON.stringify(subscription.toJSON())
      });
    }).then(function (response) {
      if (response.ok) {
        window.location.reload();  // the devices' list, and the site's alert saying so
        return null;
      }
      return response.json().catch(function () { return {}; }).then(function (answer) {
        throw new Error(answer.error || "the site answered " + response.status);
      });
    }).catch(function (reason) {
      say(_("This device gets no notifications from Junta."));
      fail(interpolate(_("Notifications were not turned on: %s."),
                       [reason && reason.message || reason]));
    });
  });
})();
