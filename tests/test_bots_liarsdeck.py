"""The bots of Liar's Deck (docs/bots.md): they play only legal actions from their own seat's
view; ``honest`` tells the truth when it can; ``counter`` and ``hard`` count the true cards
and read the players, and ``hard`` saves true cards for its next turns and beats ``counter``."""

from __future__ import annotations

import dataclasses
import statistics
from collections import Counter

import pytest

from doubtlan import tourney
from doubtlan.bots.liarsdeck import (
    STRATEGIES,
    CounterLiarBot,
    HardLiarBot,
    HonestLiarBot,
    RandomLiarBot,
)
from doubtlan.rules.liarsdeck import (
    JOKER,
    KING,
    LIAR,
    QUEEN,
    Card,
    LiarsDeck,
    Options,
    Put,
    Rank,
)
from doubtlan.rules.seeds import derive, seed_bytes

BOTS = {bot.name: bot for bot in STRATEGIES}


def play_match(names: list[str], games: int, seed: str, rules: str = "") -> Counter[str]:
    """Games of one match (the bots keep their seats and what they learnt); the wins of each
    strategy."""
    master = seed_bytes(seed)
    bots = [BOTS[name](derive(master, f"seat {seat}")) for seat, name in enumerate(names)]
    wins: Counter[str] = Counter()
    for number in range(games):
        game = LiarsDeck(len(names), Options.parse(rules), seed=derive(master, str(number)),
                         opener=number % len(names))
        assert tourney.play(game, bots)  # (a bot's refused action raises BotError)
        wins[names[game.winner]] += 1  # type: ignore[index]
    return wins


@pytest.mark.parametrize("rules", ["", "lives=roulette", "decks=2,lives=1"])
def test_every_strategy_plays_legal_actions_only(rules: str) -> None:
    names = list(BOTS)
    for players in range(2, Options.parse(rules).max_players + 1):
        table = [names[(seat + players) % len(names)] for seat in range(players)]
        wins = play_match(table, 6, f"legal {rules} {players}", rules)
        assert sum(wins.values()) == 6


def test_a_bot_answers_only_on_its_turn_and_calls_when_it_must() -> None:
    game = LiarsDeck.from_hands(["K K J Q Q", "A A A Q Q"], Rank.KING)
    for bot in (RandomLiarBot(1), HonestLiarBot(1), CounterLiarBot(1), HardLiarBot(1)):
        assert bot.act(game.view(1)) == ()  # (not its turn)
    game.apply(0, Put.of([KING, KING, JOKER]))
    game.apply(1, Put.of([Card.parse("A")] * 3))
    game.apply(0, Put.of([QUEEN, QUEEN]))  # Amy's hand is empty: Ben must call
    for bot in (RandomLiarBot(1), HonestLiarBot(1), CounterLiarBot(1), HardLiarBot(1)):
        assert bot.act(game.view(1)) == (LIAR,)


def test_honest_puts_its_true_cards_down_and_calls_only_the_impossible() -> None:
    game = LiarsDeck.from_hands(["K K J Q Q", "K K K A A", "Q Q Q A A", "Q J A A K"],
                                Rank.KING)
    assert HonestLiarBot(1).act(game.view(0)) == (Put.of([KING, KING, JOKER]),)
    game.apply(0, Put.of([QUEEN, QUEEN]))  # (Amy lies, with two Queens)
    # Ben holds three Kings: 2 more true cards could be anywhere, so two is possible.
    assert HonestLiarBot(1).act(game.view(1)) == (Put.of([KING, KING, KING]),)
    game.apply(1, Put.of([KING, KING, KING]))
    game.apply(2, Put.of([QUEEN]))
    # Dee holds a King and a Joker: of the 8 true cards 6 are not hers, enough for Cleo's one:
    # possible, so she puts hers down.
    assert HonestLiarBot(1).act(game.view(3)) == (Put.of([KING, JOKER]),)


def test_counter_and_hard_keep_true_cards_for_their_next_turns() -> None:
    game = LiarsDeck.from_hands(["K K J Q A", "A A A Q Q", "Q Q Q A A"], Rank.KING)
    assert CounterLiarBot(1).act(game.view(0)) == (Put.of([KING, KING]),)  # one kept
    assert HardLiarBot(1).act(game.view(0)) == (Put.of([KING]),)  # two kept
    no_truth = dataclasses.replace(game.view(0), hand=(QUEEN, Card.parse("A")))
    bluff = HardLiarBot(1).act(no_truth)
    assert len(bluff) == 1 and isinstance(bluff[0], Put) and len(bluff[0].cards) == 1


def test_hard_reads_a_claim_of_more_true_cards_than_are_left_as_a_lie() -> None:
    # Kings: Cleo, hard, holds five of the eight true cards (Kings and Jokers): three are left.
    game = LiarsDeck.from_hands(["K K K Q Q", "A A A Q Q", "K K K J J"], Rank.KING)
    hard = HardLiarBot(1)
    game.apply(0, Put.of([QUEEN]))
    game.apply(1, Put.of([QUEEN, QUEEN]))
    (turn,) = hard.act(game.view(2))
    assert turn == Put.of([KING, KING])  # (two put down, three kept)
    game.apply(2, turn)
    game.apply(0, Put.of([KING]))
    game.apply(1, Put.of([Card.parse("A"), Card.parse("A")]))  # Ben: four, with his two
    view = game.view(2)
    assert hard.lie_chance(view) == 1.0 and hard.act(view) == (LIAR,)


def match_rates(names: list[str], strategy: str, matches: int, games: int) -> list[float]:
    rates = []
    for number in range(matches):
        table = names[number % len(names):] + names[:number % len(names)]
        wins = play_match(table, games, f"strength {number}")
        rates.append(wins[strategy] / games / names.count(strategy))
    return rates


def test_counter_beats_honest_and_random() -> None:
    assert statistics.mean(match_rates(["counter", "honest", "honest", "honest"], "counter",
                                       4, 25)) >= 0.6
    assert statistics.mean(match_rates(["counter", "random", "random", "random"], "counter",
                                       4, 25)) >= 0.7


def test_hard_beats_three_counter() -> None:
    """(The figure, 20 matches of 50 on two seeds, is in docs/bots.md: 0.58 and 0.57.)"""
    rates = match_rates(["hard", "counter", "counter", "counter"], "hard", 6, 25)
    assert statistics.mean(rates) >= 0.42
