"""Every player at an I Know You Don't table: cards held, tokens, this round's round points,
victory points and the scoring pile, who is active, who holds priority and who has
passed."""

from __future__ import annotations

from rich.text import Text

from ....rules.iknowyoudont import Phase, TableView
from ...widgets.players import NONE, TURN, PlayersPanel, Seat
from .cards import know_card_text

#: The mark of the player holding priority.
PRIORITY = Text("◆", style="bold cyan")


def status(view: TableView, seat: int) -> Text:
    """What ``seat`` is doing in this moment of the game, in a word or two."""
    phase = view.phase
    if view.winner == seat:
        return Text("won", style="bold green")
    if phase is Phase.OVER:
        return Text()
    if seat == view.active:
        if phase is Phase.PLAYING:
            return Text("to play", style="bold yellow")
        if phase is Phase.DECIDING:
            return Text("deciding", style="bold yellow")
        return Text("declared", style="bold")
    if phase is Phase.DECIDING and seat == view.challenger:
        return Text("intercepted" if view.intercept else "challenged", style="bold red")
    if phase is Phase.PRIORITY and seat == view.priority:
        return Text("priority", style="bold reverse cyan")
    if phase is Phase.PRIORITY and seat in view.passed:
        return Text("passed", style="dim")
    return Text()


class KnowPlayers(PlayersPanel):
    COLUMNS = (("hand", 5), ("tok", 4), ("pts", 4), ("vp", 4))

    def drawn_from(self, view: TableView) -> tuple[object, ...]:
        return (view.active, view.phase, view.priority, view.passed, view.challenger,
                view.hand_sizes, view.tokens, view.piles, view.points, view.awards,
                view.declaration, view.winner)

    def seat(self, view: TableView, number: int) -> Seat:
        active = number == view.active and view.phase is not Phase.OVER
        holds = number == view.priority and view.phase is Phase.PRIORITY
        mark = TURN if active else PRIORITY if holds else NONE
        pile = Text(" ").join(know_card_text(card, self.ascii, short=True)
                              for card in view.piles[number])
        # (the cards in the player's scoring pile, said so: "T4 T6" alone is a riddle)
        after = Text("scored ", style="dim") if pile else Text()
        after.append_text(pile)
        return Seat(mark, active or holds, (str(view.hand_sizes[number]),
                                            str(view.tokens[number]), str(view.points[number]),
                                            str(view.victory[number])),
                    status(view, number), after)
