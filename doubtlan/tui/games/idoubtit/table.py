"""I Doubt It's table: the others, the required rank, the prompt, your hand, the claims;
and its keys (lay, announce, doubt, let stand)."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from ....net.messages import TableInfo
from ....rules import Action, Announce, Doubt, Event, Lay, LetStand, Phase
from ....rules.idoubtit import Resolved, TableView, Won
from ...client_state import ClientState
from ...widgets.gametable import GameTable, KeyEntry
from .cards import cards_text
from .hand import Hand
from .history import DoubtHistory
from .players import Players
from .prompt import DOUBT, STAND, Prompt
from .rank import RankBanner
from .results import DoubtResults, notes_of

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
| up, down | the row above or below, in a hand of several rows |
| Home, End | your hand's first and last card |
| enter | lay the card under the cursor (it cannot be taken back) |
| a | announce the cards you laid |
| d | doubt the claim (not in its first half second: the screen says "too soon") |
| p | let the claim stand (likewise not in its first half second) |
"""


class DoubtTable(GameTable):
    """The table of I Doubt It."""

    game = "idoubtit"
    rules = RULES

    PLAYERS, PROMPT, HAND, RESULTS = Players, Prompt, Hand, DoubtResults
    HISTORY, BESIDE = DoubtHistory, (RankBanner,)
    MOVES: ClassVar[dict[str, type[Action]]] = {
        "move": Lay, "move_row": Lay, "move_to": Lay, "lay": Lay, "announce": Announce,
        "doubt": Doubt, "stand": LetStand}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move_row(-1)", "Row", show=False),
        Binding("down", "move_row(1)", "Row", show=False),
        Binding("enter", "lay", "Lay card"),
        Binding("a", "announce", "Announce"),
        Binding("d", "doubt", "Doubt"),
        Binding("p", "stand", "Let stand"),
    ]

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, view: TableView, info: TableInfo, seen: ClientState) -> None:
        # A claim being judged lies on the pile: whoever loses the doubt takes both.
        waiting = view.claim.count if view.claim is not None else 0
        self.query_one(RankBanner).show(view.rank, view.pile + waiting)
        laying = view.my_turn and bool(view.my_laid)
        self.query_one(Hand).show(view.hand, view.my_laid if laying else (),
                                  seated=view.seat is not None, laying=self.can(Lay),
                                  announcing=self.can(Announce))
        self._say(view, seen, self.names())

    def _say(self, view: TableView, seen: ClientState, names: dict[int, str]) -> None:
        prompt = self.query_one(Prompt)
        claim, claimer = view.claim, view.claimer
        who = names.get(claimer, "?") if claimer is not None else "?"
        if claim is not None and view.phase is Phase.WINDOW and view.seat in view.awaiting \
                and view.my_answer is None:
            text = Text(f"{who} claims {claim.describe()}", style="bold")
            text.append("\nd doubts, p lets it stand", style="dim")
            prompt.say(text, (DOUBT, STAND), ask=True)
            self.tick(self.clock())
            return
        if claim is not None and view.can(Doubt):  # open mode: call before the next card
            text = Text(f"{who} claims {claim.describe()}", style="bold")
            text.append("\nd calls it, until the next card is laid", style="dim")
            prompt.say(text, (DOUBT,))
            return
        text = self._told(view, seen, names, who)
        if claim is not None and claimer != view.seat and view.phase is Phase.LAYING:
            text.append(f"\n{who} claimed {claim.describe()}", style="dim")
        prompt.say(text)

    def _told(self, view: TableView, seen: ClientState, names: dict[int, str],
              who: str) -> Text:
        """What the prompt tells when it asks nothing: a doubt just turned over, the claim
        waiting for the others' answers, your turn, or who is laying."""
        claim = view.claim
        last = view.record[-1] if view.record else None
        if claim is None and last is not None and last == notes_of(seen).reveal:
            return self._doubted(view, last, names)
        if claim is not None and view.phase is Phase.WINDOW:
            return _waiting(view, seen, names, f"{who} claims {claim.describe()}")
        if view.my_turn:
            text = Text("Your turn. ", style="bold yellow")
            text.append(_lay_prompt(view))
            return text
        laid = f"{view.laid} card{'s' if view.laid != 1 else ''}"
        return Text(f"{names.get(view.turn, '?')} is laying ({laid} down so far).")

    def _doubted(self, view: TableView, last: Resolved, names: dict[int, str]) -> Text:
        """The doubt just settled: the cards turned over and who took the pile."""
        # Five short lines: the prompt is about 30 cells wide at 80x24 (the claims list
        # says whose claim it was).
        doubter = "You" if last.doubter == view.seat else names.get(last.doubter or 0, "?")
        text = Text(f"{doubter} doubted {last.claim.describe()}:\n", style="bold")
        text.append_text(cards_text(last.shown or (), self.ascii))
        taker = "You take" if last.taker == view.seat else f"{names.get(last.taker or 0)} takes"
        verdict = "True!" if last.honest else "Bluff!"
        text.append(f"\n{verdict} {taker} {last.taken}.",
                    style="yellow" if last.honest else "bold red")
        if view.my_turn:
            text.append("\nYour turn. ", style="bold yellow")
            text.append(_lay_prompt(view))
        return text

    # -- what the app follows --------------------------------------------------------------

    @classmethod
    def note(cls, event: Event, seen: ClientState) -> bool:
        if isinstance(event, Resolved) and event.doubter is not None:
            notes_of(seen).reveal = event
        elif isinstance(event, Won):
            notes_of(seen).won = event
            return True
        return False

    # -- keys and clicks -------------------------------------------------------------------

    def keys(self) -> list[KeyEntry]:
        app = self.app
        return [(app.get_key_display(b), b.description, b.key) for b in self.BINDINGS
                if isinstance(b, Binding) and b.show
                and self.check_action(b.action.partition("(")[0], ())]

    def action_lay(self) -> None:
        card = self.query_one(Hand).card
        if card is not None:
            self.act(f"lay {card.code}")

    def action_announce(self) -> None:
        self.act("announce")

    def action_doubt(self) -> None:
        if not self.guarded():
            self.act("doubt")

    def action_stand(self) -> None:
        if not self.guarded():
            self.act("stand")


def _lay_prompt(view: TableView) -> str:
    """What to do on your turn, in the same words wherever the prompt says it."""
    return (f"Lay 1 to {view.options.max_claim} cards as {view.rank.plural()} (enter), then "
            "announce (a).")


def _waiting(view: TableView, seen: ClientState, names: dict[int, str], claimed: str) -> Text:
    """The claim ``claimed`` waiting for the others' answers: this seat's answer (or that it
    was given for the player), and whom the table waits for."""
    text = Text(claimed, style="bold")
    waiting = [names.get(s, "?") for s in view.awaiting if s != view.seat]
    if view.my_answer is not None and seen.window_key in seen.answered:
        text.append("\nyou " + ("doubted" if view.my_answer else "let it stand"))
    elif view.my_answer is not None:  # (not this app's answer: played for you)
        text.append("\nlet stand for you while you were away", style="italic")
    if waiting:
        text.append("\nwaiting for " + ", ".join(waiting), style="dim")
    return text
