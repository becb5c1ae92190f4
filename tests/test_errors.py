"""Every refusal has a stable code and leaves the game exactly as it was."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from helpers import deal

from doubtlan.rules import (
    ERROR_CODES,
    Action,
    Announce,
    Card,
    Challenge,
    Doubt,
    IDoubtIt,
    IllegalAction,
    Lay,
    LetStand,
    MalformedAction,
    Options,
    RulesError,
)

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
    game = deal("AS AH", players=3, options=Options(challenge=Challenge.OPEN))
    game.apply(0, Lay(C("AS")))
    game.apply(0, Announce())
    with pytest.raises(IllegalAction) as error:
        game.apply(0, Doubt())
    assert error.value.code == "not_allowed_in_window"
