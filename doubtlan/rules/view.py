"""What every game's view has in common: the fields each seat sees alike, and the ones only
its own seat sees (a spectator sees the view's :attr:`View.unseen` in their place)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from .kinds import Action, Event

#: A number for each seat, in seat order (hands' sizes, lives, points); and some seats, by
#: number (those out, those awaited).
PerSeat = tuple[int, ...]
Seats = tuple[int, ...]


@dataclass(slots=True)
class View:
    """What one seat (or a spectator, seat ``None``) may see of a game at one moment.

    Every game's view begins with these fields (a game's view declares its ``options``
    again, as its own options' type), and has the ones after them too, among its own.
    """

    game: ClassVar[str] = "game"

    #: The seat whose view it is; None for a spectator.
    seat: int | None
    players: int
    options: Any
    #: The seat that opened the game.
    opener: int
    #: Bumped by every accepted action; a view is current when its version is the game's.
    version: int
    #: The game's :attr:`~doubtlan.rules.base.Game.decision` now: it counts the points at
    #: which the game asked a seat for a move, and an action sent with it was decided for
    #: this moment of the game.
    decision: int

    if TYPE_CHECKING:  # (not fields here: each game's view places them among its own)
        #: The seats the game waits for.
        awaiting: tuple[int, ...]
        #: Every settled claim of the game so far (public): the game's record of play.
        record: tuple[Event, ...]
        winner: int | None
        #: This seat's hand (empty for a spectator).
        hand: tuple[Any, ...]
        #: What this seat may do now (nothing, for a spectator).
        legal: tuple[Action, ...]

    @property
    def moment(self) -> tuple[object, ...]:
        """Changes whenever the seat may face a new decision (a bot client decides once per
        moment)."""
        return (self.decision,)

    @property
    def my_turn(self) -> bool:
        """True when this seat is on the turn clock (the game's ``turn_seat``)."""
        return False

    @property
    def window_key(self) -> tuple[object, ...] | None:
        """While this seat sees a claim waiting for answers, a key that changes whenever that
        wait starts again (a screen's countdown starts then); None otherwise. The host's
        window clock (:meth:`Game.window_key`) uses the same key."""
        return None

    #: The fields only this seat sees, the view's last ones, with what a spectator sees in
    #: each (a game's view may add its own: Liar's Deck's cards in the claim waiting).
    unseen: ClassVar[dict[str, object]] = {"hand": (), "legal": ()}

    @classmethod
    def ordered(cls, facts: dict[str, object]) -> tuple[object, ...]:
        """``facts``, the view's public fields by name (from ``players`` to the last before
        :attr:`unseen`'s), in the order of its fields; TypeError naming any missing or
        unknown."""
        names = _public_names(cls)
        if len(facts) != len(names) or not facts.keys() >= set(names):
            missing = sorted(set(names) - facts.keys())
            unknown = sorted(facts.keys() - set(names))
            raise TypeError(f"{cls.__name__}'s public facts: missing {missing}, "
                            f"unknown {unknown}")
        return tuple(facts[name] for name in names)

    def can(self, kind: type[Action]) -> bool:
        """True when an action of this kind is among :attr:`legal`: ``view.can(Doubt)``."""
        return kind in map(type, self.legal)


_PUBLIC_NAMES: dict[type[View], tuple[str, ...]] = {}


def _public_names(view: type[View]) -> tuple[str, ...]:
    """The public fields of a view type, in order: after ``seat``, before its unseen ones."""
    found = _PUBLIC_NAMES.get(view)
    if found is None:
        names = [f.name for f in fields(view)]
        own = list(view.unseen)
        if names[-len(own):] != own:
            raise TypeError(f"{view.__name__}'s last fields are not its unseen ones, {own}")
        found = _PUBLIC_NAMES[view] = tuple(names[1:-len(own)])
    return found
