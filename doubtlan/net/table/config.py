"""How a table is set up (:class:`TableConfig`) and how that set-up is written to its journal
and read back; the host's own refusals (:class:`Refused`); the states a table goes through."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ...rules import DEFAULT_GAME, game_named
from ...rules.seeds import Seed, seed_bytes
from ..journal import UNNAMED_GAME

TableState = Literal["lobby", "seeding", "playing", "between", "over"]

#: The least time on the window clock a host may set, in seconds: the app ignores a call in
#: a window's first half second (a key meant for what was there before), and a person needs
#: time after that to read the claim and answer (the command line and the options dialog).
LEAST_WINDOW = 2.0


class Refused(ValueError):
    """The host's own request (seat a bot, change the rules, start) cannot be done now;
    the message says why, in a sentence for the player."""


@dataclass
class TableConfig:
    """How a table is set up (the host's command-line options)."""

    players: int
    #: The game's rule options (each game has its own kind: ``game.options_type``); by
    #: default, those the default game comes with.
    options: Any = field(default_factory=lambda: game_named(DEFAULT_GAME).options_type())
    name: str = "doubtlan"
    #: Games in the match; 0 plays on until the host stops.
    games: int = 1
    pin: str | None = None
    #: Seconds a challenge window stays open.
    window: float = 10.0
    #: Seconds a player has for a turn before the host plays for them; 0: no limit.
    turn_timeout: float = 60.0
    #: Seconds an absent player's seat waits before a bot plays it.
    grace: float = 15.0
    seed: Seed | None = None
    #: Seconds between two actions of a bot (0: at once; a table with people may slow bots
    #: down so that their play can be followed).
    bot_delay: float = 0.0
    #: Seconds between one game's end and the next game's deal; None: wait for the host.
    next_game_delay: float | None = 0.0
    #: Start the match as soon as every seat is taken.
    autostart: bool = True
    #: Spectators at once (players' seats are never short of room).
    watchers: int = 32
    #: The game played at the table (``doubtlan host --game``).
    game: str = DEFAULT_GAME
    #: The seated bots make remarks at the table now and then (``--quiet-bots``: none).
    bot_talk: bool = True


def config_record(config: TableConfig) -> dict[str, Any]:
    """``config`` as the journal's ``table`` record holds it."""
    return {
        "players": config.players, "options": config.options.text, "name": config.name,
        "games": config.games, "pin": config.pin, "window": config.window,
        "turn_timeout": config.turn_timeout, "grace": config.grace,
        "seed": None if config.seed is None else seed_bytes(config.seed),
        "bot_delay": config.bot_delay, "next_game_delay": config.next_game_delay,
        "autostart": config.autostart, "game": config.game, "bot_talk": config.bot_talk,
    }


def config_from(record: dict[str, Any]) -> TableConfig:
    """The set-up a journal's ``table`` record holds (ValueError when it does not read)."""
    fields = dict(record)
    fields.pop("stand_in", None)  # (journals from when a strategy stood in: now the rules)
    if not isinstance(fields.get("options"), str):
        raise ValueError("the table's rules are not a text")
    game = fields.setdefault("game", UNNAMED_GAME)  # (journals from before the second game)
    if not isinstance(game, str):
        raise ValueError("the table's game is not a name")
    fields["options"] = game_named(game).options_type.parse(fields["options"])
    config = TableConfig(**fields)
    for name in ("players", "games"):
        if type(getattr(config, name)) is not int:
            raise ValueError(f"the table's {name} is not a number")
    return config
