"""Every game's rule options: read from text and written back, and the words each says for
the lobby, a list of tables, the window clock and a table of the wrong size, for every value
of every option (docs/architecture.md, "Adding a game"). The words are pinned here, every one:
they are read by people, and a game's options derive them from their fields."""

from __future__ import annotations

import itertools

import pytest

from doubtlan.rules import GAMES, BadOptions, game_named
from doubtlan.rules.idoubtit import ChallengeMode
from doubtlan.rules.iknowyoudont import Deck

I_DOUBT_IT = [  # the options: describe, brief, clock(10), players, one too few's refusal
    ("decks=1,challenge=window", "one deck", "1 deck", "10 s to doubt", (3, 8),
     "one deck needs 3 to 8 players, not 2"),
    ("decks=1,challenge=open", "one deck", "1 deck, open", "open calls", (3, 8),
     "one deck needs 3 to 8 players, not 2"),
    ("decks=2,challenge=window", "two decks", "2 decks", "10 s to doubt", (3, 10),
     "2 decks need 3 to 10 players, not 2"),
    ("decks=2,challenge=open", "two decks", "2 decks, open", "open calls", (3, 10),
     "2 decks need 3 to 10 players, not 2"),
]


def know(deck: str, rounds: int) -> tuple[str, str, str, str, tuple[int, int], str]:
    said = f"{rounds} round{'s' if rounds > 1 else ''}"
    long, short = ("its own deck", "own deck") if deck == "own" else \
        ("standard deck", "standard")
    return (f"deck={deck},rounds={rounds}", f"I Know You Don't · {long} · {said}",
            f"{short}, {said}", "10 s with priority", (3, 6),
            "I Know You Don't needs 3 to 6 players, not 2")


I_KNOW_YOU_DONT = [know(deck, rounds) for deck in ("own", "standard") for rounds in range(1, 10)]


def liar(decks: int, lives: str) -> tuple[str, str, str, str, tuple[int, int], str]:
    said = "roulette" if lives == "roulette" else f"{lives} li{'fe' if lives == '1' else 'ves'}"
    deck, most = ("one deck", 4) if decks == 1 else ("two decks", 6)
    needs = "needs" if decks == 1 else "need"
    return (f"decks={decks},lives={lives}", f"Liar's Deck · {deck} · {said}",
            f"{decks} deck{'s' if decks > 1 else ''}, {said}", "",  # (no window clock)
            (2, most), f"{deck} {needs} 2 to {most} players, not 1")


LIARS_DECK = [liar(decks, lives) for decks in (1, 2)
              for lives in ("3", "1", "2", "4", "5", "roulette")]
WORDS = {"idoubtit": I_DOUBT_IT, "iknowyoudont": I_KNOW_YOU_DONT, "liarsdeck": LIARS_DECK}


@pytest.mark.parametrize(("game", "text", "describe", "brief", "clock", "players", "refusal"),
                         [(game, *row) for game, rows in WORDS.items() for row in rows])
def test_each_option_says_its_words(game: str, text: str, describe: str, brief: str,
                                    clock: str, players: tuple[int, int], refusal: str) -> None:
    options = game_named(game).options_type.parse(text)
    assert options.text == str(options) == text
    assert game_named(game).options_type.parse(options.text) == options
    assert (options.describe(), options.brief(), options.clock(10)) == (describe, brief, clock)
    assert (options.min_players, options.max_players) == players
    with pytest.raises(BadOptions) as refused:
        options.check_players(players[0] - 1)
    assert str(refused.value) == refusal
    for fine in range(players[0], players[1] + 1):
        options.check_players(fine)
    for wrong in (players[1] + 1, str(players[0]), True, float(players[0]), None):
        with pytest.raises(BadOptions):
            options.check_players(wrong)  # type: ignore[arg-type]


def test_every_value_of_every_option_is_pinned() -> None:
    for name, game in GAMES.items():
        fields = game.options_type.fields
        every = {",".join(f"{field.name}={value}" for field, value in zip(fields, values,
                                                                          strict=True))
                 for values in itertools.product(*(field.values for field in fields))}
        assert every == {row[0] for row in WORDS[name]}, name
        assert game.options_type().text == ",".join(
            f"{field.name}={field.default}" for field in fields)


@pytest.mark.parametrize(("game", "text", "refusal"), [
    ("idoubtit", "decks=two", "decks must be 1 or 2, not 'two'"),
    ("idoubtit", "decks=3", "decks must be 1 or 2, not 3"),
    ("idoubtit", "challenge=loud", "challenge must be one of window, open, not 'loud'"),
    ("idoubtit", "jokers=2", "unknown rule option 'jokers'"),
    ("idoubtit", "decks", "expected name=value, got 'decks'"),
    ("iknowyoudont", "rounds=0", "rounds must be 1 to 9, not 0"),
    ("iknowyoudont", "rounds=five", "rounds must be 1 to 9, not 'five'"),
    ("iknowyoudont", "rounds=²", "rounds must be 1 to 9, not '²'"),
    ("iknowyoudont", "deck=tarot", "deck must be one of own, standard, not 'tarot'"),
    ("liarsdeck", "decks=3", "decks must be 1 or 2, not 3"),
    ("liarsdeck", "lives=7", "lives must be one of 3, 1, 2, 4, 5, roulette, not '7'"),
])
def test_options_that_cannot_be_read_are_refused_by_name(game: str, text: str,
                                                         refusal: str) -> None:
    with pytest.raises(BadOptions) as refused:
        game_named(game).options_type.parse(text)
    assert str(refused.value) == refusal


def test_options_made_by_hand_are_checked_too() -> None:
    for made, refusal in [
        (lambda: game_named("idoubtit").options_type(decks=True),
         "decks must be 1 or 2, not True"),
        (lambda: game_named("idoubtit").options_type(challenge="open"),
         "challenge must be a ChallengeMode, not 'open'"),
        (lambda: game_named("iknowyoudont").options_type(deck="own"),
         "deck must be a Deck, not 'own'"),
        (lambda: game_named("iknowyoudont").options_type(rounds=10),
         "rounds must be 1 to 9, not 10"),
        (lambda: game_named("liarsdeck").options_type(lives="3"),
         "lives must be a Lives, not '3'"),
    ]:
        with pytest.raises(BadOptions) as refused:
            made()
        assert str(refused.value) == refusal
    # Positional, as the fields come, and a later value of a repeated option counts.
    assert game_named("idoubtit").options_type(2, ChallengeMode.OPEN).text == \
        "decks=2,challenge=open"
    assert game_named("iknowyoudont").options_type(Deck.STANDARD, 3).text == \
        "deck=standard,rounds=3"
    assert game_named("iknowyoudont").options_type.parse("rounds=03,rounds=4").rounds == 4
