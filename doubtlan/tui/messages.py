"""What the screens and widgets ask of the app, as Textual messages: they bubble up to
:class:`~doubtlan.tui.app.DoubtApp`, which holds the client and the hosted table."""

from __future__ import annotations

from collections.abc import Callable

from textual.message import Message

from ..net.hosted import HostedTable


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
