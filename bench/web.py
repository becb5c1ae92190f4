"""Browser seats: how soon a page reaches the lobby, how soon a key shows, what a seat costs.

    python bench/web.py [--seats 3] [--presses 200] [--json]

A `doubtlan host --headless --web` on loopback (one bot, room for the seats), and Debian's
Chromium driven by Playwright (tests/browser.py's flags), a browser context (own cookies)
per seat, each page 1000x560 pixels (about 100x30 cells). Loopback only: nothing leaves this
machine.

- open to lobby: from `page.goto` to the websocket frame that draws the name screen ("Your
  name"), then from Enter on the name to the frame that draws the lobby ("seated"); the sum
  is what a person waits from opening the address to sitting in the lobby.
- key to screen: a key pressed in the page (a letter, then Backspace, in the name field of
  one more page) to the first websocket frame the app sends back for it, as Playwright sees
  the frame (its own relay adds about a millisecond); the page paints it at its next frame.
- memory: each seat's `doubtlan join` process (resident, and proportional: shared pages
  split between the processes that share them), and the host's own growth, read in /proc
  once every seat is in the lobby.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from browser import FLAGS, chromium  # noqa: E402
from playwright.sync_api import Page, WebSocket, sync_playwright  # noqa: E402

VIEWPORT = {"width": 1000, "height": 560}


def kib(pid: int, field: str, name: str = "status") -> int:
    for line in Path(f"/proc/{pid}/{name}").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        found += [int(child) for child in
                  Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    return found


def socket_of(page: Page, url: str) -> tuple[WebSocket, list[tuple[float, bytes]]]:
    """Open ``url`` in ``page``; its websocket, and the frames it receives, stamped."""
    frames: list[tuple[float, bytes]] = []
    with page.expect_websocket() as opened:
        page.goto(url)
    socket = opened.value
    socket.on("framereceived", lambda frame: frames.append(
        (time.perf_counter(), frame if isinstance(frame, bytes) else frame.encode())))
    return socket, frames


def until(page: Page, frames: list[tuple[float, bytes]], text: bytes, since: float,
          timeout: float = 30.0) -> float:
    """Seconds from ``since`` to the first frame after it holding ``text``."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        for at, data in frames:
            if at >= since and text in data:
                return at - since
        page.wait_for_timeout(2)
    raise TimeoutError(f"no frame with {text!r}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    host = subprocess.Popen(
        [sys.executable, "-m", "doubtlan", "host", "--headless", "--players",
         str(args.seats + 1), "--bots", "1", "--bind", "127.0.0.1", "--port", "0", "--web", "0",
         "--no-advertise", "--no-journal", "--table", "Bench table"],
        stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert host.stdout is not None
    url = next(line.split()[-1] for line in host.stdout if "a seat from a browser:" in line)
    host_before = kib(host.pid, "VmRSS")
    report: dict[str, object] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium(), args=FLAGS)
            to_name, to_lobby = [], []
            for seat in range(args.seats):
                page = browser.new_context(ignore_https_errors=True,
                                           viewport=VIEWPORT).new_page()
                start = time.perf_counter()
                _, frames = socket_of(page, url)
                to_name.append(until(page, frames, b"Your name", start))
                page.locator(".xterm-helper-textarea").focus()
                page.keyboard.type(f"Seat{seat}")
                entered = time.perf_counter()
                page.keyboard.press("Enter")
                to_lobby.append(until(page, frames, b"seated", entered))
            apps = children(host.pid)
            rss = [kib(pid, "VmRSS") for pid in apps]
            pss = [kib(pid, "Pss", "smaps_rollup") for pid in apps]
            host_after = kib(host.pid, "VmRSS")
            # Keys in one more page, in its name field.
            page = browser.new_context(ignore_https_errors=True, viewport=VIEWPORT).new_page()
            socket, frames = socket_of(page, url)
            until(page, frames, b"Your name", 0.0)
            page.locator(".xterm-helper-textarea").focus()
            page.wait_for_timeout(500)
            latencies = []
            for number in range(args.presses):
                key = "x" if number % 2 == 0 else "Backspace"
                with socket.expect_event("framereceived", timeout=10_000):
                    pressed = time.perf_counter()
                    page.keyboard.press(key)
                latencies.append(time.perf_counter() - pressed)
                page.wait_for_timeout(20)
            browser.close()
        ms = 1000.0
        report = {
            "open_to_name_s": [round(value, 3) for value in to_name],
            "name_to_lobby_s": [round(value, 3) for value in to_lobby],
            "open_to_lobby_median_s": round(statistics.median(
                a + b for a, b in zip(to_name, to_lobby, strict=True)), 3),
            "key_to_screen_ms": {"count": len(latencies),
                                 "p50": round(percentile(latencies, 0.5) * ms, 1),
                                 "p99": round(percentile(latencies, 0.99) * ms, 1),
                                 "max": round(max(latencies) * ms, 1)},
            "seat_rss_mib": round(statistics.mean(rss) / 1024, 1),
            "seat_pss_mib": round(statistics.mean(pss) / 1024, 1),
            "host_growth_mib": round((host_after - host_before) / 1024, 1),
            "seats": args.seats,
        }
    finally:
        host.terminate()
        host.wait(10)
    if args.json:
        print(json.dumps(report))
    else:
        for key, value in report.items():
            print(f"{key:24} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
