"""Nothing of I Know You Don't leaks over the wire, and lost connections lose nothing.

Over networked bot games (the table driven through the real codec, tests/wire.py), every
frame sent to every connection is searched for cards. The games use the standard deck,
whose cards are all different, so a card names one copy: a seat may only ever be sent
cards that have been in its own hand or were shown in a showdown; a spectator only the
latter. Connections are cut at random moments and come back with their tokens; every game
still finishes with every card and token accounted for, and a returning player gets their
own seat and hand back.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from helpers import cards_in
from hypothesis import given, settings
from hypothesis import strategies as st
from wire import Harness

from doubtlan.net.messages import Act, State, Welcome
from doubtlan.net.table import TableConfig
from doubtlan.rules.iknowyoudont import (
    Card,
    Deck,
    Drew,
    Options,
    Played,
    Revealed,
    Started,
    standard_deck,
)

STANDARD = Options(Deck.STANDARD)


@dataclass
class Spec:
    players: int
    remote: int
    seed: int
    chaos: int


@st.composite
def specs(draw: st.DrawFn) -> Spec:
    players = draw(st.integers(3, 6))
    return Spec(players, draw(st.integers(1, players)), draw(st.integers(0, 2**32)),
                draw(st.integers(0, 2**32)))


class Watch:
    """Which cards each seat has legitimately seen, replayed from the host's full log."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.known: dict[int | None, set[Card]] = {None: set()}
        self.seen_frames: Counter[int] = Counter()
        self._read = 0

    def learn(self) -> None:
        game = self.h.table.game
        if game is None:
            return
        for event in game.state.events[self._read:]:
            if isinstance(event, Started):
                for seat, hand in enumerate(event.hands):
                    self.known[seat] = set(hand or ())
            elif isinstance(event, Drew):
                self.known[event.seat].update(event.cards or ())
            elif isinstance(event, Revealed):
                for seen in self.known.values():
                    seen.add(event.card)
        self._read = len(game.state.events)

    def check(self, seats: dict[int, int | None]) -> None:
        for conn, messages in self.h.received.items():
            seat = seats.get(conn)
            for message in messages[self.seen_frames[conn]:]:
                leaked = set(cards_in(message, Card)) - self.known.get(seat, set())
                assert not leaked, f"conn {conn} (seat {seat}) was sent {leaked}"
                if isinstance(message, State):
                    for event in message.events:
                        if isinstance(event, Played) and event.seat != seat:
                            assert event.card is None, "another seat's card was shown"
            self.seen_frames[conn] = len(messages)


def play(spec: Spec) -> None:
    rng = random.Random(spec.chaos)
    config = TableConfig(players=spec.players, options=STANDARD, games=1, seed=spec.seed,
                         window=5.0, turn_timeout=20.0, grace=3.0, game="iknowyoudont")
    h = Harness(config, bots=spec.players - spec.remote, strategy=rng.choice(["random", "counter"]))
    watch = Watch(h)
    h.observers.append(watch.learn)
    seats: dict[int, int | None] = {}
    tokens: dict[int, str] = {}
    for i in range(spec.remote):
        conn = h.hello(f"p{i}", bot=rng.choice(["random", "counter"]), seed=rng.randrange(10**6))
        welcome = h.last(conn, Welcome)
        assert isinstance(welcome, Welcome) and welcome.token is not None
        assert welcome.seat is not None
        seats[conn], tokens[welcome.seat] = welcome.seat, welcome.token
    seats[h.hello("watcher", watch=True)] = None
    assert h.table.state == "playing"
    full = Counter(standard_deck())
    for _ in range(4000):
        if h.table.state == "over":
            break
        roll = rng.random()
        live = [c for c in h.deciders if c not in h.closed]
        if roll < 0.03 and live:  # a connection is cut, maybe to come back
            conn = rng.choice(live)
            seat = seats[conn]
            assert seat is not None
            h.drop(conn)
            if rng.random() < 0.3:
                h.advance(config.grace + 1.0)
            if rng.random() < 0.7 and h.table.state == "playing":
                hand = tuple(h.table.game.state.hands[seat])  # type: ignore[union-attr]
                back = h.hello(f"p{seat}", token=tokens[seat], bot="counter", seed=seat)
                seats[back] = seat
                welcome = h.last(back, Welcome)
                assert isinstance(welcome, Welcome) and welcome.seat == seat
                view = h.mirrors[back].view
                assert view is not None and view.hand == hand
        elif roll < 0.06 and live:  # something out of turn or odd
            conn = rng.choice(live)
            text = rng.choice(["pass", "accept", "challenge", "intercept", "wild", "keep",
                               f"play {rng.choice(standard_deck()).code} 3T"])
            h.send(conn, Act(rng.randrange(0, 50), text))
        elif not h.play_bots(rng):
            h.advance(rng.choice([0.5, 2.0, 6.0]))
        watch.learn()
        watch.check(seats)
        game = h.table.game
        assert game is not None and Counter(game.state.cards()) == full
        assert sum(game.state.tokens) + game.state.pot == 3 * spec.players
    assert h.table.state == "over", "the game did not finish"
    watch.learn()
    watch.check(seats)


@settings(max_examples=150, deadline=None)
@given(specs())
def test_no_frame_shows_a_card_it_should_not_and_every_game_finishes(spec: Spec) -> None:
    play(spec)
