"""A game's cards as small values of which there is one object each: a hand, a pile and a
play hold the same objects, so that ``card in hand`` and ``hand.remove(card)`` compare
identities in C (with ``__eq__`` or ``__lt__`` defined, every comparison went through
Python and cost several times as much).

A game's card class subclasses :class:`Interned`, names its slots and what it is called,
and makes each card once with :meth:`Interned.made`:

>>> class Token(Interned):
...     __slots__ = ("worth",)
...     called = "a token"
>>> ONE, TWO = Token.made("1", worth=1), Token.made("2", worth=2)
>>> Token.parse(" 2 ") is TWO, str(ONE), repr(ONE), Token("1").worth
(True, '1', "Token.parse('1')", 1)
>>> Token.parse("3")
Traceback (most recent call last):
...
doubtlan.rules.errors.MalformedAction: not a token: '3'
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from .errors import MalformedAction


class Interned:
    """An immutable value known by its ``code``, one object per code, that prints and
    parses as its code and pickles as a call to :meth:`parse` (so it stays one object in
    another process)."""

    __slots__ = ("code",)
    #: What a card of this class is called in a refusal ("a card of Liar's Deck").
    called: ClassVar[str] = "a card"
    #: Each subclass's cards by code (each subclass gets its own table).
    _by_code: ClassVar[dict[str, Any]]

    code: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._by_code = {}

    def __new__(cls, code: str) -> Self:
        return cls.parse(code)

    @classmethod
    def made(cls, code: str, **values: object) -> Self:
        """Make the one card of ``code``, with its other slots' ``values``."""
        card = object.__new__(cls)
        object.__setattr__(card, "code", code)
        for name, value in values.items():
            object.__setattr__(card, name, value)
        cls._by_code[code] = card
        return card

    @classmethod
    def normal(cls, text: str) -> str:
        """``text`` as the code it may stand for (by default: stripped, upper case)."""
        return text.strip().upper()

    @classmethod
    def refusal(cls, text: object) -> str:
        """What :meth:`parse` says of a ``text`` that is no card of this class."""
        return f"not {cls.called}: {text!r}"

    @classmethod
    def parse(cls, text: str) -> Self:
        """The card whose code ``text`` is; :class:`MalformedAction` for anything else."""
        card = cls._by_code.get(cls.normal(text)) if isinstance(text, str) else None
        if card is None:
            raise MalformedAction(cls.refusal(text))
        return card  # type: ignore[no-any-return]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (type(self).parse, (self.code,))

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code
