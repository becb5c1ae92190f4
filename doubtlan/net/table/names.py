"""The names at the table: a newcomer's made unique and refused when it looks like another
seat's (net/lookalike.py); the bots' names, which make way for a newcomer's."""

from __future__ import annotations

import secrets

from .. import errors
from .base import Seat, TableParts

#: The names bots sit under, each bot the first one free: short, so that no list cuts them,
#: and each told from the others by its first letter (their levels are shown apart:
#: "Ada (hard bot)").
BOT_NAMES = ("Ada", "Bex", "Cal", "Dot", "Eli", "Fay", "Gus", "Hal", "Ivy", "Kit", "Lou",
             "Mo", "Ned", "Oz", "Pip", "Rex", "Sol", "Tam", "Uma", "Vic", "Wyn", "Zed")


class Naming(TableParts):
    """The names of the table's seats: unique, and none that looks like another."""

    def _not_alike(self, wanted: str, seat: Seat) -> None:
        """Refuse a newcomer for ``seat`` whose name looks the same as another seat's but is
        not it (net/lookalike.py): a Cyrillic "Аmy" beside "Amy", or "Amy" with an invisible
        character in it. The same name is told apart by a number, as always."""
        from ..lookalike import looks_like

        name = " ".join(wanted.split())
        for other in self.seats:
            if other is not seat and other.name and looks_like(name, other.name):
                raise errors.NameTaken(f"{name!r} looks like {other.name!r}")

    def _make_way(self, wanted: str) -> None:
        """A newcomer in the lobby keeps their name: a seated bot under it (or one that looks
        like it) takes another of :data:`BOT_NAMES`."""
        from ..lookalike import looks_like

        name = " ".join(wanted.split())
        for seat in self.seats:
            if seat.strategy is not None and seat.name is not None and (
                    seat.name.casefold() == name.casefold() or looks_like(name, seat.name)):
                seat.name = None
                seat.name = self._bot_name(but=name)

    def _bot_name(self, but: str = "") -> str:
        """The first of :data:`BOT_NAMES` that is nobody's at the table (nor ``but``), and
        looks like nobody's."""
        from ..lookalike import looks_like

        taken = [seat.name for seat in self.seats if seat.name] + ([but] if but else [])
        for name in BOT_NAMES:
            if not any(name.casefold() == other.casefold() or looks_like(name, other)
                       for other in taken):
                return name
        return self._unique_name("bot")

    def _unique_name(self, wanted: str) -> str:
        name = " ".join(wanted.split()) or "player"
        taken = {seat.name for seat in self.seats if seat.name}
        if name not in taken:
            return name
        for n in range(2, 100):
            suffix = f" ({n})"
            candidate = f"{name[: 24 - len(suffix)]}{suffix}"
            if candidate not in taken:
                return candidate
        return f"{name[:15]} {secrets.token_hex(4)}"
