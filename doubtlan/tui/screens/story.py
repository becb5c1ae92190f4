"""The story of a game (``r`` on the results, and ``doubtlan replay``): one thing said at a
time (each game's word: a claim, a bid), every hand as it was said, what it really showed,
whether it held and who was right, told from the game's verified reveal (rules/story.py,
docs/story.md)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from ...rules import game_named
from ...rules.story import Story, who
from ..games import table_type
from ..widgets.keys import KeyLine
from ..widgets.titlebar import TitleBar

#: How a card is drawn (the game's hand's ``face``).
Face = Callable[[Any], Text]


class StoryScreen(Screen[None]):
    """One thing said of ``story`` at a time (the game's word for it: a claim, a bid): left
    and right step through them, Home and End go to the first and the last, Escape goes
    back."""

    BINDINGS = [
        Binding("right,space,n", "step(1)", "Next"),
        Binding("left,p", "step(-1)", "Before"),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("escape,r,q", "close", "Back"),
    ]

    def __init__(self, story: Story, names: dict[int, str], face: Face, *,
                 me: int | None = None, title: str = "") -> None:
        super().__init__()
        self.story, self.names, self.face, self.me = story, names, face, me
        #: The game's words ("match", "challenged").
        self.words = game_named(story.game).words
        #: The game's own words for whether a step held and how it was decided.
        self.verdict = game_named(story.game).verdict
        self.title_text = title or f"The story of {self.words.game} {story.number}"
        #: The step shown, from 0; one past the last shows how the game ended.
        self.index = 0

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with VerticalScroll(id="story"):
            yield Static(id="told")
            yield Static(id="hands")
        yield KeyLine()

    def on_mount(self) -> None:
        claim = self.words.claim
        self.query_one(KeyLine).show((("←", f"{claim.capitalize()} before", "left"),
                                      ("→", f"Next {claim}", "right"),
                                      ("Home", "First", "home"), ("End", "Last", "end"),
                                      ("Esc", "Back", "escape")))
        self.draw()

    def seat_name(self, seat: int | None) -> str:
        return who(seat, self.names) + (" (you)" if seat is not None and seat == self.me
                                        else "")

    def cards(self, cards: tuple[Any, ...], laid: tuple[Any, ...] = ()) -> Text:
        """``cards`` face up, those of ``laid`` marked."""
        text, marked = Text(), list(laid)
        for card in cards:
            face = self.face(card)
            if card in marked:
                marked.remove(card)
                face.stylize("reverse")
            text.append_text(face)
            text.append(" ")
        return text

    def draw(self) -> None:
        steps, story = self.story.steps, self.story
        last = len(steps)
        index = self.index = max(0, min(self.index, last))
        title = Text(f" {self.title_text}", style="bold")
        where = f"{self.words.claim} {index + 1} of {last}" if index < last else "the end"
        title.append(f" · {where}")
        self.query_one(TitleBar).show(title)
        claim, hands = Text(), Text()
        if index == last:
            game = self.words.game
            claim.append(f"{self.seat_name(story.winner)} won the {game}."
                         if story.winner is not None
                         else f"The {game} ended without a winner.", style="bold")
            failed = sum(s.told.held is False for s in steps)
            claim.append(f"\n{self.words.count(last, self.words.claim, self.words.claims)}, "
                         f"{failed} of them {self.words.unheld}.")
            held = steps[-1].hands if steps else story.dealt
            hands.append(f"Every hand as the last {self.words.claim} began:\n", style="dim")
            laid = steps[-1].told.shown if steps and self.words.laid else None
            self._hands(hands, held, steps[-1].told.seat if steps else None, laid or ())
        else:
            told = steps[index].told
            truth, doubt = self.verdict(told, self.names)
            claim.append(self.seat_name(told.seat), style="bold")
            claim.append(f" {self.words.claimed} {told.said}. Really: ")
            claim.append_text(self.cards(told.shown or ()))
            claim.append("— ")
            claim.append(f"{truth}.", style="bold red" if told.held is False else "bold green")
            claim.append(f"\n{doubt[0].upper()}{doubt[1:]}.")
            marked = self.words.laid  # (what was shown, as laid from the hand: marked there)
            hands.append(f"Every hand as the {self.words.claim} began"
                         + (f" ({marked} marked):\n" if marked else ":\n"), style="dim")
            self._hands(hands, steps[index].hands, told.seat,
                        told.shown or () if marked else ())
        self.query_one("#told", Static).update(claim)
        self.query_one("#hands", Static).update(hands)

    def _hands(self, text: Text, hands: tuple[tuple[Any, ...], ...], seat: int | None,
               laid: tuple[Any, ...]) -> None:
        width = max(len(self.seat_name(s)) for s in range(len(hands))) if hands else 0
        for number, hand in enumerate(hands):
            text.append(f"{self.seat_name(number):<{width}}  ", style="bold" if number == seat
                        else "")
            text.append_text(self.cards(hand, laid if number == seat else ()))
            text.append("\n")

    def action_step(self, steps: int) -> None:
        self.index += steps
        self.draw()

    def action_first(self) -> None:
        self.index = 0
        self.draw()

    def action_last(self) -> None:
        self.index = len(self.story.steps)
        self.draw()

    def action_close(self) -> None:
        self.dismiss(None)


class StoryApp(App[int]):
    """``doubtlan replay``: one game's story on its own."""

    CSS_PATH = Path(__file__).parent.parent / "doubtlan.tcss"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, story: Story, names: dict[int, str], *, ascii: bool = False) -> None:
        super().__init__()
        self.story, self.names = story, names
        self.face = table_type(story.game).HAND(ascii=ascii).face

    def on_mount(self) -> None:
        self.push_screen(StoryScreen(self.story, self.names, self.face,
                                     title=f"The story of {game_named(self.story.game).words.game}"
                                           f" {self.story.number} (a journal)"),
                         lambda _: self.exit(0))
