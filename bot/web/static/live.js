// Live pages: replace the page's live part with each "update" the server sends (server-sent events).
// EventSource reconnects by itself after a network error; "gone" means the link was revoked.
(function () {
  "use strict";
  var live = document.getElementById("live");
  var status = document.getElementById("status");
  if (!live || !window.EventSource) { return; }
  var source = new EventSource(live.dataset.events);
  var updates = 0;
  source.addEventListener("update", function (event) {
    live.innerHTML = event.data;
    updates += 1;
    document.body.dataset.updates = String(updates);
    status.textContent = "";
  });
  source.addEventListener("gone", function () {
    source.close();
    live.innerHTML = "";
    status.textContent = status.dataset.gone;
  });
  source.addEventListener("error", function () {
    if (source.readyState !== EventSource.CLOSED) { status.textContent = status.dataset.offline; }
  });
})();
