"""A real headless Chromium for the tests, run inside one of the tests' own network
namespaces (tests/lan.py) and driven by Playwright for Python.

The browser is Debian's ``chromium`` package (Playwright's own download needs a network CI
does not have): :func:`chromium` installs it with apt-get when it is missing and the tests
run as root, as CI does, and fails (never skips) with what to do otherwise. A tab's screen
is read from the page as a screen reader reads it: xterm.js's accessibility rows, which the
page turns on (doubtlan/net/web/page.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from filelock import FileLock
from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

#: Debian's package, and where it puts the browser.
PACKAGE, PATH = "chromium", "/usr/bin/chromium"
#: The flags a browser needs on a machine with no network but the tests' own, as root.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
         "--disable-features=Translate,MediaRouter,OptimizationHints",
         "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
         "--disable-backgrounding-occluded-windows"]
#: The rows of the page's screen, read in one step.
ROWS = "() => Array.from(document.querySelectorAll('.xterm-accessibility-tree > div'), " \
       "(row) => row.textContent)"
#: Seconds one step of a page may take.
STEP = 20.0


def chromium() -> str:
    """The system's Chromium, installed from Debian's packages first if it is missing."""
    found = shutil.which(PACKAGE)
    if found:
        return found
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.fail("the browser tests need Debian's chromium: apt-get install chromium "
                    "(as root; CI installs it by itself)")
    with FileLock("/tmp/doubtlan-chromium.lock"):
        if shutil.which(PACKAGE) is None:
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", PACKAGE]
            if subprocess.run(install, env=env, capture_output=True, timeout=600).returncode:
                subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True,
                               timeout=600, check=True)
                subprocess.run(install, env=env, capture_output=True, timeout=600, check=True)
    found = shutil.which(PACKAGE)
    assert found, "apt-get installed chromium, but it is not on the PATH"
    return found


@contextmanager
def browser_in(namespace: str, folder: Path,
               flags: list[str] | None = None) -> Iterator[Browser]:
    """Chromium started inside network namespace ``namespace`` (its only network), with its
    profile in ``folder`` (and ``flags``: :data:`FLAGS` unless told); closed, with every
    process of it, on leaving."""
    # No IPv6 in the browser's namespace: its link-local address would come a second or two
    # after the link, and Chromium, seeing the network change, drops what it is loading.
    subprocess.run(["ip", "netns", "exec", namespace, "sysctl", "-q", "-w",
                    "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"],
                   check=True, capture_output=True, timeout=10)
    wrapper = folder / "chromium-in-namespace"
    wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {namespace} {chromium()} "$@"\n')
    wrapper.chmod(0o700)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(wrapper),
                                             args=flags or FLAGS, timeout=STEP * 1000)
        try:
            yield browser
        finally:
            browser.close()


def screen(page: Page) -> str:
    """What the page's table app shows, a line per row, as a screen reader reads it."""
    try:
        rows = page.evaluate(ROWS)
    except PlaywrightError as error:  # (the page is loading itself again: nothing shown yet)
        if "context was destroyed" not in str(error):
            raise
        return ""
    return "\n".join(row.replace("\xa0", " ") for row in rows)


def wait(pages: dict[str, Page], what: str, ready: Callable[[dict[str, str]], object],
         timeout: float = STEP) -> dict[str, str]:
    """The pages' screens once ``ready`` says they are; AssertionError naming ``what`` and
    showing every screen at the deadline. (Polled: a page's text changes as it is drawn,
    with no event to wait on from outside it.)"""
    deadline = time.monotonic() + timeout
    while True:
        screens = {name: screen(page) for name, page in pages.items()}
        if ready(screens):
            return screens
        if time.monotonic() > deadline:
            shown = "\n".join(f"--- {name}:\n{text}" for name, text in screens.items())
            raise AssertionError(f"waited {timeout:g} s for {what}; the pages:\n{shown}")
        pages[next(iter(pages))].wait_for_timeout(50)


def open_page(page: Page, url: str) -> None:
    """Go to ``url``; again if Chromium saw the namespace's network change as it loaded (a
    new namespace's addresses settle for a second or two: net::ERR_NETWORK_CHANGED)."""
    for attempt in range(5):
        try:
            page.goto(url, timeout=STEP * 1000)
            return
        except PlaywrightError as error:
            changed = "ERR_NETWORK_CHANGED" in str(error) or "chrome-error" in str(error)
            if not changed or attempt == 4:
                raise


def press(page: Page, *keys: str) -> None:
    """Keys typed into the page's table app, as a player types them."""
    page.locator(".xterm-helper-textarea").focus()
    for key in keys:
        page.keyboard.press(key)
