// The page around the table app. The app's own script (textual-serve's textual.js) opens
// the page's websocket; this keeps why the host closed it, to say so when it closes.
(function () {
  "use strict";
  const Native = window.WebSocket;
  function Kept(url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    socket.addEventListener("close", function (event) {
      const why = document.getElementById("closed-why");
      if (why && event.reason) { why.textContent = event.reason; }
    });
    return socket;
  }
  Kept.prototype = Native.prototype;
  Kept.CONNECTING = Native.CONNECTING; Kept.OPEN = Native.OPEN;
  Kept.CLOSING = Native.CLOSING; Kept.CLOSED = Native.CLOSED;
  window.WebSocket = Kept;
  window.addEventListener("DOMContentLoaded", function () {
    document.getElementById("again").addEventListener("click", function () {
      window.location.replace(window.location.pathname + window.location.search);
    });
  });
})();
