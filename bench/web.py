"""Browser seats: how soon a page sits down, how soon a tap shows, what a seat costs; the
seats' apps on threads of the seats' process beside each started as a process of its own.

    python bench/web.py [--seats 3] [--taps 100] [--burst 12] [--device phone|desktop]
                        [--ways seats,process] [--json]

For each way of starting a seat's app (bench/webhost.py: a table on loopback with one bot
and room for eight, in a process of its own), Debian's Chromium driven by Playwright
(tests/browser.py's flags), a browser context (own cookies) per page, each a phone held
upright (390x844 CSS pixels, device pixel ratio 3, touch) or a desktop window (1000x560).
Loopback only: nothing leaves this machine.

- open to name: from `page.goto` to the websocket frame that draws the name screen ("Your
  name"), for each of `--seats` pages opened one after another; name to lobby: from Enter
  on the name to the frame that draws the lobby (its count of seats taken).
- tap to screen: a tap on the lobby's seats (one row, then another, `--taps` times) to the
  first websocket frame the app sends back for it, as Playwright sees the frame.
- memory: what the seats' apps take, resident and proportional (pages shared between
  processes split between them), summed over their processes and split between the pages
  open (the seats and the burst's), read in /proc once the burst's pages are all at their
  name screen.
- burst: `--burst` pages opened at once (each loaded up to its first byte, one after
  another), from the first `goto` to the last page's name screen; and, without a browser,
  `--burst` tabs' websockets opened at once as the page's script opens them, to the last
  one's name screen: the host's side alone (at a table each phone draws its own page, where
  here one machine's Chromium draws every page).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser import FLAGS, ROWS, chromium  # noqa: E402
from playwright.sync_api import Browser, Page, WebSocket, sync_playwright  # noqa: E402

DEVICES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
              "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1000, "height": 560}, "has_touch": True},
}


def kib(pid: int, field: str, name: str = "status") -> int:
    try:
        for line in Path(f"/proc/{pid}/{name}").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        found += [int(child) for child in
                  Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    return found


def seat_apps(host: int) -> list[int]:
    """The processes of the seats' apps: the host's children (the seats' process, or one
    for each app)."""
    return children(host)


class Tab:
    """A page and the frames its websocket receives, stamped."""

    def __init__(self, browser: Browser, device: str) -> None:
        self.page: Page = browser.new_context(ignore_https_errors=True,
                                              **DEVICES[device]).new_page()
        self.frames: list[tuple[float, bytes]] = []
        self.socket: WebSocket | None = None
        self.page.on("websocket", self._opened)

    def _opened(self, socket: WebSocket) -> None:
        self.socket = socket
        socket.on("framereceived", lambda frame: self.frames.append(
            (time.perf_counter(), frame if isinstance(frame, bytes) else frame.encode())))

    def until(self, text: bytes, since: float, timeout: float = 60.0) -> float:
        """Seconds from ``since`` to the first frame after it holding ``text``."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            for at, data in self.frames:
                if at >= since and text in data:
                    return at - since
            self.page.wait_for_timeout(2)
        raise TimeoutError(f"no frame with {text!r}")

    def rows(self) -> list[str]:
        return [row.replace("\xa0", " ") for row in self.page.evaluate(ROWS)]


def socket_burst(url: str, count: int) -> float:
    """Seconds from opening ``count`` tabs' websockets at once (no browser: each as the
    page's script opens it) to the last one's name screen."""
    import aiohttp

    async def burst() -> float:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        port = int(url.rsplit(":", 1)[1].strip("/"))
        async with aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(ssl=context, limit=0)) as session:
            async def tab() -> aiohttp.ClientWebSocketResponse:
                async with session.get(url + "?fresh=1") as response:
                    browser = response.cookies["doubtlan-browser"].value
                socket = await session.ws_connect(
                    f"wss://127.0.0.1:{port}/ws?width=40&height=44",
                    origin=f"https://127.0.0.1:{port}",
                    headers={"Cookie": f"doubtlan-browser={browser}"})
                screen = b""
                while b"Your name" not in screen:
                    message = await socket.receive(timeout=60)
                    if message.type != aiohttp.WSMsgType.BINARY:
                        raise RuntimeError(f"the tab closed: {message.extra}")
                    screen += message.data
                return socket

            start = time.perf_counter()
            sockets = await asyncio.gather(*(tab() for _ in range(count)))
            taken = time.perf_counter() - start
            for socket in sockets:
                await socket.close()
            return taken

    taken: list[float] = []
    thread = threading.Thread(target=lambda: taken.append(asyncio.run(burst())))
    thread.start()
    thread.join()
    return taken[0]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(browser: Browser, way: str, args: argparse.Namespace) -> dict[str, object]:
    host = subprocess.Popen([sys.executable, str(ROOT / "bench" / "webhost.py"), "--way", way],
                            stdout=subprocess.PIPE, stdin=subprocess.PIPE, text=True)
    assert host.stdout is not None and host.stdin is not None
    url = host.stdout.readline().strip()
    try:
        time.sleep(2.0)  # (the warm process imports meanwhile, as it does while a host waits)
        tabs, to_name, to_lobby = [], [], []
        for seat in range(args.seats):
            tab = Tab(browser, args.device)
            start = time.perf_counter()
            tab.page.goto(url)
            to_name.append(tab.until(b"Your name", start))
            tab.page.locator(".xterm-helper-textarea").focus()
            tab.page.keyboard.type(f"Seat{seat}")
            entered = time.perf_counter()
            tab.page.keyboard.press("Enter")
            to_lobby.append(tab.until(b" seated", entered))
            tabs.append(tab)
        taps = tap_to_screen(tabs[0], args.taps)
        sockets_s = socket_burst(url, args.burst)
        burst = [Tab(browser, args.device) for _ in range(args.burst)]
        start = time.perf_counter()
        for tab in burst:
            tab.page.goto(url, wait_until="commit")
        burst_s = max(tab.until(b"Your name", start) for tab in burst)
        apps = seat_apps(host.pid)
        rss = [kib(pid, "VmRSS") for pid in apps]
        pss = [kib(pid, "Pss", "smaps_rollup") for pid in apps]
        pages = len(tabs) + len(burst)
        for tab in tabs + burst:
            tab.page.context.close()
    finally:
        host.stdin.close()
        host.wait(30)
    ms = 1000.0
    return {
        "open_to_name_s": [round(value, 3) for value in to_name],
        "name_to_lobby_s": [round(value, 3) for value in to_lobby],
        "tap_to_screen_ms": {"count": len(taps), "p50": round(percentile(taps, 0.5) * ms, 1),
                             "p99": round(percentile(taps, 0.99) * ms, 1)},
        "burst_to_name_s": round(burst_s, 3),
        "burst_no_browser_s": round(sockets_s, 3),
        "pages_open": pages, "processes": len(apps),
        "seat_rss_mib": round(sum(rss) / pages / 1024, 1),
        "seat_pss_mib": round(sum(pss) / pages / 1024, 1),
    }


def tap_to_screen(tab: Tab, count: int) -> list[float]:
    """Taps on two rows of the lobby's seats in turn, each to the frame that answers it."""
    deadline = time.perf_counter() + 30
    rows = tab.rows()
    while not any("random bot" in row for row in rows):
        assert time.perf_counter() < deadline, rows
        tab.page.wait_for_timeout(50)
        rows = tab.rows()
    first = next(i for i, row in enumerate(rows) if "random bot" in row)
    box = tab.page.locator(".xterm-screen").bounding_box()
    assert box is not None
    height = box["height"] / len(rows)
    tab.page.wait_for_timeout(500)
    taken = []
    socket = tab.socket
    assert socket is not None
    for number in range(count):
        y = box["y"] + (first + number % 2 + 0.5) * height
        with socket.expect_event("framereceived", timeout=10_000):
            tapped = time.perf_counter()
            tab.page.touchscreen.tap(box["x"] + 40, y)
        taken.append(time.perf_counter() - tapped)
        tab.page.wait_for_timeout(30)
    return taken


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--taps", type=int, default=100)
    parser.add_argument("--burst", type=int, default=12)
    parser.add_argument("--device", choices=sorted(DEVICES), default="phone")
    parser.add_argument("--ways", default="seats,process")
    parser.add_argument("--webgl", action="store_true",
                        help="let Chromium draw with WebGL (headless, it draws a screen of a "
                        "device pixel ratio above 1 wrongly; off, xterm.js draws in the page)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    ways = args.ways.split(",")
    report: dict[str, dict[str, object]] = {}
    with sync_playwright() as playwright:
        flags = FLAGS if args.webgl else [*FLAGS, "--disable-webgl"]
        browser = playwright.chromium.launch(executable_path=chromium(), args=flags)
        for way in ways:
            report[way] = measure(browser, way, args)
        browser.close()
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.device}, {args.seats} seats one after another, {args.taps} taps, "
          f"{args.burst} pages at once")
    print(f"{'':24}" + "".join(f"{way:>28}" for way in ways))
    for key in report[ways[0]]:
        print(f"{key:24}" + "".join(f"{str(report[way][key]):>28}" for way in ways))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
