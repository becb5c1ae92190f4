"""Skull's table: the players and their stacks, the prompt and your discs on the left; the
bids on the right; and the game's keys (lay a disc, bid and raise, pass, turn a stack)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, cast

from rich.text import Text
from textual.binding import Binding, BindingType

from ....net.messages import TableInfo
from ....rules.skull import Bid, Pass, Phase, Place, Settled, TableView, Turn, Won
from ...client_state import ClientState
from ...widgets.gametable import GameTable, KeyEntry
from ...widgets.players import PlayersPanel
from ...widgets.prompt import Answer
from ...words import cap
from .discs import faces
from .hand import DiscHand
from .history import SkullHistory
from .players import SkullPlayers
from .prompt import LESS, MORE, PASS, SkullPrompt
from .results import SkullResults

RULES = """\
# Skull

Every player has **four discs**: three **Flowers** (✿) and one **Skull** (☠). A round
opens with each player laying a disc face down on their own **stack**, in turn.

Then, in turn, lay another disc, or **bid**: how many discs you will turn over, all
Flowers, from 1 up to every disc on the table. The others **raise** or **pass**, until one
bidder is left (or someone bids every disc).

The bidder turns their **own stack first**, from the top; then the top discs of the
stacks they choose, one at a time. All Flowers: they **made** the bid, a point, and **two
points win**. A Skull: the bidder **loses a disc** at random, for good (only they see which);
a player with no discs left is out, and the last player with discs wins.

On screen: **▶** is the player to move; each stack shows its discs face down (■) and those
turned; the players panel says each player's discs, bids made and what they do; the bids
list shows every bid settled.

# Keys

| key | at the table |
|---|---|
| left, right | move along your discs |
| enter | lay the disc under the cursor (a click on a disc picks it; its button lays it) |
| + and −, or up and down | choose the number to bid |
| b | bid that number (open the bidding, or raise) |
| p | pass |
| 1 to 6 | turn the top disc of that player's stack (or click their line) |
"""


class SkullTable(GameTable):
    """The table of Skull."""

    game = "skull"
    rules = RULES

    PLAYERS, PROMPT, HAND, RESULTS = SkullPlayers, SkullPrompt, DiscHand, SkullResults
    HISTORY, ENDED = SkullHistory, Won
    MOVES = {"lay": Place, "bid": Bid, "pass_bid": Pass}
    MADE = {"turn": Turn}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "lay", "Lay"), Binding("b", "bid", "Bid"),
        Binding("plus,up", "more(1)", "More", show=False),
        Binding("minus,down", "more(-1)", "Less", show=False),
        Binding("p", "pass_bid", "Pass"),
        *(Binding(str(n), f"turn({n - 1})", f"Turn {n}", show=False) for n in range(1, 7)),
    ]

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        #: The number the next bid names (the least it may be, until changed).
        self.count = 1

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, view: TableView, info: TableInfo, seen: ClientState) -> None:
        least = view.bid + 1
        self.count = min(max(self.count, least), max(least, view.on_table))
        self.query_one(DiscHand).show(view.hand, view.stack, seated=view.seat is not None,
                                      laying=view.can(Place))
        self._say(view, self.names())

    def _say(self, view: TableView, names: dict[int, str]) -> None:
        def name(seat: int | None) -> str:
            return "you" if seat == view.seat else names.get(-1 if seat is None else seat, "?")

        text, answers = Text(), cast(tuple[Answer, ...], ())
        if view.phase is Phase.OVER:
            text.append(f"{cap(name(view.winner))} won.", style="bold")
        elif view.my_turn:
            text, answers = self._yours(view, name)
        else:
            text.append(f"{cap(name(view.active))} is to "
                        f"{self._doing(view)}.")
            if view.bid:
                text.append(f"\nThe bid: {view.bid}, by {name(view.bidder)}.", style="bold")
        last = view.record[-1] if view.record else None
        if isinstance(last, Settled) and view.phase in (Phase.OPENING, Phase.OVER):
            text.append("\n")
            text.append_text(self.told(last, name))
        self.query_one(SkullPrompt).say(text, answers)

    @staticmethod
    def _doing(view: TableView) -> str:
        return {Phase.OPENING: "lay a first disc", Phase.LAYING: "lay a disc or bid",
                Phase.BIDDING: "raise or pass", Phase.TURNING: "turn discs"}.get(
                    view.phase, "move")

    def _yours(self, view: TableView, name: Callable[[int | None], str]
               ) -> tuple[Text, tuple[Answer, ...]]:
        """What your turn asks, and its buttons."""
        text = Text(style="bold yellow")
        bid: Answer = (f" Bid {self.count} (b) ", "b", "prompt--loud")
        if view.phase is Phase.OPENING:
            text.append("Your turn: lay a first disc.")
            return text, ()
        if view.phase is Phase.LAYING:
            text.append(f"Your turn: lay a disc, or bid 1 to {view.on_table}.")
            return text, (LESS, bid, MORE)
        if view.phase is Phase.BIDDING:
            text.append(f"The bid is {view.bid}: raise to {view.bid + 1} or more, or pass.")
            return text, (LESS, bid, MORE, PASS)
        left = view.bid - sum(map(len, view.turned))
        text.append(f"Turn {left} more: choose a stack (its number, or its player's line).")
        return text, tuple((f" {n + 1} ", str(n + 1), "prompt--quiet") for n in range(
            view.players) if Turn(n) in view.legal)

    @staticmethod
    def told(settled: Settled, who: Callable[[int | None], str]) -> Text:
        """How the last bid went."""
        text = Text(f"{cap(who(settled.seat))} bid {settled.count} and turned ", style="bold")
        text.append_text(faces(disc for stack in settled.turned for disc in stack))
        if settled.made:
            text.append(": made!", style="bold green")
        else:
            owner = "their own" if settled.skull == settled.seat else f"{who(settled.skull)}'s"
            text.append(f": {owner} Skull. A disc lost.", style="bold red")
        return text

    # -- keys and clicks -------------------------------------------------------------------

    def keys(self) -> list[KeyEntry]:
        keys: list[KeyEntry] = []
        if self.can(Place):
            keys += [("←→", "Disc", "right"), ("⏎", "Lay", "enter")]
        if self.can(Bid):
            keys += [("+−", "Number", "plus"), ("b", "Bid", "b")]  # (the prompt says how many)
        if self.can(Pass):
            keys.append(("p", "Pass", "p"))
        if self.can(Turn):
            keys.append(("1-6", "Turn a stack", ""))
        return keys

    def action_lay(self) -> None:
        disc = self.query_one(DiscHand).card
        if disc is not None:
            self.act(Place(disc).text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "more":
            return self.can(Bid)
        return super().check_action(action, parameters)

    def action_more(self, step: int) -> None:
        view = self.view
        if view is None:
            return
        self.count = min(max(view.bid + 1, self.count + step), max(view.bid + 1, view.on_table))
        self._say(view, self.names())
        self.refresh_bindings()

    def action_bid(self) -> None:
        self.act(Bid(self.count).text)

    def action_pass_bid(self) -> None:
        self.act("pass")

    def action_turn(self, seat: int) -> None:
        self.act(Turn(seat).text)

    def on_disc_hand_laid(self, event: DiscHand.Laid) -> None:
        if self.check_action("lay", ()):
            self.action_lay()

    def on_players_panel_picked(self, event: PlayersPanel.Picked) -> None:
        if self.legal(Turn(event.seat)):
            self.action_turn(event.seat)
