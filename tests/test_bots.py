"""Bots play only legal moves, from their own seat's view, each in its own style."""

from __future__ import annotations

from types import SimpleNamespace

import exploiters
import pytest
from helpers import deal
from hypothesis import given, settings
from hypothesis import strategies as st

from doubtlan import tourney
from doubtlan.bots import STRATEGIES as ALL_STRATEGIES
from doubtlan.bots import make_bot
from doubtlan.bots.idoubtit import CounterBot, HardBot, HonestBot, RandomBot, SharpBot
from doubtlan.rules import (
    Announce,
    Card,
    ChallengeMode,
    Doubt,
    IDoubtIt,
    Lay,
    LetStand,
    Match,
    Options,
    Rank,
    TableView,
)
from doubtlan.rules.cards import deck

C = Card.parse
STRATEGIES = ALL_STRATEGIES["idoubtit"]
VARIANTS = [Options(d, c) for d in (1, 2) for c in ChallengeMode]


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: o.text)
@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_each_bot_finishes_games_with_legal_moves_only(strategy: str, options: Options) -> None:
    players = 5 if options.decks == 1 else 9
    match = Match(players, options, seed=strategy)
    names = [strategy, "random", "honest", "counter"] * 3
    bots = [make_bot(names[seat], seed=seat) for seat in range(players)]
    for _ in range(6):
        game = match.new_game()
        assert tourney.play(game, bots)  # raises BotError on any illegal choice
        assert game.winner is not None


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_a_bot_can_take_over_a_seat_half_way_through(strategy: str) -> None:
    game = IDoubtIt(4, seed=11)
    bots = [make_bot("random", seed) for seed in range(4)]
    while game.turns < 12:
        seat = game.awaiting()[0]
        for action in bots[seat].act(game.view(seat)):
            game.apply(seat, action)
    bots[1] = make_bot(strategy, seed=1)  # a fresh bot, knowing nothing of the game so far
    assert tourney.play(game, bots)


def test_unknown_strategies_are_named_in_the_error() -> None:
    with pytest.raises(ValueError, match="random, honest, counter"):
        make_bot("clever")


def test_bots_answer_a_turn_with_cards_then_the_announcement() -> None:
    game = IDoubtIt(4, seed=3)
    view = game.view(0)
    assert isinstance(view, TableView) and view.seat == 0
    for name in STRATEGIES:
        actions = make_bot(name, seed=1).act(view)
        assert actions and actions[0] in view.legal
        assert actions[-1] == Announce()


def test_a_spectator_view_gets_no_action() -> None:
    view = IDoubtIt(4, seed=3).view(None)
    for name in STRATEGIES:
        assert make_bot(name).act(view) == ()


# -- random ------------------------------------------------------------------------------


def test_random_doubts_with_a_small_fixed_chance() -> None:
    game = deal("AS", players=3)
    game.apply(0, Lay(C("AS")))
    game.apply(0, Announce())
    view = game.view(1)
    bot = RandomBot(seed=0)
    doubts = sum(bot.act(view) == (Doubt(),) for _ in range(4000))
    assert 0.08 < doubts / 4000 < 0.12


def test_random_lays_from_one_to_four_cards() -> None:
    view = IDoubtIt(4, seed=3).view(0)
    bot = RandomBot(seed=0)
    sizes = {len(bot.act(view)) - 1 for _ in range(400)}
    assert sizes == {1, 2, 3, 4}


# -- honest ------------------------------------------------------------------------------


def test_honest_lays_every_card_of_the_rank() -> None:
    game = deal("AS AH AD 5C 6C", players=4, only=[0])
    assert HonestBot().act(game.view(0)) == [Lay(C("AD")), Lay(C("AH")), Lay(C("AS")), Announce()]


def test_honest_bluffs_with_one_card() -> None:
    game = deal("2S 3S 4S", players=4, only=[0])
    actions = HonestBot(seed=1).act(game.view(0))
    assert len(actions) == 2 and actions[0].card in game.state.hands[0]  # type: ignore[union-attr]
    assert actions[1] == Announce()


def test_honest_doubts_only_the_impossible() -> None:
    game = deal("2S", "AS AH AD", "4S", players=4)
    game.apply(0, Lay(C("2S")))
    game.apply(0, Announce())  # "one ace": possible, as far as seat 1 knows
    assert HonestBot().act(game.view(1)) == (LetStand(),)
    game = deal("2S 3S", "AS AH AD", "4S", players=4)
    game.apply(0, Lay(C("2S")))
    game.apply(0, Lay(C("3S")))
    game.apply(0, Announce())  # "two aces" while seat 1 holds three: impossible
    assert HonestBot().act(game.view(1)) == (Doubt(),)


# -- counter -----------------------------------------------------------------------------


def test_counter_doubts_a_claim_that_would_win() -> None:
    game = deal("AS", "2S", players=4, only=[0])
    game.apply(0, Lay(C("AS")))
    game.apply(0, Announce())
    assert CounterBot().act(game.view(1)) == (Doubt(),)


def test_counter_counts_the_cards_it_put_in_the_pile() -> None:
    # Seat 1 lays two kings that stand; a round of the table later seat 2 claims three kings.
    # Seat 1's hand (one king) would allow that; with the two in the pile it cannot be.
    game = deal("KC", "KS KH KD", players=4, opener=1, rank=Rank.KING)

    def turn(seat: int, cards: list[Card]) -> None:
        for card in cards:
            game.apply(seat, Lay(card))
        game.apply(seat, Announce())
        for other in game.awaiting():
            game.apply(other, LetStand())

    turn(1, [C("KS"), C("KH")])
    for _ in range(12):
        seat = game.view(None).turn
        turn(seat, [game.view(seat).hand[0]])
    assert game.view(None).rank is Rank.KING and game.view(None).turn == 2
    for card in game.view(2).hand[:3]:
        game.apply(2, Lay(card))
    game.apply(2, Announce())
    view = game.view(1)
    assert {C("KS"), C("KH")} <= set(view.my_pile)
    assert HonestBot().act(view) == (LetStand(),)  # its hand alone allows the claim
    assert CounterBot().act(view) == (Doubt(),)


def test_counter_doubts_what_its_hand_makes_impossible() -> None:
    game = deal("AS AH", "2S 2H 2D", "AD", players=4, opener=1)
    for code in ("2S", "2H", "2D"):
        game.apply(1, Lay(C(code)))
    game.apply(1, Announce())  # "three aces" while seat 0 holds two of the four
    assert CounterBot().act(game.view(0)) == (Doubt(),)


def test_counter_remembers_every_view_even_when_it_doubts_at_once() -> None:
    # Counter's king stands in the pile; then seat 0 bluffs its last card and counter doubts
    # at once (a winning claim). The pile, counter's king in it, goes to seat 0: counter
    # must know seat 0 now holds a king.
    game = deal("AS 9H", "KS 2S", "3S", players=3, only=[0])
    bot = CounterBot()

    def everyone_stands() -> None:
        for seat in game.awaiting():
            game.apply(seat, LetStand())

    game.apply(0, Lay(C("AS")))
    game.apply(0, Announce())
    everyone_stands()
    for action in [Lay(C("KS")), Announce()]:  # "one 2": a bluff with the king
        game.apply(1, action)
    everyone_stands()
    game.apply(2, Lay(C("3S")))
    game.apply(2, Announce())
    everyone_stands()
    game.apply(0, Lay(C("9H")))
    game.apply(0, Announce())  # "one 4" with its last card
    assert bot.act(game.view(1)) == (Doubt(),)
    game.apply(1, Doubt())
    bot.act(game.view(1))  # counter's next look at the table
    assert bot._memory is not None and bot._memory.held[0][Rank.KING] == 1


def test_counter_bluffs_with_the_card_it_needs_last() -> None:
    # Four players, rank A: seat 0 will next be asked for 5, then 9, then K, then 4...
    game = deal("5S 9S KS 4S 8S QS 3S 7S JS 2S 6S 10S", players=4, only=[0])
    actions = CounterBot().act(game.view(0))
    # Ranks asked of seat 0 on its next turns: 5 9 K 4 8 Q 3 7 J 2 6 10; 10 comes last.
    assert actions == [Lay(C("TS")), Announce()]


# -- the targets (docs/bots.md), as a regression check -------------------------------------


# The targets are 0.60 and 0.35; the bounds here sit a few standard errors below what
# counter wins today (about 1.00 and 0.66), so that a real loss of strength shows.
@pytest.mark.parametrize(("opponent", "least"), [("random", 0.95), ("honest", 0.55)])
def test_counter_keeps_its_strength(opponent: str, least: float) -> None:
    result = tourney.run(["counter", opponent, opponent, opponent], 300, seed=7)
    assert result.unfinished == 0
    assert result.standings["counter"].rate(result.games) >= least


# -- sharp -------------------------------------------------------------------------------


def test_sharp_goes_out_with_a_true_claim_when_it_can() -> None:
    game = deal("AS AH", players=4, only=[0])
    assert sorted(map(str, SharpBot().act(game.view(0)))) == sorted(
        map(str, [Lay(C("AS")), Lay(C("AH")), Announce()]))


def test_sharp_plans_its_last_claim_to_be_true() -> None:
    # Four players, rank A: seat 0 is asked for A now, then 5, then 9. It holds a 9 and two
    # cards of no rank it will be asked for soon: it sheds one now, one on the 5s, and goes
    # out truly on the 9s, instead of laying a lie that would empty its hand.
    game = deal("9S KS QH", players=4, only=[0])
    first = SharpBot().act(game.view(0))
    assert len(first) == 2 and first[-1] == Announce()
    assert first[0] in (Lay(C("KS")), Lay(C("QH")))  # never the 9, kept for the last claim
    # Its plan with two cards left, the 9 and the rank asked for now: true now, true last.
    game = deal("5S 9S", players=4, only=[0], rank=Rank.FIVE)
    assert SharpBot().act(game.view(0)) == [Lay(C("5S")), Announce()]


def test_sharp_pads_a_single_true_card_while_its_claims_of_two_stand() -> None:
    bot = SharpBot(seed=1)
    bot.pad_chance = 1.0
    game = deal("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KH", players=4, only=[0])
    actions = bot.act(game.view(0))
    assert actions[0] == Lay(C("AS")) and len(actions) == 3  # the ace, one card more
    assert actions[1] != Lay(C("5S"))  # not the rank it is asked for next


def test_sharp_doubts_only_impossible_and_winning_claims() -> None:
    # Seat 1 claims one ace (a five): seat 0 holds all four aces, so it is impossible.
    game = deal("AS AH AD AC", "5S", players=4, opener=1)
    game.apply(1, Lay(C("5S")))
    game.apply(1, Announce())
    assert tuple(SharpBot().act(game.view(0))) == (Doubt(),)
    assert tuple(SharpBot().act(game.view(2))) == (LetStand(),)  # likely enough: it stands
    # Seat 1 lays its last card: a claim that would win is doubted, whatever the odds.
    game = deal("2S", "KS", players=4, opener=1, only=[1])
    game.apply(1, Lay(C("KS")))
    game.apply(1, Announce())
    assert tuple(SharpBot().act(game.view(0))) == (Doubt(),)


def reference_plan(hand: list[Card], ranks: list[Rank], largest: int,
                   lie_cost: float) -> list[Card] | None:
    """sharp's endgame plan as first written: every plan laid out turn by turn."""
    best: tuple[float, list[Card]] | None = None
    for last, rank in enumerate(ranks):
        keep = [card for card in hand if card.rank is rank]
        if not keep or len(keep) > largest:
            continue
        rest = [card for card in hand if card.rank is not rank]
        if last == 0:
            if not rest:
                return keep
            continue
        spare = list(rest)
        turns = []
        for turn_rank in ranks[:last]:
            own = [card for card in spare if card.rank is turn_rank][:largest]
            for card in own:
                spare.remove(card)
            turns.append(own)
        lies, fits = 0, True
        for cards in turns:
            if not cards:
                if not spare:
                    fits = False
                    break
                cards.append(spare.pop())
                lies += 1
        if not fits:
            continue
        for turn_rank, cards in reversed(list(zip(ranks, turns, strict=False))):
            if spare and len(cards) < largest and all(c.rank is turn_rank for c in cards):
                cards.append(spare.pop())
                lies += 1
        if spare:
            continue
        cost = lies * lie_cost + last
        if best is None or cost < best[0]:
            best = (cost, turns[0])
    return None if best is None else best[1]


@settings(max_examples=300, deadline=None)
@given(st.data(), st.sampled_from([1, 2]), st.integers(3, 10), st.sampled_from(list(Rank)))
def test_sharp_plans_as_laying_every_plan_out_would(data: st.DataObject, decks: int,
                                                    players: int, rank: Rank) -> None:
    # The plan counts how each last turn would go and lays out only the best one.
    every = deck(decks)
    picked = data.draw(st.lists(st.integers(0, len(every) - 1), min_size=1, max_size=9,
                                unique=True))
    options = Options(decks)
    view = SimpleNamespace(hand=tuple(every[index] for index in picked), options=options,
                           rank=rank, players=players)
    ranks = [Rank((rank - 1 + players * turn) % 13 + 1) for turn in range(13)]
    assert SharpBot().plan(view) == reference_plan(list(view.hand), ranks,  # type: ignore[arg-type]
                                                   options.max_claim, SharpBot.lie_cost)


# sharp's targets (docs/bots.md) are 0.45 against three counter and 0.75 against three
# honest, over 20 matches of 50 games; it wins about 0.5 and 0.84. The bounds here sit a
# few standard errors below, over fewer games, so that a real loss of strength shows.
@pytest.mark.parametrize(("opponent", "least"), [("counter", 0.38), ("honest", 0.72)])
def test_sharp_keeps_its_strength(opponent: str, least: float) -> None:
    result = tourney.run(["sharp", opponent, opponent, opponent], 50, seed=7, matches=6)
    assert result.unfinished == 0
    assert result.standings["sharp"].rate(result.games) >= least


# -- hard --------------------------------------------------------------------------------


@pytest.fixture
def exploiting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exploiters (tests/exploiters.py) as strategies of I Doubt It, for one test."""
    for bot in exploiters.POPULATION:
        monkeypatch.setitem(STRATEGIES, bot.name, bot)


def hard_after_a_match_with(player: str) -> HardBot:
    """A ``hard`` at seat 0 after six games with ``player``, ``neverdoubt`` and ``honest``."""
    bot = HardBot(seed=1)
    bots = [bot, make_bot(player, seed=2), make_bot("neverdoubt", seed=3),
            make_bot("honest", seed=4)]
    match = Match(4, seed=5)
    for _ in range(6):
        assert tourney.play(match.new_game(), bots)
    return bot


@pytest.mark.usefixtures("exploiting")
def test_hard_reads_who_pads_from_the_sizes_of_their_claims() -> None:
    # After a match's games with a player who always claims two cards and one who tells the
    # truth, hard rates a claim of two aces likely a lie from the first, likely true from
    # the second: a hand holds two of a rank far less often than the first claims it.
    bot = hard_after_a_match_with("padder")
    game = deal("", "KS QS", "KH QH", players=4, opener=1, only=[0, 1, 2])
    game.apply(1, Lay(C("KS")))
    game.apply(1, Lay(C("QS")))
    game.apply(1, Announce())
    padded = bot.chance_true(game.view(0))
    game = deal("", "", "AS AH", players=4, opener=2, only=[0, 1, 2])
    game.apply(2, Lay(C("AS")))
    game.apply(2, Lay(C("AH")))
    game.apply(2, Announce())
    told = bot.chance_true(game.view(0))
    assert padded < 0.5 < 0.75 < told


@pytest.mark.usefixtures("exploiting")
def test_hard_tells_a_bluff_of_two_cards_from_a_padded_claim_of_one() -> None:
    # A player who bluffs with two cards claims two more often than its hands allow, as a
    # padder does; its lies of two that were shown held no true card, so its claims of one
    # are no padded ones left behind: hard reads them as true.
    bot = hard_after_a_match_with("bluff2")
    game = deal("", "AS KS", players=4, opener=1, only=[0, 1, 2])
    game.apply(1, Lay(C("AS")))
    game.apply(1, Announce())
    assert bot.chance_true(game.view(0)) > 0.7


def test_hard_lets_a_likely_true_claim_stand_however_much_a_doubt_would_pay() -> None:
    # Ben is down to his last card and the pile holds nine: caught, he would take ten. Hard
    # has no reading of him yet (a claim of one: true 0.6 of the time), and a wrong doubt
    # would be its own ten cards while a lie caught helps every other player: it lets it
    # stand.
    game = deal("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", "4S 5S", "2D 3D 4D 5D 6D 7D",
                players=4, opener=2, only=[0, 1], rank=Rank.TWO)

    def claim(seat: int, cards: list[Card]) -> None:
        for card in cards:
            game.apply(seat, Lay(card))
        game.apply(seat, Announce())
        for other in game.view(None).awaiting:
            game.apply(other, LetStand())

    claim(2, [C(code) for code in ("2D", "3D", "4D", "5D")])
    claim(3, list(game.view(3).hand[:3]))
    claim(0, [C("2C"), C("3C")])
    game.apply(1, Lay(C("5S")))
    game.apply(1, Announce())
    view = game.view(0)
    assert (view.pile, view.hand_sizes[1]) == (9, 1)
    hard = HardBot(seed=1)
    assert hard.chance_true(view) == pytest.approx(0.6)
    assert tuple(hard.act(view)) == (LetStand(),)


def test_hard_doubts_what_its_cards_make_impossible_and_what_would_win() -> None:
    game = deal("AS AH AD AC", "5S", players=4, opener=1)
    game.apply(1, Lay(C("5S")))
    game.apply(1, Announce())
    assert tuple(HardBot().act(game.view(0))) == (Doubt(),)
    game = deal("2S", "KS", players=4, opener=1, only=[1])
    game.apply(1, Lay(C("KS")))
    game.apply(1, Announce())
    assert tuple(HardBot().act(game.view(0))) == (Doubt(),)


# Issue 29's population of simple exploiting rules (tests/exploiters.py), each alone against
# three hard: the target is at most 0.27 over 20 matches of 50 games (docs/bots.md: today
# 0.00 to 0.23); the bound here, over 4 matches, sits a few standard errors above.
@pytest.mark.usefixtures("exploiting")
@pytest.mark.parametrize("exploiter", [bot.name for bot in exploiters.POPULATION])
def test_no_simple_rule_beats_hard(exploiter: str) -> None:
    result = tourney.run([exploiter, "hard", "hard", "hard"], 50, seed=7, matches=4,
                         workers=1)
    assert result.unfinished == 0
    assert result.standings[exploiter].rate(result.games) <= 0.32


# hard's targets (docs/bots.md): at least 0.45 against three counter, 0.80 against three
# honest, and two hard with two counter at least 0.60 together, over 20 matches of 50.
@pytest.mark.parametrize(("table", "least"), [
    ("hard,counter,counter,counter", 0.40),
    ("hard,honest,honest,honest", 0.74),
    ("hard,hard,counter,counter", 0.56),
])
def test_hard_keeps_its_strength(table: str, least: float) -> None:
    result = tourney.run(table.split(","), 50, seed=7, matches=6)
    assert result.unfinished == 0
    assert result.standings["hard"].rate(result.games) >= least
