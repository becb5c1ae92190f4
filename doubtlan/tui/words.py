"""How messages are written on screen."""

from __future__ import annotations

from ..bots import level_of
from ..net.messages import Bye, TableInfo


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first, one full stop last."""
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else text


def away(given_away: bool, after: bool = False, *, bot_playing: bool = True) -> str:
    """What a seat whose player is away shows at the table (``after`` other words): "away"
    until a bot has played for them (``bot_playing``: after the grace time), then "away,
    bot plays"; a seat the host freed, "seat free, bot plays"."""
    text = "seat free, bot plays" if given_away else \
        "away, bot plays" if bot_playing else "away"
    return f"  {text}" if after else text


def seat_names(info: TableInfo) -> dict[int, str]:
    """Each seat's name as a table calls it: its player's, or "seat 3" for an empty one."""
    return {s.seat: s.name or f"seat {s.seat + 1}" for s in info.seats}


def cap(name: str) -> str:
    """``name`` to begin a sentence: "You" for "you"; players' names as they are."""
    return "You" if name == "you" else name


def listed(names: list[str]) -> str:
    """``names`` in a sentence: "Ben", "Ben and Cy", "Ben, Cy and Dee"."""
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def bot_mark(game: str, strategy: str | None, name: str) -> str:
    """What follows a bot's name at the table: its level (or its strategy, where that is no
    level), and "bot" unless its name says so: " (hard bot)", " (sharp bot)", " (bot)"."""
    words = [level] if (level := level_of(game, strategy) or strategy) is not None else []
    if "bot" not in name.casefold():
        words.append("bot")
    return f" ({' '.join(words)})" if words else ""


_EXPLAINED = {
    "wrong_pin": "That PIN is not this table's.",
    "too_many_attempts": "Too many wrong PINs from here; wait a minute and try again.",
    "table_full": "The table is full, or play there has started: watch it (join --watch), or "
                  "ask the host to free a seat whose player is away (x, in the lobby or between "
                  "games).",
    "name_taken": "Your name looks the same as the name of a player at the table ({message}): "
                  "join again under another.",
    "version_mismatch": "This doubtlan cannot talk to that table: {message}.",
    "unknown_game": "This doubtlan cannot join: {message}.",
    "shutdown": "The table has ended: {message}.",
    "host_error": "The table has ended: the host met a fault of its own ({message}).",
    "match_over": "Play at this table is over.",
    "replaced": "Your seat was taken back from another window or machine.",
    "bad_token": "The table no longer knows your seat.",
    "too_many_connections": "The table is taking no more connections.",
}


def goodbye(bye: Bye) -> str:
    """Why the table said goodbye, as a sentence for the player."""
    template = _EXPLAINED.get(bye.code, "The table closed the connection: {message}.")
    return template.format(message=bye.message)
