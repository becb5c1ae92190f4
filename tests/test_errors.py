"""Every refusal has a stable code and leaves the game exactly as it was."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import deal

from doubtlan.rules import (
    ERROR_CODES,
    Action,
    Announce,
    Card,
    ChallengeMode,
    Doubt,
    IDoubtIt,
    IllegalAction,
    Lay,
    LetStand,
    MalformedAction,
    Options,
    RulesError,
)
from doubtlan.rules import iknowyoudont as know_rules
from doubtlan.rules import liarsdeck as liar_rules

C = Card.parse


@dataclass(frozen=True, slots=True)
class Shuffle(Action):
    kind = "shuffle"


def fresh() -> IDoubtIt:
    return deal("AS AH 2S", "3S", players=4)


def in_window() -> IDoubtIt:
    game = fresh()
    game.apply(0, Lay(C("AS")))
    game.apply(0, Announce())
    return game


def over() -> IDoubtIt:
    game = deal("AS", players=3, only=[0])
    game.apply(0, Lay(C("AS")))
    game.apply(0, Announce())
    game.apply(1, Doubt())
    assert game.over
    return game


def laid_four() -> IDoubtIt:
    game = deal("AS AH AD AC 2S", players=3)
    for code in ("AS", "AH", "AD", "AC"):
        game.apply(0, Lay(C(code)))
    return game


CASES = [
    ("no_such_seat", fresh, 4, Announce()),
    ("no_such_seat", fresh, -1, Announce()),
    ("no_such_seat", fresh, "0", Announce()),
    ("no_such_seat", fresh, True, Announce()),
    ("not_your_turn", fresh, 1, Lay(C("3S"))),
    ("not_your_turn", fresh, 2, Announce()),
    ("card_not_in_hand", fresh, 0, Lay(C("3S"))),
    ("nothing_laid", fresh, 0, Announce()),
    ("no_window_open", fresh, 1, Doubt()),
    ("no_window_open", fresh, 2, LetStand()),
    ("claim_too_large", laid_four, 0, Lay(C("2S"))),
    ("window_open", in_window, 1, Lay(C("3S"))),
    ("window_open", in_window, 0, Announce()),
    ("not_allowed_in_window", in_window, 0, Doubt()),
    ("game_over", over, 1, Announce()),
    ("game_over", over, 2, Doubt()),
    ("unknown_action", fresh, 0, Shuffle()),
    ("unknown_action", fresh, 0, "lay AS"),
    ("malformed_action", fresh, 0, Lay("AS")),  # type: ignore[arg-type]
]


# I Know You Don't: the same family of errors (docs/rules-iknowyoudont.md).
def know() -> know_rules.IKnowYouDont:
    return know_rules.IKnowYouDont.from_hands(["B2 W T3 T4 T5", "T5 T4 B1 B5 B4",
                                               "I B6 B3 I T1"])


def know_priority() -> know_rules.IKnowYouDont:
    game = know()
    game.apply(0, know_rules.Play(know_rules.Card.parse("B2"), know_rules.Declaration.parse("4T")))
    return game


def know_four() -> know_rules.IKnowYouDont:
    game = know_rules.IKnowYouDont.from_hands(["B2 W T3 T4 T5", "T5 T4 B1 B5 B4",
                                               "I B6 B3 I T1", "T1 T2 T3 T6 B6"])
    game.apply(0, know_rules.Play(know_rules.Card.parse("B2"), know_rules.Declaration.parse("4T")))
    return game


def know_over() -> know_rules.IKnowYouDont:
    game = know()
    game.state.tokens[0] = 1
    game.apply(0, know_rules.Play(know_rules.Card.parse("B2"), know_rules.Declaration.parse("4T")))
    game.apply(1, know_rules.Challenge())
    assert game.over
    return game


def play(card: str, said: str) -> Action:
    return know_rules.Play(know_rules.Card.parse(card), know_rules.Declaration.parse(said))


CASES += [
    ("no_such_seat", know, 3, play("B2", "1T")),
    ("not_your_turn", know, 1, play("T5", "1T")),
    ("not_your_turn", know_priority, 2, know_rules.Pass()),
    ("card_not_in_hand", know, 0, play("B6", "1T")),
    ("bad_declaration", know, 0, play("B2", "7T")),
    ("window_open", know_priority, 0, play("W", "1T")),
    ("no_window_open", know, 1, know_rules.Challenge()),
    ("not_allowed_in_window", know_priority, 0, know_rules.Accept()),
    ("not_allowed_in_window", know_priority, 1, know_rules.Intercept()),
    ("no_interception", know_four, 3, know_rules.Intercept()),
    ("no_wildcard", know_priority, 0, know_rules.Wild()),
    ("game_over", know_over, 2, know_rules.Pass()),
    ("unknown_action", know, 0, Doubt()),
    ("malformed_action", know, 0, know_rules.Play("B2", "4T")),  # type: ignore[arg-type]
]


# Liar's Deck: the same family, and its own call_required (docs/rules-liarsdeck.md).
def liar() -> liar_rules.LiarsDeck:
    return liar_rules.LiarsDeck.from_hands(["Q Q Q K K", "A A A J J"], liar_rules.Rank.QUEEN)


def liar_alone() -> liar_rules.LiarsDeck:
    """Seat 0 has put its last cards down: seat 1 alone holds cards, and must call."""
    game = liar()
    for seat, cards in ((0, "Q Q Q"), (1, "A A A"), (0, "K K")):
        game.apply(seat, put(cards))
    return game


def liar_over() -> liar_rules.LiarsDeck:
    game = liar_rules.LiarsDeck.from_hands(["Q Q Q K K", "A A A J J"], liar_rules.Rank.QUEEN,
                                           liar_rules.Options(lives=liar_rules.Lives.ONE))
    game.apply(0, put("Q"))
    game.apply(1, liar_rules.LIAR)  # true: the caller's one life lost
    assert game.over
    return game


def put(cards: str) -> Action:
    return liar_rules.Put.of([liar_rules.Card.parse(code) for code in cards.split()])


CASES += [
    ("no_such_seat", liar, 2, put("Q")),
    ("not_your_turn", liar, 1, put("A")),
    ("card_not_in_hand", liar, 0, put("A")),
    ("claim_too_large", liar, 0, liar_rules.Put(tuple(map(liar_rules.Card.parse, "QQQK")))),
    ("no_window_open", liar, 0, liar_rules.LIAR),
    ("call_required", liar_alone, 1, put("J")),
    ("game_over", liar_over, 0, put("K")),
    ("unknown_action", liar, 0, Doubt()),
    ("malformed_action", liar, 0, liar_rules.Put(("Q",))),  # type: ignore[arg-type]
]


# A game's refusals may also be listed in its own tests file (``REFUSALS`` in
# tests/spec_NAME.py), as its other answers to the shared tests are.
for _spec in sorted(Path(__file__).parent.glob("spec_*.py")):
    CASES += getattr(importlib.import_module(_spec.stem), "REFUSALS", [])


@pytest.mark.parametrize(("code", "make", "seat", "action"), CASES)
def test_refusals_have_codes_and_change_nothing(code, make, seat, action) -> None:  # type: ignore[no-untyped-def]
    game = make()
    before, version, events = repr(game.state), game.version, len(game.log(None))
    with pytest.raises(RulesError) as error:
        game.apply(seat, action)
    assert error.value.code == code
    assert isinstance(error.value, ValueError)
    assert error.value.message
    assert repr(game.state) == before
    assert game.version == version
    assert len(game.log(None)) == events
    assert not game.is_legal(seat, action)
    with pytest.raises(RulesError):
        game.check(seat, action)


def test_every_code_is_tested_and_listed_once() -> None:
    tested = {code for code, *_ in CASES}
    listed = set(ERROR_CODES) - {"rules_error", "illegal_action", "bad_options"}
    assert tested == listed
    assert len(ERROR_CODES) == len({cls.code for cls in ERROR_CODES.values()})


def test_illegal_and_malformed_are_distinct_families() -> None:
    assert issubclass(ERROR_CODES["not_your_turn"], IllegalAction)
    assert not issubclass(MalformedAction, IllegalAction)


def test_not_allowed_to_answer_twice() -> None:
    game = in_window()
    game.apply(1, LetStand())
    before = repr(game.state)
    with pytest.raises(IllegalAction) as error:
        game.apply(1, Doubt())
    assert error.value.code == "not_allowed_in_window"
    assert repr(game.state) == before


@pytest.mark.parametrize("bad", [4, -1, "1", None, True])
def test_no_such_seat_anywhere(bad: object) -> None:
    game = fresh()
    # None is the spectator for views and logs, but a spectator has no legal actions to list.
    readers = [game.legal_actions] + ([game.view, game.log] if bad is not None else [])
    for read in readers:
        with pytest.raises(RulesError) as error:
            read(bad)  # type: ignore[operator]
        assert error.value.code == "no_such_seat"


def test_open_mode_refuses_calls_by_the_claimer() -> None:
    game = deal("AS AH", players=3, options=Options(challenge=ChallengeMode.OPEN))
    game.apply(0, Lay(C("AS")))
    game.apply(0, Announce())
    with pytest.raises(IllegalAction) as error:
        game.apply(0, Doubt())
    assert error.value.code == "not_allowed_in_window"
