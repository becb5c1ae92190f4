"""Two people play from their browsers: a real headless Chromium, in one of the tests' own
network namespaces, opens a table's browser seats served from another (`host --headless
--web`), and two browsers (each with its own cookies) sit down, play a whole I Doubt It
game to its end by keys typed in their pages, each seeing only its own hand; one closes its
tab mid-game and opens the page again, and takes its seat back with its hand. A screenshot
of each page is kept in the test's folder (docs/browser-seat.png is one)."""

from __future__ import annotations

import contextlib
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from browser import browser_in, open_page, press, wait
from lan import NETNS_MISSING, Lan, netns_available
from playwright.sync_api import Page
from test_tmux import ASK, HAND, history, my_turn

from doubtlan.tui.screens.play import DOUBT_GUARD

ROOT = Path(__file__).resolve().parent.parent
#: Seconds the game may take.
GAME = 180.0
#: The page's size: about 100 x 30 cells of the page's 16-pixel font.
VIEWPORT = {"width": 1000, "height": 560}
NAMES = ("Ann", "Bob")
#: A phone in portrait, in CSS pixels: about 39 columns.
PHONE = {"width": 390, "height": 760}
#: Cards in a hand row ("7♥", "10♠"): what each page shows of its own hand.
CARD = re.compile(r"\b(?:10|[2-9JQKA])[♣♦♥♠]")


def hand_cards(text: str) -> set[str]:
    """The cards of the page's own hand (the line under "Your hand:")."""
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if "Your hand:" in line), None)
    assert at is not None and at + 1 < len(lines), text
    return set(CARD.findall(lines[at + 1].split("│")[0]))


def cards_shown(text: str) -> set[str]:
    """Every card a page shows anywhere (its own hand, the cards laid, a reveal)."""
    return set(CARD.findall(text))


def sit_down(page: Page, url: str, name: str, *, prefilled: str = "") -> None:
    open_page(page, url)
    wait({name: page}, f"{name}'s page to ask the name",
         lambda s: "Your name at the table" in s[name])
    if prefilled:  # (the page's browser played under this name before)
        wait({name: page}, f"{name}'s name kept by the browser", lambda s: prefilled in s[name])
        press(page, "Enter")
    else:
        press(page, *name, "Enter")


def test_two_browsers_play_a_whole_game_and_a_closed_tab_takes_its_seat_back(
    tmp_path: Path,
) -> None:
    if not netns_available():
        pytest.fail(NETNS_MISSING)
    with Lan(hosts=2, prefix="lanweb") as lan:
        host = lan.run(1, [
            sys.executable, "-m", "doubtlan", "host", "--headless", "--players", "3",
            "--bots", "1", "--table", "Amy's table", "--bind", lan.address(1), "--port", "0",
            "--web", "0", "--no-advertise", "--no-journal", "--window", "2",
            "--turn-timeout", "0", "--bot-delay", "0", "--seed", "11", "--grace", "120",
        ], cwd=ROOT)
        line = host.expect(lambda text: "a seat from a browser:" in text, 20.0, "the web address")
        url = line.split()[-1]
        assert url.startswith(f"https://{lan.address(1)}:"), url
        with browser_in(lan.namespace(2), tmp_path) as browser:
            contexts = {name: browser.new_context(ignore_https_errors=True, viewport=VIEWPORT)
                        for name in NAMES}
            pages = {name: contexts[name].new_page() for name in NAMES}
            # A phone held upright has too few columns for the table: it is told so.
            phone = browser.new_context(ignore_https_errors=True, viewport=PHONE).new_page()
            open_page(phone, url)
            wait({"phone": phone}, "the phone told its screen is too small",
                 lambda s: "doubtlan needs 80x24" in " ".join(s["phone"].split()))
            phone.screenshot(path=str(tmp_path / "phone.png"))
            phone.context.close()
            for name in NAMES:
                sit_down(pages[name], url, name)
            screens = wait(pages, "the match to start in both pages",
                           lambda s: all(HAND.search(s[name]) for name in NAMES), timeout=40)
            for name in NAMES:
                assert f"you are {name} · playing through" in screens[name], screens[name]
            hands = {name: hand_cards(screens[name]) for name in NAMES}
            # Each page shows its own hand and none of the other's cards.
            assert hands["Ann"] and hands["Bob"] and not hands["Ann"] & hands["Bob"]
            assert not cards_shown(screens["Ann"]) & hands["Bob"], screens["Ann"]
            assert not cards_shown(screens["Bob"]) & hands["Ann"], screens["Bob"]

            game = Game(pages)
            game.play(until=lambda s: len(history(s["Ann"])) >= 3)
            pages["Ann"].screenshot(path=str(tmp_path / "ann-table.png"))
            # Bob's tab is closed by mistake: his seat waits for him, "away".
            held = hand_cards(game.wait("Bob's hand", lambda s: HAND.search(s["Bob"]))["Bob"])
            pages["Bob"].close()
            wait({"Ann": pages["Ann"]}, "Ann's page to show Bob away",
                 lambda s: re.search(r"\bBob\b.*\baway\b", s["Ann"]) is not None)
            # He opens the page again in the same browser: his name is kept, and Enter takes
            # his seat back, with his hand.
            pages["Bob"] = contexts["Bob"].new_page()
            sit_down(pages["Bob"], url, "Bob", prefilled="Bob")
            back = game.wait("Bob back at his seat with his hand",
                             lambda s: HAND.search(s["Bob"]) is not None)
            assert hand_cards(back["Bob"]) == held, (held, back["Bob"])

            game.play(until=lambda s: any(_over(s[name]) for name in NAMES))
            screens = game.wait("the results, with the deal checked, in both pages",
                                lambda s: all(_over(s[name]) and "Deal verified" in s[name]
                                              for name in NAMES), timeout=40)
            for name in NAMES:
                pages[name].screenshot(path=str(tmp_path / f"{name.lower()}-results.png"))
            # Both leave; with no browser seat open, the host that played its match ends.
            for page in pages.values():
                press(page, "q")
                wait({"page": page}, "the question", lambda s: "?" in s["page"])
                press(page, "y")
            assert host.finish(timeout=20.0) == 0, host.errors()
        assert "Traceback" not in host.errors()


class Game:
    """Two pages playing: each lays the first card of its hand and claims it on its turn,
    and lets every claim it is asked about stand. (A page's screen is read as its screen
    reader reads it, up to a quarter second behind the screen.)"""

    def __init__(self, pages: dict[str, Page]) -> None:
        self.pages = pages
        #: When each page was first seen asked about the claim it is asked about now.
        self.asked: dict[str, float] = {}

    def wait(self, what: str, ready: Callable[[dict[str, str]], object],
             timeout: float = 40.0) -> dict[str, str]:
        return wait(self.pages, what, ready, timeout)

    def play(self, until: Callable[[dict[str, str]], bool]) -> None:
        ends = time.monotonic() + GAME
        while True:
            screens = self.wait("a move for Ann or Bob, or the end",
                                lambda s: until(s) or any(_move(s[n]) for n in NAMES))
            if until(screens):
                return
            assert time.monotonic() < ends, screens
            turn = [name for name in NAMES if _move(screens[name]) == "turn"]
            if turn:
                self.turn(turn[0])
            else:
                self.let_stand([name for name in NAMES if _move(screens[name])], screens)

    def turn(self, name: str) -> None:
        """Lay the card under the cursor, then claim it; each key again if its effect has
        not shown within a few seconds (a key typed as the turn arrives can come too soon)."""
        page = self.pages[name]
        self.until(page, "Enter", f"{name}'s card laid",
                   lambda s: "Laid: " in s[name] or not my_turn(s[name]))
        self.until(page, "a", f"{name}'s claim made", lambda s: not my_turn(s[name]))

    def until(self, page: Page, key: str, what: str,
              done: Callable[[dict[str, str]], object]) -> None:
        for _ in range(10):
            press(page, key)
            with contextlib.suppress(AssertionError):
                self.wait(what, done, timeout=3.0)
                return
        raise AssertionError(f"{what}: never, after {key} ten times")

    def let_stand(self, names: list[str], screens: dict[str, str]) -> None:
        """An answer in the window's first DOUBT_GUARD seconds is taken for a slip and not
        taken: each page waits that long from when it was asked, then answers."""
        claims = {name: f"{name} {len(history(screens[name]))} {_asked(screens[name])}"
                  for name in names}
        first = min(self.asked.setdefault(claim, time.monotonic()) for claim in claims.values())
        early = DOUBT_GUARD - (time.monotonic() - first)
        if early > 0:
            self.pages[names[0]].wait_for_timeout(early * 1000)  # (the rule's own time)
        for name in names:
            press(self.pages[name], "p")
        with contextlib.suppress(AssertionError):  # (not taken: asked again next round)
            self.wait("the answers taken", lambda s: all(
                f"{name} {len(history(s[name]))} {_asked(s[name])}" != claims[name]
                for name in names), timeout=3.0)


def _over(text: str) -> bool:
    """Whether the page shows the game's results (its winner)."""
    return "wins." in text or "You win!" in text


def _move(text: str) -> str | None:
    if ASK in text:
        return "answer"
    if my_turn(text):
        return "turn"
    return None


def _asked(text: str) -> str:
    """The claim a page is asked about (the line above the question)."""
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if ASK in line), 0)
    return lines[at - 1] if at else ""
