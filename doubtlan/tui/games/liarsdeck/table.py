"""Liar's Deck's table: the players, the round (its rank) beside the prompt, and your hand
on the left; the claims on the right; and the game's keys (mark cards, put them down, call
the last ones a lie)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from ....net.messages import TableInfo
from ....rules.liarsdeck import Called, Liar, Lives, Phase, Put, Standing, TableView
from ...client_state import ClientState
from ...widgets.gametable import GameTable, KeyEntry
from ...widgets.prompt import Answer
from ...words import cap
from .cards import faces
from .hand import LiarHand
from .history import LiarHistory
from .players import LiarPlayers, alone
from .prompt import LIAR, LiarPrompt
from .results import LiarResults
from .round import RoundBox

RULES = """\
# Liar's Deck

The deck is **20 cards**: 6 Queens (**Q**), 6 Kings (**K**), 6 Aces (**A**) and 2 Jokers
(**Jo**); with two decks, twice that. Every round each player still in is dealt **5 cards**
and the table draws a **rank**: Queens, Kings or Aces. A card of that rank, or a Joker, is a
**true** card.

On your turn put **1 to 3 cards** face down, saying they are all of the table's rank (you
may lie), or call the cards the last player put down **a lie**. A player who has put their
last card down is skipped; when only you hold cards, you must call.

A call turns the cards over. A card among them that is not true makes them a lie, and their
player **loses a life**; all true, the caller loses one. Then a new round is dealt, and the
player who lost opens it (the next one still in, if that player is out).

Each player has **3 lives** unless the host chose otherwise. In the **roulette**, a lost call
pulls the trigger of the player's revolver instead: one of its 6 chambers is loaded, so the
first pull is out with a chance of 1 in 6, the sixth for sure. The last player standing wins.

On screen: **▶** is the player to play; each player's cards held and lives left (in the
roulette, the triggers pulled of 6); the round box shows the rank, the true cards and the
cards down this round; the claims list shows what each call turned over and who called.

# Keys

| key | at the table |
|---|---|
| left, right | move along your hand (Home, End: its first and last card) |
| space | mark the card under the cursor to put down, or unmark it (3 at most) |
| enter | put the marked cards down (none marked: the card under the cursor) |
| l | call the last cards put down a lie |
"""


class LiarTable(GameTable):
    """The table of Liar's Deck."""

    game = "liarsdeck"
    rules = RULES

    PLAYERS, PROMPT, HAND, RESULTS = LiarPlayers, LiarPrompt, LiarHand, LiarResults
    HISTORY, BESIDE, ENDED = LiarHistory, (RoundBox,), Standing
    # (Cards may be marked before the turn comes.)
    READY, MOVES = ("move", "move_to", "mark"), {"put": Put, "liar": Liar}
    # (The line of keys is this table's keys(): none of these shows by itself.)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "mark", "Mark"), Binding("enter", "put", "Put down"),
        Binding("l", "liar", "Liar!"),
    ]

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, view: TableView, info: TableInfo, seen: ClientState) -> None:
        self.query_one(RoundBox).show(view)
        self.query_one(LiarHand).show(view.hand, seated=view.seat is not None,
                                      playing=view.can(Put),
                                      dealt=(seen.game_number, view.round))
        self._say(view, self.names())

    def _say(self, view: TableView, names: dict[int, str]) -> None:
        def name(seat: int | None) -> str:
            return "you" if seat == view.seat else names.get(-1 if seat is None else seat, "?")

        text = Text()
        answers: tuple[Answer, ...] = ()
        last = view.record[-1] if view.record else None
        # How the last call went, until a claim of the new round stands: after what is to be
        # done now, which the prompt keeps whole when its lines run short.
        told = self.told(view, last, name) if isinstance(last, Called) else None
        rank = view.rank.plural()
        if view.phase is Phase.OVER:
            text.append(f"{cap(name(view.winner))} "
                        f"{'are' if view.winner == view.seat else 'is'} the last player "
                        "standing.", style="bold")
        elif view.claimer is not None:
            text.append(f"{cap(name(view.claimer))} put {view.count} down as {rank}.",
                        style="bold")
            if view.my_turn and alone(view, view.active):
                text.append("\nYou alone hold cards: call them (l).", style="bold yellow")
            elif view.my_turn:
                text.append("\nYour turn: put cards on them, or call (l).",
                            style="bold yellow")
            else:
                text.append(f"\n{cap(name(view.active))} is to play.")
            answers = (LIAR,) if view.can(Liar) else ()
        elif view.my_turn:
            text.append(f"Your turn: put 1 to 3 cards down as {rank}.", style="bold yellow")
            if told is None:
                text.append("\nspace marks cards, enter puts them down", style="dim")
        else:
            text.append(f"{cap(name(view.active))} opens round {view.round} ({rank}).")
        if told is not None:
            if view.claimer is not None:
                told.stylize("dim")  # (a round on: what is down now matters more)
            text.append("\n")
            text.append_text(told)
        self.query_one(LiarPrompt).say(text, answers)

    @staticmethod
    def told(view: TableView, call: Called, name: Callable[[int | None], str]) -> Text:
        """How the last call went, and what it cost: a life, or a pull of the trigger."""
        whose = "your" if call.seat == view.seat else f"{name(call.seat)}'s"
        said = call.rank.title if call.count == 1 else call.rank.plural()
        text = Text(f"{cap(name(call.caller))} called {whose} {call.count} {said}: ",
                    style="bold")
        text.append_text(faces(call.shown))
        text.append(" a lie!" if call.lie else " true!",
                    style="bold red" if call.lie else "bold yellow")
        loser = call.loser
        who = cap(name(loser))
        if view.options.lives is Lives.ROULETTE:  # (the triggers pulled: the players panel)
            text.append(f"\n{who} pulled the trigger: ")
            text.append("bang, out." if loser in view.out else "click.",
                        style="bold red" if loser in view.out else "")
        elif loser in view.out:
            text.append(f"\n{who} lost the last life: out.", style="bold red")
        else:
            lives = view.lives[loser]
            text.append(f"\n{who} lost a life: {lives} left.")
        return text

    # -- keys and clicks -------------------------------------------------------------------

    def keys(self) -> list[KeyEntry]:
        keys: list[KeyEntry] = []
        if self.can(Put):
            keys += [("←→", "Card", "right"), ("space", "Mark", "space"),
                     ("⏎", "Put down", "enter")]
        if self.can(Liar):
            keys.append(("l", "Liar!", "l"))
        return keys

    def action_mark(self) -> None:
        self.query_one(LiarHand).mark()

    def action_put(self) -> None:
        cards = self.query_one(LiarHand).putting
        if cards:
            self.act("put " + " ".join(card.code for card in cards))

    def on_liar_hand_put(self, event: LiarHand.Put) -> None:
        if self.check_action("put", ()):
            self.action_put()

    def action_liar(self) -> None:
        # (No half second's guard, as a window's answers have: the call is a move of your
        # turn alone, and a key pressed before your turn came did nothing.)
        self.act("liar")
