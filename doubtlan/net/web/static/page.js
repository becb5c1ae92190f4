// The page around the table app. The app's own script (textual-serve's textual.js) opens
// the page's websocket and draws the app; this, run before it:
// - picks the text size from the device, unless the address asked for one (?fontsize=):
//   the largest, up to 16 px, at which the app's wide layout fits (80x24 cells), else its
//   compact one (40x30: a phone held upright), with cells at least 15 CSS px tall;
// - keeps why the host closed the websocket, to say so when it closes;
// - tells the app a touch screen is touched (the websocket's address says touch=1: cards
//   and buttons three lines tall);
// - opens the phone's own keyboard only where the app has a text field to type in (the app
//   says so: ["keyboard", true]); a tap on a card or a button brings up no keyboard.
(function () {
  "use strict";
  var LARGEST = 16, SMALLEST = 8, TALLEST_CELL = 15;
  var WIDE = [80, 24], COMPACT = [40, 30];

  // How wide and tall a cell is, for each pixel of text size (Roboto Mono, as xterm.js
  // draws it: a little more than the font's own box, for xterm's rounding to pixels).
  function cellRatio() {
    var probe = document.createElement("span");
    probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre;" +
      "font-family:'Roboto Mono',monospace;font-size:100px;line-height:normal";
    probe.textContent = "WWWWWWWWWW";
    document.body.appendChild(probe);
    var box = probe.getBoundingClientRect();
    document.body.removeChild(probe);
    return [box.width / 1000 * 1.02, box.height / 100 * 1.02];
  }

  function fits(size, ratio, cells) {
    var width = window.innerWidth, height = window.innerHeight;
    return Math.floor(width / (size * ratio[0])) >= cells[0] &&
      Math.floor(height / (size * ratio[1])) >= cells[1];
  }

  function bestSize() {
    var ratio = cellRatio(), least = TALLEST_CELL / ratio[1], size;
    var layouts = [WIDE, COMPACT];
    for (var l = 0; l < layouts.length; l++) {
      for (size = LARGEST; size >= least; size -= 0.5) {
        if (fits(size, ratio, layouts[l])) { return size; }
      }
    }
    // Too small for either at a readable size: the app says so, at the smallest readable.
    return Math.max(SMALLEST, Math.ceil(least * 2) / 2);
  }

  function pickSize(terminal) {
    if (!terminal.dataset.fontAsked) { terminal.dataset.fontSize = String(bestSize()); }
  }

  // The page turned (a phone held sideways, then upright): the text size for the new shape.
  var turning = null;
  function turned() {
    var made = window.doubtlanTerminal, terminal = document.querySelector(".textual-terminal");
    if (!made || !terminal || terminal.dataset.fontAsked) { return; }
    var size = bestSize();
    if (made.terminal.options.fontSize !== size) {
      made.terminal.options.fontSize = size;
      made.fit();
    }
  }

  function keyboard(open) {
    var typing = document.querySelector(".xterm-helper-textarea");
    if (typing) { typing.setAttribute("inputmode", open ? "text" : "none"); }
    document.body.classList.toggle("-typing", open);
  }

  // A touch screen (a phone, a tablet): the app draws cards and buttons for a finger.
  var TOUCH = window.matchMedia("(pointer: coarse)").matches || navigator.maxTouchPoints > 0;

  var Native = window.WebSocket;
  function Kept(url, protocols) {
    if (TOUCH) { url += (url.indexOf("?") < 0 ? "?" : "&") + "touch=1"; }
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    socket.addEventListener("close", function (event) {
      var why = document.getElementById("closed-why");
      if (why && event.reason) { why.textContent = event.reason; }
    });
    socket.addEventListener("message", function (event) {
      if (typeof event.data !== "string" || event.data.indexOf('["keyboard"') !== 0) { return; }
      try { keyboard(JSON.parse(event.data)[1] === true); } catch (error) { /* not ours */ }
    });
    return socket;
  }
  Kept.prototype = Native.prototype;
  Kept.CONNECTING = Native.CONNECTING; Kept.OPEN = Native.OPEN;
  Kept.CLOSING = Native.CLOSING; Kept.CLOSED = Native.CLOSED;
  window.WebSocket = Kept;

  // Before textual.js's own window.onload (this listener was added first): the font has
  // loaded by then, so it can be measured.
  window.addEventListener("load", function () {
    document.querySelectorAll(".textual-terminal").forEach(pickSize);
  });
  window.addEventListener("resize", function () {
    clearTimeout(turning);
    turning = setTimeout(turned, 150);
  });
  window.addEventListener("DOMContentLoaded", function () {
    document.getElementById("again").addEventListener("click", function () {
      window.location.replace(window.location.pathname + window.location.search);
    });
  });
})();
