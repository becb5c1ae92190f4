"""The stories of a journal's games (``doubtlan replay``): each game the journal holds from
its deal to its end, dealt again from its records and told claim by claim (rules/story.py),
once ``doubtlan verify`` finds nothing wrong with it (net/verify.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules import Game, RulesError, game_named
from ..rules.fairness import Disclosure, Played
from ..rules.story import Story, tell
from .journal import UNNAMED_GAME, read
from .shown import shown
from .verify import verify


@dataclass
class Told:
    """One game of a journal: its story, or why it is not told."""

    number: int
    game: str
    #: Each seat's name at the table when the game was dealt.
    names: dict[int, str] = field(default_factory=dict)
    story: Story | None = None
    why: str | None = None


#: A game as the journal holds it: its story to tell, the players and rules it was dealt
#: with, its ``deal`` record and its actions.
_Game = tuple[Told, int, Any, dict[str, Any], list[Played]]


def stories(path: Path) -> tuple[list[Told], list[str]]:
    """Every game of the journal at ``path``, told when its deal and its actions verified;
    and what the journal's check found that belongs to no one game. A JournalError when the
    file cannot be read at all."""
    lines, problems = verify(path)
    # A game verify replayed to its end with nothing found wrong in it says so in a line of
    # its own; a game in which it found a problem it stopped replaying has no such line.
    verified = {int(found[1]) for line in lines
                if (found := re.match(r"game (\d+): verified, won by", line))}
    records = read(path).records
    if not records or records[0].get("t") != "table":
        return [], problems or [f"{path} does not start with a table"]
    try:
        config = records[0]["config"]
        kind = game_named(config.get("game", UNNAMED_GAME))
        players, options = config["players"], kind.options_type.parse(config["options"])
    except (KeyError, TypeError, ValueError, AttributeError, RulesError) as error:
        return [], [f"the table's record cannot be read ({error!r})"]
    games = _games(records, kind, players, options)
    for game in games:
        _tell(kind, game, problems, lines, verified)
    general = [p for p in problems if not re.search(r"\bgame \d+\b", p)]
    return [told for told, *_ in games], general


def _games(records: list[dict[str, Any]], kind: type[Game[Any, Any]], players: int,
           options: Any) -> list[_Game]:
    """Each game dealt in the records after the table's, with its actions and the players,
    rules and seats' names of the last ``seats`` record before its deal; a record that does
    not read is passed over."""
    games: list[_Game] = []
    names: dict[int, str] = {}
    for record in records[1:]:
        kind_of = record.get("t")
        try:
            if kind_of == "seats":
                players = record["players"]
                options = kind.options_type.parse(record["options"])
                names = {row[0]: shown(row[1]) for row in record["seats"]
                         if isinstance(row[1], str)}
            elif kind_of == "deal":
                games.append((Told(record["game"], kind.name, dict(names)), players, options,
                              record, []))
            elif kind_of == "act" and games:
                games[-1][4].append(Played(record["seat"], record["action"], record["by"]))
        except (KeyError, TypeError, ValueError, IndexError, RulesError):
            continue  # (verify has said what is wrong with it)
    return games


def _tell(kind: type[Game[Any, Any]], game: _Game, problems: list[str], lines: list[str],
          verified: set[int]) -> None:
    """One game's story, dealt again and told, when verify found nothing wrong with it and
    it ended verified; else why it is not told."""
    told, count, rules, deal, actions = game
    wrong = [p for p in problems if re.search(rf"\bgame {told.number}\b", p)]
    if wrong:
        told.why = f"it did not verify: {wrong[0]}"
        return
    try:
        story = tell(kind, count, rules, Disclosure(
            deal["game"], deal["secret"], tuple(deal["seeds"]), deal["opener"],
            tuple(actions)))
    except (RulesError, ValueError, TypeError, KeyError) as error:
        told.why = f"it cannot be dealt again: {error}"
        return
    if not story.over:
        told.why = "it is still being played: a table is writing this journal" \
            if any(line.startswith("a table is still writing") for line in lines) \
            else "the journal stops before it ended"
    elif told.number not in verified:
        told.why = "it did not verify (`doubtlan verify` says where)"
    else:
        told.story = story
