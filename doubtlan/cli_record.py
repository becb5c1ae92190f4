"""The journal's and the record's commands: ``doubtlan verify`` (a journal checked),
``replay`` (the story of its games) and ``stats`` (the record of the games this user
played: docs/journal.md, docs/story.md, docs/record.md). Only the standard library at
start-up, as the rest of the command line."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .net.record import Entry
    from .net.stories import Told

VERIFY = "check a host's journal: its deals and games"
REPLAY = "tell a journal's games step by step: every hand, every lie, who saw through it"
STATS = "print the record of the games you played (--json for a program)"
#: The sparkline's steps, lowest first.
BARS = "▁▂▃▄▅▆▇█"


def add_verify(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = commands.add_parser(
        "verify", help=VERIFY,
        description="Check a journal written by `doubtlan host`: every deal came from the "
        "secret the table committed to and the players' seeds, and every game's actions "
        "follow the rules (docs/journal.md, docs/fairness.md). Exits 1 on any mismatch.",
    )
    verify.add_argument("journal", type=Path, metavar="JOURNAL", help="the journal file")
    verify.set_defaults(run=verify_command, parser=verify)


def verify_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from .net.journal import JournalError
    from .net.verify import verify

    try:
        lines, problems = verify(args.journal)
    except JournalError as error:
        print(f"doubtlan: {error}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    for problem in problems:
        print(f"MISMATCH: {problem}")
    print("journal verified" if not problems else f"{len(problems)} mismatches")
    return 1 if problems else 0


def add_replay(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    replay = commands.add_parser(
        "replay", help=REPLAY,
        description="Tell the games of a journal written by `doubtlan host`, one thing said "
        "at a time (in each game's words): every hand as it was said, what it really showed, "
        "whether it held, who said otherwise and who was right. Only a game whose deal and "
        "actions verify (as `doubtlan verify` checks them) is told; for the others it says "
        "why not. On a terminal it opens the story (left and right step through it); "
        "otherwise, or with --text, it prints it.",
    )
    replay.add_argument("journal", type=Path, metavar="JOURNAL", nargs="?",
                        help="the journal file (default: the newest in the data folder)")
    replay.add_argument("--game", type=int, metavar="N",
                        help="the game to tell (default: the last one told; with --text, "
                        "every one)")
    replay.add_argument("--text", action="store_true", help="print the story as text")
    replay.add_argument("--ascii", action="store_true",
                        help="cards in letters rather than suit symbols")
    replay.set_defaults(run=replay_command, parser=replay)


def add_stats(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    stats = commands.add_parser(
        "stats", help=STATS,
        description="Print the record this user's doubtlan keeps of the games played (in "
        "its data folder): each game's figures from its verified reveal, the averages by "
        "game, and a chart of them over time where the terminal has room.",
    )
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.add_argument("--record", type=Path, metavar="PATH",
                       help="the record file (default: the data folder's record.jsonl)")
    stats.set_defaults(run=stats_command, parser=stats)


# -- replay ---------------------------------------------------------------------------------


def replay_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from .net.journal import JournalError, latest
    from .net.stories import stories

    if args.journal is None:
        try:
            args.journal = latest()
        except JournalError as error:
            print(f"doubtlan: {error}", file=sys.stderr)
            return 1
    if not args.journal.is_file():
        print(f"doubtlan: no journal at {args.journal}", file=sys.stderr)
        return 1
    try:
        games, problems = stories(args.journal)
    except JournalError as error:
        print(f"doubtlan: {error}", file=sys.stderr)
        return 1
    for problem in problems:
        print(f"note: {problem}", file=sys.stderr)
    if args.game is not None:
        games = [told for told in games if told.number == args.game]
        if not games:
            print(f"doubtlan: the journal has no game {args.game}", file=sys.stderr)
            return 1
    told = [game for game in games if game.story is not None]
    if not told:
        for game in games:
            print(f"game {game.number} is not told: {game.why}", file=sys.stderr)
        print("doubtlan: no game of this journal can be told", file=sys.stderr)
        return 1
    if args.text or not sys.stdout.isatty():
        for game in games:
            print_story(game)
        return 0
    from .tui.screens.story import StoryApp

    last = told[-1]
    assert last.story is not None
    return StoryApp(last.story, last.names, ascii=args.ascii).run() or 0


def print_story(game: Told) -> None:
    """One game's story as text (or why it is not told)."""
    from .rules import game_named
    from .rules.story import who

    kind = game_named(game.game)
    words = kind.words
    story = game.story
    if story is None:
        print(f"{words.game} {game.number} is not told: {game.why}")
        return
    names = game.names
    print(f"{words.game} {game.number} "
          f"({words.count(len(story.steps), words.claim, words.claims)})")
    print("  dealt: " + "; ".join(f"{who(seat, names)} {_cards(hand)}"
                                  for seat, hand in enumerate(story.dealt)))
    for step in story.steps:
        told = step.told
        truth, doubt = kind.verdict(told, names)
        print(f"  {words.claim} {step.number}: {who(told.seat, names)} {words.claimed} "
              f"{told.said}; really {_cards(told.shown or ())}: {truth}; {doubt}.")
        print("    hands: " + "; ".join(f"{who(seat, names)} {_cards(hand)}"
                                        for seat, hand in enumerate(step.hands)))
    won = "nobody" if story.winner is None else who(story.winner, names)
    print(f"  {won} won {words.game} {game.number}.")


def _cards(cards: tuple[Any, ...]) -> str:
    return " ".join(str(card) for card in cards) or "-"


# -- stats ----------------------------------------------------------------------------------


def stats_command(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from .net.record import Record, as_json

    record = Record(args.record)
    entries, notes = record.load()
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    summary = _summary(entries)
    if args.json:
        print(json.dumps({"record": str(record.path), "games": as_json(entries),
                          "by_game": summary, "skipped": len(notes)}, ensure_ascii=False))
        return 0
    if not entries:
        print(f"No games on record yet ({record.path}). Play one to the end at a table "
              "whose deal verifies, and it is recorded.")
        return 0
    from .rules import game_named

    print(f"Your record ({record.path}):")
    for name, row in summary.items():  # (each game in its own words: docs/record.md)
        kind = game_named(name)
        words = kind.words
        print(f"\n{kind.title}: {words.count(row['played'], words.game, words.games)}, "
              f"{row['won']} won ({100 * row['won'] / row['played']:.0f}%).")
        print(f"  On average, a {words.game}: "
              + words.figures(row["average"].__getitem__, whole=False))
    width = shutil.get_terminal_size((80, 24)).columns
    room = width - 24
    if room >= 10:
        print()
        recent = entries[-room:]
        print("lie rate        " + sparkline([e.bluffs / e.claims if e.claims else 0.0
                                               for e in recent], 1.0))
        print("won             " + "".join("●" if e.won else "·" for e in recent))
        print(f"                (the last {len(recent)} played, oldest first)")
    return 0


def _summary(entries: list[Entry]) -> dict[str, dict[str, Any]]:
    from .net.record import FIGURES, averages

    summary: dict[str, dict[str, Any]] = {}
    for game in dict.fromkeys(entry.game for entry in entries):
        mine = [entry for entry in entries if entry.game == game]
        summary[game] = {"played": len(mine), "won": sum(entry.won for entry in mine),
                         "average": averages(mine, game),
                         "total": {figure: sum(e.figure(figure) for e in mine)
                                   for figure in FIGURES}}
    return summary


def sparkline(values: list[float], top: float) -> str:
    """``values`` (0 to ``top``) as a line of bars, one a value."""
    if top <= 0:
        return BARS[0] * len(values)
    return "".join(BARS[min(len(BARS) - 1, max(0, round(v / top * (len(BARS) - 1))))]
                   for v in values)
