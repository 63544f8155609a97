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
  // A form re-shown with errors: bring its first message into view for keyboard users.
  var summary = document.getElementById("order-errors");
  if (summary) { summary.focus(); }
})();
