"""Nothing leaks over the wire, and lost connections lose nothing: a contract of every game.

Over networked bot games (the table driven through the real codec, tests/wire.py), every
frame sent to every connection is decoded and searched for cards: a seat may only ever be
shown cards that have been in its own hand or that a challenge showed to everyone (each
game's :class:`games.Sight` says which); a spectator only the latter. That covers states,
snapshots after reconnecting (in several frames, at some tables), histories, events and
error replies. No event sent to a seat shows what only another seat may see. Connections
are cut at random moments and come back with their tokens; every game still finishes, every
card is where it should be, and a returning player gets their own seat and hand back.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from games import GameSpec, Sight
from helpers import cards_in
from hypothesis import given, settings
from hypothesis import strategies as st
from wire import Harness

from doubtlan.net.messages import PROTOCOL_VERSION, Act, Error, Hello, Message, State, Welcome
from doubtlan.net.table import TableConfig, sending
from doubtlan.rules import iknowyoudont as know

#: A playing card's label in a text (an error message).
LABEL = re.compile(r"(10|[2-9AJQK])[♠♥♦♣]")


@dataclass
class Setup:
    players: int
    remote: int
    options: Any
    seed: int
    chaos: int
    #: Send histories in chunks of 4 claims (snapshots then come in several frames).
    small_chunks: bool


def setups(spec: GameSpec) -> st.SearchStrategy[Setup]:
    @st.composite
    def draw_setup(draw: st.DrawFn) -> Setup:
        players, options = spec.leak_table(draw)
        return Setup(
            players,
            draw(st.integers(1, players)),
            options,
            draw(st.integers(0, 2**32)),
            draw(st.integers(0, 2**32)),
            draw(st.integers(0, 4)) == 0,  # one table in five
        )

    return draw_setup()


class Watch:
    """Follows which cards each seat has legitimately seen, and checks every frame.

    What a seat has seen is replayed from the host's full log by the game's Sight.
    """

    def __init__(self, h: Harness, spec: GameSpec) -> None:
        self.h, self.spec = h, spec
        self.sight: Sight = spec.sight()
        self.seen_frames: Counter[int] = Counter()
        self.asked: dict[int, set[Any]] = {}
        self._read = 0
        self._game: object = None

    def learn(self) -> None:
        game = self.h.table.game
        if game is None:
            return
        if game is not self._game:  # a new game: its log starts afresh
            self._game, self._read, self.sight = game, 0, self.spec.sight()
        for event in game.state.events[self._read :]:
            self.sight.see(event)
        self._read = len(game.state.events)

    def check(self, seats: dict[int, int | None]) -> None:
        """Look at every frame sent since the last look."""
        known = self.sight.known
        for conn, messages in self.h.received.items():
            seat = seats.get(conn)
            for message in messages[self.seen_frames[conn] :]:
                allowed = known.get(seat, set())
                leaked = set(cards_in(message, self.spec.card)) - allowed
                assert not leaked, f"conn {conn} (seat {seat}) was sent {leaked}"
                if isinstance(message, State):
                    for event in message.events:
                        assert not self.spec.shows_another_seat(event, seat), (seat, event)
                if isinstance(message, Error):
                    for match in LABEL.finditer(message.message):
                        label = match.group(0)
                        named = self.spec.labelled(label)
                        assert named & (allowed | self.asked.get(conn, set())), label
            self.seen_frames[conn] = len(messages)


def play(spec: GameSpec, setup: Setup) -> None:
    chunk = sending.CHUNK  # (the module the table reads it from)
    sending.CHUNK = 4 if setup.small_chunks else chunk
    try:
        _play(spec, setup)
    finally:
        sending.CHUNK = chunk


def _play(spec: GameSpec, setup: Setup) -> None:
    rng = random.Random(setup.chaos)
    config = TableConfig(
        players=setup.players, options=setup.options, games=1, seed=setup.seed,
        window=5.0, turn_timeout=20.0, grace=3.0, game=spec.name,
    )
    h = Harness(config, bots=setup.players - setup.remote,
                strategy=rng.choice(["random", "counter"]))
    watch = Watch(h, spec)
    h.observers.append(watch.learn)
    seats: dict[int, int | None] = {}
    tokens: dict[int, str] = {}
    for i in range(setup.remote):
        conn = h.hello(f"p{i}", bot=rng.choice(spec.strategies), seed=rng.randrange(10**6))
        welcome = h.last(conn, Welcome)
        assert isinstance(welcome, Welcome) and welcome.token is not None
        assert welcome.seat is not None
        seats[conn], tokens[welcome.seat] = welcome.seat, welcome.token
        watch.learn()
    spectator = h.hello("watcher", watch=True)
    seats[spectator] = None
    assert h.table.state == "playing"
    for _ in range(5000):
        if h.table.state == "over":  # type: ignore[comparison-overlap]
            break
        watch.learn()
        roll = rng.random()
        live = [c for c in h.deciders if c not in h.closed]
        if roll < 0.03 and live:  # a connection is cut, maybe to come back
            conn = rng.choice(live)
            seat = seats[conn]
            assert seat is not None
            h.drop(conn)
            if rng.random() < 0.3:
                h.advance(config.grace + 1.0)  # away long enough for the stand-in to play
            if rng.random() < 0.7 and h.table.state == "playing":
                assert h.table.game is not None
                hand = tuple(h.table.game.state.hands[seat])
                back = h.hello(f"p{seat}", token=tokens[seat], bot="counter", seed=seat)
                seats[back] = seat
                welcome = h.last(back, Welcome)
                assert isinstance(welcome, Welcome) and welcome.seat == seat
                view = h.mirrors[back].view
                assert view is not None and view.hand == hand  # own seat, own hand, back
        elif roll < 0.06 and live:  # a client sends something out of turn or odd
            conn = rng.choice(live)
            text, card = spec.odd_action(rng)
            if card is not None:
                watch.asked.setdefault(conn, set()).add(card)
            h.send(conn, Act(rng.randrange(0, 50), text))
        elif not h.play_bots(rng):
            h.advance(rng.choice([0.5, 2.0, 6.0]))
        watch.learn()
        watch.check(seats)
        game = h.table.game
        assert game is not None and spec.conserved(game)
    assert h.table.state == "over", "the game did not finish"  # type: ignore[comparison-overlap]
    watch.learn()
    watch.check(seats)


def test_no_frame_shows_a_card_it_should_not_and_every_game_finishes(spec: GameSpec) -> None:
    @settings(max_examples=spec.leak_examples, deadline=None)
    @given(setups(spec))
    def every_frame_is_clean(setup: Setup) -> None:
        play(spec, setup)

    every_frame_is_clean()


def test_a_forged_hello_cannot_take_a_seat(spec: GameSpec) -> None:
    h = Harness(TableConfig(players=3, seed=1, game=spec.name, options=spec.options), bots=2)
    amy = h.hello("Amy")
    welcome = h.last(amy, Welcome)
    assert isinstance(welcome, Welcome) and welcome.token is not None
    forged = h.connect()
    last = "y" if welcome.token.endswith("x") else "x"  # (a token may end in x: 1 in 64)
    h.send(forged, Hello(PROTOCOL_VERSION, "Amy", None, welcome.token[:-1] + last, False))
    error = h.last(forged, Error)
    assert isinstance(error, Error) and error.code == "bad_token"
    assert h.table.seats[2].conn == amy and not h.table.conns[forged].joined


# -- timing -----------------------------------------------------------------------------------


def _frame_times(holds_interception: bool) -> list[tuple[float, int, str]]:
    """When the host sends each frame, and to whom, up to Amy's first turn, at an I Know
    You Don't table with the app's bot delay where Amy (a person, who never intercepts) does
    or does not hold an Interception: the rest of the deal is the same."""
    config = TableConfig(players=3, games=1, seed=3, window=5.0, turn_timeout=30.0,
                         grace=60.0, bot_delay=1.0, game="iknowyoudont",
                         options=know.Options())
    h = Harness(config, bots=2, strategy="counter")
    match, amy_seat = h.table.match, 2
    deal = match.new_game

    def dealt(seed: bytes | None = None) -> Any:
        game = deal(seed)
        hands = [list(hand) for hand in game.state.hands]
        draw = list(game.state.draw)  # (the top last: the bottom is drawn last)
        mine = hands[amy_seat]
        for at, card in enumerate(mine):  # none in her hand ...
            if card.kind is know.Kind.INTERCEPTION:
                other = next(i for i, c in enumerate(draw) if c.kind is not know.Kind.INTERCEPTION)
                mine[at], draw[other] = draw[other], card
        if holds_interception:  # ... or one, from the bottom of the draw pile
            other = next(i for i, c in enumerate(draw) if c.kind is know.Kind.INTERCEPTION)
            mine[-1], draw[other] = draw[other], mine[-1]
        for i, hand in enumerate(hands):
            if i != amy_seat:
                assert hand == list(game.state.hands[i])  # the others' hands are the same
        again = know.IKnowYouDont.from_hands(hands, config.options, opener=game.opener,
                                             draw=draw)
        match.game = again
        return again

    match.new_game = dealt  # type: ignore[method-assign]
    frames: list[tuple[float, int, str]] = []
    take = h.table.take_outbox

    def taken() -> list[tuple[int, Message]]:
        out = take()
        frames.extend((h.now, conn, message.TYPE) for conn, message in out)
        return out

    h.table.take_outbox = taken  # type: ignore[method-assign]
    h.hello("Amy")
    game = h.table.game
    assert game is not None
    assert any(card.kind is know.Kind.INTERCEPTION
               for card in game.state.hands[amy_seat]) is holds_interception
    for _ in range(2000):
        if game.over or game.turn_seat() == amy_seat:
            break
        h.advance(0.25)
    assert game.turn_seat() == amy_seat and game.turns >= 2
    return frames


def test_the_hosts_timing_is_the_same_for_deals_that_differ_only_in_hidden_cards() -> None:
    """The bot delay holds a bot's answer where a person could intercept: decided from who
    sits where, so no frame comes at another time because of what a hand holds."""
    without, with_one = _frame_times(False), _frame_times(True)
    assert len({t for t, _, _ in without}) > 3  # frames at many moments: the bots were paced
    assert without == with_one
