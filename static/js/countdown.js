// Live countdown to a deadline: <time data-countdown datetime="ISO">; no dependencies.
(function () {
  function render(el) {
    var end = Date.parse(el.getAttribute("datetime"));
    var left = Math.max(0, Math.floor((end - Date.now()) / 1000));
    var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600),
        m = Math.floor(left % 3600 / 60), s = left % 60;
    var text = left === 0 ? "the deadline has passed" :
      (d ? d + " d " : "") + (d || h ? h + " h " : "") + m + " min " + (d ? "" : s + " s ") + "left";
    var out = el.parentNode.querySelector("[data-countdown-text]");
    if (out) { out.textContent = text; }
  }
  var els = document.querySelectorAll("time[data-countdown]");
  els.forEach(render);
  if (els.length) { setInterval(function () { els.forEach(render); }, 1000); }
})();
