"""Skull's rules (docs/rules-skull.md): the opening discs, laying and bidding, the bidder's
own stack turned first, a made bid's point, a Skull's lost disc, a player out, what each
seat sees, and properties that hold for every game played to its end."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubtlan.rules.errors import (
    BadOptions,
    CardNotInHand,
    GameOver,
    MalformedAction,
    NotYourTurn,
    UnknownAction,
)
from doubtlan.rules.skull import (
    FLOWER,
    PASS,
    SKULL,
    BadBid,
    Bid,
    Disc,
    Lost,
    NoSuchStack,
    NotNow,
    Options,
    Phase,
    Place,
    Placed,
    Settled,
    Skull,
    Turn,
    Turned,
    Won,
)

F, S = Place(FLOWER), Place(SKULL)


def play(game: Skull, *moves: tuple[int, object]) -> None:
    for seat, action in moves:
        game.apply(seat, action)  # type: ignore[arg-type]


def opened(players: int = 3, *discs: Place, seed: int = 1) -> Skull:
    """A game whose opening discs are laid: ``discs`` by seat (a Flower where not given)."""
    game = Skull(players, seed=seed)
    for seat in range(players):
        game.apply(seat, discs[seat] if seat < len(discs) else F)
    return game


def test_discs_and_actions_read_and_write_their_text() -> None:
    assert Disc.parse(" s ") is SKULL and str(FLOWER) == "F"
    assert repr(SKULL) == "Disc.parse('S')"
    for action in (F, S, Bid(3), PASS, Turn(0), Turn(5)):
        assert Skull.parse_action(action.text) == action
    assert Turn(1).text == "turn 2"
    for text in ("place", "place X", "bid", "bid two", "bid -1", "bid 1 2", "turn 0",
                 "turn x", "fold", "pass now", "bid ３"):
        with pytest.raises(MalformedAction):
            Skull.parse_action(text)


def test_options_give_the_players_and_the_points_to_win() -> None:
    assert Options.parse("points=3").points == 3 and Options().text == "points=2"
    for players in (2, 7):
        with pytest.raises(BadOptions, match="Skull needs 3 to 6 players"):
            Skull(players)
    with pytest.raises(BadOptions):
        Options.parse("points=4")


def test_each_player_lays_a_first_disc_in_turn_before_anyone_bids() -> None:
    game = Skull(3, seed=1, opener=1)
    view = game.view(1)
    assert view.phase is Phase.OPENING and view.awaiting == (1,)
    assert view.hand == (FLOWER, FLOWER, FLOWER, SKULL) and view.legal == (F, S)
    with pytest.raises(NotNow, match="every player lays a disc before anyone bids"):
        game.apply(1, Bid(1))
    with pytest.raises(NotYourTurn):
        game.apply(0, F)
    play(game, (1, S), (2, F), (0, F))
    view = game.view(1)
    assert view.phase is Phase.LAYING and view.active == 1
    assert view.stacks == (1, 1, 1) and view.hand == (FLOWER,) * 3 and view.stack == (SKULL,)
    assert view.legal == (F, Bid(1), Bid(2), Bid(3))


def test_a_disc_laid_is_its_players_alone_until_it_is_turned() -> None:
    game = Skull(3, seed=1)
    (event,) = game.apply(0, S)
    assert type(event) is Placed and event.disc is SKULL and event.seal
    assert game.log(0)[-1] == event
    for seat in (1, 2, None):
        seen = game.log(seat)[-1]
        assert type(seen) is Placed and seen.disc is None and seen.seal == event.seal
        view = game.view(seat)
        assert view.stacks == (1, 0, 0) and SKULL not in view.stack
    assert game.view(None).hand == () and game.view(None).legal == ()


def test_bids_rise_to_the_discs_on_the_table_and_a_pass_leaves_the_bidding() -> None:
    game = opened(4)
    with pytest.raises(BadBid, match="bid 1 to 4"):
        game.apply(0, Bid(5))
    with pytest.raises(NotNow, match="nothing to pass"):
        game.apply(0, PASS)
    play(game, (0, Bid(1)))
    view = game.view(1)
    assert view.phase is Phase.BIDDING and view.legal == (Bid(2), Bid(3), Bid(4), PASS)
    with pytest.raises(BadBid):
        game.apply(1, Bid(1))
    with pytest.raises(NotNow, match="the discs are laid"):
        game.apply(1, F)
    play(game, (1, Bid(2)), (2, PASS), (3, PASS))
    assert game.view(0).awaiting == (0,) and game.view(0).passed == (2, 3)
    play(game, (0, PASS))  # (the last but one passes: seat 2 turns)
    view = game.view(1)
    assert view.phase is Phase.TURNING and view.bidder == 1 and view.bid == 2


def test_the_bidder_turns_their_own_stack_first_then_chooses() -> None:
    game = opened(3)
    play(game, (0, F), (1, S), (2, F))  # stacks: F F / F S / F F
    play(game, (0, Bid(3)), (1, PASS), (2, PASS))
    view = game.view(0)
    assert view.turned == ((FLOWER, FLOWER), (), ())  # (its own two, by itself)
    assert view.legal == (Turn(1), Turn(2))
    with pytest.raises(NoSuchStack):
        game.apply(0, Turn(0))
    (turned, settled, *_) = game.apply(0, Turn(2))
    assert turned == Turned(0, 2, FLOWER)
    assert type(settled) is Settled and settled.made and settled.points == 1
    assert game.view(0).points == (1, 0, 0)
    assert game.view(0).round == 2 and game.view(0).first == 0  # (it lays first again)
    assert game.view(0).hand == (FLOWER, FLOWER, FLOWER, SKULL)  # (every disc back)


def test_a_bid_of_every_disc_on_the_table_ends_the_bidding_at_once() -> None:
    game = opened(3)
    play(game, (0, Bid(3)))
    assert game.view(0).phase is Phase.TURNING


def test_a_skull_costs_the_bidder_a_disc_only_they_see_and_the_skulls_owner_is_named() -> None:
    game = opened(3, F, S)
    play(game, (0, Bid(2)), (1, PASS), (2, PASS))
    events = game.apply(0, Turn(1))
    settled = next(event for event in events if type(event) is Settled)
    assert not settled.made and settled.skull == 1
    lost = next(event for event in events if type(event) is Lost)
    assert lost.seat == 0 and lost.disc in (FLOWER, SKULL) and lost.left == 3
    assert game.log(1, game.event_count - 2)[0] == Lost(0, None, 3)
    view = game.view(0)
    assert view.discs == (3, 4, 4) and len(view.hand) == 3 and view.first == 0
    assert game.view(1).hand == (FLOWER, FLOWER, FLOWER, SKULL)


def test_a_player_who_loses_their_last_disc_is_out_and_the_last_one_in_wins() -> None:
    game = Skull(3, seed=3)
    state = game.state
    state.hands[0], state.hands[2], state.lost[0], state.lost[2] = [FLOWER], [FLOWER], 3, 3
    play(game, (0, F), (1, S), (2, F), (0, Bid(2)), (1, PASS), (2, PASS))
    events = game.apply(0, Turn(1))
    assert [type(event) for event in events][-3:] == [Settled, Lost, type(events[-1])]
    assert game.view(1).discs == (0, 4, 1) and game.view(1).first == 1  # (the owner's)
    assert game.view(0).legal == () and game.view(0).hand == ()
    play(game, (1, F), (2, F), (1, Bid(2)))  # (every disc on the table: turning at once)
    assert game.view(1).turned == ((), (FLOWER,), ()) and game.view(1).legal == (Turn(2),)
    play(game, (1, Turn(2)))
    assert game.view(1).points == (0, 1, 0) and game.view(1).round == 3
    state.hands[1], state.lost[1] = [FLOWER], 3  # (as if it had lost three)
    state.hands[2] = [SKULL]  # (its last disc, as if it had kept the Skull)
    play(game, (1, F), (2, S), (1, Bid(2)), (1, Turn(2)))
    assert game.over and game.winner == 2 and game.ending() == "standing"


def test_two_made_bids_win_and_then_nothing_is_legal() -> None:
    game = opened(3)
    play(game, (0, Bid(1)), (1, PASS), (2, PASS))  # (its own Flower: a point)
    play(game, (0, F), (1, F), (2, F), (0, Bid(1)), (1, PASS), (2, PASS))
    assert game.over and game.winner == 0 and game.ending() == "points"
    assert type(game.state.events[-1]) is Won
    with pytest.raises(GameOver):
        game.apply(1, F)
    assert all(not game.legal_actions(seat) for seat in range(3))


def test_refusals_leave_the_game_as_it_was() -> None:
    game = opened(3)
    before = (game.version, game.event_count, [list(s) for s in game.state.stacks])
    for seat, action in ((1, F), (0, Turn(1)), (0, Bid(0)), (0, Bid(4)), (0, PASS)):
        with pytest.raises(ValueError):
            game.apply(seat, action)
    game.state.hands[0].remove(SKULL)
    with pytest.raises(CardNotInHand):
        game.apply(0, S)
    with pytest.raises(UnknownAction):
        game.apply(0, "place F")  # type: ignore[arg-type]
    with pytest.raises(MalformedAction):
        game.apply(0, Place("F"))  # type: ignore[arg-type]
    assert (game.version, game.event_count, [list(s) for s in game.state.stacks]) == before


def _random_game(players: int, seed: int) -> tuple[Skull, int]:
    game = Skull(players, seed=seed, opener=seed % players)
    rng = random.Random(seed)
    steps = 0
    while not game.over:
        (seat,) = game.awaiting()
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        steps += 1
    return game, steps


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 6), st.integers(0, 2**32))
def test_every_game_keeps_each_players_four_discs_and_ends_with_a_winner(
        players: int, seed: int) -> None:
    game = Skull(players, seed=seed, opener=seed % players)
    rng = random.Random(seed)
    while not game.over:
        awaited = game.awaiting()
        assert len(awaited) == 1 and game.may_act() == awaited
        seat = awaited[0]
        assert all(not game.legal_actions(other) for other in range(players) if other != seat)
        assert game.timeout_actions(seat)[0] in game.legal_actions(seat)
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        state = game.state
        assert all(state.discs(n) + state.lost[n] == 4 for n in range(players))
        assert all(state.hands[n].count(SKULL) + state.stacks[n].count(SKULL) <= 1
                   for n in range(players))
    state = game.state
    winner = game.winner
    assert winner is not None and state.discs(winner) > 0
    assert state.points[winner] == 2 or state.in_game() == [winner]
    assert game.turns == sum(type(event) is Placed for event in state.events) + sum(
        type(event).__name__ == "BidMade" for event in state.events)


def test_the_same_seed_plays_the_same_game() -> None:
    first, _ = _random_game(4, 11)
    second, _ = _random_game(4, 11)
    assert first.state.events == second.state.events
