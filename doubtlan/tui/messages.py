"""The app and its screens talk in Textual messages. What the screens and widgets ask of the
app (Act, Say, HostCommand) bubbles up to :class:`~doubtlan.tui.app.DoubtApp`, which holds
the client and the hosted table; what the app learns from the host (TableChanged, Heard) is
posted to the play screen, which draws it."""

from __future__ import annotations

from collections.abc import Callable

from textual.message import Message

from ..net.hosted import HostedTable
from ..net.messages import Said
from ..net.mirror import Mirror
from .client_state import ClientState


class Act(Message):
    """Send an action of the table's game, in its text form (``"lay 7H"``, ``"doubt"``;
    ``"play T3 4B"``, ``"challenge"``)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class Say(Message):
    """Say ``line`` to the table (docs/talk.md)."""

    def __init__(self, line: str) -> None:
        super().__init__()
        self.line = line


class HostCommand(Message):
    """Run ``do`` on the host's table (seat or remove a bot, start, deal the next game, open
    the rules dialog on its settings); a refusal (``Refused``) is told as a notification.
    Only the host's app has a table to run it on: elsewhere it does nothing."""

    def __init__(self, do: Callable[[HostedTable], object]) -> None:
        super().__init__()
        self.do = do


class TableChanged(Message):
    """What this player's app knows of its table changed (a message from the host, the
    connection lost or back, a game's deal checked): draw ``mirror`` and ``seen`` as they
    are now."""

    #: Posted to the screen that draws the table, and for it alone.
    bubble = False

    def __init__(self, mirror: Mirror, seen: ClientState) -> None:
        super().__init__()
        self.mirror, self.seen = mirror, seen


class Heard(Message):
    """A line just said at the table (``said.fresh``), to show for a few seconds."""

    bubble = False

    def __init__(self, said: Said) -> None:
        super().__init__()
        self.said = said
