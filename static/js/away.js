// The GameMaster's list of players away (notify/_absences_gm.html) stays true on a page left
// open: <li data-away-from="ISO" data-away-until="ISO">, the midnights that start the first day
// away and end the last, in the player's own zone. "Away now:" is shown from the first, the line
// is hidden from the second. The server draws them as they stand when the page is drawn.
(function () {
  "use strict";
  var rows = document.querySelectorAll("li[data-away-from][data-away-until]");
  if (!rows.length) { return; }
  function render() {
    var now = Date.now();
    rows.forEach(function (li) {
      var from = Date.parse(li.getAttribute("data-away-from"));
      var until = Date.parse(li.getAttribute("data-away-until"));
      var mark = li.querySelector("[data-away-now]");
      li.hidden = now >= until;
      if (now >= from && now < until && !mark) {
        mark = document.createElement("strong");
        mark.setAttribute("data-away-now", "");
        mark.textContent = "Away now:";
        li.insertBefore(document.createTextNode(" "), li.firstChild);
        li.insertBefore(mark, li.firstChild);
      } else if (now < from && mark) {
        var next = mark.nextSibling;  // " Don Carlos": the space after the mark goes with it
        if (next && next.nodeType === 3) { next.textContent = next.textContent.replace(/^ /, ""); }
        mark.remove();
      }
    });
  }
  render();
  setInterval(render, 60000);
})();
