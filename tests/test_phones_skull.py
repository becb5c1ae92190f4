"""Skull on phones, by touch: a real headless Chromium, in one of the tests' own network
namespaces, opens the page of a Skull table served from another (`host --headless --web`,
as tests/test_phones.py does) as a phone held upright and one held sideways, and their
players, with a bot in the third seat, play a whole game to its end by taps alone: a disc
tapped picks it (the hand's button says which) and the button lays it; the prompt's buttons
open the bidding and raise (+ and − set the number, Bid bids it), pass, and turn a stack
(its number); a tap on a player's line turns their stack too. Pictures of each moment of a
turn, and of the results, are kept in the test's folder.

The phones lay only Flowers, so a bid no larger than the two phones' stacks together is
safe for either of them: a phone bids that, raises while it may stay under it, passes past
it, and turns the other phone's stack before the bot's.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from phones import Phone, play
from test_phones import seated, table

FLOWER, SKULL = "✿", "☠"
DISC = re.compile(f"[{FLOWER}{SKULL}]")
#: The prompt's sentence for each moment of your turn (tui/games/skull/table.py, ``_yours``).
OPENING, LAYING = "Your turn: lay a first disc", "Your turn: lay a disc, or bid"
BIDDING, TURNING = re.compile(r"The bid is (\d+): raise to"), "more: choose a stack"
#: The bid button's label (tui/games/skull/table.py), and the highest bid the laying allows.
BID, MOST = re.compile(r"Bid (\d+) \(b\)"), re.compile(r"bid 1 to (\d+)")
#: The hand's button (tui/games/skull/hand.py), for each disc picked.
LAY = {FLOWER: "Lay a Flower (enter)", SKULL: "Lay your Skull (enter)"}
#: The prompt's buttons (tui/games/skull/prompt.py: LESS, MORE, PASS), as drawn.
LESS, MORE, PASS = "−", "+", "Pass (p)"
#: Seconds a move may take to show once tapped.
MOVE = 10.0


def left(row: str) -> tuple[int, str]:
    """The part of a row in the table's left column, and the column it starts at: in the
    wide layout, boxes side by side (the left box's inside, or what is left of the first
    box's edge); in the compact one, the whole row."""
    if row.startswith("│"):
        end = row.find("│", 1)
        return 1, row[1:end if end > 0 else None]
    end = row.find("│")
    return 0, row[:end if end >= 0 else None]


def moment(text: str) -> str | None:
    """What your turn asks now: "opening", "laying", "bidding" or "turning"; None when it
    is not your turn."""
    if OPENING in text:
        return "opening"
    if LAYING in text:
        return "laying"
    if BIDDING.search(text):
        return "bidding"
    if TURNING in text:
        return "turning"
    return None


def prompt_rows(text: str) -> list[tuple[int, int, str]]:
    """The rows under the prompt's sentence, down to your hand (its buttons): each its row,
    the column its part starts at, and the part in the left column."""
    rows = text.split("\n")
    start = next((i for i, row in enumerate(rows) if moment(row) or "Turn " in row), None)
    if start is None:
        return []
    found = []
    for number in range(start + 1, len(rows)):
        if "Your hand" in rows[number]:
            break
        column, part = left(rows[number])
        found.append((number, column, part))
    return found


def said(text: str) -> str:
    """What the prompt shows under its sentence (a move changes it)."""
    return "\n".join(part for _, _, part in prompt_rows(text))


def button(text: str, label: str | re.Pattern[str]) -> tuple[int, int, str] | None:
    """Where the prompt draws the button ``label`` (a word standing alone: a stack's number
    is not the one in the sentence): column, row and the label as drawn."""
    pattern = label if isinstance(label, re.Pattern) else \
        re.compile(r"(?<!\S)" + re.escape(label) + r"(?!\S)")
    for number, column, part in prompt_rows(text):
        found = pattern.search(part)
        if found:
            return column + found.start(), number, found[0]
    return None


def tap_button(phone: Phone, text: str, label: str | re.Pattern[str]) -> bool:
    found = button(text, label)
    if found is None:
        return False
    column, row, shown = found
    phone.tap_cell(column + len(shown) / 2 - 0.5, row)
    phone.tapped.append(shown)
    return True


def players(text: str) -> list[tuple[str, int, int, int]]:
    """The players panel's lines, in seat order: each player's name as shown ("Ann (you)"),
    the row and column it is drawn at, and their discs face down."""
    rows = text.split("\n")
    header = next(i for i, row in enumerate(rows)
                  if "player" in row and "discs" in row and "won" in row)
    found = []
    for number in range(header + 1, len(rows)):
        column, part = left(rows[number])
        name = part.replace("▶", " ").strip().split("  ")[0]
        if not name or name[0] in "─╰":
            break
        found.append((name, number, column + part.index(name), part.count("■")))
    return found


def stack(text: str) -> int:
    """The discs of your own stack."""
    row = next(row for row in text.split("\n") if "Your stack:" in row)
    return len(DISC.findall(left(row)[1]))


class SkullTapper:
    """The phones' moves at a Skull table (see the module's doc), counted for each player:
    "lay", "pick" (a disc tapped and its button changed), "bid", "raise", "pass", "turn" (a
    stack's button) and "line" (a player's line tapped to turn their stack)."""

    def __init__(self, phones: list[Phone]) -> None:
        self.names = [phone.name for phone in phones]
        self.done = {phone.name: Counter[str]() for phone in phones}
        self.shown: set[tuple[str, str]] = set()

    def __call__(self, phone: Phone, text: str) -> bool:
        now = moment(text)
        if now is None:
            return False
        if (phone.name, now) not in self.shown:  # (a picture of each moment, to look at)
            self.shown.add((phone.name, now))
            phone.shot(now)
        if "made" in text and (phone.name, "later") not in self.shown:  # (a bid listed)
            self.shown.add((phone.name, "later"))
            phone.shot(f"{now}-later")
        lines = players(text)
        other = next(line for line in lines
                     if line[0] != f"{phone.name} (you)" and line[0] in self.names)
        safe = stack(text) + other[3]  # (Flowers all: mine, and the other phone's)
        if now == "opening" or (now == "laying" and stack(text) < 2
                                and FLOWER in phone.hand(DISC)):
            return self.lay(phone, text)
        if now == "laying":
            most = MOST.search(text)
            assert most is not None, text
            return self.bid(phone, text, min(safe, int(most[1])), "bid")
        if now == "bidding":
            bid = BIDDING.search(text)
            assert bid is not None
            if int(bid[1]) + 1 <= safe:
                return self.bid(phone, text, int(bid[1]) + 1, "raise")
            return self.move(phone, text, PASS, "pass")
        # Turning: the other phone's stack first (Flowers), by its button, or every other
        # time by a tap on its player's line.
        seat = next((number for number, line in enumerate(lines, 1)
                     if line[0] in self.names and "(you)" not in line[0] and line[3]),
                    None)
        if seat is None:
            seat = next(number for number, line in enumerate(lines, 1) if line[3]
                        and "(you)" not in line[0])
        if self.done[phone.name]["turn"] > self.done[phone.name]["line"]:
            name, row, column, _ = lines[seat - 1]
            before = said(text)
            phone.tap_cell(column + len(name) / 2 - 0.5, row)
            phone.tapped.append(name)
            return self.taken(phone, text, before, "line")
        return self.move(phone, text, str(seat), "turn")

    def lay(self, phone: Phone, text: str) -> bool:
        """Tap the Skull (the hand's button says so), then a Flower (it says so), and lay
        it with the button."""
        if SKULL in phone.hand(DISC):
            assert phone.tap_card(re.compile(SKULL)) == SKULL
            phone.wait("the Skull picked: its button", lambda s: LAY[SKULL] in s, MOVE)
            self.done[phone.name]["pick"] += 1
        assert phone.tap_card(re.compile(FLOWER)) == FLOWER
        before = phone.wait("a Flower picked: its button", lambda s: LAY[FLOWER] in s, MOVE)
        assert phone.tap(LAY[FLOWER])
        return self.taken(phone, before, said(before), "lay")

    def bid(self, phone: Phone, text: str, count: int, what: str) -> bool:
        """Bring the bid button to ``count`` with − and +, and tap it."""
        for _ in range(12):
            shown = button(text, BID)
            assert shown is not None, text
            now = int(BID.search(shown[2])[1])  # type: ignore[index]
            if now == count:
                return self.move(phone, text, BID, what)
            label = MORE if now < count else LESS
            before = shown[2]
            assert tap_button(phone, text, label), text
            if not phone.soon(lambda s, before=before: (  # type: ignore[misc]
                    found := button(s, BID)) is not None and found[2] != before):
                return False
            text = phone.text()
        raise AssertionError(f"{phone.name}: the bid did not come to {count}:\n{text}")

    def move(self, phone: Phone, text: str, label: str | re.Pattern[str], what: str) -> bool:
        before = said(text)
        return tap_button(phone, text, label) and self.taken(phone, text, before, what)

    def taken(self, phone: Phone, text: str, before: str, what: str) -> bool:
        """Whether the move shows (the prompt says something else), counted if it does."""
        if not phone.soon(lambda s: said(s) != before or moment(s) != moment(text), MOVE):
            return False
        self.done[phone.name][what] += 1
        return True


def test_skull_on_a_phone_and_a_phone_held_sideways(tmp_path: Path) -> None:
    with table("phskull", tmp_path, "--game", "skull", "--players", "3", "--bots", "1",
               "--seed", "1") as (url, browser, _):
        phones = [Phone(browser, "390x844", "Ann", tmp_path),
                  Phone(browser, "844x390", "Bob", tmp_path)]
        seated(phones, url)
        for phone in phones:
            assert phone.hand(DISC) == sorted(FLOWER * 3 + SKULL), phone.text()
        tapper = SkullTapper(phones)
        play(phones, tapper, until=lambda: all(phone.over() for phone in phones))
        done = tapper.done
        for phone in phones:
            phone.wait("the deal checked", lambda s: "Deal verified" in s, 40.0)
            phone.shot("results")
        # A phone laid (a disc picked first), opened the bidding and turned stacks; a phone
        # passed; a stack was turned by a tap on its player's line.
        assert any(all(counts[move] for move in ("lay", "pick", "bid", "turn"))
                   for counts in done.values()), done
        assert all(counts["lay"] and counts["pick"] for counts in done.values()), done
        assert sum(counts["pass"] for counts in done.values()), done
        assert sum(counts["line"] for counts in done.values()), done
