"""Skull's answers to the contract tests' questions (tests/games.py)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from games import GameSpec, Lie, Sight, replace_claim
from hypothesis import strategies as st

from doubtlan.rules import Event, Game, View
from doubtlan.rules import skull as sk
from doubtlan.rules.fairness import Seen
from doubtlan.rules.told import Told


class _SkullSight(Sight):
    """A seat holds a Flower and the Skull from the start (every seat's discs are the same
    four); a spectator sees a disc once it is turned."""

    def __init__(self, players: int = 6) -> None:
        super().__init__()

    def see(self, event: Event) -> None:
        if isinstance(event, sk.Round):
            for seat in range(len(event.discs)):
                self.known.setdefault(seat, set()).update(sk.DISCS)
        elif isinstance(event, sk.Turned):
            self.show_everyone((event.disc,))


class SkullSpec(GameSpec):
    name = sk.Skull.name
    rules = sk.Skull
    card = sk.Disc
    strategies = ("random", "honest", "counter")
    let_stand = ""  # (no window: every move is one seat's, on its turn)
    illegal_opening = "pass"
    forged_turn = ("place", "pass")
    changed_answer = ("place F", "place S")
    leak_examples = 60
    tampered_games = 400

    def conserved(self, game: Game[Any, Any]) -> bool:
        state = game.state
        return all(state.discs(seat) + state.lost[seat] == len(sk.DISCS)
                   and (state.hands[seat] + state.stacks[seat]).count(sk.SKULL) <= 1
                   for seat in range(game.players))

    def deck(self, options: Any) -> list[Any]:
        return list(sk.DISCS)

    def changed(self, action: str) -> str | None:
        # (A seat's first disc: either is legal, and the game goes otherwise from there.)
        return {"place F": "place S", "place S": "place F"}.get(action)

    def refused_turn(self, hand: tuple[Any, ...]) -> tuple[str, str]:
        # (every seat holds all four discs at the start: no disc is missing from a hand; a
        # bid comes only once every player has laid a disc)
        return sk.Bid(1).text, sk.NotNow.code

    def held(self, view: View) -> tuple[int, ...]:
        assert isinstance(view, sk.TableView)
        return tuple(discs - laid for discs, laid in zip(view.discs, view.stacks, strict=True))

    def towards_record(self, view: View) -> tuple[str, ...]:
        """Lay the Skull while it is held (else a Flower) as the first disc, then bid every
        disc on the table: each bid fails while a stack holds a Skull, and a seat
        fails four times before it is out, so a game settles many bids before its end."""
        assert isinstance(view, sk.TableView)
        places = [a for a in view.legal if isinstance(a, sk.Place)]
        bids = [a for a in view.legal if isinstance(a, sk.Bid)]
        if places and not view.stack:
            return (max(places, key=lambda place: place.disc is sk.SKULL).text,)
        return (bids[-1].text,) if bids else (view.legal[0].text,)

    def hand_not_given(self, seen: Seen) -> tuple[Any, ...]:
        """Skull deals nothing (every seat starts with the same four discs): what the secret
        decides of a hand is the disc each failed bid takes from it. The lie: the hand as
        last shown with the disc it last lost still in it (a seat that lost none, with a
        fifth disc, a Flower)."""
        lost = [sk.FLOWER, *(e.disc for e in seen.events
                             if isinstance(e, sk.Lost) and e.seat == seen.seat and e.disc)]
        assert seen.hand is not None
        return sk.in_order((*seen.hand, lost[-1]))

    def windows(self, players: int) -> int:
        return 0

    def claim(self, card: Any) -> tuple[str, ...]:
        return (sk.Place(card).text,)

    def stood(self, claim: Event) -> bool:
        return isinstance(claim, sk.Settled) and claim.made

    def face_down(self, told: Told) -> bool:
        return False  # (every disc a bid shows, its bidder turned face up: the rest stay down)

    def claimer(self, view: View) -> int | None:
        assert isinstance(view, sk.TableView)
        return view.bidder

    def shows_another_seat(self, event: Event, seat: int | None) -> bool:
        if isinstance(event, sk.Placed | sk.Lost):
            return event.seat != seat and event.disc is not None
        return False

    def sight(self) -> Sight:
        return _SkullSight()

    def labelled(self, label: str) -> set[Any]:
        return set()  # (discs have no suits: no error names one as "Q♠")

    def odd_action(self, rng: random.Random) -> tuple[str, Any]:
        disc = rng.choice(sk.DISCS)
        text = rng.choice([f"place {disc.code}", f"bid {rng.randint(1, 8)}", "pass",
                           f"turn {rng.randint(1, 6)}"])
        return text, disc

    def leak_table(self, draw: st.DrawFn) -> tuple[int, Any]:
        return draw(st.integers(3, 6)), sk.Options(draw(st.sampled_from([1, 2, 3])))

    def fair_table(self, rng: random.Random) -> tuple[int, Any]:
        return rng.randint(3, 6), sk.Options()

    def lies(self) -> tuple[Lie, ...]:
        return (self.turned_disc_changed,)

    def turned_disc_changed(self, seen: Seen, rng: random.Random) -> Seen | None:
        """The host showed a disc turned as the other kind."""
        settled = [i for i, claim in enumerate(seen.record) if isinstance(claim, sk.Settled)]
        if not settled:
            return None
        index = rng.choice(settled)
        claim = seen.record[index]
        assert isinstance(claim, sk.Settled)
        owner = next(seat for seat, discs in enumerate(claim.turned) if discs)
        discs = list(claim.turned[owner])
        discs[0] = sk.FLOWER if discs[0] is sk.SKULL else sk.SKULL
        turned = (*claim.turned[:owner], tuple(discs), *claim.turned[owner + 1:])
        return replace_claim(seen, index, dataclasses.replace(claim, turned=turned))

    def narrations(self) -> tuple[tuple[Event, str], ...]:
        flower, skull = sk.FLOWER, sk.SKULL
        return (
            (sk.BidMade(0, 2), ""),
            (sk.Settled(0, 2, ((flower,), (flower,), ()), True, None, 1),
             "Amy turned 2 Flowers: a point."),
            (sk.Settled(2, 2, ((skull,), (), ()), False, 0, 0),
             "Cleo bid 2 and turned Amy's Skull: a disc lost."),
            (sk.Lost(2, None, 0), "Cleo is out."),
            (sk.Won(1, 2), "Ben wins."),
        )


def _opened() -> sk.Skull:
    """Three players, each with a first disc laid: seat 0 to lay or bid."""
    game = sk.Skull(3, seed=1)
    for seat in range(3):
        game.apply(seat, sk.Place(sk.FLOWER))
    return game


def _bidding() -> sk.Skull:
    game = _opened()
    game.apply(0, sk.Bid(2))
    return game


SPEC = SkullSpec()

#: Skull's own refusals, for tests/test_errors.py: code, a game, the seat, the action.
REFUSALS = [
    ("bad_bid", _opened, 0, sk.Bid(4)),
    ("bad_bid", _bidding, 1, sk.Bid(2)),
    ("no_such_stack", lambda: _turning(), 0, sk.Turn(0)),
    ("not_now", lambda: sk.Skull(3, seed=1), 0, sk.Bid(1)),
    ("not_now", _opened, 0, sk.PASS),
]


def _turning() -> sk.Skull:
    game = _opened()
    game.apply(0, sk.Bid(2))
    game.apply(1, sk.PASS)
    game.apply(2, sk.PASS)
    return game


#: Every value of every option, and the words it says (tests/test_options.py): the options,
#: describe, brief, clock(10), players, and one player too few's refusal.
OPTION_WORDS = [
    (f"points={n}", f"Skull · {n} bid{'s' if n > 1 else ''} to win",
     f"{n} bid{'s' if n > 1 else ''} to win", "", (3, 6), "Skull needs 3 to 6 players, not 2")
    for n in (2, 1, 3)
]
