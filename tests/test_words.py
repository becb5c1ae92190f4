"""Each game names its own moves and outcomes (``Game.words``, in its rules' folder), and
the screens and commands every game shares (results, story, stats, help, replay) write them
from there, never themselves: a shared screen that wrote "doubted" told I Know You Don't's
challenges and Liar's Deck's calls in I Doubt It's words."""

from __future__ import annotations

import ast
import re
from dataclasses import fields
from pathlib import Path

import pytest

from doubtlan.rules import GAMES, game_named
from doubtlan.rules.words import Words

ROOT = Path(__file__).parent.parent / "doubtlan"
#: The screens and commands every game shares.
SHARED = sorted([*ROOT.glob("tui/screens/*.py"), *ROOT.glob("tui/widgets/*.py"),
                 ROOT / "tui/words.py", ROOT / "tui/app.py", ROOT / "rules/story.py",
                 ROOT / "cli_record.py"])
#: Words that are one game's and every game's too: a "game" is also a kind of game ("a game
#: this doubtlan does not know"), and every game's false claim is "a lie" (the story's).
EVERY_GAMES = {"game", "games", "lie", "lies"}


def game_words() -> set[str]:
    """Every word that is one game's own: those that some other game says otherwise (a
    field of several words, such as ``held``, counts each), empty ones aside."""
    said = [game_named(name).words for name in GAMES]

    def each(value: object) -> tuple[str, ...]:
        return value if isinstance(value, tuple) else (str(value),)

    found = {word for field in fields(Words) for words in said
             if len({getattr(other, field.name) for other in said}) > 1
             for word in each(getattr(words, field.name))}
    return {word for word in found if word} - EVERY_GAMES


def texts(path: Path) -> list[tuple[int, str]]:
    """The strings a module writes (its docstrings left out), with their lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs]


def test_the_games_words_differ_where_their_games_do() -> None:
    assert {"doubted", "challenged", "called", "calls", "bluffs", "match"} <= game_words()
    assert game_named("iknowyoudont").words.challenges == "challenges"
    assert game_named("liarsdeck").words.challenges == "calls"


@pytest.mark.parametrize("path", SHARED, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shared_screen_writes_a_games_words_itself(path: Path) -> None:
    found = re.compile(rf"\b({'|'.join(sorted(game_words()))})\b", re.IGNORECASE)
    written = [(line, text) for line, text in texts(path) if found.search(text)]
    assert not written, f"{path.name} writes a game's words itself: {written}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_your_figures_are_told_in_the_games_words(game: str) -> None:
    from doubtlan.net.record import Entry, Yours
    from doubtlan.tui.widgets.results import yours_text

    words = game_named(game).words
    entry = Entry(game, "2026-12-04T10:00:00+00:00", "Amy's table", "a" * 16, 1, "b" * 16,
                  ("Amy", "Ada", "Bex"), 0, True, 5, 1, 0, 2, 1)
    one = str(yours_text(Yours(entry, {"claims": 4.0, "bluffs": 1.5, "caught": 0.5,
                                        "doubts_right": 1.0, "doubts_wrong": 0.0}, 1)))
    # (a game whose words have no challenge, whose claims nobody but their player tests,
    # tells no catches and no challenges)
    tested = words.challenge != ""
    mine = f" (0 caught), {words.challenges} 2 right, 1 wrong" if tested else ""
    assert one.startswith(f"You, this {words.game}: 5 {words.claims}, 1 {words.bluff}{mine}.")
    # ("1 bluff", never "1 bluffs")
    average = f" (0.5 caught), {words.challenges} 1.0 right, 0.0 wrong" if tested else ""
    assert f"Your average over 1 {words.game} of {game_named(game).title}: 4.0 " \
           f"{words.claims}, 1.5 {words.bluffs}{average}." in one
