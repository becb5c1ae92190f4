"""What every game's rule options have in common: each option is a field with its choices,
and everything else a table needs of the options comes from those fields.

A game's ``Options`` is a frozen, slotted dataclass on :class:`FieldOptions` whose fields are
its options, in the order of its :attr:`~FieldOptions.fields`, each of the type of its
default (a whole number or an enum's member). Reading them from text and writing them back,
checking them, and the words said of them (in the lobby, a list of tables, for the window
clock and to a table of the wrong size) are derived from the fields and their choices::

    @dataclass(frozen=True, slots=True)
    class Options(FieldOptions):
        decks: int = 1

        fields: ClassVar[tuple[OptionField, ...]] = (
            OptionField("decks", "Decks", "decks in play", (
                Choice("1", "one deck", said="one deck", seats=(3, 8, "one deck needs")),
                Choice("2", "two decks", said="two decks", seats=(3, 10, "two decks need")))),
        )
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self

from .errors import BadOptions, option_choice, option_number, option_pairs


@dataclass(frozen=True, slots=True)
class Choice:
    """One value a rule option may take, and what is said of it where."""

    #: The value as the options' text writes it (``"2"``), and the host's dialog's words for
    #: it (``"two decks: 3 to 10"``).
    value: str
    words: str
    #: Its words in the lobby's line of rules (:meth:`FieldOptions.describe`) and in a list of
    #: tables (:meth:`FieldOptions.brief`): empty where nothing is said of it.
    said: str = ""
    brief: str = ""
    #: The fewest and the most players it allows, and who needs them, as a refusal says it
    #: (``(3, 10, "2 decks need")``); None leaves them to the other options or the game.
    seats: tuple[int, int, str] | None = None
    #: What the window clock is for with it, instead of the game's own words (``"open
    #: calls"``).
    clock: str = ""


@dataclass(frozen=True, slots=True)
class OptionField:
    """One rule option, as the command line (``--NAME``) and the host's dialog offer it."""

    #: Its name in the options' text (``"decks"`` in ``"decks=2,challenge=open"``) and
    #: its flag on the command line (``--decks``).
    name: str
    #: The dialog's label (``"Decks"``).
    label: str
    #: The command line's help, without the default (``"decks in play"``).
    help: str
    #: The values it may take; the first is the default.
    choices: tuple[Choice, ...]

    @property
    def default(self) -> str:
        return self.choices[0].value

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(choice.value for choice in self.choices)


def decks_option(help: str, one: tuple[int, int], two: tuple[int, int], *,
          two_need: str = "two decks need") -> OptionField:
    """The option of one deck or two (``decks``), each for the players between its two
    numbers (``one``, ``two``); ``two_need`` begins a refusal of a table of two decks."""
    return OptionField("decks", "Decks", help, (
        Choice("1", f"one deck: {one[0]} to {one[1]}", said="one deck", brief="1 deck",
               seats=(*one, "one deck needs")),
        Choice("2", f"two decks: {two[0]} to {two[1]}", said="two decks", brief="2 decks",
               seats=(*two, two_need))))


class GameOptions(Protocol):
    """What every game's rule options offer (``Options()`` is the default rules)."""

    #: The options a host may set, in the order they are offered.
    fields: ClassVar[tuple[OptionField, ...]]

    @property
    def min_players(self) -> int: ...

    @property
    def max_players(self) -> int: ...

    def check_players(self, players: int) -> None:
        """Raise :class:`BadOptions` unless ``players`` may sit at a table with these rules."""

    @property
    def text(self) -> str:
        """The options as ``name=value`` parts, which :meth:`parse` reads back."""

    @classmethod
    def parse(cls, text: str) -> Any: ...

    def describe(self) -> str:
        """The rules in a few words for a table's lobby (``"two decks"``)."""

    def brief(self) -> str:
        """Fewer words, for a list of tables (``"2 decks, open"``)."""

    def clock(self, window: float) -> str:
        """What the window clock of ``window`` seconds is for (``"10 s to doubt"``); empty
        for a game without one."""


def option_values(options: GameOptions) -> dict[str, str]:
    """Each of ``options``' fields by name, as its text writes the value."""
    return dict(option_pairs(options.text))


@dataclass(frozen=True)
class _Kind:
    """What :class:`FieldOptions` knows of one field of a game's options."""

    field: OptionField
    #: The type of its values (``int``, or an enum), and the words for what it allows.
    type: type
    allowed: str
    #: Each value as the text writes it, with its choice.
    choices: dict[str, Choice]


def _written(value: object) -> str:
    return str(value.value) if isinstance(value, enum.Enum) else str(value)


def _allowed(values: tuple[str, ...]) -> str:
    """The numbers ``values`` allow, in a refusal's words: "1 or 2", "1 to 9"."""
    numbers = sorted(int(value) for value in values)
    if len(numbers) == 2:
        return f"{numbers[0]} or {numbers[1]}"
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]} to {numbers[-1]}"
    return "one of " + ", ".join(map(str, numbers))


_KINDS: dict[type, tuple[_Kind, ...]] = {}


def _kinds(cls: type[FieldOptions]) -> tuple[_Kind, ...]:
    """Each of ``cls``'s fields with its type, worked out once a class (on first use: a
    slotted dataclass is made twice, and its defaults are gone the second time)."""
    kinds = _KINDS.get(cls)
    if kinds is None:
        defaults = {field.name: field.default for field in dataclasses.fields(cls)}  # type: ignore[arg-type]
        if list(defaults) != [field.name for field in cls.fields]:
            raise TypeError(f"{cls.__qualname__}'s fields are not its options, in order")
        made: list[_Kind] = []
        for field in cls.fields:
            default = defaults[field.name]
            if _written(default) != field.default:
                raise TypeError(f"{cls.__qualname__}.{field.name}'s default is not its first "
                                "choice")
            kind = type(default)
            allowed = "" if issubclass(kind, enum.Enum) else _allowed(field.values)
            made.append(_Kind(field, kind, allowed, {c.value: c for c in field.choices}))
        kinds = _KINDS[cls] = tuple(made)
    return kinds


class FieldOptions:
    """Rule options derived from their fields (the module's docstring shows one). A game
    says what no choice says: the players' limits and who needs them (:attr:`seats`), the
    words that open its lobby's line (:attr:`title`) and what its window clock is for
    (:attr:`clock_words`)."""

    __slots__ = ()

    #: The options a host may set, in the order they are offered (and the dataclass's
    #: fields are declared).
    fields: ClassVar[tuple[OptionField, ...]] = ()
    #: The fewest and the most players, and who needs them, where no chosen value says.
    seats: ClassVar[tuple[int, int, str]] = (0, 0, "")
    #: Said first in the lobby's line of rules, before the chosen values' words.
    title: ClassVar[str] = ""
    #: What the window clock is for, ``{window:g}`` standing for its seconds; None for a
    #: game that has no window clock.
    clock_words: ClassVar[str | None] = "{window:g} s"

    def __post_init__(self) -> None:
        for kind in _kinds(type(self)):
            name, value = kind.field.name, getattr(self, kind.field.name)
            if issubclass(kind.type, enum.Enum):
                if not isinstance(value, kind.type):
                    raise BadOptions(f"{name} must be a {kind.type.__name__}, not {value!r}")
            elif type(value) is not kind.type or _written(value) not in kind.choices:
                raise BadOptions(f"{name} must be {kind.allowed}, not {value!r}")

    @property
    def text(self) -> str:
        return ",".join(f"{kind.field.name}={_written(getattr(self, kind.field.name))}"
                        for kind in _kinds(type(self)))

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read ``"name=value,..."``; options left out keep their defaults (and a later
        value of an option counts)."""
        kinds = {kind.field.name: kind for kind in _kinds(cls)}
        values: dict[str, object] = {}
        for key, value in option_pairs(text):
            kind = kinds.get(key)
            if kind is None:
                raise BadOptions(f"unknown rule option {key!r}")
            values[key] = option_choice(key, value, kind.type) \
                if issubclass(kind.type, enum.Enum) else option_number(key, value, kind.allowed)
        return cls(**values)

    def chosen(self) -> list[Choice]:
        """The choice of each option, in order."""
        return [kind.choices[_written(getattr(self, kind.field.name))]
                for kind in _kinds(type(self))]

    def _seats(self) -> tuple[int, int, str]:
        return next((choice.seats for choice in self.chosen() if choice.seats), self.seats)

    @property
    def min_players(self) -> int:
        return self._seats()[0]

    @property
    def max_players(self) -> int:
        return self._seats()[1]

    def check_players(self, players: int) -> None:
        """Raise :class:`BadOptions` unless ``players`` may sit at a table with these rules."""
        least, most, who = self._seats()
        if type(players) is not int or not least <= players <= most:
            raise BadOptions(f"{who} {least} to {most} players, not {players!r}")

    def describe(self) -> str:
        """The rules in a few words for a table's lobby."""
        return " · ".join(filter(None, (self.title, *(c.said for c in self.chosen()))))

    def brief(self) -> str:
        """Fewer words, for a list of tables."""
        return ", ".join(filter(None, (choice.brief for choice in self.chosen())))

    def clock(self, window: float) -> str:
        """What the window clock of ``window`` seconds is for; empty without one."""
        words = next((choice.clock for choice in self.chosen() if choice.clock),
                     self.clock_words)
        return "" if words is None else words.format(window=window)

    def __str__(self) -> str:
        return self.text
