"""Phones at the table, by touch: a real headless Chromium, in one of the tests' own network
namespaces, opens the page of a table served from another (`host --headless --web`) as
phones held upright (390x844, 412x915) and sideways (844x390) and a tablet (768x1024), each
at device pixel ratio 3 with touch. Each player sits down from the page's first screen (a
tap, the name typed on the keyboard the page opens for it, a tap on Sit down) and plays a
whole game of each of the three games to its end by taps alone; a phone that closes its
page mid-game opens it again and takes its seat back.
Screenshots of every size and game are kept in the test's folder (docs/phones.png is made
of some of them)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser import FLAGS, browser_in
from lan import NETNS_MISSING, Guest, Lan, netns_available
from phones import DOUBT_CARD, NO_WEBGL, Phone, colours_at, play, right_edge
from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parent.parent
#: The app's background (Textual's dark theme), which the page is too (static/page.css).
BACKGROUND = (0x12, 0x12, 0x12)


@contextmanager
def table(prefix: str, folder: Path, *options: str) -> Iterator[tuple[str, Browser, Guest]]:
    """A headless host serving browser seats in host 1 of a LAN of its own, and a Chromium
    in host 2: the page's address, the browser and the host."""
    if not netns_available():
        pytest.fail(NETNS_MISSING)
    with Lan(hosts=2, prefix=prefix) as lan:
        host = lan.run(1, [
            sys.executable, "-m", "doubtlan", "host", "--headless", "--table", "Amy's table",
            "--bind", lan.address(1), "--port", "0", "--web", "0", "--no-advertise",
            "--no-journal", "--window", "2", "--turn-timeout", "0", "--bot-delay", "0",
            "--grace", "120", "--quiet-bots", *options,
        ], cwd=ROOT)
        line = host.expect(lambda text: "a seat from a browser:" in text, 20.0,
                           "the web address")
        with browser_in(lan.namespace(2), folder, [*FLAGS, NO_WEBGL]) as browser:
            yield line.split()[-1], browser, host
        assert "Traceback" not in host.errors()


def seated(phones: list[Phone], url: str) -> None:
    for phone in phones:
        phone.sit_down(url)
    for phone in phones:
        text = phone.wait("the game dealt", lambda s: "Your hand" in s, 40.0)
        columns, rows = phone.size()
        wide = columns >= 80 and rows >= 24
        assert wide or (columns >= 40 and rows >= 30), (phone.device, columns, rows)
        assert "too small" not in text and "ctrl+c" not in text
        assert phone.keyboard() == "none"  # (no keyboard over the table: a tap is a tap)
        phone.shot("table")


def test_i_doubt_it_on_a_phone_a_tablet_and_a_phone_held_sideways(tmp_path: Path) -> None:
    with table("phdoubt", tmp_path, "--players", "3", "--seed", "3") as (url, browser, host):
        phones = [Phone(browser, "390x844", "Ann", tmp_path),
                  Phone(browser, "768x1024", "Bob", tmp_path),
                  Phone(browser, "844x390", "Cy", tmp_path)]
        seated(phones, url)
        assert phones[0].size()[0] < 80 and phones[1].size()[0] >= 80  # compact, and wide
        # Right of the tablet's last column, the page is the table's own background: no
        # leftovers of an earlier screen.
        assert right_edge(phones[1]) <= {BACKGROUND}, right_edge(phones[1])
        # Each page shows its own hand, and none of the others' cards anywhere.
        hands = [phone.hand(DOUBT_CARD) for phone in phones]
        for phone, hand in zip(phones, hands, strict=True):
            others = {card for other in hands if other is not hand for card in other}
            assert hand and not set(DOUBT_CARD.findall(phone.text())) & others
        play(phones, "idoubtit", until=lambda: sum(phone.taps for phone in phones) >= 15)
        # Bob's page is closed by mistake: his seat waits for him; he opens it again, in
        # the same browser, and sits down under the name it kept, with his hand.
        bob = phones[1]
        held = bob.hand(DOUBT_CARD)
        bob.page.close()
        phones[0].wait("Bob away", lambda s: "away" in s)
        bob.page = bob.context.new_page()
        bob.sit_down(url, again=True)
        assert bob.hand(DOUBT_CARD) == held
        play(phones, "idoubtit", until=lambda: all(phone.over() for phone in phones))
        for phone in phones:
            text = phone.wait("the deal checked", lambda s: "Deal verified" in s, 40.0)
            assert "q leaves" not in text  # (a phone has its Quit button, not a q)
            phone.shot("results")
        # Everyone leaves (Quit, then Yes); with no page open, the host whose match is over
        # ends.
        for phone in phones:
            assert phone.soon(lambda s: "Quit" in s, 10.0) and phone.tap("Quit")
            phone.wait("the question", lambda s: "Yes (y)" in s, 10.0)
            assert phone.tap("Yes (y)")
        assert host.finish(timeout=30.0) == 0, host.errors()


def test_i_know_you_dont_on_two_phones(tmp_path: Path) -> None:
    with table("phknow", tmp_path, "--game", "iknowyoudont", "--players", "3", "--bots", "1",
               "--strategy", "honest", "--rounds", "1", "--seed", "2") as (url, browser, _):
        phones = [Phone(browser, "412x915", "Ann", tmp_path),
                  Phone(browser, "390x844", "Bob", tmp_path)]
        seated(phones, url)
        play(phones, "iknowyoudont", until=lambda: all(phone.over() for phone in phones))
        assert all("Accept (a)" in phone.tapped for phone in phones)
        for phone in phones:
            phone.wait("the deal checked", lambda s: "Deal verified" in s, 40.0)
            phone.shot("results")


def test_liars_deck_on_a_phone_and_a_phone_held_sideways(tmp_path: Path) -> None:
    with table("phliar", tmp_path, "--game", "liarsdeck", "--players", "2", "--lives", "1",
               "--seed", "4") as (url, browser, _):
        phones = [Phone(browser, "412x915", "Ann", tmp_path),
                  Phone(browser, "844x390", "Bob", tmp_path)]
        seated(phones, url)
        play(phones, "liarsdeck", until=lambda: all(phone.over() for phone in phones))
        for phone in phones:
            phone.wait("the deal checked", lambda s: "Deal verified" in s, 40.0)
            phone.shot("results")


def test_the_whole_screen_is_drawn_at_device_pixel_ratios_1_2_and_3(tmp_path: Path) -> None:
    """A phone at each pixel ratio, and a laptop's window at 2 (a high-density screen),
    sit down in the lobby; the buttons along the bottom of the screen, from the left edge
    to the right, are drawn in the page's pixels (a canvas drawn at the wrong scale shows
    only its top-left part)."""
    with table("phratio", tmp_path, "--players", "5") as (url, browser, _):
        phones = [Phone(browser, "390x844", f"P{scale}", tmp_path, scale=scale)
                  for scale in (1, 2, 3)] + [Phone(browser, "1000x560", "L2", tmp_path, scale=2)]
        for phone in phones:
            phone.sit_down(url)
        for phone in phones:
            phone.wait("the lobby's buttons", lambda s: "Quit" in s and "Talk" in s)
            phone.shot("lobby")
            for label in ("Talk", "Quit"):
                colours = colours_at(phone, label)
                assert any(blue > 150 and blue > red + 60 for red, _, blue, *_ in colours), (
                    phone.name, label, colours)
