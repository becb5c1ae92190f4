"""What one client knows of the seats' keys (net/signing.py): its own seat's key, which
signs what it sends; every key the table has shown for each seat; and what the host relayed
in a player's name without that player's signature. No I/O: the mirror (net/mirror.py)
holds one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..rules.fairness import Played
from .messages import Act, Hello, Message, Said, Say, TableInfo
from .signing import SeatKey, act_text, say_text, signed_by_any


@dataclass
class SeatKeys:
    """One client's keys: its own, and the seats' as the table showed them."""

    #: The key this client signs its seat's actions and lines with: made for its first
    #: hello that takes a seat, kept with the seat for its return (net/kept.py).
    key: SeatKey | None = None
    #: Every key each seat has been shown with (a seat a newcomer took has had two).
    keys: dict[int, set[str]] = field(default_factory=dict)
    #: The number of each seat's last line heard, and of this client's own last line.
    heard: dict[int, int] = field(default_factory=dict)
    said: int = 0

    def sign(self, message: Message, match: str | None, game: int,
             clock: float | None) -> Message:
        """``message`` as this client sends it: a hello that takes a seat gives the seat's
        key; an action or a line is signed for ``match`` (the table's commitment) and
        ``game``; ``clock`` (the wall clock, in seconds) numbers a line."""
        if isinstance(message, Hello) and not message.watch and message.key is None:
            if self.key is None:
                self.key = SeatKey()
            return dataclasses.replace(message, key=self.key.public)
        if self.key is None or match is None:
            return message
        if isinstance(message, Act) and message.sig is None:
            return dataclasses.replace(message, sig=self.key.sign(act_text(
                match, game, message.turn, message.action)))
        if isinstance(message, Say) and message.sig is None \
                and (line := " ".join(message.line.split())):
            self.said = max(self.said + 1, message.number,
                            0 if clock is None else int(clock * 1000))
            return Say(line, self.said, self.key.sign(say_text(match, self.said, line)))
        return message

    def note(self, table: TableInfo, seat: int | None) -> str | None:
        """Keep each seat's key as ``table`` shows it; why a table that shows this client's
        ``seat`` with a key other than its own breaks every deal (it could sign in its
        name), or None."""
        for info in table.seats:
            if info.key is not None:
                self.keys.setdefault(info.seat, set()).add(info.key.lower())
        if self.key is not None and seat is not None and 0 <= seat < len(table.seats) \
                and table.seats[seat].key != self.key.public:
            return "the table shows your seat with a key that is not yours"
        return None

    def hear(self, said: Said, table: TableInfo | None, match: str | None) -> str | None:
        """Why ``said`` is not a line to hear, or None: a person's line must be signed by
        its player's key and, as news, numbered after the last one heard from that seat (a
        line sent again when this client joins may be old); a bot's remark must come from
        a bot's seat."""
        info = table.seats[said.seat] if table is not None and said.seat < len(
            table.seats) else None
        if said.bot:
            if info is None or info.bot:
                return None
            return f"the host relayed a bot's remark from {said.name}'s seat, a person's"
        if match is None or not signed_by_any(self.keys.get(said.seat, set()), say_text(
                match, said.number, said.line), said.sig):
            return f"the host relayed {said.line!r} as {said.name}'s, who did not sign it"
        last = self.heard.get(said.seat, 0)
        if said.fresh and said.number <= last:
            return f"the host relayed a line of {said.name}'s again: {said.line!r}"
        self.heard[said.seat] = max(said.number, last)
        return None

    def unsigned(self, played: Played, decision: int, match: str, game: int) -> str | None:
        """Why an action the reveal says a seat's player played at ``decision`` of game
        ``game`` is not that player's, or None."""
        if signed_by_any(self.keys.get(played.seat, set()),
                         act_text(match, game, decision, played.action), played.sig):
            return None
        return (f"the host says seat {played.seat + 1} played {played.action!r}, which its "
                "player did not sign")
