"""Why an action or a set-up was refused.

Every refusal is a :class:`RulesError` (a ``ValueError``) with a stable ``code``. The protocol
sends the code on unchanged, so codes never change once released; messages may.
The refusals every game shares are here; a game's own (a refusal only its rules make) are in
its rules' folder, as subclasses of these. :func:`error_codes` gathers every one:
``rules.ERROR_CODES`` is the list, made once every game is registered.
"""

from __future__ import annotations

import enum
from typing import ClassVar, TypeVar

E = TypeVar("E", bound=enum.Enum)


class RulesError(ValueError):
    """Base of every refusal by the rules. ``code`` is stable; the message is for people."""

    code: ClassVar[str] = "rules_error"

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.default_message)
        self.message = str(self.args[0])

    default_message: ClassVar[str] = "refused by the rules"


class BadOptions(RulesError):
    """The table cannot be set up this way (player count, decks, challenge mode...)."""

    code = "bad_options"
    default_message = "these rule options are not allowed"


def option_pairs(text: str) -> list[tuple[str, str]]:
    """The ``name=value`` parts of rule options written as text (``"decks=2,challenge=open"``),
    in order; :class:`BadOptions` for a part without ``=``."""
    pairs = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise BadOptions(f"expected name=value, got {part!r}")
        pairs.append((key.strip(), value.strip()))
    return pairs


def option_number(key: str, value: str, allowed: str) -> int:
    """An option's ``value`` as a whole number (digits only); :class:`BadOptions` saying
    ``key must be allowed`` otherwise. The caller checks the range."""
    if not (value.isascii() and value.isdigit()):
        raise BadOptions(f"{key} must be {allowed}, not {value!r}")
    return int(value)


def option_choice(key: str, value: str, kind: type[E]) -> E:
    """An option's ``value`` as one of the enum ``kind``'s values; :class:`BadOptions`
    naming them otherwise."""
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(str(choice.value) for choice in kind)
        raise BadOptions(f"{key} must be one of {choices}, not {value!r}") from None


class MalformedAction(RulesError):
    """The action cannot be read at all (an unknown card code or action name)."""

    code = "malformed_action"
    default_message = "this is not an action"


class IllegalAction(RulesError):
    """A well-formed action that the rules do not allow now. The game is left untouched."""

    code = "illegal_action"
    default_message = "that is not allowed now"


class NoSuchSeat(IllegalAction):
    code = "no_such_seat"
    default_message = "there is no such seat at this table"


class GameOver(IllegalAction):
    code = "game_over"
    default_message = "the game is over"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"
    default_message = "it is not your turn"


class WindowOpen(IllegalAction):
    code = "window_open"
    default_message = "wait until the challenge window closes"


class CardNotInHand(IllegalAction):
    code = "card_not_in_hand"
    default_message = "that card is not in your hand"


class ClaimTooLarge(IllegalAction):
    code = "claim_too_large"
    default_message = "you have laid as many cards as one claim may hold"


class NothingLaid(IllegalAction):
    code = "nothing_laid"
    default_message = "lay at least one card before you announce"


class NoWindowOpen(IllegalAction):
    code = "no_window_open"
    default_message = "there is no claim to doubt or let stand"


class NotAllowedInWindow(IllegalAction):
    """The seat may not answer this claim: it made it, or has answered already."""

    code = "not_allowed_in_window"
    default_message = "you may not answer this claim"


class UnknownAction(IllegalAction):
    """An action of another game, or one this game does not know."""

    code = "unknown_action"
    default_message = "this game has no such action"


class NoInterception(IllegalAction):
    code = "no_interception"
    default_message = "you hold no Interception card"


class NoWildcard(IllegalAction):
    code = "no_wildcard"
    default_message = "you may not play a Wildcard now"


class BadDeclaration(IllegalAction):
    code = "bad_declaration"
    default_message = "no card of this deck has that level"


def error_codes() -> dict[str, type[RulesError]]:
    """Every stable error code of the rules defined so far (the shared ones, and those of
    every game imported), with the exception class that carries it."""
    found: dict[str, type[RulesError]] = {}
    pending: list[type[RulesError]] = [RulesError]
    while pending:
        cls = pending.pop()
        if found.setdefault(cls.code, cls) is not cls:
            raise TypeError(f"two refusals have the code {cls.code!r}")
        pending.extend(cls.__subclasses__())
    return dict(sorted(found.items()))
