"""The bots of Liar's Deck (docs/bots.md): they play only legal actions from their own seat's
view; ``honest`` tells the truth when it can; ``counter`` and ``hard`` count the true cards
and read the players; ``hard`` learns how each player calls and lies, plays for the smaller
chance of losing the round, and beats ``counter`` and the best replies bench/exploit.py
found against it."""

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
from doubtlan.bots.liarsdeck.base import LiarBot, this_round, truthful
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
    TableView,
)
from doubtlan.rules.seeds import derive, seed_bytes


class CallsPairs(LiarBot):
    """Puts its true cards down one at a time (one card when it holds none), and calls every
    claim of two cards or more."""

    name = "callspairs"

    def calls(self, view: TableView) -> bool:
        return view.count >= 2

    def put(self, view: TableView) -> list[Card]:
        return (truthful(view.hand, view) or list(view.hand))[:1]


class CallsAll(CallsPairs):
    """Calls every claim."""

    name = "callsall"

    def calls(self, view: TableView) -> bool:
        return True


class LiesFirst(LiarBot):
    """Puts three false cards down first, saving its true cards (one of the best replies
    bench/exploit.py found against the first ``hard``); calls every claim of two or more."""

    name = "liesfirst"

    def calls(self, view: TableView) -> bool:
        return view.count >= 2

    def put(self, view: TableView) -> list[Card]:
        true = truthful(view.hand, view)
        false = [card for card in view.hand if card not in true]
        return false[:3] or true[:3]


class CallsThird(LiarBot):
    """The best reply bench/exploit.py found against one ``hard`` at two players before
    ``hard`` learnt how a player calls by the cards its claimer held: puts its true cards
    down one at a time keeping two, bluffs with one; calls every claim of two or more, and
    a player's third claim of a round."""

    name = "callsthird"

    def calls(self, view: TableView) -> bool:
        made = sum(claim.seat == view.claimer for claim in this_round(view)) + 1
        return view.count >= 2 or made >= 3

    def put(self, view: TableView) -> list[Card]:
        true = truthful(view.hand, view)
        return true[:max(1, min(3, len(true) - 2))] if true else view.hand[:1]


BOTS = {bot.name: bot for bot in (*STRATEGIES, CallsPairs, CallsAll, LiesFirst, CallsThird)}


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


def test_counter_keeps_a_true_card_for_its_next_turn() -> None:
    game = LiarsDeck.from_hands(["K K J Q A", "A A A Q Q", "Q Q Q A A"], Rank.KING)
    assert CounterLiarBot(1).act(game.view(0)) == (Put.of([KING, KING]),)  # one kept


def test_hard_reads_a_claim_of_more_true_cards_than_are_left_as_a_lie() -> None:
    # Kings: Cleo, hard, holds five of the eight true cards (Kings and Jokers): three are left.
    game = LiarsDeck.from_hands(["K K K Q Q", "A A A Q Q", "K K K J J"], Rank.KING)
    hard = HardLiarBot(1)
    game.apply(0, Put.of([QUEEN]))
    game.apply(1, Put.of([QUEEN, QUEEN]))
    assert hard.true_chance(game.view(2)) > 0.1  # (two of the three: they could be)
    (turn,) = hard.act(game.view(2))
    assert turn == Put.of([KING, KING, KING])  # (every card true: down they go)
    game.apply(2, turn)
    game.apply(0, Put.of([KING]))
    game.apply(1, Put.of([Card.parse("A"), Card.parse("A")]))  # Ben: four, with his two
    view = game.view(2)
    assert hard.true_chance(view) == 0.0 and hard.act(view) == (LIAR,)


def test_hard_keeps_the_truth_for_the_claim_the_last_player_holding_cards_must_call() -> None:
    game = LiarsDeck.from_hands(["K K J A A", "Q Q Q K K"], Rank.KING)
    hard = HardLiarBot(1)
    (turn,) = hard.act(game.view(0))
    assert turn == Put.of([Card.parse("A")] * 2)  # the lies first, the truth kept
    game.apply(0, turn)
    game.apply(1, Put.of([QUEEN] * 3))
    view = game.view(0)
    assert hard.true_chance(view) < 0.2  # (three of the five true cards Amy has not seen)
    assert hard.act(view) == (Put.of([KING, KING, JOKER]),)  # the truth: Ben must call it
    # Holding two Aces instead, she would have to lie to Ben, who must call her last card:
    # she calls his three.
    lies = dataclasses.replace(view, hand=(Card.parse("A"),) * 2)
    assert hard.danger(lies)[0] > 0.5 > hard.true_chance(lies)
    assert hard.act(lies) == (LIAR,)


def hard_after_games_with(caller: type[LiarBot]) -> HardLiarBot:
    """A ``hard`` at seat 0 (Amy) after eight two-player games with ``caller`` (Ben)."""
    master = seed_bytes("calls")
    hard, other = HardLiarBot(derive(master, "hard")), caller(derive(master, "caller"))
    for number in range(8):
        game = LiarsDeck(2, seed=derive(master, str(number)), opener=number % 2)
        assert tourney.play(game, [hard, other])
    return hard


def test_hard_learns_who_calls_what() -> None:
    hard = hard_after_games_with(CallsPairs)  # (hard at seat 0: Ben answers every claim of Amy's)
    # Ben called every claim of two of Amy's he need not, and no claim of one.
    assert hard.call_chance(1, 1, 5) < 0.1 < 0.6 < hard.call_chance(1, 2, 5)
    # So Amy bluffs with one card only, and puts two true cards down to be called.
    bluffing = LiarsDeck.from_hands(["Q Q A A K", "K K K J Q"], Rank.KING)
    bluffing.apply(0, Put.of([KING]))
    bluffing.apply(1, Put.of([KING]))
    (turn,) = hard.act(bluffing.view(0))
    assert isinstance(turn, Put) and len(turn.cards) == 1


def test_hard_puts_a_true_card_down_to_a_player_who_calls_everything() -> None:
    hard = hard_after_games_with(CallsAll)
    # A true claim Ben calls costs him the life: holding one true card, Amy is in no danger.
    game = LiarsDeck.from_hands(["K Q Q A A", "Q K K J A"], Rank.KING)
    assert hard.danger(game.view(0)) == (0.0, (1, 0))
    assert hard.act(game.view(0)) == (Put.of([KING]),)


def test_hard_learns_whose_claims_are_lies() -> None:
    rank = Rank.KING
    before = LiarsDeck.from_hands(["Q Q A K J", "Q A A K K"], rank, opener=1)
    before.apply(1, Put.of([QUEEN, Card.parse("A"), Card.parse("A")]))  # three, first
    hard = HardLiarBot(1)
    first = hard.true_chance(before.view(0))
    # Ben opens each round with three false cards, and Amy calls them: four lies shown.
    game = LiarsDeck.from_hands(["Q Q A K J", "Q A A K K"], rank, Options.parse("lives=5"),
                                opener=1)
    shown = 0
    while game.view(1).lives[1] > 1:
        hand = game.view(1)
        false = [card for card in hand.hand if not card.matches(hand.rank)]
        if hand.active != 1 or len(false) < 3:
            break
        game.apply(1, Put.of(false[:3]))
        game.apply(0, LIAR)
        shown += 1
    hard.follow(game.view(0))
    assert shown == 4
    assert hard.true_chance(before.view(0)) < first / 2


def test_hard_beats_the_best_replies_found_against_it() -> None:
    """(bench/exploit.py searches for them; docs/bots.md has its figures.)"""
    assert statistics.mean(match_rates(["liesfirst", "hard", "hard", "hard"], "liesfirst",
                                       4, 25)) <= 0.2
    assert statistics.mean(match_rates(["callsthird", "hard"], "callsthird", 4, 25)) <= 0.4


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
    """(The figure, 20 matches of 50 on two seeds, is in docs/bots.md.)"""
    rates = match_rates(["hard", "counter", "counter", "counter"], "hard", 4, 25)
    assert statistics.mean(rates) >= 0.7
