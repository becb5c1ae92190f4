"""One test (or more) for each numbered rule of docs/rules.md, and for each variant."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import AlwaysDoubts, LaysFour, cards_in, deal, hand_codes

from doubtlan.rules import (
    Announce,
    BadOptions,
    Card,
    ChallengeMode,
    Doubt,
    IDoubtIt,
    Lay,
    LetStand,
    Match,
    Options,
    Phase,
    Rank,
    deck,
)
from doubtlan.rules.idoubtit import Answered, Laid, Resolved, Won
from doubtlan.rules.seeds import seal

C = Card.parse
OPEN = Options(challenge=ChallengeMode.OPEN)


def lay(game: IDoubtIt, seat: int, *codes: str) -> None:
    for code in codes:
        game.apply(seat, Lay(C(code)))


def claim(game: IDoubtIt, seat: int, *codes: str) -> None:
    lay(game, seat, *codes)
    game.apply(seat, Announce())


def stand_all(game: IDoubtIt) -> None:
    """Every seat still to answer the window lets the claim stand, clockwise."""
    while game.state.phase is Phase.WINDOW:
        game.apply(game.awaiting()[0], LetStand())


# -- Rule 1: players, deck, deal --------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_rule_1_the_whole_deck_is_dealt_as_evenly_as_possible(players: int) -> None:
    game = IDoubtIt(players, seed=players)
    sizes = game.view(None).hand_sizes
    assert sum(sizes) == 52
    assert max(sizes) - min(sizes) <= 1
    assert Counter(game.state.cards()) == Counter(deck())
    assert not game.state.pile


def test_rule_1_dealing_starts_with_the_player_who_opens() -> None:
    # 52 cards for 5 players: the opener and the next seat get the two extra cards.
    game = IDoubtIt(5, seed=9, opener=3)
    assert game.view(None).hand_sizes == (10, 10, 10, 11, 11)
    assert game.view(None).turn == 3


@pytest.mark.parametrize("players", [0, 1, 2, 9])
def test_rule_1_three_to_eight_players(players: int) -> None:
    with pytest.raises(BadOptions) as error:
        IDoubtIt(players, seed=1)
    assert error.value.code == "bad_options"


def test_rule_1_no_jokers_one_deck() -> None:
    assert len(deck()) == 52
    assert len(set(deck())) == 52
    assert {card.rank for card in deck()} == set(Rank)


# -- Rule 2: the required rank climbs ----------------------------------------------------


def test_rule_2_rank_starts_at_ace_and_climbs_back_to_ace() -> None:
    game = IDoubtIt(4, seed=2)
    seen = []
    for _ in range(14):
        view = game.view(None)
        seen.append(view.rank)
        seat = view.turn
        game.apply(seat, Lay(game.view(seat).hand[0]))
        game.apply(seat, Announce())
        stand_all(game)
    assert seen == [*Rank, Rank.ACE]
    assert [r.claim.rank for r in game.state.records] == seen


def test_rule_2_rank_advances_after_a_doubt_too() -> None:
    game = deal("AS AH", "2S", "3S", players=3)
    claim(game, 0, "AS")
    game.apply(1, Doubt())
    assert game.view(None).rank is Rank.TWO


# -- Rule 3: the opener moves round the table -------------------------------------------


def test_rule_3_each_game_of_a_match_is_opened_by_the_next_seat() -> None:
    match = Match(3, seed=4)
    openers = []
    for _ in range(5):
        game = match.new_game()
        openers.append(game.opener)
        assert game.view(None).turn == game.opener
        assert game.awaiting() == (game.opener,)
    assert openers == [0, 1, 2, 0, 1]


def test_rule_3_the_match_counts_wins() -> None:
    match = Match(3, seed=4)
    game = match.new_game()
    # Seat 0 wins at once: hand it a one-card winning position.
    game = deal("AS", players=3, only=[0])
    match.game = game
    claim(game, 0, "AS")
    stand_all(game)
    assert game.winner == 0
    match.new_game()
    assert match.tally == [1, 0, 0]


# -- Rule 4: laying and announcing ------------------------------------------------------


def test_rule_4_cards_are_laid_one_at_a_time_and_counted_for_everyone() -> None:
    game = deal("AS AH 5D", players=4)
    lay(game, 0, "AS")
    for seat in (None, 1, 2, 3):
        assert game.view(seat).laid == 1
        assert game.view(seat).my_laid == ()
    lay(game, 0, "5D")
    assert game.view(2).laid == 2
    assert game.view(0).my_laid == (C("AS"), C("5D"))
    assert C("AS") not in game.view(0).hand


def test_rule_4_a_laid_card_is_committed() -> None:
    game = deal("AS AH", players=3)
    lay(game, 0, "AS")
    kinds = {type(action) for action in game.legal_actions(0)}
    assert kinds == {Lay, Announce}  # nothing takes a card back
    with pytest.raises(Exception) as error:
        game.apply(0, Lay(C("AS")))
    assert error.value.code == "card_not_in_hand"  # type: ignore[attr-defined]


def test_rule_4_at_most_four_cards_then_announce() -> None:
    game = deal("AS AH AD AC 2S", players=3)
    lay(game, 0, "AS", "AH", "AD", "AC")
    assert all(type(action) is not Lay for action in game.legal_actions(0))
    before = repr(game.state)
    with pytest.raises(Exception) as error:
        game.apply(0, Lay(C("2S")))
    assert error.value.code == "claim_too_large"  # type: ignore[attr-defined]
    assert repr(game.state) == before
    game.apply(0, Announce())
    assert game.view(1).claim is not None and game.view(1).claim.count == 4


def test_rule_4_the_claim_is_the_count_laid_of_the_required_rank() -> None:
    game = deal("7S 9D", players=3)
    claim(game, 0, "7S", "9D")
    view = game.view(2)
    assert view.claim is not None
    assert (view.claim.count, view.claim.rank) == (2, Rank.ACE)
    assert view.claim.describe() == "two aces"
    assert view.claimer == 0


def test_rule_4_no_passing() -> None:
    game = deal("2S", players=3)  # no ace: seat 0 must bluff
    assert {type(action) for action in game.legal_actions(0)} == {Lay}
    with pytest.raises(Exception) as error:
        game.apply(0, Announce())
    assert error.value.code == "nothing_laid"  # type: ignore[attr-defined]


# -- Rule 5: the challenge window ---------------------------------------------------------


def test_rule_5_the_window_is_offered_to_every_other_player_at_once() -> None:
    game = deal("AS", players=5)
    claim(game, 0, "AS")
    assert game.awaiting() == (1, 2, 3, 4)
    for seat in (1, 2, 3, 4):
        assert set(game.legal_actions(seat)) == {Doubt(), LetStand()}
    assert game.legal_actions(0) == ()


def test_rule_5_the_doubter_is_the_first_clockwise_who_doubts() -> None:
    game = deal("2S", players=5)
    claim(game, 0, "2S")
    game.apply(3, Doubt())  # answered first, but seat 1 and 2 come before it
    assert game.state.phase is Phase.WINDOW
    game.apply(2, Doubt())
    assert game.state.phase is Phase.WINDOW  # seat 1 may still doubt first
    game.apply(1, LetStand())
    record = game.state.records[-1]
    assert record.doubter == 2
    assert record.taker == 0


def test_rule_5_the_window_closes_once_the_outcome_is_certain() -> None:
    game = deal("2S", players=5)
    claim(game, 0, "2S")
    game.apply(1, Doubt())  # the nearest seat doubts: nobody else need answer
    assert game.state.phase is Phase.LAYING
    assert game.state.records[-1].doubter == 1
    with pytest.raises(Exception) as error:
        game.apply(2, Doubt())
    assert error.value.code == "no_window_open"  # type: ignore[attr-defined]


def test_rule_5_everyone_letting_it_stand_closes_the_window() -> None:
    game = deal("AS", players=4)
    claim(game, 0, "AS")
    game.apply(3, LetStand())
    game.apply(1, LetStand())
    assert game.state.phase is Phase.WINDOW
    game.apply(2, LetStand())
    assert game.state.phase is Phase.LAYING
    assert game.state.records[-1].doubter is None


def test_rule_5_silence_lets_the_claim_stand() -> None:
    # When the window's time runs out, the host answers "let it stand" for every seat that
    # has not answered, clockwise; an earlier doubt by a later seat still counts.
    game = deal("2S", players=4)
    claim(game, 0, "2S")
    game.apply(3, Doubt())
    for seat in game.awaiting():
        if seat in game.awaiting():
            game.apply(seat, LetStand())
    assert game.state.records[-1].doubter == 3


def test_rule_5_answers_are_hidden_from_the_others_until_the_end() -> None:
    game = deal("2S", players=4)
    claim(game, 0, "2S")
    game.apply(3, Doubt())
    assert game.view(1).answered == (3,)
    assert game.view(1).my_answer is None
    assert game.view(3).my_answer is True
    hidden = [e for e in game.log(1) if isinstance(e, Answered)]
    assert hidden == [Answered(3, None)]
    assert [e for e in game.log(3) if isinstance(e, Answered)] == [Answered(3, True)]
    game.apply(2, Doubt())
    game.apply(1, LetStand())  # the window closes: seat 2 is the doubter
    assert game.view(1).record[-1].doubter == 2
    # Seat 3's doubt changed nothing and stays its own business.
    assert Answered(3, None) in game.log(1) and Answered(3, True) not in game.log(1)
    assert game.view(1).answered == () and game.view(3).my_answer is None


def test_rule_5_one_answer_each_and_never_to_your_own_claim() -> None:
    game = deal("AS", players=4)
    claim(game, 0, "AS")
    with pytest.raises(Exception) as own:
        game.apply(0, Doubt())
    game.apply(1, LetStand())
    with pytest.raises(Exception) as twice:
        game.apply(1, Doubt())
    assert own.value.code == twice.value.code == "not_allowed_in_window"  # type: ignore[attr-defined]


def test_rule_5_nobody_lays_while_the_window_is_open() -> None:
    game = deal("AS", "2S", players=4)
    claim(game, 0, "AS")
    with pytest.raises(Exception) as next_seat:
        game.apply(1, Lay(C("2S")))
    assert next_seat.value.code == "window_open"  # type: ignore[attr-defined]


# -- Rule 6: what a doubt shows, and who takes what ---------------------------------------


def test_rule_6_a_claim_nobody_doubts_joins_the_pile_unseen() -> None:
    game = deal("AS 9D", players=4)
    claim(game, 0, "AS", "9D")
    stand_all(game)
    assert game.view(None).pile == 2
    record = game.state.records[-1]
    assert record.shown is None
    for seat in (None, 1, 2, 3):
        seen = set(cards_in(game.view(seat))) | set(cards_in(game.log(seat)))
        assert C("9D") not in seen
    assert game.view(0).my_pile == (C("AS"), C("9D"))
    assert game.view(1).my_pile == ()


def test_rule_6_a_caught_bluff_takes_the_shown_cards_and_the_pile() -> None:
    game = deal("AS", "2S", "3S 3H", players=3)
    claim(game, 0, "AS")
    stand_all(game)
    claim(game, 1, "2S")
    stand_all(game)
    claim(game, 2, "3S", "3H")  # honest so far; now a bluff:
    stand_all(game)
    before = len(game.state.hands[0])
    lay(game, 0, game.view(0).hand[0].code)
    game.apply(0, Announce())  # seat 0 claims "one 4", whatever it laid
    shown = game.state.claim_cards[0]
    game.apply(1, Doubt())
    record = game.state.records[-1]
    assert record.shown == (shown,)
    if shown.rank is Rank.FOUR:
        assert record.honest and record.taker == 1
    else:
        assert record.honest is False and record.taker == 0
        assert len(game.state.hands[0]) == before + 4  # 1 shown + 4 from the pile - 1 laid
    assert record.taken == 5
    assert game.view(None).pile == 0
    for seat in (None, 0, 1, 2):
        assert game.view(seat).record[-1].shown == (shown,)


def test_rule_6_an_honest_claim_doubted_goes_to_the_doubter() -> None:
    game = deal("AS AH", players=3)
    claim(game, 0, "AS", "AH")
    game.apply(2, Doubt())
    game.apply(1, LetStand())
    record = game.state.records[-1]
    assert record.honest is True
    assert record.taker == 2
    assert {C("AS"), C("AH")} <= set(game.state.hands[2])
    view = game.view(None)
    assert (view.rank, view.turn) == (Rank.TWO, 1)  # the seat after the claimer plays next


# -- Rule 7: winning ----------------------------------------------------------------------


def test_rule_7_a_last_claim_that_stands_wins() -> None:
    game = deal("AS", players=3, only=[0])
    claim(game, 0, "AS")
    stand_all(game)
    assert game.over and game.winner == 0
    assert game.log(None)[-1] == Won(0, (0, 0, 0), False)
    assert game.view(1).winner == 0
    for seat in range(3):
        assert game.legal_actions(seat) == ()


def test_the_winning_event_tells_each_players_bluffs_and_no_cards() -> None:
    game = deal("AS 3H", "2C", "KD", players=3, only=[0])
    claim(game, 0, "3H")  # a bluff: Aces are required
    stand_all(game)
    claim(game, 1, "2C")
    stand_all(game)
    claim(game, 2, "KD")  # a bluff: 3s are required
    stand_all(game)
    claim(game, 0, "AS")  # also a bluff: 4s are required
    stand_all(game)
    assert game.winner == 0
    assert game.log(1)[-1] == Won(0, (2, 0, 1), False)


def test_rule_7_a_last_claim_doubted_but_honest_wins() -> None:
    game = deal("AS AH", players=3, only=[0])
    claim(game, 0, "AS", "AH")
    game.apply(1, Doubt())
    assert game.winner == 0
    with pytest.raises(Exception) as error:
        game.apply(1, Lay(game.view(1).hand[0]))
    assert error.value.code == "game_over"  # type: ignore[attr-defined]


def test_rule_7_caught_bluffing_on_the_last_cards_takes_the_pile() -> None:
    game = deal("AS 5S", "2S", "3S", players=3, only=[0])
    claim(game, 0, "AS")
    stand_all(game)
    claim(game, 1, "2S")
    stand_all(game)
    claim(game, 2, "3S")
    stand_all(game)
    assert game.view(None).pile == 3
    claim(game, 0, "5S")  # "one 4", with its last card
    game.apply(1, Doubt())
    assert not game.over and game.winner is None
    assert game.view(None).hand_sizes[0] == 4  # the shown card and the pile of three
    assert game.view(None).pile == 0
    assert game.view(None).turn == 1


# -- The example from the Cheat rules ------------------------------------------------------


@pytest.mark.parametrize("challenge", list(ChallengeMode))
def test_the_four_player_example(challenge: ChallengeMode) -> None:
    amy, ben, clara, dan = range(4)
    game = deal(
        "AS AH 4C 4D", "9S", "3C 3D", "4H JS TS",
        options=Options(challenge=challenge),
    )
    claim(game, amy, "AS", "AH")
    stand_all(game)
    claim(game, ben, "9S")
    stand_all(game)
    claim(game, clara, "3C", "3D")
    stand_all(game)
    claim(game, dan, "4H", "JS", "TS")
    assert game.view(amy).claim.describe() == "three 4s"  # type: ignore[union-attr]
    game.apply(amy, Doubt())
    if challenge is ChallengeMode.WINDOW:
        assert game.state.phase is Phase.LAYING  # Amy is first after Dan: it is settled
    record = game.state.records[-1]
    assert (record.doubter, record.honest, record.taker, record.taken) == (amy, False, dan, 8)
    assert set(hand_codes(record.shown or ())) == {"4H", "JS", "TS"}
    view = game.view(None)
    assert (view.turn, view.rank, view.pile) == (amy, Rank.FIVE, 0)
    taken = {"AS", "AH", "9S", "3C", "3D", "4H", "JS", "TS"}
    assert taken <= set(hand_codes(game.state.hands[dan]))


# -- Variant: two decks -----------------------------------------------------------------


def test_two_decks_deal_104_cards_to_up_to_ten_players() -> None:
    options = Options(decks=2)
    game = IDoubtIt(10, options, seed=3)
    assert sum(game.view(None).hand_sizes) == 104
    assert Counter(game.state.cards()) == Counter(deck(2))
    with pytest.raises(BadOptions):
        IDoubtIt(11, options, seed=3)
    with pytest.raises(BadOptions):
        IDoubtIt(9, Options(), seed=3)


def test_two_decks_allow_claims_of_eight() -> None:
    game = deal("AS AS AH AH AD AD AC AC 2S", players=4, options=Options(decks=2))
    assert sum(1 for a in game.legal_actions(0) if a == Lay(C("AS"))) == 1  # one action per card
    lay(game, 0, "AS", "AS", "AH", "AH", "AD", "AD", "AC", "AC")
    with pytest.raises(Exception) as error:
        game.apply(0, Lay(C("2S")))
    assert error.value.code == "claim_too_large"  # type: ignore[attr-defined]
    game.apply(0, Announce())
    game.apply(1, Doubt())
    assert game.state.records[-1].honest is True


# -- Variant: open challenges ("Cheat") ----------------------------------------------------


def test_open_anyone_may_call_until_the_next_player_lays() -> None:
    game = deal("2S", "3S", players=4, options=OPEN)
    claim(game, 0, "2S")
    assert game.state.phase is Phase.LAYING
    assert game.view(1).my_turn and game.view(1).rank is Rank.TWO
    assert game.may_act() == (1, 2, 3)
    assert Doubt() in game.legal_actions(3)
    assert Doubt() not in game.legal_actions(0)
    lay(game, 1, "3S")  # the first card laid lets the claim stand
    assert game.state.records[-1].doubter is None
    with pytest.raises(Exception) as error:
        game.apply(3, Doubt())
    assert error.value.code == "no_window_open"  # type: ignore[attr-defined]


def test_open_calls_received_together_go_nearest_clockwise() -> None:
    game = deal("", "", "", "2S", players=5, options=OPEN, opener=3)
    claim(game, 3, "2S")
    assert game.call_order([2, 0, 1, 3]) == (0, 1, 2)  # the claimer may not call
    game.apply(game.call_order([2, 0, 1])[0], Doubt())
    assert game.state.records[-1].doubter == 0
    assert game.call_order([1, 2]) == ()  # settled: nothing left to call


def test_the_claimer_sees_its_own_waiting_claim() -> None:
    for options in (Options(), OPEN):
        game = deal("AS 9D 5C", players=3, options=options)
        claim(game, 0, "AS", "9D")
        assert game.view(0).my_laid == (C("AS"), C("9D"))
        assert game.view(1).my_laid == () and game.view(None).my_laid == ()


def test_open_the_first_call_received_counts() -> None:
    game = deal("2S", players=4, options=OPEN)
    claim(game, 0, "2S")
    game.apply(3, Doubt())  # received first, though seat 1 and 2 sit nearer
    record = game.state.records[-1]
    assert (record.doubter, record.taker) == (3, 0)
    assert game.view(None).turn == 1 and game.view(None).rank is Rank.TWO


def test_open_the_next_player_may_call_instead_of_laying() -> None:
    game = deal("AS AH", players=3, options=OPEN)
    claim(game, 0, "AS")
    game.apply(1, Doubt())
    assert game.state.records[-1].taker == 1
    assert game.view(None).turn == 1


def test_open_nobody_may_merely_let_a_claim_stand() -> None:
    game = deal("AS AH", players=3, options=OPEN)
    claim(game, 0, "AS")
    with pytest.raises(Exception) as error:
        game.apply(2, LetStand())
    assert error.value.code == "not_allowed_in_window"  # type: ignore[attr-defined]


def test_open_a_claim_that_empties_the_hand_gets_a_window() -> None:
    game = deal("AS", players=4, options=OPEN, only=[0])
    claim(game, 0, "AS")
    assert game.state.phase is Phase.WINDOW
    assert game.awaiting() == (1, 2, 3)
    assert [e for e in game.log(None) if e.kind == "announced"][-1].window is True  # type: ignore[attr-defined]
    stand_all(game)
    assert game.winner == 0


def test_open_ordinary_claims_announce_no_window() -> None:
    game = deal("AS AH", players=3, options=OPEN)
    claim(game, 0, "AS")
    announced = [e for e in game.log(None) if e.kind == "announced"][-1]
    assert announced.window is False  # type: ignore[attr-defined]


# -- Events -----------------------------------------------------------------------------


def test_events_tell_the_story_of_a_turn() -> None:
    game = deal("AS 9D", players=3)
    events = []
    events += game.apply(0, Lay(C("AS")))
    events += game.apply(0, Lay(C("9D")))
    events += game.apply(0, Announce())
    events += game.apply(1, Doubt())
    assert [e.kind for e in events] == ["laid", "laid", "announced", "answered", "resolved"]
    seals = [seal(game.seed, "0 0 AS"), seal(game.seed, "1 0 9D")]
    assert events[0] == Laid(0, 1, C("AS"), seals[0])
    assert isinstance(events[-1], Resolved) and events[-1].taker == 0
    # Others see the seals, not the cards: each seal is the card's, laid then.
    assert game.log(1, start=1)[:2] == (Laid(0, 1, None, seals[0]), Laid(0, 2, None, seals[1]))
    assert len(set(seals)) == 2 and seals[0] != seal(game.seed, "0 0 9D")
    assert seal(b"another seed", "0 0 AS") != seals[0]
    assert game.version == 4


def test_the_timers_move_lays_a_card_of_the_rank_required_now() -> None:
    """In the open mode a claim waiting moves the required rank on: the timer's true card
    is of that rank."""
    from doubtlan.rules import deck

    cards = deck()
    hands = [cards[i::4] for i in range(4)]
    game = IDoubtIt.from_hands(hands, Options(challenge=ChallengeMode.OPEN))
    game.apply(0, Lay(game.view(0).hand[0]))
    game.apply(0, Announce())
    assert game.view(1).rank is Rank.TWO and game.turn_seat() == 1
    lay, announce = game.timeout_actions(1)
    assert isinstance(lay, Lay) and lay.card.rank is Rank.TWO and announce == Announce()
    assert game.timeout_actions(2) == ()


# -- rule 8: a game that goes nowhere ends -----------------------------------------------------


@pytest.mark.parametrize("strategy", [AlwaysDoubts, LaysFour])
def test_players_who_always_doubt_or_always_lay_four_end_every_game(strategy: type) -> None:
    from doubtlan.tourney import MAX_TURNS, play

    winners: Counter[int] = Counter()
    for seed in range(60):
        game = IDoubtIt(4, seed=seed, opener=seed % 4)
        assert play(game, [strategy() for _ in range(4)], max_turns=5000)
        won = game.log(None)[-1]
        assert isinstance(won, Won) and won.stalemate and game.ending() == "stalemate"
        assert game.turns < MAX_TURNS  # (they never ended before rule 8)
        hands = game.state.hands
        fewest = min(map(len, hands))
        assert len(hands[won.seat]) == fewest
        tied = [seat for seat in range(4) if len(hands[seat]) == fewest]
        # Of equally few, the hand that has held that many the longest.
        assert won.seat == min(tied, key=lambda seat: game.state.changed[seat])
        winners[won.seat] += 1
    assert len(winners) == 4  # not decided by the seat


def test_ordinary_play_never_reaches_rule_8() -> None:
    from doubtlan.bots import make_bot
    from doubtlan.tourney import play

    for seed in range(200):
        game = IDoubtIt(4, seed=seed, opener=seed % 4)
        bots = [make_bot("counter" if seat % 2 else "random", bytes([seat, seed]))
                for seat in range(4)]
        assert play(game, bots)
        assert game.ending() == "out"


def test_in_the_open_mode_a_lay_that_lets_a_claim_stand_into_rule_8_is_not_played() -> None:
    """The first card laid lets the open claim stand; when that ends the game (rule 8), the
    card stays in the hand: nothing is played after the game is won."""
    from doubtlan.rules import deck

    cards = deck()
    game = IDoubtIt.from_hands([cards[i::4] for i in range(4)],
                               Options(challenge=ChallengeMode.OPEN))
    game.apply(0, Lay(game.view(0).hand[0]))
    game.apply(0, Announce())
    state = game.state
    state.low, state.stale = 0, game._stale_claims - 1  # the 40th round without a new low
    hand = list(state.hands[1])
    game.apply(1, Lay(hand[0]))
    won = game.log(None)[-1]
    assert game.over and isinstance(won, Won) and won.stalemate
    assert state.hands[1] == hand and not state.laid
    assert sum(map(len, state.hands)) + len(state.pile) == 52
    assert game.ending() == "stalemate"
