"""When a browser seat's app may end itself for want of a player (``join --idle-end``)."""

from __future__ import annotations

from ..net.mirror import Mirror


def game_on(mirror: Mirror | None) -> bool:
    """Whether a game is being played at the table ``mirror`` follows: a player may be
    thinking, or someone watching it, so the app stays however long no key is pressed."""
    if mirror is None or mirror.table is None or mirror.view is None:
        return False
    return mirror.table.state == "playing" and mirror.view.winner is None
