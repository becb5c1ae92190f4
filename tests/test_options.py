"""Every game's rule options: read from text and written back, and the words each says for
the lobby, a list of tables, the window clock and a table of the wrong size, for every value
of every option (docs/architecture.md, "Adding a game"). The words are pinned here, every one:
they are read by people, and a game's options derive them from their fields."""

from __future__ import annotations

import itertools

import pytest
from owned import Owned

from doubtlan.rules import GAMES, BadOptions, game_named
from doubtlan.rules.idoubtit import ChallengeMode
from doubtlan.rules.iknowyoudont import Deck

#: Each game's option words, from its own tests file (``spec_NAME.OPTION_WORDS``).
WORDS: Owned[list[tuple[str, str, str, str, tuple[int, int], str]]] = Owned(
    "spec", "OPTION_WORDS", "the option words of")


@pytest.mark.parametrize(("game", "text", "describe", "brief", "clock", "players", "refusal"),
                         [(game, *row) for game in GAMES for row in WORDS[game]])
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
