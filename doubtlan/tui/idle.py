"""When a browser seat's app may end itself for want of a player (``join --idle-end``)."""

from __future__ import annotations

from ..net.mirror import Mirror


def game_on(mirror: Mirror | None) -> bool:
    """Whether a match is under way at the table ``mirror`` follows (a game being played,
    or the time between two games): a player may be thinking, or away for a moment with a
    seat to come back to, or someone watching; the app stays however long no key is
    pressed. Only the lobby, the end of the match, and the screens before a table is
    joined count as idle."""
    if mirror is None or mirror.table is None:
        return False
    return mirror.table.state in ("seeding", "playing", "between")
