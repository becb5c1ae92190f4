"""Your hand at an I Know You Don't table, and the declaration you will play a card with:
a level and Truth or Bluff, chosen by keys or clicks, then played (enter, or the button).

Until the player chooses a declaration, it is the card under the cursor's true one, and
follows the cursor; a declaration chosen holds until that turn's card is played. The button
says when the declaration is a lie ("Play B3 as level 5 Truth: a bluff"), so that no Enter
plays a lie the player did not choose.

One widget drawn line by line, as I Doubt It's hand is: moving the cursor or changing the
declaration repaints a line or two of this widget alone."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive

from ....rules.iknowyoudont import Card, Declaration, Kind, true_declaration
from ...widgets.lines import Lines, clickable
from .cards import know_card_text


class KnowHand(Lines):
    """The cards you hold; ``cursor`` is the card enter plays, as ``declaration``."""

    DEFAULT_CSS = """
    KnowHand { height: 1fr; padding: 0 1; margin-top: 1; }
    KnowHand:focus { background: $boost; }
    KnowHand > .knowhand--cursor { background: $accent; color: $text; text-style: bold; }
    KnowHand > .knowhand--title { text-style: bold; }
    KnowHand > .knowhand--muted { color: $text-muted; }
    KnowHand > .knowhand--chosen { background: $accent; color: $text; text-style: bold; }
    KnowHand > .knowhand--play { background: $success; color: $text; text-style: bold; }
    """
    COMPONENT_CLASSES = {"knowhand--cursor", "knowhand--title", "knowhand--muted",
                         "knowhand--chosen", "knowhand--play"}

    can_focus = True
    cursor: reactive[int] = reactive(0, repaint=False)
    level: reactive[int] = reactive(1, repaint=False)
    kind: reactive[Kind] = reactive(Kind.TRUTH, repaint=False)

    class Play(Message):
        """The player clicked the Play button."""

    def __init__(self, ascii: bool = False) -> None:
        super().__init__()
        self.ascii = ascii
        self.cards: tuple[Card, ...] = ()
        self.max_level = 6
        #: False for a spectator, who is shown no cards; ``playing``: the Play button.
        self.seated = True
        self.playing = False
        #: True once the player chose the level or the kind: until the card is played,
        #: the declaration no longer follows the cursor.
        self.chosen = False
        self._faces: tuple[Text, ...] = ()
        self._card_width = 3

    def deal(self) -> None:
        """A new game's hand is coming: the cursor starts on its first card (not where it
        was in the last game's hand)."""
        self.cards, self._faces = (), ()
        self.cursor = 0
        self.chosen = False

    def show(self, cards: tuple[Card, ...], *, max_level: int, seated: bool,
             playing: bool) -> None:
        """Draw ``cards``; levels go up to ``max_level``; ``playing``: it is your turn."""
        if (cards, max_level, seated, playing) == (self.cards, self.max_level, self.seated,
                                                   self.playing):
            return
        old = self.card
        if cards != self.cards:
            self._faces = tuple(know_card_text(card, self.ascii) for card in cards)
            self._card_width = max((face.cell_len for face in self._faces), default=2) + 1
        if self.playing and not playing:
            self.chosen = False  # the card was played: the next declaration is the truth
        self.cards, self.max_level = cards, max_level
        self.seated, self.playing = seated, playing
        self.level = min(self.level, max_level)
        # Keep the cursor on the same card, or the one that took its place.
        cursor = self.cursor
        if old is not None and old in cards:
            cursor = cards.index(old)
        self.cursor = max(0, min(cursor, len(cards) - 1))
        self._follow()
        self.redraw()

    @property
    def card(self) -> Card | None:
        return self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None

    @property
    def declaration(self) -> Declaration:
        return Declaration(self.level, self.kind)

    @property
    def lie(self) -> bool:
        """Whether the card under the cursor, played as declared, would be a bluff."""
        card = self.card
        return card is not None and not card.matches(self.declaration)

    def _follow(self) -> None:
        """Unless the player chose one, declare the selected card's truth (a Wildcard: the
        highest level, which it bears out like any)."""
        card = self.card
        if not self.chosen and card is not None:
            truth = true_declaration(card, self.max_level)
            self.level, self.kind = min(truth.level, self.max_level), truth.kind

    def move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)

    def move_to(self, index: int) -> None:
        """To the card at ``index`` (-1: the last), as Home and End do."""
        if self.cards:
            self.cursor = index % len(self.cards)

    def choose_level(self, level: int) -> None:
        """The player chose the level (it holds until the card is played)."""
        if 1 <= level <= self.max_level:
            self.chosen = True
            self.level = level

    def choose_kind(self, kind: Kind) -> None:
        """The player chose Truth or Bluff (it holds until the card is played)."""
        self.chosen = True
        self.kind = kind

    def watch_cursor(self) -> None:
        self._follow()
        self.redraw()

    def watch_level(self) -> None:
        self.redraw()

    def watch_kind(self) -> None:
        self.redraw()

    def build(self, width: int) -> list[Text]:
        style = self.get_component_rich_style
        if not self.seated:
            return [Text("Watching: nobody's cards are shown to you.",
                         style=style("knowhand--muted"))]
        title = Text(f"Your hand: {len(self.cards)} card{'s' if len(self.cards) != 1 else ''}",
                     style=style("knowhand--title"))
        if self.card is not None:
            title.append(f" · {self.card.describe()}", style=style("knowhand--muted"))
        rows: list[Text] = []
        if not self.cards:
            rows.append(Text("(no cards)", style=style("knowhand--muted")))
        columns = max(1, width // self._card_width)
        cursor = style("knowhand--cursor")
        for index, face in enumerate(self._faces):
            if index % columns == 0:
                rows.append(Text())
            else:
                rows[-1].append(" ")
            click = clickable(f"pick({self.cards[index].code!r})")
            padded = face.copy()
            padded.pad_right(self._card_width - 1 - face.cell_len)
            if index == self.cursor:
                rows[-1].append(padded.plain, style=cursor + click)
            else:
                rows[-1].append_text(padded)
                rows[-1].stylize(click, len(rows[-1]) - len(padded))
        declaring = self._declaring()
        # The declaration and the Play button always show; a big hand shows the rows of
        # cards that fit, the cursor's among them (left and right reach the others).
        room = max(1, self.size.height - 1 - len(declaring)) if self.size.height else len(rows)
        if len(rows) > room:
            first = min(max(0, self.cursor // columns - room + 1), len(rows) - room)
            rows = rows[first:first + room]
            title.append(f" · {first * columns + 1} to "
                         f"{min(len(self.cards), (first + room) * columns)} shown",
                         style=style("knowhand--muted"))
        return [title, *rows, *declaring]

    def _declaring(self) -> list[Text]:
        """The declaration's lines: the levels, Truth or Bluff, and on your turn the button
        that plays the card under the cursor as declared (each part clickable)."""
        chosen = self.get_component_rich_style("knowhand--chosen")
        levels = Text("Declare ")
        for level in range(1, self.max_level + 1):
            click = clickable(f"level({level})")
            levels.append(f" {level} ", style=chosen + click if level == self.level else click)
        kinds = Text("as      ")
        for kind, key in ((Kind.TRUTH, "t"), (Kind.BLUFF, "b")):
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
                              style=self.get_component_rich_style("knowhand--play")
                              + clickable("play")))
        return lines

    def action_pick(self, code: str) -> None:
        """A click on the card ``code``: move the cursor there (the card clicked, even if
        the hand changed under the mouse)."""
        index = next((i for i, card in enumerate(self.cards) if card.code == code), None)
        if index is not None:
            self.cursor = index

    def action_level(self, level: int) -> None:
        self.choose_level(level)

    def action_kind(self, code: str) -> None:
        self.choose_kind(Kind(code))

    def action_play(self) -> None:
        self.post_message(self.Play())
