"""The base of each game's results: the winner, the match tally, a row of figures per
player, the check of the deal and what comes next."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text

from ...net.messages import TableInfo
from ...net.record import Yours
from ...rules import game_named
from ...rules.fairness import Verdict
from ...rules.story import Figures, figures
from ..client_state import ClientState
from ..words import listed, sentence
from .lines import Lines
from .small import big

#: The fewest cells a name gets in the results' table (fewer: each player's figures are
#: told under their name).
NARROWEST = 10


class GameResults(Lines):
    """The end of a game, one widget drawn line by line, as the table is: showing the
    results after the last move costs one new layout of a widget, not of a table of
    widgets. Each game's results say what goes in the rows (:meth:`set`)."""

    DEFAULT_CSS = """
    GameResults { padding: 0 1; }
    GameResults > .results--heading { text-style: bold; }
    GameResults > .results--hint { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"results--heading", "results--hint"}
    #: The figures' columns after the player's name: heading and width (unless a game's
    #: results set others for one game: :meth:`set`).
    columns: ClassVar[tuple[tuple[str, int], ...]]
    #: Who deals the next game, as the host's hint says.
    next_game = "the next seat opens"

    def __init__(self, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        #: Cards in letters rather than suit symbols.
        self.ascii = ascii
        self.title = Text()
        #: The figures, a row of texts per player: the name, then one per column.
        self.rows: list[tuple[Text, ...]] = []
        self.shown_columns = self.columns
        self.deal = Text()
        self.hint = ""
        #: What one game is called (the rules' ``words.game``), once a game was shown.
        self.word = "game"
        #: The seats a bot played for part of the game (their player was away).
        self.stood_in: frozenset[int] = frozenset()
        #: The players away now, whose seats the host may free for newcomers.
        self.away: list[str] = []
        #: This player's figures in this game against their average (their record).
        self.yours: Yours | None = None

    def show(self, view: Any, info: TableInfo, seen: ClientState, *, is_host: bool,
             over: bool, verdict: Verdict | None = None) -> None:
        """Draw the end of the game ``view`` shows (``seen``: what the app kept of its
        events), the deal's check (``verdict``, None while it runs), and what comes next:
        each game's results make their rows and call :meth:`set`."""
        raise NotImplementedError

    def title_of(self, view: Any, info: TableInfo, names: dict[int, str], why: str = "") -> Text:
        """Who won (and ``why``), and which game of the match it was (in the game's own
        word: I Know You Don't's "match")."""
        self.word = game_named(info.game).words.game
        winner = view.winner
        title = Text()
        if winner is None:
            title.append(f"The {self.word} ended without a winner.", style="bold")
        elif winner == view.seat:
            title.append("You win!", style="bold green")
        else:
            title.append(f"{names.get(winner)} wins.", style="bold")
        if why:
            title.append(f"\n{why}")
        title.append(f"\n{self.word.capitalize()} {info.game_number}"
                     + (f" of {info.games}" if info.games else ""), style="dim")
        return title

    @staticmethod
    def tally(view: Any, game: str) -> list[Figures]:
        """Each seat's figures in the game ``view`` shows, from its record of play (what was
        said, shown and decided: the view's ``claims``, told by the game)."""
        told = game_named(game).tell(view.record)
        return [figures(told, seat) for seat in range(view.players)]

    def player(self, seat: int, view: Any, info: TableInfo,
               names: dict[int, str]) -> tuple[Text, Text]:
        """A row's first cells: the player's name (bold for the winner; marked when a bot
        played for them part of the game), games won."""
        name = Text(names.get(seat, "?"), style="bold" if seat == view.winner else "")
        if seat == view.seat:
            name.append(" (you)", style="dim")
        if seat in self.stood_in:
            name.append(" (a bot stood in)", style="italic")
        tally = info.tally[seat] if seat < len(info.tally) else 0
        return name, Text(str(tally))

    def set(self, title: Text, rows: list[tuple[Text, ...]], verdict: Verdict | None, *,
            is_host: bool, over: bool,
            columns: tuple[tuple[str, int], ...] | None = None) -> None:
        """Show ``title``, the figures' ``rows`` (in ``columns``, or :attr:`columns`), the
        deal's check and what comes next."""
        self.shown_columns = columns or self.columns
        if over:  # (a thumb has the Quit button under it, not a q)
            hint = "Play at this table is over." + ("" if big(self) else " q leaves.")
        elif is_host:
            away = self.away
            hint = f"n deals the next {self.word} ({self.next_game}). " + (
                f"x frees {listed(away)}'s seat for a newcomer. " if len(away) == 1
                else f"x frees the seats of {listed(away)} for newcomers. " if away
                else "") + "q ends the table."
        else:
            hint = f"Waiting for the host to deal the next {self.word}."
        self.title, self.rows, self.deal, self.hint = title, rows, deal_text(verdict), hint
        self.redraw()

    def build(self, width: int) -> list[Text]:
        lines = [Text()]
        for said in self.title.split("\n"):
            for line in said.wrap(self.app.console, max(1, width)):
                line.align("center", width)
                lines.append(line)
        lines.append(Text())
        # The figures (a hand's sparkline among them) stay whole: the names give way; where
        # they would give way to less than a short name (a phone's screen), each player's
        # figures are told under their name instead, each with its heading.
        columns = self.shown_columns
        figures = sum(size for _, size in columns)
        if width - 2 - figures < NARROWEST:
            lines += self._blocks(width)
        else:
            lines += self._table(width, columns, figures)
        lines.append(Text())
        lines.extend(self.deal.wrap(self.app.console, max(1, width)))
        if self.yours is not None:
            lines.extend(yours_text(self.yours).wrap(self.app.console, max(1, width)))
        lines.append(Text())
        hint = Text(self.hint, style=self.get_component_rich_style("results--hint"))
        lines.extend(hint.wrap(self.app.console, max(1, width)))
        return lines

    def _blocks(self, width: int) -> list[Text]:
        """Each player's name, then their figures as "heading figure", wrapped."""
        lines = []
        heading = self.get_component_rich_style("results--heading")
        for row in self.rows:
            name = row[0].copy()
            name.truncate(width, overflow="ellipsis")
            lines.append(name)
            said = Text("  ")
            for index, (cell, (title, _)) in enumerate(zip(row[1:], self.shown_columns,
                                                           strict=True)):
                pair = Text(title.strip(), style=heading) + Text(" ") + cell
                if index and said.cell_len + 3 + pair.cell_len > width:
                    lines.append(said)  # (a heading and its figure kept on one line)
                    said = Text("  ")
                elif index:
                    said.append(" · ", style="dim")
                said.append_text(pair)
            lines.append(said)
        return lines

    def _table(self, width: int, columns: tuple[tuple[str, int], ...],
               figures: int) -> list[Text]:
        """The players in rows, the figures in columns under their headings."""
        lines = []
        name_width = max(6, min(24, max([6, *(row[0].cell_len for row in self.rows)]),
                                width - 2 - figures))
        heading = Text("player".ljust(name_width + 2),
                       style=self.get_component_rich_style("results--heading"))
        for title, size in columns:
            heading.append(title.ljust(size))
        lines.append(heading)
        for row in self.rows:
            line = row[0].copy()
            line.truncate(name_width, overflow="ellipsis", pad=True)
            line.append("  ")
            for cell, (title, size) in zip(row[1:], columns, strict=True):
                # (under a heading of two parts, "doubts: right", the figure is under the
                # second)
                lead = len(title) - len(title.split(": ")[-1])
                line.append(" " * lead)
                line.append_text(cell)
                line.append(" " * max(1, size - lead - cell.cell_len))
            line.truncate(width, overflow="ellipsis")
            lines.append(line)
        return lines



def deal_text(verdict: Verdict | None) -> Text:
    """What the check of the game's deal found (docs/fairness.md), in a sentence or two."""
    if verdict is None:
        return Text("Checking the deal...", style="dim")
    if not verdict.checked:
        return Text(f"Deal not checked: {'; '.join(verdict.notes)}.", style="yellow")
    if not verdict.ok:
        text = Text("The deal did not check out: ", style="bold red")
        text.append(sentence(verdict.problems[0]), style="red")
        return text
    text = Text("Deal verified", style="bold green")
    text.append(": the cards were dealt as promised and every card shown was the one laid.",
                style="green")
    for note in verdict.notes:
        text.append(f"\n{sentence(note)}", style="dim")
    return text


def yours_text(yours: Yours) -> Text:
    """This game's figures against the player's average (docs/record.md), in the game's
    words."""
    kind = game_named(yours.entry.game)
    words = kind.words
    text = Text(f"You, this {words.game}: ", style="bold")
    text.append(words.figures(yours.entry.figure))
    if yours.games:
        text.append(f"\nYour average over {words.count(yours.games, words.game, words.games)}"
                    f" of {kind.title}: ", style="bold")
        text.append(words.figures(yours.averages.__getitem__, whole=False))
    else:
        text.append(f"\nYour first {words.game} of {kind.title} on record.", style="dim")
    return text
