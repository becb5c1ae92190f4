"""Every player at a Liar's Deck table (:class:`~doubtlan.tui.widgets.players.PlayersPanel`):
cards held, lives left (or, in the roulette, triggers pulled), who is to play, whose cards
wait on the table, who is out."""

from __future__ import annotations

from rich.text import Text

from ....rules.liarsdeck import Lives, Phase, TableView
from ...widgets.players import NONE, TURN, PlayersPanel, Seat
from .cards import lives_text

#: The figures: cards held, and lives left or (the roulette) triggers pulled of six.
LIVES = (("cards", 6), ("lives", 6))
SHOTS = (("cards", 6), ("shots", 6))


def alone(view: TableView, seat: int) -> bool:
    """Whether ``seat`` is the only player holding cards (its one move is the call)."""
    return all(not held for number, held in enumerate(view.hand_sizes) if number != seat)


def doing(view: TableView, seat: int) -> Text:
    """What ``seat`` is doing in this moment of the game, in a word or two."""
    if view.winner == seat:
        return Text("won", style="bold green")
    if seat in view.out:
        return Text("out", style="dim red")
    text = Text()
    if view.phase is Phase.PLAYING and seat == view.active:
        text.append("must call" if alone(view, seat) else "to play", style="bold yellow")
    if seat == view.claimer:
        if text:
            text.append(", ")
        text.append(f"put {view.count} down", style="bold")
    return text


class LiarPlayers(PlayersPanel):
    COLUMNS = LIVES

    def columns(self, view: TableView) -> tuple[tuple[str, int], ...]:
        return SHOTS if view.options.lives is Lives.ROULETTE else LIVES

    def drawn_from(self, view: TableView) -> tuple[object, ...]:
        return (view.active, view.phase, view.claimer, view.count, view.hand_sizes,
                view.lives, view.pulled, view.out, view.winner)

    def seat(self, view: TableView, number: int) -> Seat:
        active = number == view.active and view.phase is Phase.PLAYING
        held = "" if number in view.out else str(view.hand_sizes[number])
        return Seat(TURN if active else NONE, active, (held, lives_text(view, number)),
                    doing(view, number))
