// Live crawl view: counters and log lines arrive as Server-Sent Events;
// the progress chart is reloaded as counters change. No inline script is
// allowed by the dashboard's Content-Security-Policy, so this file is all.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var log = document.getElementById("log");
  var chart = document.getElementById("progress");
  var lastChart = 0;
  var src = new EventSource(live.getAttribute("data-events"));
  function set(id, text) {
    var el = document.getElementById(id);
    if (el) { el.textContent = text; }
  }
  src.addEventListener("counters", function (ev) {
    var c = JSON.parse(ev.data);
    set("c-tried", String(c.tried));
    set("c-validated", String(c.validated));
    set("c-harvest", (100 * c.harvest).toFixed(1) + "%");
    set("c-pps", c.pages_per_second.toFixed(2));
    set("c-queued", String(c.queued));
    set("state", c.state);
    set("stop", c.stop || "");
    var st = document.getElementById("state");
    if (st) { st.className = "state " + c.state; }
    var cells = live.querySelectorAll("[data-outcome]");
    for (var i = 0; i < cells.length; i++) {
      var n = c.outcomes ? c.outcomes[cells[i].getAttribute("data-outcome")] : 0;
      cells[i].textContent = String(n || 0);
    }
    var now = Date.now();
    if (chart && now - lastChart > 1000) {
      lastChart = now;
      chart.src = live.getAttribute("data-chart") + "?t=" + now;
    }
  });
  src.addEventListener("log", function (ev) {
    if (!log) { return; }
    log.appendChild(document.createTextNode(JSON.parse(ev.data) + "\n"));
    log.scrollTop = log.scrollHeight;
  });
})();
