"""Rules that hold in every game, checked over many random games (hypothesis).

Each example deals a random table (players, decks, challenge mode, opener, seed) and plays
it with a random but purposeful walk: mostly legal moves, sometimes a random action that
may be illegal. After every step the invariants are checked.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass, replace

from helpers import cards_in
from hypothesis import given, settings
from hypothesis import strategies as st

from doubtlan.rules import (
    Action,
    Announce,
    Card,
    Challenge,
    Doubt,
    IDoubtIt,
    IllegalAction,
    Lay,
    LetStand,
    Options,
    Phase,
    Rank,
    RulesError,
    deck,
)
from doubtlan.rules.cards import sort_key
from doubtlan.rules.idoubtit import Announced, Answered, Dealt, Laid, Resolved, Won

MAX_STEPS = 4000


@dataclass
class Table:
    players: int
    options: Options
    opener: int
    seed: int
    walk: int

    def new(self) -> IDoubtIt:
        return IDoubtIt(self.players, self.options, seed=self.seed, opener=self.opener)


@st.composite
def tables(draw: st.DrawFn) -> Table:
    decks = draw(st.sampled_from([1, 2]))
    players = draw(st.integers(3, 8 if decks == 1 else 10))
    return Table(
        players,
        Options(decks=decks, challenge=draw(st.sampled_from(list(Challenge)))),
        draw(st.integers(0, players - 1)),
        draw(st.integers(0, 2**64)),
        draw(st.integers(0, 2**64)),
    )


def choose(game: IDoubtIt, rng: random.Random) -> tuple[int, Action]:
    """A legal move, chosen so that games tend to end: truth often, doubts now and then."""
    state = game.state
    if state.phase is Phase.WINDOW:
        seat = rng.choice(game.awaiting())
        return seat, Doubt() if rng.random() < 0.1 else LetStand()
    if state.claim is not None and rng.random() < 0.1:  # an open-mode call
        return rng.choice([s for s in game.may_act() if s != state.claimer]), Doubt()
    seat = state.turn
    lays = [a for a in game.legal_actions(seat) if isinstance(a, Lay)]
    if state.laid and (not lays or rng.random() < 0.5):
        return seat, Announce()
    truthful = [a for a in lays if a.card.rank is state.required_rank]
    return seat, rng.choice(truthful if truthful and rng.random() < 0.8 else lays)


def anything(game: IDoubtIt, rng: random.Random) -> tuple[int, Action]:
    """Any action by any seat, legal or not."""
    action = rng.choice([Announce(), Doubt(), LetStand(), Lay(rng.choice(deck()))])
    return rng.randrange(game.players), action


def entitled(game: IDoubtIt, seat: int | None) -> set[Card]:
    """The cards ``seat`` may know of now: its hand, what it laid, and cards shown to all."""
    state = game.state
    known = {card for record in state.records for card in record.shown or ()}
    if seat is not None:
        known |= set(state.hands[seat]) | set(state.pile_by_seat[seat])
        if seat == state.turn:
            known |= set(state.laid)
    return known


def check_views(game: IDoubtIt) -> None:
    state = game.state
    for seat in [None, *range(game.players)]:
        view = game.view(seat)
        # Settled claims are shared by every view; check_claims looks at them once.
        seen = set(cards_in(replace(view, claims=())))
        assert seen <= entitled(game, seat), f"seat {seat} sees too much"
        assert view.claims == tuple(state.records)
        assert view.hand == tuple(sorted(state.hands[seat])) if seat is not None else not view.hand
        assert view.hand_sizes == tuple(len(hand) for hand in state.hands)
        assert view.pile == len(state.pile)
        assert set(view.legal) == set(game.legal_actions(seat)) if seat is not None else True
        assert view.version == game.version


def check_claims(game: IDoubtIt) -> None:
    """Settled claims (in every view) show cards only when doubted, and then all of them."""
    for record in game.state.records:
        assert (record.shown is None) == (record.doubter is None)
        if record.shown is not None:
            assert len(record.shown) == record.claim.count
            assert record.honest == all(card.rank is record.claim.rank for card in record.shown)


def check_log(game: IDoubtIt) -> None:
    for seat in [None, *range(game.players)]:
        for event in game.log(seat):
            if isinstance(event, Dealt):
                assert all(hand is None for i, hand in enumerate(event.hands) if i != seat)
            elif isinstance(event, Laid):
                assert (event.card is None) == (event.seat != seat)
            elif isinstance(event, Answered):
                assert (event.doubt is None) == (event.seat != seat)
            else:
                assert isinstance(event, (Announced, Resolved, Won))


def check_ranks_and_winner(game: IDoubtIt, finished: bool) -> None:
    rank = Rank.ACE
    for record in game.state.records:
        assert record.claim.rank is rank
        assert record.next_rank is rank.next()
        rank = rank.next()
    wins = [event for event in game.log(None) if isinstance(event, Won)]
    if finished:
        assert len(wins) == 1 and game.winner == wins[0].seat
        last = game.state.records[-1]
        assert last.seat == game.winner and not game.state.hands[game.winner]
        assert last.doubter is None or last.honest
        assert sum(1 for hand in game.state.hands if not hand) == 1
    else:
        assert not wins and game.winner is None


def doubted(game: IDoubtIt) -> bool:
    """True when the last action settled a doubted claim (cards were shown and moved)."""
    last = game.state.events[-1]
    return isinstance(last, Won) or isinstance(last, Resolved) and last.doubter is not None


def snapshot(game: IDoubtIt) -> tuple[object, ...]:
    """Every fact of the game's state, copied (the events by count: they only grow)."""
    state = game.state
    return (
        tuple(map(tuple, state.hands)), tuple(state.pile), tuple(state.laid),
        tuple(state.claim_cards), tuple(map(tuple, state.pile_by_seat)), state.phase,
        state.turn, state.rank, state.claim, state.claimer, tuple(state.answers.items()),
        state.window, state.winner, state.version, state.turns, len(state.events),
        len(state.records),
    )


def play(table: Table, check: bool) -> tuple[IDoubtIt, list[tuple[int, Action]]]:
    game = table.new()
    rng = random.Random(table.walk)
    full = sorted(deck(table.options.decks), key=sort_key)
    played: list[tuple[int, Action]] = []
    for _ in range(MAX_STEPS):
        if game.over:
            break
        version = game.version
        if rng.random() < 0.05:
            seat, action = anything(game, rng)
            before = snapshot(game)
            try:
                game.apply(seat, action)
            except IllegalAction:
                assert snapshot(game) == before and game.version == version
                continue
        else:
            seat, action = choose(game, rng)
            game.apply(seat, action)
        played.append((seat, action))
        assert game.version == version + 1
        if check:
            assert sorted(game.state.cards(), key=sort_key) == full
            # Every seat's view after each doubt (cards move and show) and one step in 20.
            if doubted(game) or rng.random() < 0.05:
                check_views(game)
    if check:
        check_views(game)
    return game, played


@settings(max_examples=1000)
@given(tables())
def test_every_game_keeps_every_rule(table: Table) -> None:
    game, played = play(table, check=True)
    check_claims(game)
    check_log(game)
    check_ranks_and_winner(game, finished=game.over)
    # Determinism: the same seed and the same actions give the same game, event for event.
    again = table.new()
    for seat, action in played:
        again.apply(seat, action)
    assert again.log(None) == game.log(None)
    assert repr(again.state) == repr(game.state)


@settings(max_examples=200)
@given(tables())
def test_the_same_seed_deals_the_same_and_another_seed_does_not(table: Table) -> None:
    first, second = table.new(), table.new()
    assert first.state.hands == second.state.hands
    other = IDoubtIt(table.players, table.options, seed=table.seed + 1, opener=table.opener)
    assert other.state.hands != first.state.hands


def test_without_a_seed_the_deal_comes_from_the_system() -> None:
    deals = {tuple(IDoubtIt(4).state.hands[0]) for _ in range(20)}
    assert len(deals) == 20


def test_a_refused_action_never_raises_anything_but_a_rules_error() -> None:
    game = IDoubtIt(4, seed=5)
    rng = random.Random(5)
    for _ in range(2000):
        seat, action = anything(game, rng)
        with contextlib.suppress(RulesError):
            game.apply(seat, action)
        if game.over:
            break
