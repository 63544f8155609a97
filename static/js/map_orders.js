// Map page: zooming the city on small screens, and for a seated player ordering by tapping
// the map (junta/games/map_orders.py). A stack, then a zone or a target, fills in the Orders
// page's own form (same fields, CSRF token and state version; `from=map` brings the player
// back here), so the engine checks it and answers as on the Orders page. What a tap can order
// and how each order reads come from the server (the engine's shapes, values and sentences):
// this script keeps no list of kinds and no rule of the game. Progressive enhancement:
// without this script the orders drawn on the map are listed below it with their Remove
// buttons and the Orders page's forms give every order.
(function () {
  "use strict";
  var figure = document.querySelector(".citymap-figure");
  var frame = figure && figure.querySelector(".citymap-frame");
  var svg = frame && frame.querySelector("svg.citymap");
  if (!svg) { return; }

  // --- zoom: the map drawn 1 to 4 times the frame's width, panned by scrolling ------------
  var MAX_ZOOM = 4;
  var level = 1;
  var zoomBox = figure.querySelector("[data-map-zoom]");
  var zoomOut = zoomBox && zoomBox.querySelector("[data-zoom='-1']");
  var zoomIn = zoomBox && zoomBox.querySelector("[data-zoom='1']");
  var zoomLevel = zoomBox && zoomBox.querySelector("[data-zoom-level]");
  var zoomHint = zoomBox && zoomBox.querySelector("[data-zoom-hint]");

  function setZoom(next, around) {
    next = Math.max(1, Math.min(MAX_ZOOM, next));
    // keep the point in the middle of the frame (or `around`, an element) in the middle
    var cx = (frame.scrollLeft + frame.clientWidth / 2) / Math.max(frame.scrollWidth, 1);
    var cy = (frame.scrollTop + frame.clientHeight / 2) / Math.max(frame.scrollHeight, 1);
    for (var i = 1; i <= MAX_ZOOM; i++) { frame.classList.toggle("zoom-" + i, i === next); }
    level = next;
    if (zoomLevel) { zoomLevel.textContent = level + "×"; }
    if (zoomOut) { zoomOut.disabled = level === 1; }
    if (zoomIn) { zoomIn.disabled = level === MAX_ZOOM; }
    if (zoomHint) { zoomHint.hidden = level === 1; }
    if (around) { centre(around); return; }
    frame.scrollLeft = cx * frame.scrollWidth - frame.clientWidth / 2;
    frame.scrollTop = cy * frame.scrollHeight - frame.clientHeight / 2;
  }

  function centre(el) {
    var f = frame.getBoundingClientRect();
    var r = el.getBoundingClientRect();
    frame.scrollLeft += (r.left + r.width / 2) - (f.left + f.width / 2);
    frame.scrollTop += (r.top + r.height / 2) - (f.top + f.height / 2);
  }

  if (zoomBox) {
    figure.classList.add("js-zoom");  // the no-script "Enlarge" box gives way to the buttons
    var box = figure.querySelector("#map-zoom");
    if (box) { box.checked = false; }
    zoomBox.hidden = false;
    zoomBox.addEventListener("click", function (event) {
      var button = event.target.closest("[data-zoom]");
      if (button) { setZoom(level + Number(button.getAttribute("data-zoom"))); }
    });
    setZoom(1);
  }

  // --- ordering ---------------------------------------------------------------------------
  var dataEl = document.getElementById("map-orders-data");
  var panel = document.querySelector("[data-map-orders]");
  if (!dataEl || !panel) { return; }
  var data = JSON.parse(dataEl.textContent);
  var options = data.options || [];
  var status = document.getElementById("map-orders-status");
  var tools = panel.querySelector("[data-tools]");
  var cancelButton = panel.querySelector("[data-map-cancel]");
  var dialog = document.getElementById("map-order-dialog");
  var dialogTitle = document.getElementById("map-order-dialog-h");
  var choicesBox = dialog.querySelector("[data-choices]");
  var formTemplate = document.getElementById("map-order-form");
  var noScript = document.querySelector("[data-map-orders-nojs]");
  var selection = null;  // {stack: "15"} or {option: an option}
  var returnFocus = null;

  panel.hidden = false;
  if (noScript) { noScript.hidden = true; }

  function zoneName(z) { return data.zones[z] || "zone " + z; }

  // the zones where the seat has a stack the map can give an order to
  var stackZones = {};
  (data.stacks || []).forEach(function (z) { stackZones[z] = true; });

  // --- the orders a choice can give: the server's list for each option -------------------
  function matching(o, test) {
    return o.actions.filter(test).map(function (a) {
      return {option: o, values: a.values, text: a.text};
    });
  }

  function routeActions(stack, z) {  // a route from the stack to the zone
    var out = [];
    options.forEach(function (o) {
      if (o.shape !== "route") { return; }
      out = out.concat(matching(o, function (a) { return a.from === stack && a.at === z; }));
    });
    return out;
  }

  function zoneActions(o, z, who) {  // an order in the zone (against the player tapped)
    if (o.shape === "route") { return []; }
    return matching(o, function (a) {
      return a.at === z && (who === null || a.who === who);
    });
  }

  function stackActions(stack, z, who) {  // what the stack may order there after its moves
    var out = [];
    options.forEach(function (o) {
      out = out.concat(matching(o, function (a) {
        return a.at === z && !!a.stacks && a.stacks.indexOf(stack) >= 0 &&
          (who === null || a.who === who);
      }));
    });
    return out;
  }

  function actions(z, who) {
    var out = [];
    if (selection && selection.option) { return zoneActions(selection.option, z, who); }
    if (selection && selection.stack) {
      if (who === null) { out = routeActions(selection.stack, z); }
      return out.concat(stackActions(selection.stack, z, who));
    }
    options.forEach(function (o) { out = out.concat(zoneActions(o, z, who)); });
    return out;
  }

  // --- drawing the choice on the map ------------------------------------------------------
  var zones = {};
  svg.querySelectorAll("g.cm-zone[data-zone]").forEach(function (g) {
    var title = g.querySelector("title");
    zones[g.getAttribute("data-zone")] = {el: g, text: title ? title.textContent : ""};
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
  });
  figure.classList.add("map-ordering");

  function refresh() {
    Object.keys(zones).forEach(function (z) {
      var g = zones[z].el;
      var mine = !!stackZones[z];
      var picked = !!(selection && selection.stack === z);
      var target = !!(selection && !picked && actions(z, null).length);
      g.classList.toggle("cm-mine", mine && !picked);
      g.classList.toggle("cm-selected", picked);
      g.classList.toggle("cm-target", target);
      g.setAttribute("aria-pressed", picked ? "true" : "false");
      var hint = picked ? "your chosen stack" : target ? "you can choose this zone"
        : mine ? "your stack" : "";
      g.setAttribute("aria-label", zones[z].text + (hint ? " (" + hint + ")" : ""));
    });
    tools.querySelectorAll("button").forEach(function (b) {
      b.setAttribute("aria-pressed", selection && selection.option &&
        selection.option.key === b.getAttribute("data-key") ? "true" : "false");
    });
    cancelButton.hidden = !selection;
  }

  function say(text) { status.textContent = text; }

  function cancel() {
    selection = null;
    say("Choice cancelled. Tap one of your stacks (outlined with dashes), or choose an order " +
        "below, then a zone.");
    refresh();
  }

  function pickStack(z) {
    selection = {stack: z};
    say("Stack in " + zoneName(z) + " chosen. Now tap the zone it goes to (outlined in " +
        "green) or a player's units to attack. Escape or Cancel undoes the choice.");
    refresh();
  }

  // --- the dialog: the orders a tap can give, each the Orders page's form -----------------
  function formFor(action) {
    var form = formTemplate.content.firstElementChild.cloneNode(true);
    var button = form.querySelector("button");
    function hidden(name, value) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.insertBefore(input, button);
    }
    hidden("option", action.option.key);
    Object.keys(action.values).forEach(function (name) {
      hidden(action.option.prefix + "-" + name, action.values[name]);
    });
    button.textContent = action.text;
    form.addEventListener("submit", function () {
      dialog.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      say("Sending: " + action.text + "…");
    });
    return form;
  }

  function openDialog(title, items) {
    dialogTitle.textContent = title;
    choicesBox.textContent = "";
    items.forEach(function (item) { choicesBox.appendChild(item); });
    returnFocus = document.activeElement;
    dialog.showModal();
    var first = choicesBox.querySelector("button");
    if (first) { first.focus(); }
  }

  function choose(z, who) {
    if (!selection && who === null && stackZones[z]) { pickStack(z); return; }
    var found = actions(z, who);
    if (!found.length) {
      if (stackZones[z] && who === null) { pickStack(z); return; }
      say("Nothing you can order " + (selection ? "with this choice " : "") + "in " +
          zoneName(z) + ". " + (selection ? "Tap a zone outlined in green, or Cancel."
          : "Tap one of your stacks (outlined with dashes) first, or choose an order below."));
      return;
    }
    var items = found.map(formFor);
    if (selection && selection.stack && selection.stack !== z && stackZones[z] &&
        who === null) {
      var other = document.createElement("button");
      other.type = "button";
      other.className = "button button-secondary";
      other.textContent = "Choose the stack in " + zoneName(z) + " instead";
      other.addEventListener("click", function () { dialog.close(); pickStack(z); });
      items.push(other);
    }
    openDialog(zoneName(z), items);
  }

  function removeOrder(number) {
    var form = document.getElementById("map-order-remove-" + number);
    var item = document.getElementById("map-order-" + number);
    if (!form) { if (item) { item.scrollIntoView(); } return; }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button";
    button.textContent = "Remove order " + number;
    button.addEventListener("click", function () {
      button.disabled = true;
      form.requestSubmit();
    });
    var text = document.createElement("p");
    text.textContent = item ? item.firstChild.textContent.trim() : "";
    openDialog("Order " + number, [text, button]);
  }

  dialog.querySelector("[data-close]").addEventListener("click", function () {
    dialog.close();
  });
  dialog.addEventListener("close", function () {
    if (returnFocus && returnFocus.focus) { returnFocus.focus(); }
  });

  function ownerOf(target) {
    var counter = target.closest(".cm-counter[data-owner]");
    var owner = counter ? counter.getAttribute("data-owner") : "";
    return owner !== "" && owner !== String(data.seat) ? owner : null;
  }

  svg.addEventListener("click", function (event) {
    var mark = event.target.closest(".cm-order");
    if (mark) { removeOrder(mark.getAttribute("data-order")); return; }
    var g = event.target.closest("g.cm-zone");
    if (g) { choose(g.getAttribute("data-zone"), ownerOf(event.target)); }
  });
  svg.addEventListener("keydown", function (event) {
    var g = event.target.closest && event.target.closest("g.cm-zone");
    if (g && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      choose(g.getAttribute("data-zone"), null);
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && selection && !dialog.open) { cancel(); }
  });
  cancelButton.addEventListener("click", cancel);

  // the orders that start from a zone rather than a stack: landings, cards, strikes, attacks
  options.forEach(function (o) {
    if (o.shape === "route") { return; }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button button-secondary";
    button.setAttribute("data-key", o.key);
    button.textContent = o.label;
    button.addEventListener("click", function () {
      if (selection && selection.option === o) { cancel(); return; }
      selection = {option: o};
      say(o.label + ": now tap a zone outlined in green" +
          (o.shape === "target" ? " where the player's units stand" : "") + ".");
      refresh();
    });
    tools.appendChild(button);
  });
  refresh();

  // on a phone, start close enough to read the counters, on the first stack
  if (zoomBox && frame.clientWidth < 600) {
    var first = Object.keys(stackZones).filter(function (z) { return zones[z]; })[0];
    setZoom(3, first ? zones[first].el : null);
  }
})();
