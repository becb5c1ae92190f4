"""Rules that hold in every game, checked over many random games (hypothesis).

Each example deals a random table (players, decks, challenge mode, opener, seed) and plays
it with a random but purposeful walk: mostly legal moves, sometimes a random action that
may be illegal. Card conservation and "a refused action changes nothing" are checked after
every step. Every seat's view is checked after each doubt (when cards are shown and move),
at one step in twenty besides, and at the end; a second, smaller property checks every
view after every step. The log, the rank sequence, the winner and determinism are checked
once the game is over.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass, fields, replace

from helpers import cards_in
from hypothesis import given, settings
from hypothesis import strategies as st

from doubtlan.rules import (
    Action,
    Announce,
    ChallengeMode,
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
from doubtlan.rules.idoubtit.state import STALE_ROUNDS

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
        Options(decks=decks, challenge=draw(st.sampled_from(list(ChallengeMode)))),
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


def check_views(game: IDoubtIt) -> None:
    """Each seat's view holds exactly its own cards in its own fields, and no card anywhere
    else but in claims shown by doubts (check_claims)."""
    state = game.state
    for seat in [None, *range(game.players)]:
        view = game.view(seat)
        # make_view sets the fields one by one: none may be left unset.
        assert all(hasattr(view, f.name) for f in fields(view))
        if seat is None:
            assert (view.hand, view.my_laid, view.my_pile, view.legal) == ((), (), (), ())
            assert view.my_answer is None
        else:
            assert view.hand == tuple(state.hands[seat]) == tuple(sorted(view.hand, key=sort_key))
            if seat == state.claimer:
                assert view.my_laid == tuple(state.claim_cards)
            elif seat == state.turn:
                assert view.my_laid == tuple(state.laid)
            else:
                assert view.my_laid == ()
            assert view.my_pile == tuple(state.pile_by_seat[seat])
            assert view.my_answer == state.answers.get(seat)
            assert set(view.legal) == set(game.legal_actions(seat))
            assert {a.card for a in view.legal if isinstance(a, Lay)} <= set(view.hand)
        public = replace(view, hand=(), my_laid=(), my_pile=(), legal=(), record=())
        assert not list(cards_in(public)), f"seat {seat} sees a card in a public field"
        assert view.record == tuple(state.records)
        assert view.hand_sizes == tuple(len(hand) for hand in state.hands)
        assert (view.pile, view.laid) == (len(state.pile), len(state.laid))
        assert (view.version, view.winner, view.claim) == (game.version, game.winner, state.claim)
        assert view.awaiting == game.awaiting()


def check_claims(game: IDoubtIt) -> None:
    """Settled claims (in every view) show cards only when doubted, and then all of them."""
    for record in game.state.records:
        assert (record.shown is None) == (record.doubter is None)
        if record.shown is not None:
            assert len(record.shown) == record.claim.count
            assert record.honest == all(card.rank is record.claim.rank for card in record.shown)


def check_log(game: IDoubtIt) -> None:
    """Each seat's log holds its own dealt hand and the cards it laid, the cards shown by
    doubts, and no other card."""
    full = game.state.events
    for seat in [None, *range(game.players)]:
        log = game.log(seat)
        assert len(log) == len(full)
        for event, whole in zip(log, full, strict=True):
            assert type(event) is type(whole)
            if isinstance(event, Dealt):
                for i, hand in enumerate(event.hands):
                    assert hand == (whole.hands[i] if i == seat else None)  # type: ignore[attr-defined]
            elif isinstance(event, Laid):
                assert event.card == (whole.card if event.seat == seat else None)  # type: ignore[attr-defined]
            elif isinstance(event, Answered):
                assert event.doubt == (whole.doubt if event.seat == seat else None)  # type: ignore[attr-defined]
            elif isinstance(event, Resolved):
                assert event == whole and (event.shown is None) == (event.doubter is None)
            else:
                assert isinstance(event, (Announced, Won)) and event == whole
                assert not list(cards_in(event))


def check_ranks_and_winner(game: IDoubtIt, finished: bool) -> None:
    rank = Rank.ACE
    for record in game.state.records:
        assert record.claim.rank is rank
        assert record.next_rank is rank.next()
        rank = rank.next()
    wins = [event for event in game.log(None) if isinstance(event, Won)]
    if finished and wins and wins[0].stalemate:  # rule 8: the fewest cards, held longest
        hands, changed = game.state.hands, game.state.changed
        assert len(wins) == 1 and game.winner == wins[0].seat
        assert game.state.stale >= STALE_ROUNDS * game.players
        assert game.winner == min(range(game.players),
                                  key=lambda seat: (len(hands[seat]), changed[seat], seat))
    elif finished:
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


def play(
    table: Table, check: bool, every_step: bool = False
) -> tuple[IDoubtIt, list[tuple[int, Action]]]:
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
            in_pile = [card for cards in game.state.pile_by_seat for card in cards]
            assert sorted(in_pile, key=sort_key) == sorted(game.state.pile, key=sort_key)
            # Every seat's view after each doubt (cards move and show) and one step in 20.
            if every_step or doubted(game) or rng.random() < 0.05:
                check_views(game)
    if check:
        check_views(game)
    return game, played


@settings(max_examples=300)
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


@settings(max_examples=100)
@given(tables())
def test_every_view_after_every_step(table: Table) -> None:
    play(table, check=True, every_step=True)


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


@settings(max_examples=150, deadline=None)
@given(tables(), st.lists(st.sampled_from(["random", "counter", "sharp", "hard", "honest"]),
                         min_size=10, max_size=10),
       st.integers(5, 400))
def test_a_game_played_out_is_the_game_played_step_by_step(
        table: Table, strategies: list[str], max_turns: int) -> None:
    """The tourney's fast path (``IDoubtIt.play_out``) ends every game where stepping
    through it with every check (``tourney.play(fast=False)``) does: the same hands, pile,
    settled claims, winner and version, the same answers played; only the lays',
    announcements' and answers' events are left out."""
    from doubtlan.bots import make_bot
    from doubtlan.tourney import play as play_bots

    games, decisions = [], []
    for fast in (True, False):
        game = table.new()
        bots = [make_bot(strategies[seat], f"{table.walk} {seat}")
                for seat in range(table.players)]
        decided = [0]
        finished = play_bots(game, bots, max_turns, decided, fast=fast)
        assert finished == game.over
        games.append(game)
        decisions.append(decided[0])
    fast_game, step_game = games
    assert decisions[0] == decisions[1]
    fast_state, step_state = fast_game.state, step_game.state
    kept = (Dealt, Resolved, Won)
    assert [e for e in step_state.events if isinstance(e, kept)] == fast_state.events \
        or table.options.challenge is ChallengeMode.OPEN
    for name in ("hands", "pile", "pile_by_seat", "laid", "claim_cards", "phase", "turn",
                 "rank", "claim", "claimer", "window", "winner", "version", "turns",
                 "records", "bluffs", "low", "stale", "changed"):
        assert getattr(fast_state, name) == getattr(step_state, name), name
