"""The bots of Skull (docs/bots.md): they play only legal moves from their own seat's view;
``honest`` never lays its Skull while it holds a Flower and bids no more than its own stack;
``counter`` and ``hard`` bid from the discs face down; ``hard`` hides its Skull under
Flowers, turns the likeliest Flowers first, and beats three ``counter``."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from doubtlan import tourney
from doubtlan.bots.skull import STRATEGIES, HardSkullBot, HonestSkullBot
from doubtlan.bots.skull.hard import _best
from doubtlan.rules.seeds import derive, seed_bytes
from doubtlan.rules.skull import FLOWER, PASS, SKULL, Bid, Place, Skull

BOTS = {bot.name: bot for bot in STRATEGIES}


def play_match(names: list[str], games: int, seed: str) -> Counter[str]:
    """Games of one match (the bots keep their seats and what they learnt); each
    strategy's wins."""
    master = seed_bytes(seed)
    bots = [BOTS[name](derive(master, f"seat {seat}")) for seat, name in enumerate(names)]
    wins: Counter[str] = Counter()
    for number in range(games):
        game = Skull(len(names), seed=derive(master, str(number)), opener=number % len(names))
        assert tourney.play(game, bots)  # (a bot's refused move raises BotError)
        wins[names[game.winner]] += 1  # type: ignore[index]
    return wins


def match_rates(names: list[str], strategy: str, matches: int, games: int) -> list[float]:
    rates = []
    for number in range(matches):
        table = names[number % len(names):] + names[:number % len(names)]
        wins = play_match(table, games, f"strength {number}")
        rates.append(wins[strategy] / games / names.count(strategy))
    return rates


@pytest.mark.parametrize("players", [3, 4, 6])
def test_every_strategy_plays_legal_moves_only(players: int) -> None:
    names = [bot.name for bot in STRATEGIES]
    table = (names * 2)[:players]
    for number in range(6):
        game = Skull(players, seed=number, opener=number % players)
        bots = [BOTS[name](f"{number} {seat}") for seat, name in enumerate(table)]
        while not game.over:
            for seat, bot in enumerate(bots):  # (asked out of turn: nothing)
                if seat not in game.awaiting():
                    assert bot.act(game.view(seat)) == ()
            (seat,) = game.awaiting()
            (action,) = bots[seat].act(game.view(seat))
            assert action in game.legal_actions(seat)
            game.apply(seat, action)


def test_honest_lays_flowers_and_bids_no_more_than_its_own_stack() -> None:
    bot, rng = HonestSkullBot("honest"), random.Random(5)
    for number in range(40):
        game = Skull(3, seed=number)
        while not game.over:
            (seat,) = game.awaiting()
            view = game.view(seat)
            if seat == 0:
                (action,) = bot.act(view)
                if isinstance(action, Place) and FLOWER in view.hand:
                    assert action.disc is FLOWER
                if isinstance(action, Bid):
                    assert action.count <= len(view.stack) or not view.hand
            else:
                action = rng.choice(view.legal)
            game.apply(seat, action)


def test_hard_bids_only_the_flowers_over_its_own_skull() -> None:
    game = Skull(3, seed=1)
    for seat, disc in ((0, SKULL), (1, FLOWER), (2, FLOWER), (0, FLOWER)):
        game.apply(seat, Place(disc))
    game.apply(1, Place(FLOWER))
    game.apply(2, Place(FLOWER))
    bot = HardSkullBot("hard")
    for _ in range(20):  # (it may lay its last Flower or bid: never above its one Flower)
        (action,) = bot.act(game.view(0))
        assert action == Bid(1) or action == Place(FLOWER)
    game.apply(0, Bid(1))
    game.apply(1, Bid(2))
    game.apply(2, PASS)
    assert bot.act(game.view(0)) == (PASS,)


def test_hard_turns_the_stack_likeliest_to_hold_flowers() -> None:
    # (Two stacks of one disc: a Skull likely in the first, unlikely in the second.)
    chance, taken = _best(((1, 0.9), (1, 0.1)), 1)
    assert taken == (0, 1) and chance == pytest.approx(0.9)
    chance, taken = _best(((3, 0.3), (1, 0.5)), 2)
    assert taken == (2, 0) and chance == pytest.approx(0.8)


def test_counter_beats_honest() -> None:
    assert statistics.mean(match_rates(["counter", "honest", "honest", "honest"], "counter",
                                       4, 25)) >= 0.4


def test_hard_beats_three_counter() -> None:
    """(The figure, 20 matches of 50, is in docs/bots.md.)"""
    rates = match_rates(["hard", "counter", "counter", "counter"], "hard", 4, 25)
    assert statistics.mean(rates) >= 0.6
