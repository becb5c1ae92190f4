"""Notifications as plain text: what they say comes from the network as often as not (a
table's or a player's name, the host's message), and Textual would read ``[`` in it as
markup, which a name such as "[/]" breaks."""

from __future__ import annotations

from textual.app import App
from textual.notifications import SeverityLevel


class PlainNotices(App[int]):
    """An app whose every notification is shown as it is written, never read as markup."""

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)
