"""I Know You Don't through the same host, protocol, journal and verifiable deal as I Doubt
It: the table's clocks and absent players in memory (tests/wire.py), a whole match over
loopback, a journal that verifies and resumes."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from wire import Harness

from doubtlan.net import botclient, headless, protocol
from doubtlan.net.client import Client
from doubtlan.net.host import Host
from doubtlan.net.journal import Journal
from doubtlan.net.journal import verify as verify_journal
from doubtlan.net.messages import Act, Error, History, State, TableInfo, Welcome
from doubtlan.net.table import Table, TableConfig
from doubtlan.rules import RulesError
from doubtlan.rules.iknowyoudont import (
    Card,
    Deck,
    Declaration,
    Drew,
    Ended,
    Intercept,
    Options,
    Phase,
    Played,
    Showdown,
    Stood,
    TableView,
)

LOOPBACK = "127.0.0.1"
DEADLINE = 60.0


def config(**changes: object) -> TableConfig:
    settings: dict[str, object] = {"players": 3, "games": 1, "seed": 1, "window": 10.0,
                                   "turn_timeout": 60.0, "grace": 15.0,
                                   "game": "iknowyoudont", "options": Options()}
    settings.update(changes)
    return TableConfig(**settings)  # type: ignore[arg-type]


def three_people(h: Harness) -> list[int]:
    return [h.hello(name) for name in ("Amy", "Ben", "Cleo")]


def view(h: Harness, conn: int) -> TableView:
    seen = h.mirrors[conn].view
    assert isinstance(seen, TableView)
    return seen


def act(h: Harness, conn: int, text: str) -> None:
    h.send(conn, Act(view(h, conn).turns, text))


def test_the_table_says_which_game_it_plays_and_refuses_the_other_games_options() -> None:
    h = Harness(config())
    amy, _, _ = three_people(h)
    welcome = h.last(amy, Welcome)
    assert isinstance(welcome, Welcome) and welcome.table.game == "iknowyoudont"
    assert welcome.table.rules == "deck=own"
    assert view(h, amy).hand_sizes == (5, 5, 5) and view(h, amy).tokens == (3, 3, 3)
    from doubtlan.rules import Options as DoubtOptions

    with pytest.raises(RulesError):
        Table(config(options=DoubtOptions()))
    with pytest.raises(RulesError):
        Table(config(players=7))


def test_each_connection_sees_its_own_hand_and_card_only() -> None:
    h = Harness(config())
    amy, ben, cleo = three_people(h)
    watcher = h.hello("Dee", watch=True)
    card = view(h, amy).hand[0]
    act(h, amy, f"play {card.code} 3T")
    assert view(h, amy).my_card == card and view(h, ben).my_card is None
    assert view(h, watcher).hand == () and view(h, watcher).declaration == Declaration.parse("3T")
    for conn in (ben, cleo, watcher):
        for message in h.received[conn]:
            if isinstance(message, State):
                for event in message.events:
                    if isinstance(event, Played):
                        assert event.card is None
                    if isinstance(event, Drew):
                        assert event.cards is None
                assert card not in message.view.hand or conn == amy


def test_priority_is_refused_out_of_turn_with_the_rules_code() -> None:
    h = Harness(config())
    amy, ben, cleo = three_people(h)
    act(h, amy, f"play {view(h, amy).hand[0].code} 3T")
    act(h, cleo, "pass")
    error = h.last(cleo, Error)
    assert isinstance(error, Error) and error.code == "not_your_turn"
    act(h, ben, "nonsense")
    error = h.last(ben, Error)
    assert isinstance(error, Error) and error.code == "malformed_action"
    act(h, ben, "lay QS")  # I Doubt It's action
    error = h.last(ben, Error)
    assert isinstance(error, Error) and error.code == "malformed_action"


def test_silence_passes_each_priority_in_turn_and_the_claim_stands() -> None:
    h = Harness(config(window=10.0))
    amy, ben, cleo = three_people(h)
    act(h, amy, f"play {view(h, amy).hand[0].code} 3T")
    h.advance(9.9)
    assert view(h, amy).priority == 1
    h.advance(0.2)
    assert view(h, amy).priority == 2 and view(h, amy).passed == (1,)  # a new clock for Cleo
    h.advance(9.7)  # (it started when Ben's ran out, at 10 s)
    assert view(h, amy).phase is Phase.PRIORITY
    h.advance(0.3)
    assert view(h, amy).claims == (Stood(0, Declaration.parse("3T"), None),)
    assert view(h, amy).active == 1
    state = h.last(ben, State)
    assert isinstance(state, State) and any(note.kind == "window" for note in state.notes)


def test_the_timer_plays_the_first_card_truly_and_the_wildcard_question_times_out() -> None:
    h = Harness(config(turn_timeout=30.0))
    amy, ben, cleo = three_people(h)
    first = view(h, amy).hand[0]
    h.advance(30.5)
    game = h.table.game
    assert game is not None and game.turns == 1 and game.state.card is first
    expected = Declaration(first.level or 1, first.kind) if first.level else \
        Declaration.parse("1T")
    assert game.state.declaration == expected
    state = h.last(cleo, State)
    assert isinstance(state, State) and any(n.kind == "timeout" and n.seat == 0
                                            for n in state.notes)


def test_an_absent_player_passes_and_a_stand_in_plays_their_turns() -> None:
    h = Harness(config(turn_timeout=0.0, grace=5.0, window=100.0))
    amy, ben, cleo = three_people(h)
    h.drop(ben)
    h.advance(6.0)
    act(h, amy, f"play {view(h, amy).hand[0].code} 3T")  # Ben's stand-in passes at once
    assert view(h, amy).priority == 2
    act(h, cleo, "accept")
    game = h.table.game
    assert game is not None and game.turns == 2 and game.state.active == 1  # Ben's turn played
    assert game.state.phase is Phase.PRIORITY and game.state.priority == 2


def test_bots_play_whole_matches_and_every_client_verifies_its_deals() -> None:
    for seed in range(3):
        h = Harness(config(players=4, games=2, seed=seed, window=1.0), bots=1,
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


def test_a_long_history_comes_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    from doubtlan.net.table import sending

    monkeypatch.setattr(sending, "CHUNK", 2)  # where the table reads it
    h = Harness(config(window=0.5))
    amy, ben, cleo = three_people(h)
    for _ in range(5):
        game = h.table.game
        assert game is not None
        active = game.state.active
        conn = (amy, ben, cleo)[active]
        act(h, conn, f"play {view(h, conn).hand[0].code} 1T")
        h.advance(1.1)
    late = h.hello("Dee", watch=True)
    histories = [m for m in h.received[late] if isinstance(m, History)]
    assert histories and all(len(m.claims) <= 2 for m in histories)
    assert view(h, late).claims == h.table.game.view(None).claims  # type: ignore[union-attr]


def test_the_journal_verifies_and_a_resumed_table_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "know.journal"
    table = Table(config(players=3, games=2, seed=None, next_game_delay=None),
                  Journal.create(path))
    for _ in range(3):
        table.seat_bot("random")
    table.start(0.0)  # bots only: game 1 is played at once, and the table waits
    table.take_outbox()
    assert table.state == "between" and table.match.games == 1
    assert table.journal is not None
    table.journal.close()  # as a host stopped between two games
    now = 1.0
    lines, problems = verify_journal(path)
    assert not problems and any("game 1: verified" in line for line in lines), lines
    again = Table.resume(path, now, next_game_delay=0.0)
    assert again.kind.name == "iknowyoudont" and again.config.options == Options()
    assert again.match.games == 1 and again.results == table.results
    for _ in range(100):
        if again.state == "over":
            break
        now += 5.0
        again.tick(now)
        again.take_outbox()
    assert again.state == "over" and len(again.results) == 2
    assert again.journal is not None
    again.journal.close()
    lines, problems = verify_journal(path)
    assert not problems and sum("verified" in line for line in lines) == 2, lines


def test_the_standard_deck_travels_as_playing_cards() -> None:
    h = Harness(config(options=Options(Deck.STANDARD)))
    amy, _, _ = three_people(h)
    assert h.last(amy, Welcome).table.rules == "deck=standard"  # type: ignore[union-attr]
    hand = view(h, amy).hand
    assert all(card.face is not None for card in hand)
    act(h, amy, f"play {hand[0].code} 10B")
    assert view(h, amy).declaration == Declaration.parse("10B")


def test_a_spectator_reads_the_match_in_lines() -> None:
    names = {0: "Amy", 1: "Ben", 2: "Cleo"}
    lines = [headless.describe(event, names) for event in (
        Stood(0, Declaration.parse("3T"), None),
        Showdown(0, Declaration.parse("4T"), Card.parse("B2"), 2, True, False, 2, 0),
        Ended(2, "tokens", (0, 0, 1), (0, 3, 6)))]
    assert lines == ["Amy declared level 3 Truth: it stood",
                     "Amy declared level 4 Truth; Cleo intercepted: a level 2 Bluff, a lie",
                     "Cleo wins when a player lost their last token"]


async def test_a_match_over_loopback_with_bot_clients_and_a_spectator() -> None:
    table = Table(config(players=4, games=2, seed=None, window=0.5))
    table.seat_bot("random")
    host = Host(table, LOOPBACK, 0)
    await host.start()
    clients = [Client(LOOPBACK, host.port, f"b{i}", retry_for=10.0) for i in range(3)]
    from doubtlan.bots import make_bot

    tasks = [asyncio.create_task(botclient.play(c, make_bot("random", i)))
             for i, c in enumerate(clients)]
    watcher = Client(LOOPBACK, host.port, "watcher", watch=True)
    seen: list[object] = []
    watcher.on_message = seen.append
    watching = asyncio.create_task(watcher.run())
    try:
        await asyncio.wait_for(asyncio.gather(*tasks, watching), DEADLINE)
        await asyncio.wait_for(host.over.wait(), DEADLINE)
    finally:
        for client in [*clients, watcher]:
            await client.close()
        await host.close()
    assert table.state == "over" and len(table.results) == 2
    for client in [*clients, watcher]:
        verdicts = client.mirror.verdicts
        assert sorted(verdicts) == [1, 2] and all(v.ok for v in verdicts.values()), verdicts
    infos = [m for m in seen if isinstance(m, TableInfo)]
    assert infos and all(info.game == "iknowyoudont" for info in infos)
    assert isinstance(watcher.mirror.view, TableView) and watcher.mirror.view.hand == ()


def test_the_codec_round_trips_a_view_of_each_game() -> None:
    from doubtlan.rules import IDoubtIt
    from doubtlan.rules.iknowyoudont import IKnowYouDont

    for game in (IDoubtIt(3, seed=1), IKnowYouDont(3, seed=1)):
        message = State(1, 0, game.view(0), game.log(0), (), 0)
        data = protocol.encode(message)
        assert protocol.decode(data[protocol.HEADER.size:], "host") == message


def test_with_a_bot_delay_a_bot_holding_priority_waits_for_a_person_who_may_intercept() -> None:
    from doubtlan.rules.iknowyoudont import Kind

    for seed in range(100):  # a deal that gives the person (seat 2) an Interception
        h = Harness(config(seed=seed, bot_delay=1.0, turn_timeout=0.0), bots=2,
                    strategy="random")
        amy = h.hello("Amy")
        if any(card.kind is Kind.INTERCEPTION for card in view(h, amy).hand):
            break
    else:
        raise AssertionError("no deal gave seat 3 an Interception")
    game = h.table.game
    assert game is not None and game.turns == 1  # seat 1's bot played at once
    assert game.state.priority == 1 and view(h, amy).can(Intercept)
    h.advance(1.5)  # the bot delay after a turn, then the answer held for the person
    assert game.turns == 1 and game.state.priority == 1
    act(h, amy, "intercept")  # in time
    h.advance(1.0)  # (a Wildcard question to the bot waits out the same delay)
    assert game.view(None).claims[0].challenger == 2  # type: ignore[attr-defined]
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
    h = Harness(config(bot_delay=1.0, turn_timeout=0.0, players=3), bots=3, strategy="random")
    h.table.start(h.now)
    game = h.table.game
    assert game is not None and game.turns == 1 and game.state.phase is Phase.PRIORITY
    h.advance(1.0)  # the bot delay after the first play; then every answer at once
    assert game.turns == 2 or game.over
