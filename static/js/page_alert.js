// A page that comes back after a form was sent says first what came of it: the focus moves to
// its alert (the site's messages, or the error summary of a form sent back to be corrected),
// so a screen reader reads it out at once; the <title> already begins with it
// (junta/games/templatetags/page_alert.py). The first alert on the page wins. Each alert
// brings this script (templates/includes/page_alert_script.html): a page without has none.
(function () {
  "use strict";
  var alert = document.querySelector("[data-page-alert]");
  if (!alert || alert.hasAttribute("data-page-alert-done")) { return; }  // a second copy
  alert.setAttribute("data-page-alert-done", "");
  alert.focus();
  // A page sent back to a place on it (a conversation at the message sent, #m12) loses the
  // focus when the browser goes to that place, as the page finishes loading: it comes back to
  // the alert, the page left where the browser put it.
  window.addEventListener("load", function () {
    if (!document.activeElement || document.activeElement === document.body) {
      alert.focus({preventScroll: true});
    }
  });
})();
