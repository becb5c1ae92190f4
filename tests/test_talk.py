"""Table talk at the table, without a network (docs/talk.md): a seated player's lines
relayed to everyone, the rate and the mutes the host holds them to, the bots' remarks, and
the talk kept in the journal. Everything passes through the real codec (tests/wire.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from games import SPECS, GameSpec
from wire import Harness

from doubtlan.bots.talk import REMARKS, mood, remark
from doubtlan.net.errors import BadMessage
from doubtlan.net.journal import Journal, read
from doubtlan.net.messages import PROTOCOL_VERSION, Error, Hello, Said, Say, TableInfo
from doubtlan.net.protocol import CODEC
from doubtlan.net.table import Refused, Table, TableConfig
from doubtlan.net.table.talk import TALK_BURST, TALK_EVERY, TALK_KEPT
from doubtlan.net.verify import verify as verify_journal
from doubtlan.rules import game_named
from doubtlan.rules.told import Told


def config(**changes: object) -> TableConfig:
    settings: dict[str, object] = {"players": 3, "games": 1, "seed": 1, "window": 10.0,
                                   "turn_timeout": 60.0, "grace": 15.0, "autostart": False}
    settings.update(changes)
    return TableConfig(**settings)  # type: ignore[arg-type]


def heard(h: Harness, conn: int) -> list[Said]:
    return [m for m in h.inbox[conn] if isinstance(m, Said)]


def error_code(h: Harness, conn: int) -> str | None:
    errors = [m for m in h.inbox[conn] if isinstance(m, Error)]
    return errors[-1].code if errors else None


def test_a_line_reaches_every_seat_and_every_watcher_with_its_name() -> None:
    h = Harness(config())
    amy, ben = h.hello("Amy"), h.hello("Ben")
    watcher = h.hello("Zed", watch=True)
    h.send(amy, Say("  Sure   you do. "))
    for conn in (amy, ben, watcher):
        said = heard(h, conn)
        assert [(s.seat, s.name, s.line, s.bot, s.fresh) for s in said] == [
            (0, "Amy", "Sure you do.", False, True)]


def test_a_watcher_listens_and_a_blank_or_long_line_is_refused() -> None:
    h = Harness(config())
    amy, watcher = h.hello("Amy"), h.hello("Zed", watch=True)
    h.send(watcher, Say("hello"))
    assert error_code(h, watcher) == "spectating"
    h.send(amy, Say("   "))
    assert error_code(h, amy) == "bad_message"
    assert not heard(h, amy) and not heard(h, watcher)
    # What the wire refuses before the table sees it: too long, not printable.
    for line in ("x" * 81, "ring\x07", "two\nlines"):
        with pytest.raises(BadMessage):
            CODEC.decode({"type": "say", "line": line}, Say)


def test_a_burst_then_one_line_every_two_seconds() -> None:
    h = Harness(config())
    amy, ben = h.hello("Amy"), h.hello("Ben")
    for n in range(int(TALK_BURST)):
        h.send(amy, Say(f"line {n}"))
    assert error_code(h, amy) is None
    h.send(amy, Say("one too many"))
    assert error_code(h, amy) == "talk_too_fast"
    assert [s.line for s in heard(h, ben)] == ["line 0", "line 1", "line 2"]
    h.now += TALK_EVERY / 2
    h.send(amy, Say("still too soon"))
    h.now += TALK_EVERY
    h.send(amy, Say("now"))
    assert [s.line for s in heard(h, ben)][-1] == "now" and len(heard(h, ben)) == 4
    # Another seat's allowance is its own.
    h.send(ben, Say("mine"))
    assert heard(h, amy)[-1].line == "mine"


def test_a_flood_of_talk_is_refused_and_the_game_goes_on(spec: GameSpec) -> None:
    """A thousand lines in a moment: three said, the rest refused, and the game (its
    actions, the other seats' talk) goes on as if nothing happened."""
    h = Harness(config(game=spec.name, options=spec.options, autostart=True), bots=2)
    amy = h.hello("Amy")
    before = len(h.table.played)
    for n in range(1000):
        h.send(amy, Say(f"flood {n}"))
    assert sum(said.name == "Amy" for said in h.table.talk) == TALK_BURST
    assert sum(isinstance(m, Error) and m.code == "talk_too_fast" for m in h.inbox[amy]) == 997
    assert h.table.state == "playing" and len(h.table.played) == before
    h.advance(3 * 60.0)  # the turn timer plays for Amy; the bots play on
    assert len(h.table.played) > before


def test_the_host_mutes_a_seat_and_everyone_sees_it() -> None:
    h = Harness(config())
    amy, ben = h.hello("Amy"), h.hello("Ben")
    h.table.mute(1)
    h.flush()
    info = h.last(amy, TableInfo)
    assert isinstance(info, TableInfo) and info.seats[1].muted and not info.seats[0].muted
    h.send(ben, Say("you cannot hear me"))
    assert error_code(h, ben) == "muted" and not heard(h, amy)
    h.table.mute(1, on=False)
    h.flush()
    h.send(ben, Say("back"))
    assert heard(h, amy)[-1].line == "back"
    with pytest.raises(Refused):
        h.table.mute(2)  # nobody sits there


def test_talk_is_journaled_and_a_resumed_table_sends_it_again(tmp_path: Path) -> None:
    path = tmp_path / "talk.journal"
    h = Harness(config())
    h.table = Table(config(), Journal.create(path))
    amy, ben = h.hello("Amy"), h.hello("Ben")
    h.send(amy, Say("first"))
    h.now += 10
    h.send(ben, Say("second"))
    h.table.mute(1)
    h.flush()
    assert [r["line"] for r in read(path).records if r["t"] == "say"] == ["first", "second"]
    assert h.table.journal is not None
    h.table.journal.close(closed=False)
    _, problems = verify_journal(path)
    assert not any("unknown record" in p for p in problems), problems
    again = Table.resume(path, 100.0, autostart=False)
    assert [s.line for s in again.talk] == ["first", "second"]
    assert again.seats[1].muted
    h.table, h.now = again, 100.0
    cleo = h.hello("Cleo")
    resent = heard(h, cleo)
    assert [(s.name, s.line, s.fresh) for s in resent] == [("Amy", "first", False),
                                                          ("Ben", "second", False)]
    assert again.journal is not None
    again.journal.close()


def test_the_table_keeps_the_latest_lines() -> None:
    h = Harness(config())
    amy = h.hello("Amy")
    for n in range(TALK_KEPT + 20):
        h.now += TALK_EVERY
        h.send(amy, Say(f"line {n}"))
    assert len(h.table.talk) == TALK_KEPT and h.table.talk[0].line == "line 20"


def test_what_a_bot_says_depends_on_the_claim_as_the_table_saw_it() -> None:
    import random

    caught = Told(0, "one 7", None, False, 1, 1, 0, 3)
    assert (mood(caught, 0), mood(caught, 1), mood(caught, 2)) == ("caught", "right",
                                                                    "watching")
    honest = Told(0, "one 7", None, True, 1, 0, 0, 3)
    assert (mood(honest, 0), mood(honest, 1)) == ("honest", "wrong")
    stood = Told(0, "one 7", None, None, None, None, 0, 3)
    assert all(mood(stood, seat) is None for seat in range(3))
    rng = random.Random(1)
    said = [remark(caught, (0, 1, 2), rng) for _ in range(400)]
    spoken = [s for s in said if s is not None]
    assert spoken and all(line in REMARKS[mood(caught, seat) or ""] for seat, line in spoken)
    assert all(remark(stood, (0, 1, 2), rng) is None for _ in range(50))


@pytest.mark.parametrize("name", sorted(SPECS))
def test_the_bots_read_each_claim_as_the_table_saw_it(name: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The bots' remarks read every claim of every game, and only as a spectator's events
    tell it: no card of a claim that stood, nothing of a hand."""
    from doubtlan.net.table import talk

    spec = SPECS[name]
    table = Table(TableConfig(players=4, games=3, seed=7, next_game_delay=0.0, game=name,
                              options=spec.options, bot_delay=1.0))
    read_by_bots: dict[int, list[Told]] = {}
    games = {}

    def reading(told: Told, bots: tuple[int, ...], rng: object) -> object:
        read_by_bots.setdefault(table.match.games, []).append(told)
        return remark(told, bots, rng)  # type: ignore[arg-type]

    monkeypatch.setattr(talk, "remark", reading)
    for _ in range(4):
        table.seat_bot("random")
    now = 0.0
    table.start(now)
    for _ in range(5000):
        games[table.match.games] = table.game
        if table.state == "over":
            break
        now += 1.0
        table.tick(now)
    assert table.state == "over" and len(games) == 3
    kind = game_named(name)

    def fields(told: Told) -> tuple[object, ...]:
        return told.seat, told.said, told.shown, told.held, told.by, told.right

    for number, game in games.items():
        assert game is not None
        public = kind.tell(game.log(None))
        assert [fields(t) for t in read_by_bots[number]] == [fields(t) for t in public]
        # What the game keeps face down (claims that stood) the bots read face down; what
        # it shows the table (a doubt's cards, the discs a bid turned) they read whole.
        whole = kind.tell(game.state.events)
        assert any(t.by is None for t in whole)
        assert all(p.shown is None if spec.face_down(w) else p == w
                   for p, w in zip(public, whole, strict=True))
    said = table.talk  # (nobody is connected to be sent it)
    assert said and all(s.bot and any(s.line in lines for lines in REMARKS.values())
                        for s in said)


def test_a_muted_bot_says_nothing() -> None:
    table = Table(TableConfig(players=3, games=2, seed=7, next_game_delay=0.0))
    for _ in range(3):
        table.seat_bot("random")
    for seat in range(3):
        table.mute(seat)
    table.start(0.0)
    now = 0.0
    while table.state != "over" and now < 2000:
        now += 1.0
        table.tick(now)
    assert table.state == "over" and not table.talk
    table.mute(0, on=False)
    assert [s.muted for s in table.info().seats] == [False, True, True]


def _bots_only_talk(bot_talk: bool = True) -> list[tuple[int, str, int, int]]:
    table = Table(TableConfig(players=4, games=2, seed=11, next_game_delay=0.0,
                              bot_delay=0.0, bot_talk=bot_talk))
    for _ in range(4):
        table.seat_bot("counter")
    table.start(0.0)
    now = 0.0
    while table.state != "over" and now < 100:  # (bots without a delay play each game at once)
        now += 1.0
        table.tick(now)
    assert table.state == "over"
    return [(s.seat, s.line, s.game, s.claims) for s in table.talk]


def test_a_seeded_tables_bots_say_the_same_every_time_and_quiet_bots_nothing() -> None:
    said = _bots_only_talk()
    assert said and said == _bots_only_talk()
    assert _bots_only_talk(bot_talk=False) == []


def test_a_resumed_tables_bots_do_not_say_again_what_they_said(tmp_path: Path) -> None:
    """Resumed mid-game, the bots have looked at every claim settled so far: nothing they
    remarked on before the host stopped is remarked on again."""
    path = tmp_path / "bots.journal"
    table = Table(TableConfig(players=3, games=1, seed=7, bot_delay=1.0, game="liarsdeck",
                              options=SPECS["liarsdeck"].options), Journal.create(path))
    for _ in range(3):
        table.seat_bot("random")
    now = 0.0
    table.start(now)
    while len(table.talk) < 2 and table.state == "playing":
        now += 1.0
        table.tick(now)
    assert len(table.talk) == 2 and table.state == "playing"
    assert table.journal is not None
    table.journal.close(closed=False)  # (the host stopped mid-game)
    again = Table.resume(path, 0.0)
    assert again.talk == table.talk  # (nothing new said on resuming)
    settled = len(again.game.state.records)  # type: ignore[union-attr]
    while again.state == "playing" and len(again.game.state.records) == settled:  # type: ignore[union-attr]
        now += 1.0
        again.tick(now)
    assert all(said.claims > table.talk[-1].claims for said in again.talk[2:])
    assert again.journal is not None
    again.journal.close()


def test_a_line_said_as_someone_joins_reaches_them_once() -> None:
    h = Harness(config())
    amy = h.hello("Amy")
    table = h.table
    table.receive(amy, h.mirrors[amy].signed(Say("hello all")), h.now)  # (not yet relayed ...)
    ben = h.connect()
    table.receive(ben, h.mirrors[ben].signed(Hello(PROTOCOL_VERSION, "Ben", None, None, False)),
                  h.now)  # (... Ben in)
    h.flush()
    assert [(s.line, s.fresh) for s in heard(h, ben)] == [("hello all", True)]
    assert [(s.line, s.fresh) for s in heard(h, amy)] == [("hello all", True)]
