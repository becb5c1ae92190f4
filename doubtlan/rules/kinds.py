"""The kinds of things a game is made of: an :class:`Action` a seat takes, an :class:`Event`
that happened at the table, and :func:`record`, which makes such a value a frozen, slotted
dataclass that is quick to build."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, TypeVar, dataclass_transform

from .errors import MalformedAction

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """Make ``cls`` a frozen, slotted dataclass whose ``__init__`` fills its slots directly.

    A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__``,
    which makes it several times slower to build; events and claims are built on every
    action, so theirs set the slots through the slot descriptors instead. Everything else
    (immutability, equality, hashing, ``repr``) is the dataclass's.
    """
    made: Any = dataclass(frozen=True, slots=True)(cls)
    if hasattr(made, "__post_init__") or any(
        f.default is not MISSING or f.default_factory is not MISSING for f in fields(made)
    ):
        raise TypeError(f"@record {made.__name__}: no defaults or __post_init__, please")
    names = [f.name for f in fields(made)]
    setters = {f"_set_{name}": made.__dict__[name].__set__ for name in names}
    body = "".join(f"    _set_{name}(self, {name})\n" for name in names) or "    pass\n"
    namespace: dict[str, Any] = {}
    exec(f"def __init__(self, {', '.join(names)}):\n{body}", setters, namespace)
    namespace["__init__"].__qualname__ = f"{made.__qualname__}.__init__"
    made.__init__ = namespace["__init__"]
    return made  # type: ignore[no-any-return]


@dataclass(frozen=True, slots=True)
class Action:
    """Something a seat does. Each game defines its own kinds.

    An action has a text form, its ``kind`` then its arguments, that :meth:`Game.parse_action`
    reads back: ``Lay(Card.parse("QS")).text == "lay QS"``.
    """

    kind: ClassVar[str] = "action"
    #: A challenge that decides who is challenged first when several come at once (I Doubt
    #: It's doubt, I Know You Don't's interception): they go first, in ``call_order``.
    call: ClassVar[bool] = False

    def malformed(self) -> str | None:
        """Why this action is not one a seat could have sent (its arguments are not of
        their types: it was built by hand), or None. The host reads actions from their
        text, so this guards the rules' own callers."""
        return None

    @property
    def text(self) -> str:
        return " ".join((self.kind, *self.args()))

    def args(self) -> tuple[str, ...]:
        return ()

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Action:
        if args:
            raise MalformedAction(f"{cls.kind!r} takes no arguments")
        return cls()

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class OneValue(Action):
    """An action of one value known by its code (a card, a disc): its text is its kind and
    that code (``"lay QS"``, ``"place F"``). A subclass is a ``@record`` of that one field,
    and says the value's type (``of``, with ``parse``) and an example of its text."""

    #: The value's type, what it is called, and an example of one's code.
    of: ClassVar[Any]
    called: ClassVar[str]
    example: ClassVar[str]

    @property
    def value(self) -> Any:
        """The one value (its field is the record's only slot)."""
        slots: tuple[str, ...] = type(self).__slots__
        return getattr(self, slots[0])

    def args(self) -> tuple[str, ...]:
        return (self.value.code,)

    def malformed(self) -> str | None:
        value = self.value
        return None if type(value) is self.of else f"not a {self.called}: {value!r}"

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Action:
        if len(args) != 1:
            raise MalformedAction(f"'{cls.kind}' takes one {cls.called}, such as "
                                  f"'{cls.kind} {cls.example}'")
        return cls(cls.of.parse(args[0]))  # type: ignore[call-arg]


def word(name: str, kind: str, about: str, *, call: bool = False) -> type[Action]:
    """An action of one word and no arguments, as a class called ``name`` of the calling
    module: ``Pass = word("Pass", "pass", "With priority: let priority move on.")``. Its
    instances are equal to one another, and its text is ``kind``."""
    module = sys._getframe(1).f_globals.get("__name__", __name__)
    return type(name, (Action,), {"__slots__": (), "__doc__": about, "__module__": module,
                                  "__qualname__": name, "kind": kind, "call": call})


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the table, as stored (full) or as one seat may see it."""

    kind: ClassVar[str] = "event"
