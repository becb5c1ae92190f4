"""``?``: the rules in brief, and every key."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

RULES = """\
# I Doubt It

The whole deck is dealt. The **required rank** starts at Ace and climbs one step with
every claim: A, 2, ... 10, J, Q, K, then A again.

On your turn lay **1 to 4 cards** (1 to 8 with two decks) face down (a laid card stays
laid), then **announce**: "three 7s". Holding none of the rank, you bluff.

Every other player may then **doubt** or **let it stand** (with open calls, anyone may
call the claim until the next player lays a card). Doubted, the cards are turned over: a
bluff sends the whole pile to the claimer, an honest claim sends it to the doubter.

Empty your hand with a claim that holds up, and you win.

# Keys

| key | at the table |
|---|---|
| left, right | move along your hand |
| enter | lay the card under the cursor (it cannot be taken back) |
| a | announce the cards you laid |
| d | doubt the claim (not in its first half second) |
| p | let the claim stand |
| ? | this help |
| q | leave (the host: end the table for everyone) |
"""

HOST_KEYS = """
| key | the host, in the lobby and between games |
|---|---|
| b | seat a bot |
| x | remove the selected bot |
| o | rule options |
| s | start the match (3 or more seated) |
| n | next game |
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def __init__(self, is_host: bool = False) -> None:
        super().__init__()
        self.is_host = is_host

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            yield Markdown(RULES + (HOST_KEYS if self.is_host else ""))

    def action_close(self) -> None:
        self.dismiss(None)
