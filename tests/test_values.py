"""Cards, ranks, claims, actions and options: they print, parse and round-trip."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from doubtlan.rules import (
    DECK,
    Announce,
    BadOptions,
    Card,
    ChallengeMode,
    Claim,
    Doubt,
    IDoubtIt,
    Lay,
    LetStand,
    MalformedAction,
    Options,
    Rank,
    Suit,
    parse_cards,
)

cards = st.sampled_from(DECK)


@given(cards)
def test_a_card_round_trips_through_its_code_and_repr(card: Card) -> None:
    assert Card.parse(card.code) is card
    assert eval(repr(card)) is card
    assert Card(card.rank, card.suit) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.deepcopy(card) is card


def test_card_codes_and_labels() -> None:
    ten = Card(Rank.TEN, Suit.SPADES)
    assert ten.code == "TS"
    assert Card.parse("10s") is ten and Card.parse(" ts ") is ten
    assert ten.label() == "10♠" and ten.label(ascii=True) == "10S"
    assert Card.parse("QH").suit.red and not Card.parse("QC").suit.red
    assert parse_cards("AS, 10D QH") == [Card.parse("AS"), Card.parse("TD"), Card.parse("QH")]


@pytest.mark.parametrize("text", ["", "1S", "AX", "ASS", "11H", "queen", "TT"])
def test_bad_card_codes_are_refused(text: str) -> None:
    with pytest.raises(MalformedAction) as error:
        Card.parse(text)
    assert error.value.code == "malformed_action"


def test_cards_cannot_be_changed_or_forged() -> None:
    card = Card.parse("AS")
    with pytest.raises(AttributeError):
        card.rank = Rank.KING  # type: ignore[misc]
    with pytest.raises(MalformedAction):
        Card("A", "S")  # type: ignore[arg-type]


def test_cards_sort_by_rank_then_suit() -> None:
    from doubtlan.rules.cards import sort_key

    assert sorted(parse_cards("KS 2C AH AC 2D"), key=sort_key) == parse_cards("AC AH 2C 2D KS")
    assert list(DECK) == sorted(DECK, key=sort_key)
    assert len(DECK) == 52


def test_cards_compare_by_identity_in_c() -> None:
    """A card defines no comparison, so ``card in hand`` and ``hand.remove`` compare
    identities without calling Python (cards are interned, so identity is equality)."""
    from doubtlan.rules.cards import Card

    assert all(Card.__dict__.get(name) is None
               for name in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"))
    ace, king = parse_cards("AS KS")
    assert ace == Card.parse("AS") and ace != king and ace in parse_cards("KS AS")
    with pytest.raises(TypeError):
        sorted([king, ace])  # type: ignore[type-var]


def test_ranks_climb_and_wrap() -> None:
    symbols = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert [rank.symbol for rank in Rank] == symbols
    assert Rank.KING.next() is Rank.ACE
    assert Rank.TEN.next() is Rank.JACK
    assert Rank.parse("10") is Rank.TEN is Rank.parse("t")
    with pytest.raises(MalformedAction):
        Rank.parse("1")


@given(st.integers(1, 8), st.sampled_from(list(Rank)))
def test_a_claim_round_trips(count: int, rank: Rank) -> None:
    claim = Claim(count, rank)
    assert Claim.parse(claim.code) == claim
    assert eval(repr(claim)) == claim
    assert str(claim) == claim.code


def test_claims_read_as_players_say_them() -> None:
    assert Claim(1, Rank.ACE).describe() == "one ace"
    assert Claim(2, Rank.ACE).describe() == "two aces"
    assert Claim(3, Rank.SEVEN).describe() == "three 7s"
    assert Claim(4, Rank.TEN).describe() == "four 10s"
    assert Claim(1, Rank.QUEEN).describe() == "one queen"
    assert Claim(8, Rank.KING).describe() == "eight kings"
    with pytest.raises(MalformedAction):
        Claim.parse("0xA")


@pytest.mark.parametrize(
    "action", [Lay(Card.parse("QS")), Lay(Card.parse("TD")), Announce(), Doubt(), LetStand()]
)
def test_actions_round_trip_through_text(action: object) -> None:
    assert IDoubtIt.parse_action(action.text) == action  # type: ignore[attr-defined]
    assert eval(repr(action)) == action


@pytest.mark.parametrize("text", ["", "   ", "fold", "lay", "lay XX", "lay AS KS", "doubt now", 3])
def test_bad_action_text_is_refused(text: object) -> None:
    with pytest.raises(MalformedAction):
        IDoubtIt.parse_action(text)  # type: ignore[arg-type]


def test_options_round_trip_and_refuse_nonsense() -> None:
    options = Options.parse("decks=2, challenge=open")
    assert options == Options(2, ChallengeMode.OPEN)
    assert Options.parse(options.text) == options
    assert Options.parse("") == Options()
    for text in ("decks=3", "decks=two", "challenge=loud", "jokers=2", "decks"):
        with pytest.raises(BadOptions):
            Options.parse(text)
    with pytest.raises(BadOptions):
        Options(decks=True)  # type: ignore[arg-type]


def test_record_refuses_what_its_fast_init_would_ignore() -> None:
    from dataclasses import field

    from doubtlan.rules.base import Event, record

    class WithDefault(Event):
        seat: int = 0

    class WithFactory(Event):
        seats: list[int] = field(default_factory=list)

    class WithPostInit(Event):
        seat: int

        def __post_init__(self) -> None:
            pass

    for cls in (WithDefault, WithFactory, WithPostInit):
        with pytest.raises(TypeError, match="no defaults"):
            record(cls)
