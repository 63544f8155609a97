// Orders page: a condition shows only the details its kind needs. Progressive enhancement:
// without this script every detail field is shown and the server reads only the ones needed.
(function () {
  function update(box) {
    var kind = box.querySelector("[data-condition-kind]");
    if (!kind) { return; }
    box.querySelectorAll("[data-conditions]").forEach(function (field) {
      var show = kind.value !== "" && field.getAttribute("data-conditions").split(" ").indexOf(kind.value) >= 0;
      field.hidden = !show;
      field.querySelectorAll("input, select").forEach(function (el) { el.disabled = !show; });
    });
  }
  document.querySelectorAll("[data-condition]").forEach(function (box) {
    var hint = box.querySelector("[data-condition-hint]");
    if (hint) { hint.hidden = true; }
    var kind = box.querySelector("[data-condition-kind]");
    if (kind) { kind.addEventListener("change", function () { update(box); }); }
    update(box);
  });
  // A form re-shown with errors: its summary (#order-errors) takes the focus, as every page's
  // alert does (static/js/page_alert.js).
  // A form sent once: a second click while the next page loads would send it again (the
  // server refuses a second Remove of the same order, but says so in place of the result).
  var forms = document.querySelectorAll("main form[method=post]");
  function ready(form, on) {
    form.querySelectorAll("button").forEach(function (b) { b.disabled = !on; });
    if (on) { delete form.dataset.sent; } else { form.dataset.sent = "1"; }
  }
  forms.forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (form.dataset.sent) { event.preventDefault(); return; }
      window.setTimeout(function () { ready(form, false); }, 0);  // after the browser sent it
      form.dataset.sent = "1";
    });
  });
  // back to this page from the next one (the browser's page cache): the forms work again
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { forms.forEach(function (form) { ready(form, true); }); }
  });
})();
