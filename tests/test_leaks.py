"""Nothing leaks over the wire, and lost connections lose nothing.

Over a thousand networked bot games (the table driven through the real codec, tests/wire.py),
every frame sent to every connection is decoded and searched for cards: a seat may only ever
be shown cards that have been in its own hand, or that a doubt showed to everyone; a
spectator only the latter. That covers states, snapshots after reconnecting, histories,
events and error replies. Connections are cut at random moments and come back with their
tokens; every game still finishes, every card is where it should be, and a returning
player gets their own seat and hand back.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass

from helpers import cards_in
from hypothesis import given, settings
from hypothesis import strategies as st
from wire import Harness

from doubtlan.net.messages import PROTOCOL_VERSION, Act, Error, Hello, State, Welcome
from doubtlan.net.table import TableConfig, sending
from doubtlan.rules import Card, Challenge, Options, deck
from doubtlan.rules.idoubtit import Answered, Dealt, Laid, Resolved

LABEL = re.compile(r"(10|[2-9AJQK])[♠♥♦♣]")


@dataclass
class Game:
    players: int
    remote: int
    options: Options
    seed: int
    chaos: int
    #: Send histories in chunks of 4 claims (snapshots then come in several frames).
    small_chunks: bool


@st.composite
def games(draw: st.DrawFn) -> Game:
    decks = draw(st.sampled_from([1, 1, 2]))
    players = draw(st.integers(3, 5 if decks == 1 else 6))
    return Game(
        players,
        draw(st.integers(1, players)),
        Options(decks=decks, challenge=draw(st.sampled_from(list(Challenge)))),
        draw(st.integers(0, 2**32)),
        draw(st.integers(0, 2**32)),
        draw(st.integers(0, 4)) == 0,  # one table in five
    )


class Watch:
    """Follows which cards each seat has legitimately seen, and checks every frame.

    What a seat has seen is replayed from the host's full log: the hand it was dealt, every
    card it took with a pile, and every card a doubt showed to all.
    """

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.known: dict[int | None, set[Card]] = {None: set()}
        self.seen_frames: dict[int, int] = Counter()
        self.asked: dict[int, set[Card]] = {}
        self._read = 0
        self._game: object = None
        self._pile: list[Card] = []
        self._laid: list[Card] = []

    def learn(self) -> None:
        game = self.h.table.game
        if game is None:
            return
        if game is not self._game:  # a new game: its log starts afresh
            self._game, self._read = game, 0
        for event in game.state.events[self._read :]:
            if isinstance(event, Dealt):
                self.known.update({None: set()})
                self._pile, self._laid = [], []
                for seat, hand in enumerate(event.hands):
                    self.known[seat] = set(hand or ())
            elif isinstance(event, Laid):
                assert event.card is not None
                self._laid.append(event.card)
            elif isinstance(event, Resolved):
                if event.shown is None:
                    self._pile += self._laid
                else:
                    for seen in self.known.values():
                        seen.update(event.shown)
                    assert event.taker is not None
                    self.known[event.taker].update(self._pile)
                    self._pile = []
                self._laid = []
        self._read = len(game.state.events)

    def check(self, seats: dict[int, int | None]) -> None:
        """Look at every frame sent since the last look."""
        for conn, messages in self.h.received.items():
            seat = seats.get(conn)
            for message in messages[self.seen_frames[conn] :]:
                allowed = self.known.get(seat, set())
                leaked = set(cards_in(message)) - allowed
                assert not leaked, f"conn {conn} (seat {seat}) was sent {leaked}"
                if isinstance(message, State):
                    for event in message.events:
                        if isinstance(event, Answered) and event.seat != seat:
                            assert event.doubt is None, "another seat's answer was shown"
                if isinstance(message, Error):
                    for match in LABEL.finditer(message.message):
                        label = match.group(0)
                        named = {c for c in deck() if c.label() == label}
                        assert named & (allowed | self.asked.get(conn, set())), label
            self.seen_frames[conn] = len(messages)


def play(spec: Game) -> None:
    chunk = sending.CHUNK  # (the module the table reads it from)
    sending.CHUNK = 4 if spec.small_chunks else chunk
    try:
        _play(spec)
    finally:
        sending.CHUNK = chunk


def _play(spec: Game) -> None:
    rng = random.Random(spec.chaos)
    config = TableConfig(
        players=spec.players, options=spec.options, games=1, seed=spec.seed,
        window=5.0, turn_timeout=20.0, grace=3.0,
    )
    h = Harness(config, bots=spec.players - spec.remote, strategy=rng.choice(["random", "counter"]))
    watch = Watch(h)
    h.observers.append(watch.learn)
    seats: dict[int, int | None] = {}
    tokens: dict[int, str] = {}
    strategies = ["random", "honest", "counter"]
    for i in range(spec.remote):
        conn = h.hello(f"p{i}", bot=rng.choice(strategies), seed=rng.randrange(10**6))
        welcome = h.last(conn, Welcome)
        assert isinstance(welcome, Welcome) and welcome.token is not None
        seats[conn], tokens[welcome.seat] = welcome.seat, welcome.token  # type: ignore[index]
        watch.learn()
    spectator = h.hello("watcher", watch=True)
    seats[spectator] = None
    assert h.table.state == "playing"
    full = Counter(deck(spec.options.decks))
    for _ in range(5000):
        if h.table.state == "over":
            break
        watch.learn()
        roll = rng.random()
        live = [c for c in h.deciders if c not in h.closed]
        if roll < 0.02 and live:  # a connection is cut, maybe to come back
            conn = rng.choice(live)
            seat = seats[conn]
            h.drop(conn)
            if rng.random() < 0.3:
                h.advance(config.grace + 1.0)  # away long enough for the stand-in to play
            if rng.random() < 0.7 and h.table.state == "playing":
                hand = tuple(h.table.game.state.hands[seat])  # type: ignore[union-attr,index]
                back = h.hello(f"p{seat}", token=tokens[seat], bot="counter", seed=seat)  # type: ignore[index]
                seats[back] = seat
                welcome = h.last(back, Welcome)
                assert isinstance(welcome, Welcome) and welcome.seat == seat
                view = h.mirrors[back].view
                assert view is not None and view.hand == hand  # own seat, own hand, back
        elif roll < 0.05 and live:  # a client sends something out of turn or odd
            conn = rng.choice(live)
            card = rng.choice(deck())
            watch.asked.setdefault(conn, set()).add(card)
            text = rng.choice(["doubt", "stand", "announce", f"lay {card.code}"])
            h.send(conn, Act(rng.randrange(0, 50), text))
        elif not h.play_bots(rng):
            h.advance(rng.choice([0.5, 2.0, 6.0]))
        watch.learn()
        watch.check(seats)
        game = h.table.game
        assert game is not None and Counter(game.state.cards()) == full
    assert h.table.state == "over", "the game did not finish"
    watch.learn()
    watch.check(seats)


@settings(max_examples=1000)
@given(games())
def test_no_frame_shows_a_card_it_should_not_and_every_game_finishes(spec: Game) -> None:
    play(spec)


def test_a_forged_hello_cannot_take_a_seat() -> None:
    h = Harness(TableConfig(players=3, seed=1), bots=2)
    amy = h.hello("Amy")
    token = h.last(amy, Welcome).token  # type: ignore[union-attr]
    forged = h.connect()
    h.send(forged, Hello(PROTOCOL_VERSION, "Amy", None, token[:-1] + "x", False))  # type: ignore[index]
    assert forged in h.closed and h.table.seats[2].conn == amy
