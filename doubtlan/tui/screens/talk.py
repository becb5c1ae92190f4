"""Table talk's dialogs (docs/talk.md): a line of one's own (``t``), and the host's mutes
(``m``)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.events import Paste
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from ...net.messages import TableInfo
from ..widgets.talk import LONGEST, QUICK


class LineInput(Input):
    """The line's field: typing stops at its length, and a paste longer than the room left
    is cut to fit (Textual's field refuses it whole, with a bell)."""

    def _on_paste(self, event: Paste) -> None:
        text = event.text.splitlines()[0] if event.text else ""
        start, end = sorted(self.selection)
        room = self.max_length - (len(self.value) - (end - start)) if self.max_length else None
        if text and room:
            self.replace(text[:room], start, end)
        event.stop()


class TalkScreen(ModalScreen[str | None]):
    """Type a line for the table (Enter or Say says it, Escape or Cancel does not), or pick
    one of the quick words (a tap says it); returns it, or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, note: str = "") -> None:
        super().__init__()
        #: The game's word to a player who may have pressed ``t`` for one of its keys.
        self.note = note

    def compose(self) -> ComposeResult:
        quick = "  ".join(f"{key}: {line}" for key, line in QUICK)
        with Vertical(classes="dialog talk"):
            if self.note:
                yield Static(self.note, id="talk-note", classes="hint", markup=False)
            yield Static("Say something to the table (Enter says it, Escape does not).")
            yield LineInput(placeholder=f"up to {LONGEST} characters", max_length=LONGEST,
                            id="line")
            yield Static(f"At the table, one key says: {quick}", classes="hint", markup=False)
            with Grid(id="quick-words"):
                for number, (_, line) in enumerate(QUICK):
                    yield Button(line, id=f"quick-{number}")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Say it", id="say", variant="primary")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._say(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        pressed = event.button.id or ""
        if pressed == "cancel":
            self.action_cancel()
        elif pressed == "say":
            self._say(self.query_one(LineInput).value)
        elif pressed.startswith("quick-"):
            self.dismiss(QUICK[int(pressed.removeprefix("quick-"))][1])

    def _say(self, typed: str) -> None:
        line = " ".join(typed.split())
        self.dismiss(line if line and line.isprintable() else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class MuteScreen(ModalScreen[tuple[int, bool] | None]):
    """The host picks a seat to mute, or to hear again: returns (seat, mute), or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, info: TableInfo, mine: int | None) -> None:
        super().__init__()
        self.seats = [seat for seat in info.seats if seat.name and seat.seat != mine]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog mute"):
            yield Static("Mute whom? A muted seat's talk reaches nobody. (Enter mutes or "
                         "unmutes, Escape does neither.)")
            yield OptionList(*(Option(Text(f"{seat.name:<24} {'muted' if seat.muted else ''}"),
                                      id=str(seat.seat)) for seat in self.seats),
                             id="mute-seats")  # (a name is text, not markup: "[/]" is one)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        seat = next(s for s in self.seats if str(s.seat) == event.option.id)
        self.dismiss((seat.seat, not seat.muted))

    def action_cancel(self) -> None:
        self.dismiss(None)
