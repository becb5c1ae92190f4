"""Every player at an I Know You Don't table: cards held, tokens, this round's round points,
victory points and the scoring pile, who is active, who holds priority and who has
passed."""

from __future__ import annotations

from rich.text import Text

from ....net.messages import TableInfo
from ....rules.iknowyoudont import Phase, TableView
from ...widgets.lines import Lines
from ...words import away, bot_mark
from .cards import know_card_text

#: The widest a name is drawn.
NAME_WIDTH = 24
#: The columns after the name: heading and width.
COLUMNS = (("hand", 5), ("tok", 4), ("pts", 4), ("vp", 4))


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


class KnowPlayers(Lines):
    DEFAULT_CSS = """
    KnowPlayers { height: auto; border: round $primary; padding: 0 1; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._rows: list[tuple[Text, Text, str, tuple[str, ...], Text, Text]] = []
        self._shown: object = None

    def on_mount(self) -> None:
        self.border_title = "players"

    def show(self, view: TableView, info: TableInfo, ascii: bool = False,
             stood_in: frozenset[int] = frozenset()) -> None:
        """``stood_in``: the seats a bot has played for this game (their player away)."""
        key = (info.seats, view.seat, view.players, view.active, view.phase, view.priority,
               view.passed, view.challenger, view.hand_sizes, view.tokens, view.piles,
               view.points, view.awards, view.declaration, view.winner, stood_in)
        if key == self._shown:
            return  # nothing it draws has changed
        self._shown = key
        rows = []
        for number in range(view.players):
            seat = info.seats[number] if number < len(info.seats) else None
            name = (seat.name if seat else None) or f"seat {number + 1}"
            active = number == view.active and view.phase is not Phase.OVER
            holds = number == view.priority and view.phase is Phase.PRIORITY
            mark = Text("▶", style="bold yellow") if active else \
                Text("◆", style="bold cyan") if holds else Text(" ")
            who = Text(name, style="bold" if active or holds else "")
            level = ""
            if number == view.seat:
                who.append(" (you)", style="dim")
            elif seat is not None and seat.bot:
                level = bot_mark(info.game, seat.strategy, name)
            what = status(view, number)
            if seat is not None and seat.away:
                what.append(away(seat.open, bool(what), bot_playing=number in stood_in),
                            style="italic red")
            pile = Text(" ").join(know_card_text(card, ascii, short=True)
                                  for card in view.piles[number])
            figures: tuple[str, ...] = (str(view.hand_sizes[number]), str(view.tokens[number]),
                                        str(view.points[number]), str(view.victory[number]))
            rows.append((mark, who, level, figures, what, pile))
        if len(rows) != len(self._rows):
            self.refresh(layout=True)  # one line a player: the height changes
        self._rows = rows
        self.redraw()

    def build(self, width: int) -> list[Text]:
        rows = self._rows
        figures = sum(size for _, size in COLUMNS)
        said = max([0, *((what.cell_len + bool(pile) * (2 + len("scored ") + pile.cell_len))
                         for *_, what, pile in rows)])
        # The width the names have: what the figures and what each player does leave, up
        # to NAME_WIDTH; the bots' levels, which say least, go first where it is short.
        room = max(6, min(NAME_WIDTH, width - 2 - figures - 2 - said))
        full = max([6, *(who.cell_len + len(level) for _, who, level, *_ in rows)])
        levels = full <= room
        names = min(room, full) if levels else \
            min(room, max([6, *(who.cell_len for _, who, *_ in rows)]))
        heading = Text("  " + "player".ljust(names), style="dim")
        for title, size in COLUMNS:
            heading.append(title.rjust(size))
        lines = [heading]
        for mark, who, level, figures_of, what, pile in rows:
            line = Text()
            line.append_text(mark)
            line.append(" ")
            who = who.copy()
            if levels and level:
                who.append(level, style="dim")
            who.truncate(names, overflow="ellipsis", pad=True)
            line.append_text(who)
            for figure, (_, size) in zip(figures_of, COLUMNS, strict=True):
                line.append(figure.rjust(size))
            line.append("  ")
            rest = what.copy()
            if pile:  # (the cards in the player's scoring pile, said so: "T4 T6" alone is a riddle)
                if rest:
                    rest.append("  ")
                rest.append("scored ", style="dim")
                rest.append_text(pile)
            rest.truncate(max(0, width - line.cell_len), overflow="ellipsis")
            line.append_text(rest)
            lines.append(line)
        return lines

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self._rows) + 1
