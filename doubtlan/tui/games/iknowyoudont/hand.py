"""Your hand at an I Know You Don't table (:class:`~doubtlan.tui.widgets.hand.CardHand`),
and the declaration you will play a card with: a level and Truth or Bluff, chosen by keys or
clicks, then played (enter, or the button).

Until the player chooses a declaration, it is the card under the cursor's true one, and
follows the cursor; a declaration chosen holds until that turn's card is played. The button
says when the declaration is a lie ("Play B3 as level 5 Truth: a bluff"), so that no Enter
plays a lie the player did not choose."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.message import Message
from textual.reactive import reactive

from ....rules.iknowyoudont import Card, Declaration, Kind, true_declaration
from ...widgets.buttons import Button, button_lines
from ...widgets.hand import CardHand
from ...widgets.lines import clickable
from ...widgets.small import big
from .cards import know_card_text


class KnowHand(CardHand):
    """The cards you hold; ``cursor`` is the card enter plays, as ``declaration``."""

    level: reactive[int] = reactive(1, repaint=False)
    kind: reactive[Kind] = reactive(Kind.TRUTH, repaint=False)

    class Play(Message):
        """The player clicked the Play button."""

    def __init__(self, ascii: bool = False) -> None:
        super().__init__(ascii)
        self.max_level = 6
        #: ``playing``: it is your turn (the Play button shows).
        self.playing = False
        #: True once the player chose the level or the kind: until the card is played,
        #: the declaration no longer follows the cursor.
        self.chosen = False

    def deal(self) -> None:
        super().deal()
        self.chosen = False

    def show(self, cards: tuple[Card, ...], *, max_level: int, seated: bool,
             playing: bool) -> None:
        """Draw ``cards``; levels go up to ``max_level``; ``playing``: it is your turn."""
        if (cards, max_level, seated, playing) == (self.cards, self.max_level, self.seated,
                                                   self.playing):
            return
        if self.playing and not playing:
            self.chosen = False  # the card was played: the next declaration is the truth
        self.max_level, self.playing = max_level, playing
        self.level = min(self.level, max_level)
        self.hold(cards, seated)
        self.moved()
        self.redraw()

    def face(self, card: Card) -> Text:
        return know_card_text(card, self.ascii)

    def note(self) -> str:
        return f" · {self.card.describe()}" if self.card is not None else ""

    @property
    def declaration(self) -> Declaration:
        return Declaration(self.level, self.kind)

    @property
    def lie(self) -> bool:
        """Whether the card under the cursor, played as declared, would be a bluff."""
        card = self.card
        return card is not None and not card.matches(self.declaration)

    def moved(self) -> None:
        """Unless the player chose one, declare the selected card's truth (a Wildcard: the
        highest level, which it bears out like any)."""
        card = self.card
        if not self.chosen and card is not None:
            truth = true_declaration(card, self.max_level)
            self.level, self.kind = min(truth.level, self.max_level), truth.kind

    def choose_level(self, level: int) -> None:
        """The player chose the level (it holds until the card is played)."""
        if 1 <= level <= self.max_level:
            self.chosen = True
            self.level = level

    def choose_kind(self, kind: Kind) -> None:
        """The player chose Truth or Bluff (it holds until the card is played)."""
        self.chosen = True
        self.kind = kind

    def watch_level(self) -> None:
        self.redraw()

    def watch_kind(self) -> None:
        self.redraw()

    def footer(self) -> list[Text]:
        """The declaration's lines: the levels, Truth or Bluff, and on your turn the button
        that plays the card under the cursor as declared (each part clickable; in the
        compact layout, buttons three lines tall)."""
        if big(self):
            return self._buttons()
        chosen = self.get_component_rich_style("hand--cursor")
        levels = Text("Declare ")
        for level in range(1, self.max_level + 1):
            click = clickable(f"level({level})")
            levels.append(f" {level} ", style=chosen + click if level == self.level else click)
        kinds = Text("as      ")
        for kind, key in ((Kind.TRUTH, "y"), (Kind.BLUFF, "b")):
            click = clickable(f"kind({kind.value!r})")
            kinds.append(f" {kind.title} ({key}) ",
                         style=chosen + click if kind is self.kind else click)
            kinds.append(" ")
        lines = [levels, kinds]
        card = self.card
        if self.playing and card is not None:
            short = f"{card.kind.value}{card.level or ''}"
            lie = ": a bluff" if self.lie else ""
            lines.append(Text(f" Play {short} as {self.declaration.describe()}{lie} (enter) ",
                              style=self.get_component_rich_style("hand--button")
                              + clickable("play")))
        return lines

    def _buttons(self) -> list[Text]:
        """On your turn, the declaration as buttons: the level one down and one up around
        it, Truth and Bluff (the one chosen lit), and the Play button (the keys set the
        declaration before the turn; the buttons show when it is to be played)."""
        if not self.playing or self.card is None:
            return []
        style = self.get_component_rich_style
        chosen, other, play = style("hand--cursor"), style("hand--muted") + Style(
            reverse=True), style("hand--button")
        level = self.level
        declare: list[Button] = [
            ("−", f"level({max(1, level - 1)})", other),
            (str(level), f"level({level})", chosen),
            ("+", f"level({min(self.max_level, level + 1)})", other)]
        declare += [(kind.title, f"kind({kind.value!r})", chosen if kind is self.kind
                     else other) for kind in (Kind.TRUTH, Kind.BLUFF)]
        width = self.content_size.width
        lines = button_lines(declare, width, big=True)
        card = self.card
        if self.playing and card is not None:
            short = f"{card.kind.value}{card.level or ''}"
            lie = ": a bluff" if self.lie else ""
            lines += button_lines([(f"Play {short} as {self.declaration.describe()}{lie}",
                                    "play", play)], width, big=True)
        return lines

    def action_level(self, level: int) -> None:
        self.choose_level(level)

    def action_kind(self, code: str) -> None:
        self.choose_kind(Kind(code))

    def action_play(self) -> None:
        self.post_message(self.Play())
