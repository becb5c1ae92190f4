"""Liar's Deck's rules (docs/rules-liarsdeck.md): the deal, a turn, the call, lives and the
roulette, the last player's call, what each seat sees, and properties that hold for every
game played to its end."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubtlan.rules.errors import (
    BadOptions,
    CardNotInHand,
    ClaimTooLarge,
    GameOver,
    MalformedAction,
    NotYourTurn,
    NoWindowOpen,
)
from doubtlan.rules.liarsdeck import (
    ACE,
    JOKER,
    KING,
    LIAR,
    QUEEN,
    Believed,
    Called,
    Card,
    Deal,
    Down,
    Liar,
    LiarsDeck,
    Lives,
    Lost,
    Options,
    Put,
    Rank,
    Standing,
    deck,
)
from doubtlan.rules.liarsdeck.errors import CallRequired

C = Card.parse


def put(*codes: str) -> Put:
    return Put.of([C(code) for code in codes])


def hands(*texts: str) -> list[str]:
    return list(texts)


def game3() -> LiarsDeck:
    """Three players, Kings: Amy holds two Kings and a Joker."""
    return LiarsDeck.from_hands(["K K J Q Q", "A A A Q Q", "K Q A A Q"], Rank.KING)


# -- values -------------------------------------------------------------------------------


def test_cards_and_actions_read_and_write_their_text() -> None:
    assert [C(code) for code in "QKAJ"] == [QUEEN, KING, ACE, JOKER]
    assert C(" k ") is KING and str(JOKER) == "J" and repr(ACE) == "Card.parse('A')"
    assert JOKER.matches(Rank.ACE) and QUEEN.matches(Rank.QUEEN) and not KING.matches(Rank.ACE)
    assert (QUEEN.describe(), ACE.describe(), JOKER.describe()) == \
        ("a Queen", "an Ace", "a Joker")
    assert LiarsDeck.parse_action("put j q") == put("Q", "J") == Put((QUEEN, JOKER))
    assert put("Q", "J").text == "put Q J" and LIAR.text == "liar"
    assert LiarsDeck.parse_action("liar") == Liar()
    for text in ("put", "put Q K A Q", "put X", "liar Q"):
        with pytest.raises(MalformedAction):
            LiarsDeck.parse_action(text)
    assert Counter(deck(1)) == {QUEEN: 6, KING: 6, ACE: 6, JOKER: 2}
    assert len(deck(2)) == 40


def test_options_give_the_players_and_the_lives() -> None:
    assert (Options().min_players, Options().max_players) == (2, 4)
    assert Options.parse("decks=2").max_players == 6
    assert Options.parse("lives=roulette").lives is Lives.ROULETTE
    assert Lives.ROULETTE.count is None and Lives.FIVE.count == 5
    with pytest.raises(BadOptions, match="one deck needs 2 to 4 players, not 5"):
        LiarsDeck(5)
    with pytest.raises(BadOptions, match="2 to 6"):
        LiarsDeck(7, Options.parse("decks=2"))
    LiarsDeck(6, Options.parse("decks=2"))
    with pytest.raises(BadOptions, match="opener"):
        LiarsDeck(3, opener=3)


# -- the deal ---------------------------------------------------------------------------


def test_each_round_deals_five_cards_to_each_player_and_draws_a_rank() -> None:
    ranks = Counter()
    for seed in range(60):
        game = LiarsDeck(3, seed=seed, opener=seed % 3)
        state = game.state
        assert [len(hand) for hand in state.hands] == [5, 5, 5]
        assert Counter(state.cards()) == Counter(deck(1)) and len(state.rest) == 5
        assert game.view(None).active == seed % 3 == game.turn_seat()
        ranks[state.rank] += 1
    assert set(ranks) == set(Rank)  # (each drawn: 60 deals)
    same = LiarsDeck(4, seed=b"x")
    again = LiarsDeck(4, seed=b"x")
    assert same.state.hands == again.state.hands and same.state.bullets == again.state.bullets


def test_a_deal_shows_each_seat_its_own_hand_and_nobody_the_rest() -> None:
    game = game3()
    for seat in range(3):
        (deal,) = game.log(seat)
        assert isinstance(deal, Deal) and deal.sizes == (5, 5, 5)
        assert [hand is not None for hand in deal.hands] == [s == seat for s in range(3)]
        assert deal.hands[seat] == game.view(seat).hand
    (deal,) = game.log(None)
    assert deal.hands == (None, None, None)  # type: ignore[union-attr]
    assert game.view(None).hand == () and game.view(None).legal == ()


# -- a turn -------------------------------------------------------------------------------


def test_a_turn_puts_one_to_three_cards_down_and_passes_clockwise() -> None:
    game = game3()
    view = game.view(0)
    assert LIAR not in view.legal  # nothing down yet this round
    assert put("K", "K", "J") in view.legal and put("Q") in view.legal
    assert len(view.legal) == len(set(view.legal))  # (the same cards once)
    game.apply(0, put("K", "J"))
    assert game.view(1).my_turn and game.view(1).claimer == 0 and game.view(1).count == 2
    assert game.view(0).my_claim == (KING, JOKER) and game.view(1).my_claim == ()
    assert game.view(1).hand_sizes == (3, 5, 5) and game.view(1).down == 2
    assert game.turns == 1 and game.decision == 1
    down = game.log(1)[-1]
    assert isinstance(down, Down) and down.cards is None and len(down.seals) == 2
    assert game.log(0)[-1].cards == (KING, JOKER)  # type: ignore[attr-defined]
    assert down.seals[0] != down.seals[1]  # (two cards, two seals, whatever they are)
    game.apply(1, put("A"))  # Ben believed Amy: her claim stood
    (stood,) = game.view(None).record
    assert stood == Believed(0, 2, Rank.KING, 1)


def test_refusals_leave_the_game_as_it_was() -> None:
    game = game3()
    before = game.state.version
    for seat, action, error in [
        (1, put("A"), NotYourTurn),
        (0, put("A"), CardNotInHand),
        (0, put("K", "K", "K"), CardNotInHand),
        (0, Put((KING, KING, JOKER, QUEEN)), ClaimTooLarge),
        (0, LIAR, NoWindowOpen),
    ]:
        with pytest.raises(error):
            game.apply(seat, action)
    assert game.state.version == before


# -- the call -------------------------------------------------------------------------------


def test_a_call_on_true_cards_costs_the_caller_a_life_jokers_counting_true() -> None:
    game = game3()
    game.apply(0, put("K", "J"))
    game.apply(1, LIAR)
    called = game.view(None).record[-1]
    assert called == Called(0, 2, Rank.KING, 1, (KING, JOKER), False, 1)
    assert game.view(None).lives == (3, 2, 3)
    assert any(event == Lost(1, 2, 0, False) for event in game.log(None))
    view = game.view(1)  # a new round: Ben, who lost, opens it, with a new hand
    assert view.round == 2 and view.active == 1 and view.claimer is None
    assert view.hand_sizes == (5, 5, 5) and view.down == 0 and game.decision == 2


def test_a_call_on_a_lie_costs_the_liar_and_the_loser_opens_the_next_round() -> None:
    game = game3()
    game.apply(0, put("Q", "K"))
    game.apply(1, LIAR)
    called = game.view(None).record[-1]
    assert isinstance(called, Called) and called.lie and called.loser == 0
    assert game.view(0).lives == (2, 3, 3) and game.view(0).active == 0


def test_the_last_player_with_cards_must_call() -> None:
    game = LiarsDeck.from_hands(["K K J Q Q", "A A A Q Q"], Rank.KING)
    game.apply(0, put("K", "K", "J"))
    game.apply(1, put("A", "A", "A"))
    game.apply(0, put("Q", "Q"))  # Amy's hand is empty: Ben alone holds cards
    assert game.view(1).legal == (LIAR,) and game.timeout_actions(1) == (LIAR,)
    with pytest.raises(CallRequired) as refused:
        game.apply(1, put("Q"))
    assert refused.value.code == "call_required"
    game.apply(1, LIAR)  # two Queens at a Kings table: a lie
    assert game.view(None).lives == (2, 3)


def test_a_player_out_of_cards_is_skipped() -> None:
    game = LiarsDeck.from_hands(["K K J Q Q", "A A A Q Q", "K Q A A Q"], Rank.ACE)
    game.apply(0, put("K", "K", "J"))
    game.apply(1, put("A", "A", "A"))
    game.apply(2, put("A", "A", "Q"))
    game.apply(0, put("Q", "Q"))  # Amy is out of cards
    game.apply(1, put("Q", "Q"))  # so is Ben
    assert game.view(2).active == 2 and game.view(2).legal == (LIAR,)  # (Cleo alone)
    game.apply(2, LIAR)  # on Ben's two Queens: a lie
    assert game.view(None).lives == (3, 2, 3) and game.view(None).active == 1


def test_lives_run_out_and_the_last_player_standing_wins() -> None:
    game = LiarsDeck.from_hands(["K K J Q Q", "A A A Q Q"], Rank.KING,
                                Options.parse("lives=1"))
    game.apply(0, put("Q"))
    game.apply(1, LIAR)
    assert game.over and game.winner == 1 and game.ending() == "standing"
    assert game.view(None).out == (0,) and game.legal_actions(1) == ()
    assert game.log(None)[-2:] == (Lost(0, 0, 0, True), Standing(1))
    with pytest.raises(GameOver):
        game.apply(1, LIAR)
    assert Counter(game.state.cards()) == Counter(deck(1))


def test_the_roulette_fires_at_each_revolvers_loaded_chamber() -> None:
    """Each lost call pulls the loser's trigger once; the pull that reaches the loaded
    chamber (1 to 6, drawn with the deal) puts the player out: 1 chance in 6, then 1 in 5,
    and so on."""
    loaded = Counter()
    for seed in range(60):
        game = LiarsDeck(3, Options.parse("lives=roulette"), seed=seed)
        bullets, pulls = game.state.bullets, [0, 0, 0]
        loaded.update(bullets)
        rng = random.Random(seed)
        seen = 0
        while not game.over:
            (seat,) = game.awaiting()
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            for event in game.log(None)[seen:]:
                if isinstance(event, Lost):
                    pulls[event.seat] += 1
                    assert event.pulled == pulls[event.seat] <= bullets[event.seat]
                    assert event.out == (pulls[event.seat] == bullets[event.seat])
                    assert event.lives == (0 if event.out else 1)
            seen = game.event_count
        assert game.view(None).pulled == tuple(pulls)
    assert set(loaded) == set(range(1, 7))  # every chamber is loaded in some revolver


# -- every game -----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6), rules=st.sampled_from(
    ["", "lives=roulette", "lives=1", "decks=2", "decks=2,lives=5"]))
def test_every_game_keeps_its_cards_and_ends_with_one_player_standing(
        players: int, seed: int, rules: str) -> None:
    options = Options.parse(rules)
    players = min(players, options.max_players)
    game = LiarsDeck(players, options, seed=seed, opener=seed % players)
    rng = random.Random(seed)
    decisions = 0
    while not game.over:
        state = game.state
        assert Counter(state.cards()) == Counter(deck(options.decks))
        (seat,) = game.awaiting()
        legal = game.legal_actions(seat)
        assert legal and all(game.is_legal(seat, action) for action in legal)
        holding = [s for s in range(players) if state.hands[s]]
        assert seat in holding and (legal == (LIAR,)) == (holding == [seat])
        for other in range(players):
            view = game.view(other)
            assert view.hand == tuple(state.hands[other]) and view.decision == game.decision
        game.apply(seat, rng.choice(legal))
        assert game.decision == decisions + 1  # (a new move for a seat after every action)
        decisions = game.decision
        assert state.turns < 2000
    standing = [s for s in range(players) if game.state.lives[s] > 0]
    assert standing == [game.winner] and len(game.view(None).out) == players - 1
    claims = game.view(None).record
    calls = [claim for claim in claims if isinstance(claim, Called)]
    assert len(calls) == game.state.round and calls[-1].loser == game.view(None).out[-1]
    assert all(claim.lie == (claim.loser == claim.seat) for claim in calls)
    for claim in calls:
        assert claim.lie == (not all(card.matches(claim.rank) for card in claim.shown))
