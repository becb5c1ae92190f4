"""I Know You Don't: a test for each numbered rule of docs/rules-iknowyoudont.md, and
properties (hypothesis) that hold in every game: cards and tokens are conserved, a refused
action changes nothing, each seat sees exactly what the rules let it see, and a game
replays the same from its seed."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doubtlan.rules import GAMES, RulesError, game_named
from doubtlan.rules.errors import (
    BadDeclaration,
    BadOptions,
    CardNotInHand,
    GameOver,
    MalformedAction,
    NoInterception,
    NotAllowedInWindow,
    NotYourTurn,
    NoWildcard,
    NoWindowOpen,
    UnknownAction,
    WindowOpen,
)
from doubtlan.rules.idoubtit import Doubt
from doubtlan.rules.iknowyoudont import (
    Accept,
    Card,
    Challenge,
    Challenged,
    Deck,
    Declaration,
    Drew,
    Ended,
    IKnowYouDont,
    Intercept,
    Keep,
    Kind,
    Options,
    Pass,
    Phase,
    Play,
    Played,
    Reshuffled,
    Revealed,
    RoundEnded,
    Showdown,
    Started,
    Stood,
    Wild,
    own_deck,
    standard_deck,
)
from doubtlan.rules.iknowyoudont.cards import sort_key
from doubtlan.rules.iknowyoudont.view import redact

C = Card.parse
D = Declaration.parse
STANDARD = Options(Deck.STANDARD)


def play(game: IKnowYouDont, seat: int, card: str, said: str) -> None:
    game.apply(seat, Play(C(card), D(said)))


def three(*hands: str, draw: str | None = None, opener: int = 0) -> IKnowYouDont:
    pile = None if draw is None else [C(code) for code in draw.split()]
    if pile is not None:  # the rest of the deck under the cards named, in its fixed order
        rest = Counter(own_deck())
        rest.subtract(C(code) for hand in hands for code in hand.split())
        rest.subtract(pile)
        pile = [card for card in own_deck() if rest[card] > 0 and not rest.subtract([card])] \
            + pile
    return IKnowYouDont.from_hands(list(hands), opener=opener, draw=pile)


# -- rule 1: players and cards --------------------------------------------------------------


def test_rule_1_the_own_deck_has_54_cards():
    cards = Counter(own_deck())
    assert sum(cards.values()) == 54
    for kind in (Kind.TRUTH, Kind.BLUFF):
        for level in range(1, 7):
            assert cards[C(f"{kind.value}{level}")] == 3
    assert cards[C("I")] == 12 and cards[C("W")] == 6


def test_rule_1_the_standard_deck_reads_playing_cards():
    cards = standard_deck()
    assert len(set(cards)) == 52
    assert (C("AH").kind, C("AH").level) == (Kind.TRUTH, 1)
    assert (C("10D").kind, C("10D").level) == (Kind.TRUTH, 10)
    assert (C("7S").kind, C("7S").level) == (Kind.BLUFF, 7)
    assert {C(code).kind for code in ("JS", "QH", "JD", "QC")} == {Kind.INTERCEPTION}
    assert {C(code).kind for code in ("KS", "KH")} == {Kind.WILDCARD}
    assert Counter(card.kind for card in cards) == {
        Kind.TRUTH: 20, Kind.BLUFF: 20, Kind.INTERCEPTION: 8, Kind.WILDCARD: 4}


@pytest.mark.parametrize("players", [2, 7, 0, "3"])
def test_rule_1_three_to_six_players(players):
    with pytest.raises(BadOptions):
        IKnowYouDont(players, seed=1)


def test_rule_1_options_round_trip_and_refuse_nonsense():
    assert Options.parse("deck=standard") == STANDARD
    assert Options.parse(STANDARD.text) == STANDARD and Options.parse("") == Options()
    assert Options.parse("rounds=3,deck=standard") == Options(Deck.STANDARD, 3)
    assert Options.parse(Options(rounds=9).text).rounds == 9
    for text in ("deck=huge", "decks=2", "deck", "rounds=0", "rounds=10", "rounds=five",
                 "rounds=²"):  # (a digit to str.isdigit, not to int)
        with pytest.raises(BadOptions):
            Options.parse(text)


def test_values_round_trip():
    for card in set(own_deck()) | set(standard_deck()):
        assert C(card.code) is card and eval(repr(card)) is card
    assert C("10h") is C("TH")
    for code in ("1T", "6B", "10T"):
        assert D(code).code == code and eval(repr(D(code))) == D(code)
    for text in ("play B2 4T", "pass", "accept", "challenge", "intercept", "wild", "keep"):
        action = IKnowYouDont.parse_action(text)
        assert action.text == text and IKnowYouDont.parse_action(action.text) == action
    for bad in ("X9", "T7x", "", "11"):
        with pytest.raises(MalformedAction):
            C(bad)
    for bad in ("play B2", "play B2 0T", "play B2 4X", "lay QS", "pass now"):
        with pytest.raises(MalformedAction):
            IKnowYouDont.parse_action(bad)


# -- rule 2: the deal -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_rule_2_five_cards_three_tokens_the_rest_to_draw(players):
    game = IKnowYouDont(players, seed=players, opener=players - 1)
    view = game.view(None)
    assert view.hand_sizes == (5,) * players and view.tokens == (3,) * players
    assert view.draw == 54 - 5 * players and view.vault == 0 and view.pot == 0
    assert view.active == players - 1 and view.awaiting == (players - 1,)
    started = game.log(0)[0]
    assert isinstance(started, Started) and started.hands[0] == game.view(0).hand
    assert started.hands[1] is None


def test_rule_2_the_deal_goes_one_at_a_time_from_the_first_active_player():
    cards = own_deck()
    from doubtlan.rules.seeds import seed_bytes, shuffle

    shuffle(cards, seed_bytes(5))
    game = IKnowYouDont(3, seed=5, opener=1)
    top = cards[::-1]
    assert sorted(top[0:15:3], key=sort_key) == list(game.state.hands[1])
    assert sorted(top[1:15:3], key=sort_key) == list(game.state.hands[2])
    assert game.state.draw == cards[:-15]


# -- rule 3: a turn ---------------------------------------------------------------------------


def test_rule_3_any_card_any_declaration_within_the_deck():
    game = three("I W B1 B2 T1", "T2 T3 T4 T5 T6", "B3 B4 B5 B6 I")
    legal = game.legal_actions(0)
    assert len(legal) == 5 * 12 and Play(C("I"), D("6T")) in legal
    with pytest.raises(BadDeclaration):
        game.check(0, Play(C("I"), D("7T")))
    with pytest.raises(CardNotInHand):
        game.check(0, Play(C("T2"), D("2T")))
    with pytest.raises(NotYourTurn):
        game.check(1, Play(C("T2"), D("2T")))
    play(game, 0, "I", "6T")
    assert game.view(None).declaration == D("6T") and game.view(0).my_card == C("I")
    assert game.view(1).my_card is None
    with pytest.raises(WindowOpen):
        game.check(0, Play(C("W"), D("1T")))


def test_rule_3_the_standard_deck_declares_levels_to_ten():
    hands = ["AH 2H 3H 4H 5H", "AS 2S 3S 4S 5S", "AD 2D 3D 4D 5D"]
    game = IKnowYouDont.from_hands(hands, STANDARD)
    assert Play(C("AH"), D("10B")) in game.legal_actions(0)
    play(game, 0, "AH", "10B")


# -- rule 4: priority -------------------------------------------------------------------------


def test_rule_4_priority_goes_clockwise_and_all_passing_lets_it_stand():
    game = three("T1 T2 T3 T4 T5", "B1 B2 B3 B4 B5", "T6 B6 T1 B1 I", opener=1)
    play(game, 1, "B1", "1T")
    assert game.awaiting() == (2,) and game.view(None).priority == 2
    with pytest.raises(NotYourTurn):
        game.check(0, Pass())
    with pytest.raises(NotAllowedInWindow):
        game.check(1, Pass())
    game.apply(2, Pass())
    assert game.awaiting() == (0,) and game.view(None).passed == (2,)
    events = game.apply(0, Pass())
    stood = [e for e in events if isinstance(e, Stood)]
    assert stood == [Stood(1, D("1T"), None)]
    view = game.view(1)
    assert view.vault == 1 and view.hand_sizes == (5, 5, 5)  # it drew one
    assert view.active == 2 and view.phase is Phase.PLAYING
    assert all(e.cards is None for e in game.log(0) if isinstance(e, Drew))


def test_rule_4_accept_lets_it_stand_at_once():
    game = three("T1 T2 T3 T4 T5", "B1 B2 B3 B4 B5", "T6 B6 T1 B1 B2")
    play(game, 0, "T1", "1T")
    game.apply(1, Accept())
    assert game.view(None).record == (Stood(0, D("1T"), 1),)
    assert game.view(None).active == 1
    with pytest.raises(NoWindowOpen):
        game.check(2, Pass())


# -- rule 5: interception --------------------------------------------------------------------


def test_rule_5_an_interception_challenges_ahead_of_priority():
    game = three("T1 T2 T3 T4 T5", "B1 B2 B3 B4 B5", "I B6 T1 B1 B2")
    play(game, 0, "T2", "5T")
    assert game.may_act() == (1, 2) and game.legal_actions(2) == (Intercept(),)
    with pytest.raises(NotAllowedInWindow):
        game.check(1, Intercept())  # priority challenges plainly
    events = game.apply(2, Intercept())
    assert events[0] == Challenged(2, True)
    assert C("I") not in game.state.hands[2] or game.state.hands[2].count(C("I")) == 0
    assert game.view(None).record[-1].intercept


def test_rule_5_no_interception_card_no_interception():
    game = three("T1 T2 T3 T4 T5", "B1 B2 B3 B4 B5", "T6 B6 T1 B1 B2")
    play(game, 0, "T2", "5T")
    with pytest.raises(NoInterception):
        game.check(2, Intercept())
    with pytest.raises(NotAllowedInWindow):
        game.check(0, Intercept())


def test_rule_5_a_seat_that_passed_may_still_intercept_and_ties_go_clockwise():
    game = IKnowYouDont.from_hands(["T1 T2 T3 T4 T5", "I B2 B3 B4 B5", "I B6 T1 B1 B2",
                                    "I T6 B6 B1 B2"])
    play(game, 0, "T2", "5T")
    game.apply(1, Pass())
    assert game.awaiting() == (2,)
    assert game.call_order([3, 1]) == (1, 3)
    game.apply(1, Intercept())
    with pytest.raises(NoWindowOpen):
        game.check(3, Intercept())


# -- rule 6: the showdown --------------------------------------------------------------------


def test_rule_6_a_lie_scores_for_the_challenger():
    game = three("B2 T1 T3 I W", "T4 T4 B1 B5 I", "T6 B6 B3 I I")
    play(game, 0, "B2", "4T")
    game.apply(1, Challenge())
    view = game.view(None)
    assert view.points == (0, 4, 0) and view.piles[1] == (C("B2"),)  # the level declared
    assert view.tokens == (2, 4, 3) and view.pot == 0
    assert view.record[-1] == Showdown(0, D("4T"), C("B2"), 1, False, False, 1, 0)


def test_rule_6_a_true_claim_scores_for_the_active_player_and_costs_the_challenger():
    game = three("T4 T1 T3 I W", "T5 T4 B1 B5 I", "T6 B6 B3 I I")
    play(game, 0, "T4", "4T")
    drawn = game.apply(1, Challenge())
    view = game.view(None)
    assert view.points == (4, 0, 0) and view.tokens == (4, 2, 3)
    assert Drew(1, 2, view.record and game.state.events[-3].cards) in drawn  # type: ignore[union-attr]
    assert view.hand_sizes[1] == 7 and view.hand_sizes[0] == 5


def test_rule_6_a_claim_that_stands_scores_its_declared_level_true_or_not():
    game = three("B2 T1 T3 I W", "T4 T4 B1 B5 I", "T6 B6 B3 I I")
    play(game, 0, "B2", "6T")  # a lie
    game.apply(1, Pass())
    game.apply(2, Accept())
    play(game, 1, "T4", "4T")  # the truth
    game.apply(2, Pass())
    game.apply(0, Pass())
    view = game.view(None)
    assert view.points == (6, 4, 0) and view.piles == ((), (), ())
    assert [type(c) for c in view.record] == [Stood, Stood] and view.tokens == (3, 3, 3)


def test_rule_6_a_wildcard_always_matches():
    for said in ("1T", "6B", "3T"):
        game = three("W T1 T3 I B2", "T5 T4 B1 B5 I", "T6 B6 B3 I I")
        play(game, 0, "W", said)
        game.apply(1, Challenge())
        assert game.view(None).record[-1].winner == 0


@pytest.mark.parametrize("card,said,matches", [("T3", "3T", True), ("T3", "3B", False),
                                                 ("B3", "3B", True), ("T3", "4T", False),
                                                 ("I", "1T", False), ("W", "5B", True)])
def test_rule_6_a_card_matches_its_type_and_level(card, said, matches):
    assert C(card).matches(D(said)) is matches


def test_rule_6_after_an_interception_a_wildcard_may_make_a_lie_count_as_true():
    game = three("B2 W T3 T4 T5", "T5 T4 B1 B5 B4", "I B6 B3 I T1")
    play(game, 0, "B2", "4T")
    events = game.apply(2, Intercept())
    assert Revealed(0, C("B2"), False) in events
    view = game.view(None)
    assert view.phase is Phase.DECIDING and view.shown == C("B2") and view.awaiting == (0,)
    assert game.legal_actions(0) == (Wild(), Keep())
    with pytest.raises(NotYourTurn):
        game.check(2, Wild())
    game.apply(0, Wild())
    view = game.view(None)
    assert view.record[-1] == Showdown(0, D("4T"), C("B2"), 2, True, True, 0, 2)
    assert view.points == (4, 0, 0) and view.tokens == (4, 3, 2)
    assert game.state.vault.count(C("W")) == 1 and game.state.vault.count(C("I")) == 1


def test_rule_6_keeping_the_wildcard_loses():
    game = three("B2 W T3 T4 T5", "T5 T4 B1 B5 B4", "I B6 B3 I T1")
    play(game, 0, "B2", "4T")
    game.apply(2, Intercept())
    game.apply(0, Keep())
    assert game.view(None).record[-1].winner == 2 and C("W") in game.state.hands[0]


def test_rule_6_no_wildcard_question_when_it_changes_nothing():
    honest = three("T4 W T3 T1 T5", "T5 T4 B1 B5 B4", "I B6 B3 I T1")
    play(honest, 0, "T4", "4T")
    honest.apply(2, Intercept())
    assert honest.view(None).phase is Phase.PLAYING  # it matched: settled at once
    plain = three("B2 W T3 T1 T5", "T5 T4 B1 B5 B4", "I B6 B3 I T1")
    play(plain, 0, "B2", "4T")
    plain.apply(1, Challenge())  # not an interception: no Wildcard answer
    assert plain.view(None).record[-1].winner == 1
    with pytest.raises(NoWildcard):
        plain.check(1, Wild())


# -- rule 7: clean-up -------------------------------------------------------------------------


def test_rule_7_hands_fill_to_five_from_the_active_player_clockwise():
    game = three("B2 T1 T3 T4 T5", "T5 T4 B1 B5 B4", "I B6 B3 I T1", draw="T1 T2 T6")
    play(game, 0, "B2", "4T")
    events = game.apply(2, Intercept())
    draws = [(e.seat, e.cards) for e in events if isinstance(e, Drew)]
    assert draws == [(0, (C("T6"),)), (2, (C("T2"),))]  # the top is last in the text


def test_rule_7_an_empty_draw_pile_takes_the_vault_shuffled():
    game = three("T1 T2 T3 T4 T5", "B1 B2 B3 B4 B5", "T6 B6 T1 B1 B2")
    game.state.vault, game.state.draw = game.state.draw, []
    events = []
    play(game, 0, "T1", "1T")
    events += game.apply(1, Accept())
    reshuffled = [e for e in events if isinstance(e, Reshuffled)]
    assert reshuffled == [Reshuffled(40)]
    assert game.view(None).vault == 0 and game.view(None).draw == 39


def test_rule_7_with_no_cards_anywhere_nothing_is_drawn():
    game = three("T1 T2 T3 T4 T5", "B1 B2 B3 B4 B5", "T6 B6 T1 B1 B2")
    gone = game.state.draw
    game.state.draw = []
    game.state.piles[2].extend(gone)  # out of play, for this test
    play(game, 0, "T1", "1T")
    game.apply(1, Challenge())  # true: seat 1 has two cards to draw, and there are none
    view = game.view(None)
    assert view.hand_sizes == (4, 5, 5) and view.vault == view.draw == 0


def test_rule_7_a_player_without_cards_is_skipped_as_active():
    game = three("T1 T2 T3 T4 T5", "B1 B2 B3 B4 B5", "T6 B6 T1 B1 B2")
    game.state.piles[2].extend(game.state.draw + game.state.hands[1])
    game.state.draw, game.state.hands[1] = [], []
    play(game, 0, "T1", "1T")
    game.apply(1, Accept())  # a seat without cards still holds priority
    assert game.view(None).active == 2


# -- rule 8: the end ---------------------------------------------------------------------------


def rounds_played(game: IKnowYouDont, rounds: int) -> None:
    """Play ``game`` on by the timer's rule (the truth, silence) until ``rounds`` have
    ended or the match has."""
    while not game.over and len(game.state.pad) < rounds:
        seat = game.awaiting()[0]
        game.apply(seat, game.timeout_actions(seat)[0])


def last_claim_of_a_round(awards: list[tuple[int, ...]], score: list[int]) -> IKnowYouDont:
    """Three players at the last claim of a round (seat 0 claims level 1, truly, and it
    stands), with these victory points so far and round points in this round."""
    game = IKnowYouDont.from_hands(["T1 T2 T3 T4 T5", "T1 T2 T3 T4 T5", "B1 B2 B3 B4 B5"])
    state = game.state
    state.awards, state.pad = list(awards), [(0, 0, 0)] * len(awards)
    state.score, state.round_claims = list(score), game._round_claims - 1
    play(game, 0, "T1", "1T")
    game.apply(1, Pass())
    game.apply(2, Pass())
    return game


def test_rule_8_fifteen_victory_points_and_more_than_anyone_win_at_a_rounds_end():
    game = last_claim_of_a_round([(5, 5, 0), (5, 5, 0)], [30, 30, 0])  # 31 to 30
    ended = game.state.events[-1]
    assert game.over and game.state.reason == "points" and game.winner == 0
    assert isinstance(ended, Ended) and ended.points == (15, 13, 0) and not ended.tiebreak
    with pytest.raises(GameOver):
        game.check(0, Play(C("T2"), D("2T")))
    assert game.awaiting() == game.may_act() == game.legal_actions(2) == ()
    view = game.view(None)  # the claim is gone from the final picture
    assert view.declaration is None and view.passed == () and not view.intercept


def test_rule_8_fifteen_shared_plays_on():
    game = last_claim_of_a_round([(5, 5, 0), (5, 5, 0)], [30, 31, 0])  # 31 each: 15 each
    assert not game.over and game.state.round == 2 and game.state.awards[-1] == (5, 5, 0)


def test_rule_8_losing_the_last_token_ends_it_and_that_player_loses():
    game = three("B2 W T3 T4 T5", "T5 T4 B1 B5 B4", "I B6 B3 I T1")
    game.state.tokens = [1, 3, 3]
    game.state.awards = [(9, 0, 3)]  # seat 0 leads on victory points
    play(game, 0, "B2", "4T")
    events = game.apply(1, Challenge())  # a lie: seat 0 loses its last token
    assert game.over and game.state.reason == "tokens"
    assert isinstance(events[-2], RoundEnded) and events[-2].points == (0, 4, 0)
    assert events[-2].awards == (0, 5, 0)  # the round scored as it stood
    assert game.winner == 1  # 5 victory points to 3; seat 0, broke, cannot win
    assert not game.state.tiebreak


def test_rule_8_the_tie_break_goes_by_round_points_then_tokens_then_the_latest_round():
    def ended(score, tokens, pad=((3, 3, 0),)):
        game = three("T1 T2 T3 T4 T5", "T1 T2 T3 T4 T5", "B1 B2 B3 B4 B5")
        state = game.state
        state.awards, state.pad = [(3, 3, 0)] * len(pad), list(pad)
        state.score, state.tokens = list(score), list(tokens)
        game._end("rounds")
        assert state.tiebreak
        return game.winner

    assert ended((10, 12, 0), (3, 3, 3)) == 1  # more round points over the match
    assert ended((12, 12, 0), (2, 4, 3)) == 1  # then more tokens
    assert ended((12, 12, 0), (3, 3, 3), pad=((1, 3, 0), (3, 1, 0))) == 0  # the latest
    assert ended((12, 12, 0), (3, 3, 3), pad=((3, 3, 0),)) == 1  # only then the seat after


# -- rule 10: rounds and the scorepad ------------------------------------------------------------


@pytest.mark.parametrize(("players", "claims"), [(3, 33), (4, 32), (5, 35), (6, 36)])
def test_rule_10_a_round_is_32_claims_in_whole_turns(players, claims):
    game = IKnowYouDont(players, seed=players)
    rounds_played(game, 1)
    ended = [e for e in game.state.events if isinstance(e, RoundEnded)]
    assert len(ended) == 1 and game.turns == claims and game.state.round == 2


def test_rule_10_places_give_5_3_1_shared_places_share_and_no_points_gets_nothing():
    def awards(points):
        game = IKnowYouDont.from_hands(["T1", "T1", "B1", "B2", "B3"][:len(points)])
        game.state.score = list(points)
        game._end_round()
        return game.state.awards[-1]

    assert awards((10, 30, 20, 5)) == (1, 5, 3, 0)
    assert awards((30, 30, 20, 5)) == (5, 5, 3, 1)  # the next place: the next lower total
    assert awards((30, 20, 20, 5)) == (5, 3, 3, 1)
    assert awards((0, 0, 7)) == (0, 0, 5)


def test_rule_10_the_next_round_deals_the_whole_deck_again_tokens_carry_over():
    game = IKnowYouDont(4, seed=11, opener=2)
    rounds_played(game, 1)
    state = game.state
    started = [e for e in state.events if isinstance(e, Started)]
    assert len(started) == 2 and started[1].active == 3 == state.active  # the seat after
    assert state.hands == [list(h) for h in started[1].hands] and all(len(h) == 5 for h in
                                                                       state.hands)
    assert state.vault == [] and state.piles == [[], [], [], []] and state.score == [0] * 4
    assert len(state.draw) == 54 - 20 and state.round_claims == 0
    assert state.tokens == list(started[1].tokens) and sum(state.tokens) == 12
    ended = next(e for e in state.events if isinstance(e, RoundEnded))
    assert state.pad == [ended.points] and state.awards == [ended.awards]
    view = game.view(0)
    assert view.round == 2 and view.pad == (ended.points,) and view.victory == ended.victory


def test_rule_10_the_last_round_ends_the_match_and_a_tie_plays_up_to_three_more():
    game = IKnowYouDont(3, Options(rounds=1), seed=2)
    rounds_played(game, 9)
    assert game.over and len(game.state.pad) == 1 and game.state.reason == "rounds"
    tied = IKnowYouDont.from_hands(["T1 T2", "T1 T2", "B1"], Options(rounds=1))
    tied.state.score = [7, 7, 0]
    tied._end_round()
    assert not tied.over and tied.state.round == 2  # the most are shared: one more round
    for _ in range(3):
        tied.state.score = [7, 7, 0]
        if not tied.over:
            tied._end_round()
    assert tied.over and len(tied.state.pad) == 4 and tied.state.tiebreak


def test_rule_10_a_round_ends_when_nobody_holds_a_card():
    game = three("T1 T2 T3 T4 T5", "B1 B2 B3 B4 B5", "T6 B6 T1 B1 B2")
    state = game.state
    state.piles[1] = state.draw + state.hands[1] + state.hands[2] + state.hands[0][1:]
    state.draw, state.hands = [], [[C("T1")], [], []]
    play(game, 0, "T1", "1T")
    game.apply(1, Challenge())  # true: nobody has a card left; the round ends
    assert state.pad == [(1, 0, 0)] and state.round == 2 and not game.over
    assert all(len(hand) == 5 for hand in state.hands)


def test_truthful_play_that_nobody_challenges_ends_after_the_rounds():
    game = IKnowYouDont(4, seed=9)
    while not game.over:
        seat = game.awaiting()[0]
        game.apply(seat, game.timeout_actions(seat)[0])  # the truth, and silence
    assert game.state.reason in ("points", "rounds") and game.turns <= 32 * 8


# -- rule 9: time -----------------------------------------------------------------------------


def test_rule_9_silence_passes_keeps_and_the_timer_plays_the_truth():
    game = three("B2 W T3 T4 T5", "T5 T4 B1 B5 B4", "I B6 B3 I T1")
    assert game.turn_seat() == 0 and game.window_key() is None
    assert game.timeout_actions(0) == (Play(C("T3"), D("3T")),)
    assert game.timeout_actions(1) == ()
    play(game, 0, "B2", "4T")
    key = game.window_key()
    assert game.turn_seat() is None and key is not None
    assert game.timeout_actions(1) == (Pass(),)
    game.apply(2, Intercept())
    assert game.timeout_actions(0) == (Keep(),)
    passing = three("B2 W T3 T4 T5", "T5 T4 B1 B5 B4", "I B6 B3 I T1")
    play(passing, 0, "B2", "4T")
    key = passing.window_key()
    passing.apply(1, Pass())
    assert passing.window_key() not in (key, None)  # the clock starts again for seat 3
    wild = three("W I T3 T4 T5", "T5 T4 B1 B5 B4", "I B6 B3 I T1")
    assert wild.timeout_actions(0) == (Play(C("T3"), D("3T")),)
    wildcard = three("I W", "T5 T4 B1 B5 B4", "I B6 B3 I T1")  # a Wildcard matches any
    assert wildcard.timeout_actions(0) == (Play(C("W"), D("1T")),)
    only = three("I I", "T5 T4 B1 B5 B4", "I B6 B3 W T1")  # no true claim: the one lie
    assert only.timeout_actions(0) == (Play(C("I"), D("1T")),)


# -- the interface both games share -------------------------------------------------------------


def test_every_game_is_registered_and_its_names_are_its_own():
    """Every rules folder with its registry line is a game; names are scoped by game
    (protocol 15): where two games share an action's name, each reads its own."""
    import doubtlan.rules as rules

    folders = sorted(init.parent.name for init in Path(rules.__file__).parent.glob(
        "*/__init__.py") if "\nGAME = " in init.read_text(encoding="utf-8"))
    assert list(GAMES) == folders and "iknowyoudont" in folders
    assert game_named("iknowyoudont") is IKnowYouDont
    with pytest.raises(BadOptions):
        game_named("poker")
    for one, other in itertools.combinations(GAMES.values(), 2):
        for name in set(one.actions) & set(other.actions):
            assert one.actions[name] is not other.actions[name]
            assert type(one.parse_action(name)) is one.actions[name]


def test_an_action_of_the_other_game_is_refused():
    game = IKnowYouDont(3, seed=1)
    with pytest.raises(UnknownAction):
        game.check(0, Doubt())
    with pytest.raises(RulesError):
        game.check(7, Pass())


# -- properties over random games -----------------------------------------------------------------


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, Options, int, int, int]:
    players = draw(st.integers(3, 6))
    return (players, draw(st.sampled_from([Options(), STANDARD])),
            draw(st.integers(0, players - 1)), draw(st.integers(0, 2**64)),
            draw(st.integers(0, 2**64)))


def walk(table, check=lambda game, before: None, cap=400):
    """Play a random game: mostly legal moves (challenges now and then), sometimes an action
    that may be refused. ``check`` runs after every step."""
    players, options, opener, seed, walk_seed = table
    rng = random.Random(walk_seed)
    game = IKnowYouDont(players, options, seed=seed, opener=opener)
    taken = []
    while not game.over and len(taken) < cap:
        seat = rng.choice(game.may_act())
        legal = game.legal_actions(seat)
        if rng.random() < 0.05:
            action = rng.choice([Pass(), Accept(), Challenge(), Intercept(), Wild(), Keep(),
                                 Play(rng.choice(own_deck()), D("1T"))])
            seat = rng.randrange(players)
        elif Pass() in legal:
            action = rng.choices([Pass(), Accept(), Challenge()], [6, 2, 1])[0]
        else:
            action = rng.choice(legal)
        before = (game.version, Counter(game.state.cards()), list(map(list, game.state.hands)))
        try:
            game.apply(seat, action)
            taken.append((seat, action))
        except RulesError:
            assert (game.version, Counter(game.state.cards()),
                    list(map(list, game.state.hands))) == before
        check(game, before)
    return game, taken


@settings(max_examples=60, deadline=None)
@given(tables())
def test_cards_and_tokens_are_conserved_and_refusals_change_nothing(table):
    deck = Counter(table[1].cards())

    def conserved(game, before):
        state = game.state
        assert Counter(state.cards()) == deck
        assert sum(state.tokens) + state.pot == 3 * game.players and state.pot == 0
        assert all(tokens >= 0 for tokens in state.tokens)
        assert all(hand == sorted(hand, key=sort_key) for hand in state.hands)

    walk(table, conserved)


@settings(max_examples=40, deadline=None)
@given(tables())
def test_each_seat_sees_only_what_it_may(table):
    def seen(game, before):
        state = game.state
        spectator = game.view(None)
        assert spectator.hand == () and spectator.my_card is None and spectator.legal == ()
        for seat in range(game.players):
            view = game.view(seat)
            assert view.hand == tuple(state.hands[seat])
            assert view.my_card == (state.card if seat == state.active else None)
            assert view.shown in (None, state.card)
            assert view.shown is None or state.phase is Phase.DECIDING
            assert replace(view, seat=None, hand=(), my_card=None, legal=()) == spectator
            assert set(view.legal) == set(game.legal_actions(seat))
            for event in game.log(seat):
                if isinstance(event, Played):
                    assert (event.card is not None) == (event.seat == seat)
                elif isinstance(event, Drew):
                    assert (event.cards is not None) == (event.seat == seat)
                elif isinstance(event, Started):
                    assert [h is not None for h in event.hands] == \
                        [s == seat for s in range(game.players)]
        assert game.log(None) == tuple(redact(e, None) for e in state.events)

    walk(table, seen, cap=120)


@settings(max_examples=30, deadline=None)
@given(tables())
def test_a_game_replays_the_same_from_its_seed(table):
    game, taken = walk(table)
    players, options, opener, seed, _ = table
    again = IKnowYouDont(players, options, seed=seed, opener=opener)
    for seat, action in taken:
        again.apply(seat, action)
    assert again.state.events == game.state.events
    assert again.view(0) == game.view(0) and again.winner == game.winner
    if game.over:
        ended = game.state.events[-1]
        assert isinstance(ended, Ended) and ended.winner == game.winner
        why = {"points": max(ended.points) >= 15, "tokens": min(ended.tokens) == 0,
               "rounds": len(game.state.pad) >= options.rounds}
        assert why[ended.reason]
        awards = game.state.awards
        assert ended.points == game.state.victory == tuple(
            sum(round_[seat] for round_ in awards) for seat in range(players))

