// Live pages: replace the page's live part with each "update" the server sends (server-sent events).
// EventSource reconnects by itself after a network error; "gone" means the link was revoked. A refusal
// (the server is full: 503) closes the EventSource for good, so the page tries again itself, after a
// while and at a random moment, not all viewers at once.
(function () {
  "use strict";
  var live = document.getElementById("live");
  var status = document.getElementById("status");
  if (!live || !window.EventSource) { return; }
  var updates = 0;
  function connect() {
    var source = new EventSource(live.dataset.events);
    source.addEventListener("update", function (event) {
      live.innerHTML = event.data;
      updates += 1;
      document.body.dataset.updates = String(updates);
      status.textContent = "";
    });
    source.addEventListener("gone", function () {
      source.close();
      source.gone = true;
      live.innerHTML = "";
      status.textContent = status.dataset.gone;
    });
    source.addEventListener("error", function () {
      if (source.gone) { return; }
      status.textContent = status.dataset.offline;
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(connect, 30000 + Math.random() * 30000);
      }
    });
  }
  connect();
})();
