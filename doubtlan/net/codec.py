"""Turn the protocol's dataclasses into plain msgpack values and back, checking every field.

The dataclasses are the one definition of the wire: a message's fields, their types and their
limits (given with ``Annotated``) decide both what is sent and what is accepted. Each type's
encoder and decoder is built once, from the type hints, and reused.

On the wire a dataclass is a map from its field names to their values (events also carry
their ``kind``, scoped by their game's name, ``"skull.passed"``; views their ``game``); a
``tuple[X, ...]`` is an array (a tuple of fixed items has no wire form, and a game whose
views or events use one is refused when the codec is built); ``None`` is nil; a card, rank,
claim, declaration, action or rule options travel as their text (``"QS"``, ``"10"``,
``"3x7"``, ``"4T"``, ``"lay QS"``, ``"decks=1,challenge=window"``); a phase as its value.
Any value type with a ``parse`` class method and a ``code`` (or ``text``) travels as that text.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
import operator
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..rules import DECK, Action, Card, Claim, Event, Game, Rank, RulesError, View
from .errors import BadMessage

Encode = Callable[[Any], Any]
Decode = Callable[[Any, str], Any]


@dataclass(frozen=True)
class Limit:
    """The range of an ``int`` or ``float`` field: ``Annotated[int, Limit(0, 9)]``."""

    low: float
    high: float


@dataclass(frozen=True)
class Text:
    """The length of a ``str`` field, whether it must be printable, and whether it must be
    bytes written as hexadecimal digits (an even number of them, nothing else)."""

    low: int
    high: int
    printable: bool = True
    hexadecimal: bool = False


@dataclass(frozen=True)
class Many:
    """The most items a ``tuple[...]`` field may hold."""

    high: int


HEX_DIGITS = "0123456789abcdefABCDEF"

#: What a field may hold when its type gives no limit of its own.
DEFAULT_INT = Limit(0, 2**31 - 1)
DEFAULT_FLOAT = Limit(0.0, 1e6)
DEFAULT_TEXT = Text(0, 256, printable=False)
DEFAULT_MANY = Many(1024)


def _fail(path: str, message: str) -> BadMessage:
    return BadMessage(f"{path}: {message}")


class Codec:
    """Encoders and decoders for a set of dataclasses, built once per type.

    ``games``: the games whose events may appear where a field says ``Event``, whose views
    where it says ``View``. Names are scoped by game: two games may each have a ``pass``
    action or a ``round`` event. An event's ``kind`` on the wire is its game's name and its
    own (``"skull.round"``), and a view's actions are read by its own game.
    """

    def __init__(self, games: typing.Iterable[type[Game[Any, Any]]]) -> None:
        games = tuple(games)
        #: Each event class's tag on the wire, and the classes by tag.
        self._event_tags: dict[type[Event], str] = {}
        for game in games:
            for cls in game.events:
                if cls in self._event_tags:
                    raise TypeError(f"{cls.__name__} is an event of two games")
                self._event_tags[cls] = f"{game.name}.{cls.kind}"
        self.events: dict[str, type[Event]] = {tag: cls for cls, tag
                                               in self._event_tags.items()}
        self.views = {game.name: game.view_type for game in games}
        #: How each game's view reads the actions it holds: its game's ``parse_action``,
        #: each text read once (actions are few and sent often).
        self._parse_in: dict[type[View], Callable[[str], Action]] = {
            game.view_type: functools.lru_cache(maxsize=1024)(game.parse_action)
            for game in games}
        self._encoders: dict[Any, Encode] = {}
        self._decoders: dict[Any, Decode] = {}
        # The texts of the actions seen so far.
        self._texts: dict[Action, str] = {}
        # Every game's views and events built now: a type with no wire form is refused as
        # the games are registered, not when a table first sends it.
        for made in (*self.views.values(), *self.events.values()):
            self.encoder(made), self.decoder(made)

    def _action_text(self, action: Action) -> str:
        text = self._texts.get(action)
        if text is None:
            text = action.text
            if len(self._texts) < 4096:
                self._texts[action] = text
        return text

    # -- public --------------------------------------------------------------------------

    def encode(self, value: Any, tp: Any = None) -> Any:
        return self.encoder(tp if tp is not None else type(value))(value)

    def decode(self, wire: Any, tp: Any, path: str = "") -> Any:
        return self.decoder(tp)(wire, path or getattr(tp, "__name__", "value"))

    def encoder(self, tp: Any) -> Encode:
        found = self._encoders.get(tp)
        if found is None:
            found = self._encoders[tp] = self._make_encoder(tp)
        return found

    def decoder(self, tp: Any) -> Decode:
        found = self._decoders.get(tp)
        if found is None:
            found = self._decoders[tp] = self._make_decoder(tp)
        return found

    # -- building ------------------------------------------------------------------------

    def _make_encoder(self, tp: Any) -> Encode:
        tp, _ = _unwrap(tp)
        origin = typing.get_origin(tp)
        if origin in (typing.Union, types.UnionType):
            inner = [self.encoder(arg) for arg in typing.get_args(tp) if arg is not type(None)]
            if len(inner) != 1:
                raise TypeError(f"only X | None unions are supported, not {tp}")
            encode = inner[0]
            return lambda value: None if value is None else encode(value)
        if origin is tuple:
            item = self.encoder(_items(tp))
            return lambda value: [item(v) for v in value]
        found = self._value_encoder(tp)
        if found is not None:
            return found
        if tp is Event or tp is View:
            return lambda value: self.encoder(type(value))(value)
        if dataclasses.is_dataclass(tp):
            return self._dataclass_encoder(tp)
        raise TypeError(f"no wire form for {tp!r}")

    def _value_encoder(self, tp: Any) -> Encode | None:
        """The encoder of a value sent as itself or as its text (None for any other type)."""
        if tp in (int, float, bool, str):
            return _same
        if tp is Card:
            return _card_code
        if tp is Rank:
            return _RANK_TEXT.__getitem__
        if tp is Claim:
            return _CLAIM_TEXT.__getitem__
        if _text_form(tp):
            return operator.attrgetter(_text_form(tp))
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return lambda value: value.value
        if tp is Action or isinstance(tp, type) and issubclass(tp, Action):
            return self._action_text
        return None

    def _dataclass_encoder(self, cls: Any) -> Encode:
        # Written out as code once per class, as dataclasses does for __init__: this runs
        # for every message sent.
        hints = typing.get_type_hints(cls, include_extras=True)
        names = [f.name for f in dataclasses.fields(cls)]
        scope: dict[str, Any] = {}
        items = [f"{key!r}: {value!r}" for key, value in self._tag(cls).items()]
        for i, name in enumerate(names):
            encode = self.encoder(hints[name])
            if encode is _same:
                items.append(f"{name!r}: value.{name}")
            else:
                scope[f"_e{i}"] = encode
                items.append(f"{name!r}: _e{i}(value.{name})")
        source = f"def encode(value):\n    return {{{', '.join(items)}}}\n"
        exec(source, scope)
        encoder: Encode = scope["encode"]
        return encoder

    def _make_decoder(self, tp: Any) -> Decode:
        tp, meta = _unwrap(tp)
        origin = typing.get_origin(tp)
        if origin in (typing.Union, types.UnionType):
            inner = [self.decoder(arg) for arg in typing.get_args(tp) if arg is not type(None)]
            decode = inner[0]
            return lambda wire, path: None if wire is None else decode(wire, path)
        if origin is tuple:
            return self._tuple_decoder(_items(tp), _meta(meta, Many, DEFAULT_MANY))
        found = _plain_decoder(tp, meta) or self._text_decoder(tp)
        if found is not None:
            return found
        if tp is Event:
            return self._tagged_decoder("kind", self.events, "an event")
        if tp is View:
            return self._tagged_decoder("game", self.views, "a game's view")
        if dataclasses.is_dataclass(tp):
            return self._dataclass_decoder(tp)
        raise TypeError(f"no wire form for {tp!r}")

    def _text_decoder(self, tp: Any) -> Decode | None:
        """The decoder of a value sent as its text (None for any other type)."""
        if tp is Card:
            return _parsed(Card.parse, "card", {card.code: card for card in DECK})
        if tp is Rank:
            return _parsed(Rank.parse, "rank", {text: rank for rank, text in _RANK_TEXT.items()})
        if tp is Claim:
            return _parsed(Claim.parse, "claim", {text: c for c, text in _CLAIM_TEXT.items()})
        if _text_form(tp):  # few values, sent often: read each text once
            return _parsed(functools.lru_cache(maxsize=256)(tp.parse), tp.__name__.lower())
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return _enum(tp)
        if tp is Action or isinstance(tp, type) and issubclass(tp, Action):
            raise TypeError("an action has a wire form only in a game's view, which reads it "
                            "as that game's")
        return None

    def _tuple_decoder(self, item_type: Any, many: Many) -> Decode:
        return self._tuple_decoder_of(self.decoder(item_type), many)

    @staticmethod
    def _tuple_decoder_of(item: Decode, many: Many) -> Decode:

        def decode(wire: Any, path: str) -> tuple[Any, ...]:
            if type(wire) is not list:
                raise _fail(path, "expected an array")
            if len(wire) > many.high:
                raise _fail(path, f"at most {many.high} items")
            return tuple([item(value, path) for value in wire])

        return decode

    def _dataclass_decoder(self, cls: Any) -> Decode:
        # Written out as code once per class (see _dataclass_encoder). Paths in error
        # messages name the class and field, such as "TableView.hand".
        hints = typing.get_type_hints(cls, include_extras=True)
        names = [f.name for f in dataclasses.fields(cls)]
        tag = self._tag(cls)
        expected = frozenset(names) | set(tag)
        scope: dict[str, Any] = {"cls": cls, "expected": expected, "tag": tag,
                                 "mismatch": _mismatch, "RulesError": RulesError, "fail": _fail}
        args = []
        parse = self._parse_in.get(cls)
        for i, name in enumerate(names):
            scope[f"_d{i}"] = self._field_decoder(hints[name], parse)
            args.append(f"_d{i}(wire[{name!r}], {f'{cls.__name__}.{name}'!r})")
        checks = "".join(
            f"    if wire[{key!r}] != {value!r}:\n"
            "        raise mismatch(wire, expected, tag, path)\n"
            for key, value in tag.items()
        )
        source = (
            "def decode(wire, path):\n"
            "    if type(wire) is not dict or wire.keys() != expected:\n"
            "        raise mismatch(wire, expected, tag, path)\n"
            f"{checks}"
            "    try:\n"
            f"        return cls({', '.join(args)})\n"
            "    except RulesError as error:  # a value the type itself refuses\n"
            "        raise fail(path, error.message) from None\n"
        )
        exec(source, scope)
        decoder: Decode = scope["decode"]
        return decoder

    def _tag(self, cls: Any) -> dict[str, str]:
        """The fixed keys a dataclass carries on the wire besides its fields: an event its
        game's scoped kind."""
        if isinstance(cls, type) and issubclass(cls, Event):
            tag = self._event_tags.get(cls)
            if tag is None:
                raise TypeError(f"{cls.__name__} is an event of none of the codec's games")
            return {"kind": tag}
        return _fixed_tag(cls)

    def _field_decoder(self, hint: Any, parse: Callable[[str], Action] | None) -> Decode:
        """A field's decoder; in a game's view (``parse``: its game's reading of an action),
        its actions, alone or in a tuple, are read as that game's."""
        tp, meta = _unwrap(hint)
        if parse is None:
            return self.decoder(hint)
        if tp is Action:
            return _parsed(parse, "action")
        if typing.get_origin(tp) is tuple and _items(tp) is Action:
            return self._tuple_decoder_of(_parsed(parse, "action"),
                                          _meta(meta, Many, DEFAULT_MANY))
        return self.decoder(hint)

    def _tagged_decoder(self, key: str, classes: dict[str, Any], what: str) -> Decode:
        """A decoder for a base class whose subclasses the wire tells apart by ``key``."""
        def decode(wire: Any, path: str) -> Any:
            tag = wire.get(key) if type(wire) is dict else None
            if type(tag) is not str or tag not in classes:
                raise _fail(path, f"expected {what}, one of {sorted(classes)}")
            return self.decoder(classes[tag])(wire, path)

        return decode


def _plain_decoder(tp: Any, meta: tuple[Any, ...]) -> Decode | None:
    """The decoder of a plain value (true or false, a number, a text) held to its field's
    limits (None for any other type)."""
    if tp is bool:
        return _bool
    if tp is int:
        return _int(_meta(meta, Limit, DEFAULT_INT))
    if tp is float:
        return _float(_meta(meta, Limit, DEFAULT_FLOAT))
    if tp is str:
        return _str(_meta(meta, Text, DEFAULT_TEXT))
    return None


def _mismatch(wire: Any, expected: frozenset[str], tag: dict[str, str], path: str) -> BadMessage:
    """Why ``wire`` is not the map a dataclass expects."""
    if type(wire) is not dict:
        return _fail(path, "expected a map")
    for key, value in tag.items():
        if wire.get(key) != value:
            return _fail(f"{path}.{key}", f"expected {value!r}")
    missing = sorted(expected - wire.keys())
    extra = sorted(str(key)[:32] for key in wire.keys() - expected)[:8]
    return _fail(path, f"missing {missing}, unexpected {extra}")


def _items(tp: Any) -> Any:
    """The type of a ``tuple[X, ...]``'s items; a TypeError for any other tuple (one of
    fixed items, ``tuple[int, Card]``, would be sent as if all were of its first type)."""
    args = typing.get_args(tp)
    if len(args) != 2 or args[1] is not Ellipsis:
        raise TypeError(f"no wire form for {tp!r}: only tuple[X, ...] is sent (a record of "
                        f"fields for items of different types)")
    return args[0]


def _unwrap(tp: Any) -> tuple[Any, tuple[Any, ...]]:
    if typing.get_origin(tp) is typing.Annotated:
        return typing.get_args(tp)[0], tuple(getattr(tp, "__metadata__", ()))
    return tp, ()


def _meta(meta: tuple[Any, ...], kind: type[Any], default: Any) -> Any:
    return next((m for m in meta if isinstance(m, kind)), default)


def _fixed_tag(cls: Any) -> dict[str, str]:
    """The fixed keys a dataclass (not an event) carries on the wire besides its fields."""
    if isinstance(cls, type) and issubclass(cls, View):
        return {"game": cls.game}
    wire_type = getattr(cls, "TYPE", None)
    return {"type": wire_type} if wire_type else {}


def _text_form(tp: Any) -> str:
    """The attribute holding a value type's text (``"code"`` or ``"text"``) when it has a
    ``parse`` class method that reads it back; empty otherwise."""
    if not isinstance(tp, type) or not hasattr(tp, "parse") or issubclass(tp, enum.Enum):
        return ""
    return "code" if hasattr(tp, "code") else "text" if hasattr(tp, "text") else ""


def _same(value: Any) -> Any:
    return value


def _card_code(card: Card) -> str:
    return card.code


_RANK_TEXT = {rank: rank.symbol for rank in Rank}
_CLAIM_TEXT = {
    claim: claim.code for claim in (Claim(n, rank) for n in range(1, 9) for rank in Rank)
}


def _bool(wire: Any, path: str) -> bool:
    if type(wire) is not bool:
        raise _fail(path, "expected true or false")
    return wire


def _int(limit: Limit) -> Decode:
    def decode(wire: Any, path: str) -> int:
        if type(wire) is not int:
            raise _fail(path, "expected a whole number")
        if not limit.low <= wire <= limit.high:
            raise _fail(path, f"expected {limit.low:g} to {limit.high:g}, got {wire}")
        return wire

    return decode


def _float(limit: Limit) -> Decode:
    def decode(wire: Any, path: str) -> float:
        if type(wire) not in (int, float) or not math.isfinite(wire):
            raise _fail(path, "expected a number")
        if not limit.low <= wire <= limit.high:
            raise _fail(path, f"expected {limit.low:g} to {limit.high:g}, got {wire}")
        return float(wire)

    return decode


def _str(text: Text) -> Decode:
    def decode(wire: Any, path: str) -> str:
        if type(wire) is not str:
            raise _fail(path, "expected text")
        if not text.low <= len(wire) <= text.high:
            raise _fail(path, f"expected {text.low} to {text.high} characters")
        if text.printable and not wire.isprintable():
            raise _fail(path, "expected printable characters")
        if text.hexadecimal and (len(wire) % 2 or wire.strip(HEX_DIGITS)):
            raise _fail(path, "expected bytes as hexadecimal digits")
        return wire

    return decode


def _parsed(parse: Callable[[str], Any], what: str, known: dict[str, Any] | None = None) -> Decode:
    """Read a value's text form: at once when it is a ``known`` (canonical) text, else with
    ``parse``, which explains what is wrong."""
    known = {} if known is None else known

    def decode(wire: Any, path: str) -> Any:
        found = known.get(wire) if type(wire) is str else None
        if found is not None:
            return found
        if type(wire) is not str or len(wire) > 64:
            raise _fail(path, f"expected a {what} as text")
        try:
            return parse(wire)
        except RulesError as error:
            raise _fail(path, error.message) from None

    return decode


def _enum(cls: type[enum.Enum]) -> Decode:
    values = {member.value: member for member in cls}

    def decode(wire: Any, path: str) -> Any:
        if type(wire) is not str or wire not in values:
            raise _fail(path, f"expected one of {sorted(values)}")
        return values[wire]

    return decode
