"""The match at a table, without a network: seats, tokens, PINs, clocks, absent players.

Everything passes through the real codec (tests/wire.py), and time is a number the test moves.
A test that takes ``spec`` is a contract of every game (tests/games.py holds what differs);
the others play the default game, I Doubt It, and those about one game's own rules say so.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from games import SPECS, GameSpec
from helpers import cards_in
from wire import Harness

from doubtlan.bots import make_bot
from doubtlan.net import table as table_module
from doubtlan.net.botclient import Decider
from doubtlan.net.client import KNOWN
from doubtlan.net.journal import Journal
from doubtlan.net.messages import (
    PROTOCOL_VERSION,
    Act,
    Bye,
    Error,
    Hello,
    History,
    Knock,
    Leave,
    Ping,
    Pong,
    State,
    TableInfo,
    Welcome,
)
from doubtlan.net.pin import ClientExchange, via_mark
from doubtlan.net.table import LEAST_WINDOW, Table, TableConfig, seats, sending
from doubtlan.rules import (
    GAMES,
    Announce,
    ChallengeMode,
    Doubt,
    Lay,
    LetStand,
    Options,
    Phase,
    RulesError,
    TableView,
)
from doubtlan.rules import iknowyoudont as know
from doubtlan.tui.words import goodbye


def config(**changes: object) -> TableConfig:
    settings: dict[str, object] = {"players": 3, "games": 1, "seed": 1, "window": 10.0,
                                   "turn_timeout": 60.0, "grace": 15.0}
    settings.update(changes)
    return TableConfig(**settings)  # type: ignore[arg-type]


def game_config(spec: GameSpec, **changes: object) -> TableConfig:
    """:func:`config` for a table of ``spec``'s game, with its default rules."""
    return config(**{"game": spec.name, "options": spec.options, **changes})


def three_people(h: Harness) -> list[int]:
    return [h.hello(name) for name in ("Amy", "Ben", "Cleo")]


def act(h: Harness, conn: int, text: str) -> None:
    view = h.mirrors[conn].view
    assert view is not None
    h.send(conn, Act(view.decision, text))


def last_error(h: Harness, conn: int) -> str | None:
    error = h.last(conn, Error)
    return error.code if isinstance(error, Error) else None


def bye_code(h: Harness, conn: int) -> str | None:
    bye = h.last(conn, Bye)
    return bye.code if isinstance(bye, Bye) else None


def claim(h: Harness, spec: GameSpec, conn: int) -> None:
    """The seat at ``conn``, on turn, makes a claim with the first card of its hand."""
    view = h.mirrors[conn].view
    assert view is not None
    for text in spec.claim(view.hand[0]):
        act(h, conn, text)


# -- joining ----------------------------------------------------------------------------


def test_joining_gives_seats_in_order_with_secret_tokens() -> None:
    h = Harness(config(autostart=False))
    conns = three_people(h)
    welcomes = [h.last(conn, Welcome) for conn in conns]
    assert [w.seat for w in welcomes] == [0, 1, 2]  # type: ignore[union-attr]
    tokens = [w.token for w in welcomes]  # type: ignore[union-attr]
    assert len(set(tokens)) == 3 and all(t and len(t) >= 32 for t in tokens)
    info = h.last(conns[0], TableInfo)
    assert [s.name for s in info.seats] == ["Amy", "Ben", "Cleo"]  # type: ignore[union-attr]


def test_names_are_made_unique_and_tidy() -> None:
    h = Harness(config(players=4, autostart=False))
    names = [h.last(h.hello(n), Welcome).name for n in ("Bob", "Bob", "  Bob  ", "a  b")]  # type: ignore[union-attr]
    assert names == ["Bob", "Bob (2)", "Bob (3)", "a b"]


def test_a_name_that_looks_like_a_seated_players_is_refused() -> None:
    """Beside "Amy": a Cyrillic "Аmy", "Amy" with an invisible Hangul filler, under a
    combining mark, in mathematical bold: each is refused (``name_taken``) and takes no
    seat (a zero-width space the wire refuses before); "Amy" herself again is told apart by
    a number."""
    h = Harness(config(players=4, autostart=False))
    h.hello("Amy")
    for alike in ("\u0410my", "Amy\u3164", "Am\u0301y", "\U0001d400my"):
        conn = h.hello(alike)
        bye = h.last(conn, Bye)
        assert isinstance(bye, Bye) and bye.code == "name_taken", alike
        assert repr(alike) in bye.message and "'Amy'" in bye.message and conn in h.closed
    assert [seat.name for seat in h.table.seats] == ["Amy", None, None, None]
    assert h.last(h.hello("Amy"), Welcome).name == "Amy (2)"  # type: ignore[union-attr]
    assert h.last(h.hello("Amos"), Welcome).name == "Amos"  # type: ignore[union-attr]


def test_the_match_starts_when_every_seat_is_taken(spec: GameSpec) -> None:
    h = Harness(game_config(spec))
    conns = three_people(h)
    assert h.table.state == "playing"
    sizes = spec.hand_sizes(3)
    for seat, conn in enumerate(conns):
        view = h.mirrors[conn].view
        assert view is not None and view.seat == seat and len(view.hand) == sizes[seat]
        assert spec.held(view) == sizes


def test_the_table_says_which_game_it_plays_and_refuses_another_games_options(
        spec: GameSpec) -> None:
    h = Harness(game_config(spec))
    amy, _, _ = three_people(h)
    welcome = h.last(amy, Welcome)
    assert isinstance(welcome, Welcome) and welcome.table.game == spec.name
    assert welcome.table.rules == spec.options.text
    for other in SPECS.values():
        if other is not spec:
            with pytest.raises(RulesError):
                Table(game_config(spec, options=other.options))
    with pytest.raises(RulesError):
        Table(game_config(spec, players=spec.options.max_players + 1))


def test_a_version_mismatch_names_both_versions() -> None:
    h = Harness(config())
    conn = h.connect()
    h.send(conn, Hello(PROTOCOL_VERSION + 1, "Amy", None, None, False))
    bye = h.last(conn, Bye)
    assert isinstance(bye, Bye) and bye.code == "version_mismatch"
    assert str(PROTOCOL_VERSION) in bye.message and str(PROTOCOL_VERSION + 1) in bye.message
    assert conn in h.closed


def test_a_client_that_does_not_know_the_tables_game_is_told_so(spec: GameSpec) -> None:
    """A client says which games it knows (its rules' registry): a table of another game
    refuses it by name, rather than send it views and events it cannot read."""
    h = Harness(game_config(spec))
    others = tuple(name for name in GAMES if name != spec.name)
    conn = h.connect()
    h.send(conn, Hello(PROTOCOL_VERSION, "Amy", None, None, False, games=others))
    bye = h.last(conn, Bye)
    assert isinstance(bye, Bye) and bye.code == "unknown_game" and conn in h.closed
    assert f"that table plays {GAMES[spec.name].title}, a game this doubtlan does not know" \
        in bye.message
    assert goodbye(bye).startswith("This doubtlan cannot join: that table plays")
    for games in (tuple(GAMES), None):  # (None: a client that does not say)
        known = h.connect()
        h.send(known, Hello(PROTOCOL_VERSION, "Ben", None, None, True, games=games))
        assert isinstance(h.last(known, Welcome), Welcome)
    assert tuple(GAMES) == KNOWN  # (what this program's clients say)


def test_a_full_table_refuses_a_seat_but_takes_a_spectator() -> None:
    h = Harness(config())
    three_people(h)
    late = h.hello("Dan")
    assert bye_code(h, late) == "table_full" and late in h.closed
    watcher = h.hello("Eve", watch=True)
    welcome = h.last(watcher, Welcome)
    assert isinstance(welcome, Welcome) and welcome.seat is None and welcome.token is None
    view = h.mirrors[watcher].view
    assert view is not None and view.seat is None and view.hand == ()


def test_hello_comes_first_and_once() -> None:
    h = Harness(config(autostart=False))
    conn = h.connect()
    h.send(conn, Ping())
    assert last_error(h, conn) == "not_joined"
    h.send(conn, Hello(PROTOCOL_VERSION, "Amy", None, None, False))
    h.send(conn, Hello(PROTOCOL_VERSION, "Amy", None, None, False))
    assert last_error(h, conn) == "already_joined"
    h.send(conn, Ping())
    assert isinstance(h.inbox[conn][-1], Pong)


# -- the PIN ----------------------------------------------------------------------------


def test_a_pin_is_required_and_checked() -> None:
    h = Harness(config(pin="4321", autostart=False))
    none = h.hello("Amy")
    bye = h.last(none, Bye)
    assert isinstance(bye, Bye) and bye.code == "wrong_pin"
    assert bye.message == "this table has a PIN, and none was given"  # not "wrong PIN"
    assert bye_code(h, h.hello("Amy", pin="1234")) == "wrong_pin"
    good = h.hello("Amy", pin="4321")
    assert isinstance(h.last(good, Welcome), Welcome)
    assert h.last(good, Welcome).table.pin is True  # type: ignore[union-attr]


def test_repeated_wrong_pins_from_one_address_are_slowed_down() -> None:
    h = Harness(config(pin="4321", autostart=False))
    for _ in range(table_module.PIN_TRIES):
        assert bye_code(h, h.hello("Amy", pin="0000", address="10.0.0.9")) == "wrong_pin"
    # Now even the right PIN must wait...
    assert bye_code(h, h.hello("Amy", pin="4321", address="10.0.0.9")) == "too_many_attempts"
    # ...but other addresses are not held up.
    assert isinstance(h.last(h.hello("Ben", pin="4321", address="10.0.0.8"), Welcome), Welcome)
    h.advance(table_module.PIN_LOCK_MAX)
    assert isinstance(h.last(h.hello("Amy", pin="4321", address="10.0.0.9"), Welcome), Welcome)


def test_the_wait_grows_with_each_wrong_pin() -> None:
    h = Harness(config(pin="4321", autostart=False))
    waits = []
    for _ in range(table_module.PIN_TRIES + 3):
        h.hello("Amy", pin="0000", address="10.0.0.9")
        waits.append(h.table._pin_failures["address 10.0.0.9"][1] - h.now)
        h.advance(waits[-1])
    assert waits[table_module.PIN_TRIES - 1 :] == [1.0, 2.0, 4.0, 8.0]


# -- acting -----------------------------------------------------------------------------


def test_a_connection_acts_only_for_its_own_seat_and_in_its_own_game(spec: GameSpec) -> None:
    h = Harness(game_config(spec))
    amy, ben, _ = three_people(h)
    game = h.table.game
    assert game is not None
    before = game.state.version
    turn, refusal = spec.refused_turn(tuple(game.state.hands[0]))
    act(h, ben, turn)  # Ben is not to play
    assert last_error(h, ben) == "not_your_turn"
    act(h, amy, turn)  # Amy may not (a card game's: she cannot lay cards she does not hold)
    assert last_error(h, amy) == refusal
    act(h, amy, "nonsense")
    assert last_error(h, amy) == "malformed_action"
    for other in SPECS.values():
        if other is not spec:  # another game's action
            act(h, amy, other.claim(other.deck(other.options)[0])[0])
            assert last_error(h, amy) == "malformed_action"
    assert game.state.version == before


@pytest.mark.parametrize(
    ("text", "code"), [("fold", "malformed_action"), ("lay ZZ", "malformed_action"),
                       ("announce", "nothing_laid"), ("doubt", "no_window_open")]
)
def test_refused_actions_pass_the_rules_code_on(text: str, code: str) -> None:
    h = Harness(config())
    amy = three_people(h)[0]
    act(h, amy, text)
    assert last_error(h, amy) == code
    assert h.table.game.state.version == 0  # type: ignore[union-attr]


def test_an_action_decided_on_an_old_turn_is_stale() -> None:
    h = Harness(config())
    amy, ben, cleo = three_people(h)
    card = h.mirrors[amy].view.hand[0]  # type: ignore[union-attr]
    act(h, amy, f"lay {card.code}")
    act(h, amy, "announce")
    h.send(ben, Act(0, "stand"))  # decided when no claim had been made
    assert last_error(h, ben) == "stale"
    h.send(ben, Act(1, "stand"))
    assert last_error(h, ben) == "stale"  # still the same (last) error: nothing new
    assert h.mirrors[ben].view.answered == (1,)  # type: ignore[union-attr]


def test_spectators_cannot_act() -> None:
    h = Harness(config())
    three_people(h)
    eve = h.hello("Eve", watch=True)
    h.send(eve, Act(0, "doubt"))
    assert last_error(h, eve) == "spectating"


def test_nothing_to_do_before_the_match() -> None:
    h = Harness(config(autostart=False))
    amy = h.hello("Amy")
    h.send(amy, Act(0, "announce"))
    assert last_error(h, amy) == "not_playing"


# -- clocks ---------------------------------------------------------------------------------


def claim_one(h: Harness, conn: int) -> None:
    card = h.mirrors[conn].view.hand[0]  # type: ignore[union-attr]
    act(h, conn, f"lay {card.code}")
    act(h, conn, "announce")


def test_the_window_closes_when_its_time_runs_out() -> None:
    h = Harness(config(window=10.0))
    amy, ben, cleo = three_people(h)
    claim_one(h, amy)
    act(h, cleo, "doubt")  # Ben, first clockwise, has not answered: it is not settled yet
    h.advance(9.9)
    assert h.table.game.state.phase is Phase.WINDOW  # type: ignore[union-attr]
    h.advance(0.2)
    game = h.table.game
    assert game is not None and game.state.phase is Phase.LAYING
    assert game.state.records[-1].doubter == 2  # Ben's silence let it stand; Cleo's doubt counts
    state = h.last(ben, State)
    assert isinstance(state, State) and any(note.kind == "window" for note in state.notes)


def test_a_claim_nobody_answers_stands_when_the_window_clock_runs_out(
        windowed: GameSpec) -> None:
    spec = windowed
    h = Harness(game_config(spec, window=10.0))
    amy, ben, cleo = three_people(h)
    claim(h, spec, amy)
    game = h.table.game
    assert game is not None
    waits = spec.windows(3) * 10.0  # (each window clock starts when the last ran out)
    h.advance(waits - 0.1)
    assert game.view(None).record == () and game.turn_seat() is None
    h.advance(0.2)
    claims = game.view(None).record
    assert len(claims) == 1 and spec.stood(claims[0])
    assert game.turn_seat() == 1
    state = h.last(ben, State)
    assert isinstance(state, State) and any(note.kind == "window" for note in state.notes)


def test_the_host_plays_for_a_player_whose_time_runs_out(spec: GameSpec) -> None:
    h = Harness(game_config(spec, turn_timeout=30.0))
    amy, ben, cleo = three_people(h)
    h.advance(29.0)
    assert h.table.game is not None and h.table.game.turns == 0
    h.advance(2.0)
    game = h.table.game
    assert game is not None and game.turns == 1
    assert {(played.seat, played.by) for played in h.table.played} == {(0, "timer")}
    state = h.last(cleo, State)
    assert isinstance(state, State) and any(
        note.kind == "timeout" and note.seat == 0 for note in state.notes
    )


def test_i_doubt_its_turn_timer_lays_a_card_of_the_rank_required() -> None:
    h = Harness(config(turn_timeout=30.0))
    amy = three_people(h)[0]
    hand = h.mirrors[amy].view.hand  # type: ignore[union-attr]
    h.advance(31.0)
    game = h.table.game
    assert game is not None and game.turns == 1
    laid = game.state.claim_cards
    aces = [card for card in hand if card.rank.symbol == "A"]
    assert len(laid) == 1 and (laid[0] in aces if aces else laid[0] == hand[0])


def test_no_turn_timer_when_it_is_off(spec: GameSpec) -> None:
    h = Harness(game_config(spec, turn_timeout=0.0))
    three_people(h)
    h.advance(3600.0)
    assert h.table.game.turns == 0  # type: ignore[union-attr]
    assert h.table.next_deadline() is None


# -- absent players ----------------------------------------------------------------------------


def test_an_absent_player_keeps_the_seat_and_a_bot_plays_it_after_the_grace(
        spec: GameSpec) -> None:
    h = Harness(game_config(spec, turn_timeout=0.0, grace=15.0))
    amy, ben, cleo = three_people(h)
    h.drop(amy)
    info = h.last(ben, TableInfo)
    assert isinstance(info, TableInfo) and info.seats[0].away and not info.seats[0].connected
    h.advance(14.0)
    assert h.table.game.turns == 0  # type: ignore[union-attr]  # still waiting for Amy
    h.advance(2.0)
    game = h.table.game
    assert game is not None and game.turns == 1  # the stand-in played Amy's turn
    assert (h.table.played[-1].seat, h.table.played[-1].by) == (0, "stand-in")
    state = h.last(ben, State)
    assert isinstance(state, State) and any(n.kind == "away" and n.seat == 0 for n in state.notes)
    # Amy comes back with her token: same seat, her hand (as the bot's turn left it), and
    # the bot stops playing for her.
    token = h.last(amy, Welcome).token  # type: ignore[union-attr]
    again = h.hello("Amy", token=token)
    welcome = h.last(again, Welcome)
    assert isinstance(welcome, Welcome) and welcome.seat == 0 and welcome.token == token
    view = h.mirrors[again].view
    assert view is not None and view.hand == tuple(game.state.hands[0])
    assert h.table.seats[0].bot is None
    assert not h.last(ben, TableInfo).seats[0].away  # type: ignore[union-attr]


def test_an_absent_players_stand_in_lets_claims_stand_and_plays_their_turns(
        windowed: GameSpec) -> None:
    spec = windowed
    h = Harness(game_config(spec, turn_timeout=0.0, grace=5.0, window=100.0))
    amy, ben, cleo = three_people(h)
    h.drop(ben)
    h.advance(6.0)
    claim(h, spec, amy)
    game = h.table.game
    assert game is not None and game.awaiting() == (2,)  # Ben's stand-in answered at once
    act(h, cleo, spec.let_stand)
    assert game.turns == 2 and spec.stood(game.view(None).record[0])
    last = h.table.played[-1]
    assert (last.seat, last.by) == (1, "stand-in")  # and then it played Ben's turn
    assert game.awaiting()[0] == 2  # the claim waits for the seat after Ben first


def test_a_seat_taken_back_elsewhere_closes_the_old_connection() -> None:
    h = Harness(config())
    amy = three_people(h)[0]
    token = h.last(amy, Welcome).token  # type: ignore[union-attr]
    again = h.hello("Amy", token=token)
    assert bye_code(h, amy) == "replaced" and amy in h.closed
    assert h.last(again, Welcome).seat == 0  # type: ignore[union-attr]


def test_a_wrong_token_is_refused() -> None:
    h = Harness(config())
    three_people(h)
    conn = h.hello("Mallory", token="x" * 32)
    assert last_error(h, conn) == "bad_token" and conn not in h.closed
    h.send(conn, Hello(PROTOCOL_VERSION, "Mallory", None, None, True))  # afresh: to watch
    assert h.last(conn, Welcome).seat is None  # type: ignore[union-attr]


def test_leaving_hands_the_seat_to_a_bot_for_good() -> None:
    h = Harness(config(turn_timeout=0.0))
    amy, ben, cleo = three_people(h)
    token = h.last(amy, Welcome).token  # type: ignore[union-attr]
    h.send(amy, Leave())
    assert bye_code(h, amy) == "left"
    assert h.table.game.turns == 1  # type: ignore[union-attr]  # the bot played at once
    assert last_error(h, h.hello("Amy", token=token)) == "bad_token"


def test_the_game_never_stalls_on_missing_players() -> None:
    h = Harness(config(players=4, games=2, grace=1.0, turn_timeout=5.0), bots=1)
    conns = [h.hello(f"p{i}", bot="random", seed=i) for i in range(3)]
    h.play_bots()
    h.drop(conns[0])
    h.drop(conns[1])
    for _ in range(2000):
        if h.table.state == "over":
            break
        if not h.play_bots():
            h.advance(1.0)
    assert h.table.state == "over" and len(h.table.results) == 2
    assert bye_code(h, conns[2]) == "match_over"


# -- what is sent -------------------------------------------------------------------------------


def test_a_long_history_comes_in_chunks(spec: GameSpec, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    monkeypatch.setattr(sending, "CHUNK", 2)  # where the table reads it
    h = Harness(game_config(spec, window=0.5))
    conns = three_people(h)
    game = h.table.game
    assert game is not None
    for _ in range(200):  # till five claims settle (a card game's stand: the next claim
        seat = game.turn_seat()  # stands the last, or its window does)
        assert seat is not None
        view = h.mirrors[conns[seat]].view
        assert view is not None
        for text in spec.towards_record(view):
            act(h, conns[seat], text)
        h.advance(spec.windows(3) * 0.5 + 0.1)
        if len(game.view(None).record) == 5:
            break
    claims = game.view(None).record
    assert len(claims) == 5
    late = h.hello("Dee", watch=True)
    histories = [m for m in h.received[late] if isinstance(m, History)]
    assert len(histories) >= 2 and all(len(m.record) <= 2 for m in histories)
    for conn in (*conns, late):
        view = h.mirrors[conn].view
        assert view is not None and view.record == claims


def test_each_connection_sees_its_own_hand_and_its_own_card_only(spec: GameSpec) -> None:
    h = Harness(game_config(spec))
    conns = three_people(h)
    amy, ben, cleo = conns
    watcher = h.hello("Dee", watch=True)
    game = h.table.game
    assert game is not None
    for seat, conn in enumerate(conns):
        view = h.mirrors[conn].view
        assert view is not None and view.hand == tuple(game.state.hands[seat])
    view = h.mirrors[watcher].view
    assert view is not None and view.hand == ()
    claim(h, spec, amy)  # Amy's card goes face down
    others: tuple[tuple[int | None, int], ...] = ((1, ben), (2, cleo), (None, watcher))
    for other, conn in others:
        own = set() if other is None else set(game.state.hands[other])
        for message in h.received[conn]:
            assert set(cards_in(message, spec.card)) <= own, (other, message)
            if isinstance(message, State):
                assert not any(spec.shows_another_seat(e, other) for e in message.events)


def test_actions_reach_the_game_through_the_rules() -> None:
    h = Harness(config(window=5.0))
    amy, ben, cleo = three_people(h)
    view = h.mirrors[amy].view
    assert view is not None and Lay(view.hand[0]) in view.legal
    claim_one(h, amy)
    for conn in (ben, cleo):
        assert set(h.mirrors[conn].view.legal) == {Doubt(), LetStand()}  # type: ignore[union-attr]
    assert Announce() not in h.mirrors[amy].view.legal  # type: ignore[union-attr]


# -- the end, and tables of bots ------------------------------------------------------------


def test_everyone_sees_how_the_match_ended_before_the_goodbye() -> None:
    h = Harness(config(players=3, window=1.0, turn_timeout=0.0), bots=2)
    amy = h.hello("Amy")
    for _ in range(500):  # Amy never answers: windows close on the clock; bots do the rest
        if h.table.state == "over":
            break
        view = h.mirrors[amy].view
        if isinstance(view, TableView) and view.my_turn:
            claim_one(h, amy)
        h.advance(1.5)
    assert h.table.state == "over"
    kinds = [type(m).__name__ for m in h.inbox[amy]]
    assert kinds[-1] == "Bye"
    last_state = [m for m in h.inbox[amy] if isinstance(m, State)][-1]
    assert last_state.view.winner is not None
    assert kinds.index("Bye") > len(kinds) - 1 - kinds[::-1].index("State")


def test_bots_play_whole_matches_and_every_client_verifies_its_deals(spec: GameSpec) -> None:
    for seed in range(3):
        h = Harness(game_config(spec, players=4, games=2, seed=seed, window=1.0), bots=1,
                    strategy="random")
        conns = [h.hello(f"b{i}", bot="random", seed=seed * 10 + i) for i in range(3)]
        watcher = h.hello("Dee", watch=True)
        rng = random.Random(seed)
        for _ in range(3000):
            if h.table.state == "over":
                break
            if not h.play_bots(rng):
                h.advance(1.0)
        assert h.table.state == "over" and len(h.table.results) == 2
        for conn in [*conns, watcher]:
            verdicts = h.mirrors[conn].verdicts
            assert sorted(verdicts) == [1, 2] and all(v.ok for v in verdicts.values()), verdicts


def test_a_table_of_bots_starts_and_plays_by_itself() -> None:
    h = Harness(config(players=4, games=2), bots=4)
    h.table.start_when_full(h.now)
    h.flush()
    h.advance(0.0)
    assert h.table.state == "over" and len(h.table.results) == 2


def test_a_stand_in_never_calls_for_an_absent_player() -> None:
    for seed in range(10):
        h = Harness(config(players=4, options=Options(challenge=ChallengeMode.OPEN), seed=seed,
                           grace=0.5, turn_timeout=0.0), bots=3)
        amy = h.hello("Amy")
        h.drop(amy)
        h.advance(1.0)
        game = h.table.game
        assert game is not None and game.over
        seat = h.table.seats[3].number
        assert all(record.doubter != seat for record in game.state.records)


def test_in_the_open_mode_the_first_call_received_counts() -> None:
    """Calls reach the host one message at a time: the first received wins (the first shout,
    docs/rules.md), even when a caller nearer clockwise calls a moment later."""
    h = Harness(config(players=4, autostart=True, turn_timeout=0.0,
                       options=Options(challenge=ChallengeMode.OPEN)))
    conns = [h.hello(name) for name in ("Amy", "Ben", "Cleo", "Dan")]
    seat_of = {conn: h.mirrors[conn].seat for conn in conns}
    game = h.table.game
    assert game is not None
    claimer = game.state.turn
    on_turn = next(conn for conn in conns if seat_of[conn] == claimer)
    act(h, on_turn, f"lay {h.mirrors[on_turn].view.hand[0].code}")  # type: ignore[union-attr]
    act(h, on_turn, "announce")
    # the farthest clockwise from the claimer calls first, then the nearest
    order = sorted((c for c in conns if c != on_turn),
                   key=lambda c: (seat_of[c] - claimer) % 4)  # type: ignore[operator]
    act(h, order[-1], "doubt")
    act(h, order[0], "doubt")
    resolved = game.state.records[-1]
    assert resolved.doubter == seat_of[order[-1]]


def test_the_table_takes_few_wrong_pins_from_any_number_of_addresses() -> None:
    """Each address has its own lock-out. Addresses with a wrong PIN to their name share
    the table's allowance (a burst, then one every few seconds), so that 10,000 guesses take
    more than a day however many addresses they come from; an address with none draws on
    an allowance of its own, so many addresses add one guess each, and a newcomer with the
    right PIN is not kept out by the others' wrong ones."""
    assert 10_000 * seats.TABLE_PIN_EVERY > 24 * 3600
    h = Harness(config(pin="4321", autostart=False))
    for n in range(20):  # each address's first wrong PIN
        assert bye_code(h, h.hello("Mallory", pin="0000", address=f"10.9.0.{n}")) == "wrong_pin"
    for n in range(seats.TABLE_PIN_BURST):  # their second ones share the table's allowance
        assert bye_code(h, h.hello("Mallory", pin="0000", address=f"10.9.0.{n}")) == "wrong_pin"
    refused = h.hello("Mallory", pin="0000", address="10.9.0.15")
    assert bye_code(h, refused) == "too_many_attempts"
    assert isinstance(h.last(h.hello("Amy", pin="4321", address="10.0.0.7"), Welcome), Welcome)
    h.advance(seats.TABLE_PIN_EVERY)  # one more try has come back
    assert bye_code(h, h.hello("Mallory", pin="0000", address="10.9.0.16")) == "wrong_pin"
    assert bye_code(h, h.hello("Mallory", pin="0000", address="10.9.0.17")) == \
        "too_many_attempts"
    # An IPv6 device's addresses in one /64 are one address: its second is no newcomer.
    assert bye_code(h, h.hello("Eve", pin="0000", address="fd00:1::1")) == "wrong_pin"
    assert bye_code(h, h.hello("Eve", pin="0000", address="fd00:1::99")) == \
        "too_many_attempts"
    h.advance(seats.TABLE_PIN_EVERY)
    assert bye_code(h, h.hello("Eve", pin="0000", address="fd00:1::99")) == "wrong_pin"
    assert h.table._pin_failures["address fd00:1::/64"][0] == 2


def _right_pin_tries(h: Harness, knock_wrong: Callable[[], None],
                     right: Callable[[], int], tries: int = 10) -> int:
    """Wrong PINs knocked each second (``knock_wrong``) for a minute and more; the right
    PIN tried every 6 s meanwhile (``right``: the connection). Returns how many got in."""
    got_in = 0
    for second in range(tries * 6):
        knock_wrong()
        if second % 6 == 5:
            conn = right()
            if isinstance(h.last(conn, Welcome), Welcome):
                got_in += 1
                h.send(conn, Leave())
        h.advance(1.0)
    return got_in


def test_the_right_pin_gets_in_while_forty_addresses_knock_wrong_every_second() -> None:
    h = Harness(config(pin="4321", autostart=False))
    half = ClientExchange("0000", h.table.fingerprint).knock()  # (one wrong guess, sent again)

    def knock_wrong() -> None:
        for n in range(40):
            h.send(h.connect(f"10.9.0.{n}"), Knock(PROTOCOL_VERSION, half))

    got_in = _right_pin_tries(h, knock_wrong, lambda: h.hello(
        "Amy", pin="4321", address="10.0.0.7", watch=True))
    assert got_in >= 9
    # (and the forty were held to the table's allowance meanwhile)
    assert sum(failures for failures, _ in h.table._pin_failures.values()) <= \
        40 + seats.TABLE_PIN_BURST + 60 / seats.TABLE_PIN_EVERY + 1


def test_the_right_pin_gets_in_while_a_tab_knocks_wrong_every_second() -> None:
    """Every browser seat's app joins from the host's loopback address: the host's web
    server marks each one's knock with its browser and real address (``knock.via``), and
    the PIN's limits count those. A tab knocking wrong keeps out neither a tab of another
    browser nor a newcomer at another address."""
    h = Harness(config(pin="4321", autostart=False))
    key = h.table.via_key
    hostile = via_mark(key, "b0" * 16, "10.0.0.66")
    honest = via_mark(key, "c1" * 16, "10.0.0.77")

    def knock_wrong() -> None:
        h.hello("Mallory", pin="0000", address="127.0.0.1", watch=True, via=hostile)

    tab = _right_pin_tries(h, knock_wrong, lambda: h.hello(
        "Amy", pin="4321", address="127.0.0.1", watch=True, via=honest))
    newcomer = _right_pin_tries(h, knock_wrong, lambda: h.hello(
        "Ben", pin="4321", address="10.0.0.8", watch=True))
    assert tab >= 9 and newcomer >= 9
    # The hostile tab's browser and real address are held up, not the loopback address.
    assert "address 10.0.0.66" in h.table._pin_failures
    assert "browser " + "b0" * 16 in h.table._pin_failures
    assert "address 127.0.0.1" not in h.table._pin_failures


def test_a_knock_marked_by_anyone_but_the_tables_web_server_is_refused() -> None:
    h = Harness(config(pin="4321", autostart=False))
    forged = via_mark(b"another key" * 3, "b0" * 16, "10.0.0.66")
    marked = via_mark(h.table.via_key, "b0" * 16, "10.0.0.66")
    for address, via in (("127.0.0.1", forged), ("10.0.0.5", marked),  # (not over loopback)
                         ("127.0.0.1", marked.replace("10.0.0.66", "10.0.0.67"))):
        conn = h.hello("Mallory", pin="4321", address=address, via=via)
        assert last_error(h, conn) == "bad_message" and h.table.taken == 0


def test_names_made_unique_stay_within_24_characters() -> None:
    h = Harness(config(players=10, autostart=False, options=Options(decks=2)))
    names = [h.last(h.hello("x" * 24), Welcome).name for _ in range(10)]  # type: ignore[union-attr]
    assert len(set(names)) == 10 and all(len(name) <= 24 for name in names)


def test_a_token_of_any_characters_is_just_a_wrong_token() -> None:
    h = Harness(config())
    three_people(h)
    assert last_error(h, h.hello("Mallory", token="é" * 20)) == "bad_token"


# -- the host player's lobby -------------------------------------------------------------


def test_bots_sit_under_short_names_of_their_own_and_a_newcomer_keeps_theirs() -> None:
    h = Harness(config(players=5, autostart=False), bots=2)
    amy = h.hello("ada")  # a player under a bot's name: the bot takes another
    h.table.seat_bot()
    h.flush()
    info = h.last(amy, TableInfo)
    assert [s.name for s in info.seats] == ["Cal", "Bex", "ada", "Dot", None]  # type: ignore[union-attr]
    h.table.seat_bot(name="Dot")  # (a name asked for is told apart as a person's is)
    assert h.table.seats[4].name == "Dot (2)"


def test_the_host_removes_a_bot_and_the_seat_is_free_again() -> None:
    h = Harness(config(players=5, autostart=False), bots=2)
    amy = h.hello("Amy")
    h.table.remove_bot(0)
    h.flush()
    info = h.last(amy, TableInfo)
    assert [s.name for s in info.seats] == [None, "Bex", "Amy", None, None]  # type: ignore[union-attr]
    with pytest.raises(table_module.Refused, match="no bot"):
        h.table.remove_bot(2)  # a person at the table, not a bot
    with pytest.raises(table_module.Refused, match="no bot"):
        h.table.remove_bot(99)


def test_the_match_starts_with_three_or_more_and_players_close_up() -> None:
    h = Harness(config(players=6, autostart=False), bots=1)
    amy, ben = h.hello("Amy"), h.hello("Ben")
    h.table.remove_bot(0)
    with pytest.raises(table_module.Refused, match="3 or more"):
        h.table.start(h.now)
    h.table.seat_bot("counter")  # takes the free seat 0 again
    h.table.seat_bot("honest")
    h.table.remove_bot(0)
    h.flush()
    assert [h.mirrors[amy].seat, h.mirrors[ben].seat] == [1, 2]
    h.table.start(h.now)
    h.flush()
    assert h.table.state == "playing" and h.table.config.players == 3
    # Everyone moved one seat on: each is told the new seat, with the same token.
    assert [h.mirrors[amy].seat, h.mirrors[ben].seat] == [0, 1]
    view = h.mirrors[amy].view
    assert view is not None and view.seat == 0 and view.players == 3
    assert len(view.hand) == 18  # seat 0 opens the first game and is dealt the extra card
    with pytest.raises(table_module.Refused, match="has started"):
        h.table.start(h.now)
    with pytest.raises(table_module.Refused, match="only before"):
        h.table.seat_bot("counter")


def test_the_host_changes_the_rules_in_the_lobby_only() -> None:
    h = Harness(config(players=8, autostart=False), bots=3)
    amy = h.hello("Amy")
    h.table.configure(Options(decks=2, challenge=ChallengeMode.OPEN), window=4.0, turn_timeout=0.0,
                      players=10)
    h.flush()
    info = h.last(amy, TableInfo)
    assert isinstance(info, TableInfo)
    assert (info.rules, info.window, info.turn_timeout, info.players) == (
        "decks=2,challenge=open", 4.0, 0.0, 10)
    with pytest.raises(table_module.Refused, match="3 to 8"):
        h.table.configure(Options(decks=1), players=10)
    h.table.start(h.now)
    with pytest.raises(table_module.Refused, match="before the match"):
        h.table.configure(Options())


def test_in_the_lobby_leaving_frees_the_seat_and_the_host_may_remove_who_went_away() -> None:
    h = Harness(config(players=5, autostart=False))
    amy, ben, cleo = three_people(h)
    h.send(ben, Leave())
    h.flush()
    assert h.table.seats[1].name is None and h.table.taken == 2
    h.drop(cleo)
    h.table.remove_bot(2)  # Cleo went away: her seat may be freed
    h.flush()
    assert h.table.taken == 1 and h.table.seats[2].name is None


# -- I Know You Don't's own rules at the table ------------------------------------------------

KNOW = SPECS["iknowyoudont"]


def know_view(h: Harness, conn: int) -> know.TableView:
    seen = h.mirrors[conn].view
    assert isinstance(seen, know.TableView)
    return seen


def test_i_know_you_dont_deals_three_tokens_to_each_seat() -> None:
    h = Harness(game_config(KNOW))
    amy, _, _ = three_people(h)
    assert know_view(h, amy).tokens == (3, 3, 3) and know_view(h, amy).pot == 0


def test_the_card_played_is_its_players_and_the_declaration_everyones() -> None:
    h = Harness(game_config(KNOW))
    amy, ben, cleo = three_people(h)
    watcher = h.hello("Dee", watch=True)
    card = know_view(h, amy).hand[0]
    act(h, amy, f"play {card.code} 3T")
    assert know_view(h, amy).my_card == card and know_view(h, ben).my_card is None
    assert know_view(h, watcher).hand == ()
    assert know_view(h, watcher).declaration == know.Declaration.parse("3T")


def test_priority_is_refused_out_of_turn_with_the_rules_code() -> None:
    h = Harness(game_config(KNOW))
    amy, ben, cleo = three_people(h)
    act(h, amy, f"play {know_view(h, amy).hand[0].code} 3T")
    act(h, cleo, "pass")  # Ben holds priority
    assert last_error(h, cleo) == "not_your_turn"


def test_silence_passes_each_priority_in_turn_and_the_claim_stands() -> None:
    h = Harness(game_config(KNOW, window=10.0))
    amy, ben, cleo = three_people(h)
    act(h, amy, f"play {know_view(h, amy).hand[0].code} 3T")
    h.advance(9.9)
    assert know_view(h, amy).priority == 1
    h.advance(0.2)
    assert know_view(h, amy).priority == 2 and know_view(h, amy).passed == (1,)  # Cleo's clock
    h.advance(9.7)  # (it started when Ben's ran out, at 10 s)
    assert know_view(h, amy).phase is know.Phase.PRIORITY
    h.advance(0.3)
    assert know_view(h, amy).record == (know.Stood(0, know.Declaration.parse("3T"), None),)
    assert know_view(h, amy).active == 1
    state = h.last(ben, State)
    assert isinstance(state, State) and any(note.kind == "window" for note in state.notes)


def test_the_timer_plays_the_first_card_truly_and_the_wildcard_question_times_out() -> None:
    h = Harness(game_config(KNOW, turn_timeout=30.0))
    amy, ben, cleo = three_people(h)
    first = know_view(h, amy).hand[0]
    h.advance(30.5)
    game = h.table.game
    assert game is not None and game.turns == 1 and game.state.card is first
    expected = know.Declaration(first.level or 1, first.kind) if first.level else \
        know.Declaration.parse("1T")
    assert game.state.declaration == expected
    state = h.last(cleo, State)
    assert isinstance(state, State) and any(n.kind == "timeout" and n.seat == 0
                                            for n in state.notes)


def test_the_standard_deck_travels_as_playing_cards() -> None:
    h = Harness(game_config(KNOW, options=know.Options(know.Deck.STANDARD)))
    amy, _, _ = three_people(h)
    assert h.last(amy, Welcome).table.rules == "deck=standard,rounds=5"  # type: ignore[union-attr]
    hand = know_view(h, amy).hand
    assert all(card.face is not None for card in hand)
    act(h, amy, f"play {hand[0].code} 10B")
    assert know_view(h, amy).declaration == know.Declaration.parse("10B")


def test_with_a_bot_delay_a_bot_holding_priority_waits_for_a_person_who_may_intercept() -> None:
    for seed in range(100):  # a deal that gives the person (seat 2) an Interception
        h = Harness(game_config(KNOW, seed=seed, bot_delay=1.0, turn_timeout=0.0), bots=2,
                    strategy="random")
        amy = h.hello("Amy")
        if any(card.kind is know.Kind.INTERCEPTION for card in know_view(h, amy).hand):
            break
    else:
        raise AssertionError("no deal gave seat 3 an Interception")
    game = h.table.game
    assert game is not None and game.turns == 1  # seat 1's bot played at once
    assert game.state.priority == 1 and know_view(h, amy).can(know.Intercept)
    h.advance(1.5)  # the bot delay after a turn, then the answer held for the person
    assert game.turns == 1 and game.state.priority == 1
    act(h, amy, "intercept")  # in time
    h.advance(1.0)  # (a Wildcard question to the bot waits out the same delay)
    assert game.view(None).record[0].challenger == 2
    # The bot whose answer was held back forgets it (the claim is gone) and plays on when
    # its turn comes: the table never stalls.
    for _ in range(60):
        if game.over or game.turns >= 3:
            break
        if 2 in game.awaiting():
            act(h, amy, game.timeout_actions(2)[0].text)
        h.advance(1.0)
    assert game.over or game.turns >= 3, (game.state.phase, game.awaiting())


def test_without_a_person_to_intercept_bots_answer_at_once() -> None:
    h = Harness(game_config(KNOW, bot_delay=1.0, turn_timeout=0.0), bots=3, strategy="random")
    h.table.start(h.now)
    game = h.table.game
    assert game is not None and game.turns == 1 and game.state.phase is know.Phase.PRIORITY
    h.advance(1.0)  # the bot delay after the first play; then every answer at once
    assert game.turns == 2 or game.over


def test_a_player_back_in_the_middle_of_a_turn_gets_a_fresh_turn_clock() -> None:
    """The stand-in laid a card of an absent player's turn (bots are paced); the player comes
    back before it finishes: the turn clock runs again for them, so the game goes on."""
    h = Harness(config(turn_timeout=10.0, grace=3.0, bot_delay=1.0))
    conns = three_people(h)
    game = h.table.game
    assert game is not None and game.turns == 0
    on_turn = next(c for c in conns if h.mirrors[c].seat == game.turn_seat())
    token = h.last(on_turn, Welcome).token  # type: ignore[union-attr]
    hand = len(h.mirrors[on_turn].view.hand)  # type: ignore[union-attr]
    h.advance(1.0)
    h.drop(on_turn)
    h.advance(3.5)  # past the grace time: the stand-in lays one card, then waits its delay
    assert len(game.view(game.turn_seat()).hand) == hand - 1 and game.turns == 0
    back = h.hello("Amy", token=token)
    assert h.mirrors[back].seat == game.turn_seat()
    h.advance(9.0)
    assert game.turns == 0  # the player has the whole turn time again
    h.advance(2.0)
    assert game.turns == 1  # and then the turn timer plays the rest of the turn


def test_a_seed_commitment_that_is_not_a_digest_is_refused_and_the_table_goes_on() -> None:
    """The codec lets only hexadecimal digits through (test_protocol.py); the table holds a
    commitment to 32 bytes too, for it goes into every table message it sends."""
    h = Harness(config())
    conn = h.connect()
    h.table.receive(conn, Hello(PROTOCOL_VERSION, "Mallory", None, None, False, "ab " * 21 + " "),
                    h.now)  # 21 bytes to bytes.fromhex, which skips spaces
    h.flush()
    assert last_error(h, conn) == "bad_message"
    assert all(seat.name is None or seat.name != "Mallory" for seat in h.table.seats)
    three_people(h)
    assert h.table.state == "playing"


def test_the_host_cannot_set_a_window_too_short_to_answer() -> None:
    h = Harness(config(autostart=False))
    with pytest.raises(table_module.Refused, match="2 seconds at least"):
        h.table.configure(window=LEAST_WINDOW - 0.5)
    h.table.configure(window=LEAST_WINDOW)
    assert h.table.config.window == LEAST_WINDOW


def test_the_table_shows_which_seats_programs_play_and_how_many_watch() -> None:
    h = Harness(config(autostart=False))
    amy = h.hello("Amy")
    bot = h.connect()
    h.send(bot, Hello(PROTOCOL_VERSION, "Zed", None, None, False, None, True))  # join --bot
    watcher = h.hello("Eve", watch=True)
    info = h.last(amy, TableInfo)
    assert isinstance(info, TableInfo)
    assert [(s.name, s.program) for s in info.seats if s.name] == [("Amy", False),
                                                                     ("Zed", True)]
    assert info.watchers == 1
    h.drop(watcher)
    info = h.last(amy, TableInfo)
    assert isinstance(info, TableInfo) and info.watchers == 0


# -- a seat given away between games -----------------------------------------------------------


def seeded_player(h: Harness, name: str, number: int) -> int:
    """A player that adds a seed of its own to the deals (as every client does) and plays as
    a ``random`` bot."""
    conn = h.connect()
    mirror = h.mirrors[conn]
    mirror.contribution = bytes([number + 1]) * 16
    h.deciders[conn] = Decider(make_bot("random", number))
    h.send(conn, Hello(PROTOCOL_VERSION, name, None, None, False, mirror.seed_hash()))
    return conn


def play_until(h: Harness, state: str, rng: random.Random) -> None:
    for _ in range(3000):
        if h.table.state == state:
            return
        if not h.play_bots(rng):
            h.advance(1.0)
    raise AssertionError(f"the table never became {state!r}: it is {h.table.state!r}")


def seeded_match(names: tuple[str, ...] = ("Amy", "Ben", "Cleo"), journal: Path | None = None,
                 **changes: object) -> tuple[Harness, list[int]]:
    """A match of two games whose players add seeds of their own (no table seed), dealt and
    under way; the host deals the second game when told. ``journal``: where the table keeps
    one."""
    settings = config(**{"seed": None, "players": len(names), "games": 2, "window": 1.0,
                         "turn_timeout": 2.0, "grace": 1.0, "next_game_delay": None,
                         **changes})
    h = Harness(settings)
    if journal is not None:
        h.table = Table(settings, Journal.create(journal))
    conns = [seeded_player(h, name, n) for n, name in enumerate(names)]
    play_until(h, "playing", random.Random(1))
    return h, conns


def test_between_games_the_host_frees_an_away_seat_and_a_newcomer_takes_it() -> None:
    h, (amy, ben, cleo) = seeded_match()
    ben_token = h.last(ben, Welcome).token  # type: ignore[union-attr]
    ben_hash = h.table.seats[1].seed_hash
    assert ben_hash is not None and h.table.seats[1].contribution  # Ben's seed is in the deals
    with pytest.raises(table_module.Refused, match="between games"):
        h.table.open_seats()  # not while a game is played
    h.drop(ben)
    play_until(h, "between", random.Random(2))
    assert h.table.open_seats() == ["Ben"]
    h.flush()
    info = [m for m in h.received[amy] if isinstance(m, TableInfo)][-1]
    assert info.seats[1].open and info.seats[1].away
    assert h.table.taken == 2  # the advert says a seat is free
    with pytest.raises(table_module.Refused, match="no player is away"):
        h.table.open_seats()
    # Ben's token no longer takes the seat back; a newcomer takes it, with its tally.
    assert last_error(h, h.hello("Ben", token=ben_token)) == "bad_token"
    dee = seeded_player(h, "Dee", 3)
    welcome = h.last(dee, Welcome)
    assert isinstance(welcome, Welcome) and welcome.seat == 1 and welcome.name == "Dee"
    seat = h.table.seats[1]
    assert (seat.conn, seat.bot, seat.open, seat.seed_hash) == (dee, None, False, ben_hash)
    assert h.table.taken == 3
    assert bye_code(h, h.hello("Eve")) == "table_full"  # one seat, one newcomer
    h.table.next_game(h.now)
    h.flush()
    play_until(h, "over", random.Random(3))
    # Every client's check of game 2 passes: Ben's seed is still the seat's, and Dee's
    # own seed (never used) is not missed.
    for conn in (amy, cleo, dee):
        verdict = h.mirrors[conn].verdicts[2]
        assert verdict.ok and verdict.checked, verdict
        assert not any("your seed" in note for note in verdict.notes), verdict.notes
    assert h.table.played and {p.by for p in h.table.played} >= {"player"}
    assert h.table.seats[1].name == "Dee" and not h.table.seats[1].program


def test_a_seat_given_away_stays_free_when_the_host_resumes(tmp_path: Path) -> None:
    h, (_, ben, _) = seeded_match(journal=tmp_path / "table.journal")
    h.drop(ben)
    play_until(h, "between", random.Random(2))
    h.table.open_seats()
    h.flush()
    assert h.table.journal is not None
    h.table.journal.close()
    again = Table.resume(tmp_path / "table.journal", h.now)
    assert [seat.open for seat in again.seats] == [False, True, False]
    assert again.taken == 2 and again.seats[1].seed_hash == h.table.seats[1].seed_hash
    assert again.journal is not None
    again.journal.close()


def test_a_freed_seat_goes_back_to_its_own_player_first_and_the_hosts_is_kept() -> None:
    h, (amy, ben, cleo, dee) = seeded_match(("Amy", "Ben", "Cleo", "Dee"), grace=60.0)
    for conn in (amy, ben, cleo):
        h.drop(conn)  # Amy is the host's own player, away for a moment
    h.table.seats[0].bot = h.table.seats[1].bot = h.table.seats[2].bot = None  # (in grace)
    play_until(h, "between", random.Random(2))
    assert h.table.open_seats(keep=0) == ["Ben", "Cleo"]  # never the host's own seat
    h.flush()
    # A stand-in plays the freed seats at once: nobody is coming back to them.
    assert [type(seat.bot).__name__ for seat in h.table.seats[1:3]] == ["StandIn"] * 2
    assert not h.table.seats[0].open
    back = h.hello("Cleo")  # Cleo comes back as a newcomer: her own seat, not Ben's
    assert h.last(back, Welcome).seat == 2  # type: ignore[union-attr]
    eve = h.hello("Eve")
    assert h.last(eve, Welcome).seat == 1  # type: ignore[union-attr]


def test_a_returning_player_shown_another_seed_for_its_seat_finds_the_deal_broken() -> None:
    h, (amy, ben, cleo) = seeded_match(grace=60.0)
    token = h.last(ben, Welcome).token  # type: ignore[union-attr]
    h.drop(ben)
    # Ben's program comes back with its token but another seed than the one the seat holds
    # (as if the host had put another seed in his seat): the mirror must not take it for a
    # seat given away, whose seed is someone else's.
    conn = h.connect()
    mirror = h.mirrors[conn]
    mirror.token, mirror.contribution = token, b"\x09" * 16
    mirror.key = h.mirrors[ben].key
    h.send(conn, Hello(PROTOCOL_VERSION, "Ben", None, token, False, mirror.seed_hash()))
    assert h.last(conn, Welcome).seat == 1  # type: ignore[union-attr]
    assert mirror._broken is not None and "another seed" in mirror._broken
    assert not mirror._theirs
