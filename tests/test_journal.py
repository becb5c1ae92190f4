"""The host's journal: records that survive a crash at any moment, and a table resumed from
them that loses no action, applies none twice, and plays its match to the end. The tables
that take ``spec`` are a contract of every game (tests/games.py holds what differs)."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
from games import GameSpec

from doubtlan.cli import main
from doubtlan.net.botclient import Decider
from doubtlan.net.client import Client
from doubtlan.net.hosted import HostedTable
from doubtlan.net.journal import FIRST_LINK, HEADER, MAGIC, OLD_MAGIC, Journal, JournalError, read
from doubtlan.net.journal import link as chain_link
from doubtlan.net.messages import PROTOCOL_VERSION, Hello, Message
from doubtlan.net.mirror import Mirror
from doubtlan.net.table import Table, TableConfig
from doubtlan.net.verify import verify as verify_journal
from doubtlan.rules.fairness import Played

# -- the file ---------------------------------------------------------------------------------


def test_records_read_back_and_a_torn_last_record_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "j.journal"
    journal = Journal.create(path)
    records = [{"t": "x", "n": n, "b": bytes([n]) * n} for n in range(20)]
    for record in records:
        journal.append(record)
    journal.close()
    whole = path.read_bytes()
    contents = read(path)
    *kept, closed = contents.records
    assert kept == records and contents.good == len(whole)
    assert closed["t"] == "closed" and closed["why"] == "ended" and closed["when"]
    assert contents.closed and contents.damage is None
    for cut in range(len(MAGIC), len(whole), 7):  # every kind of torn end
        path.write_bytes(whole[:cut])
        contents = read(path)
        assert contents.records == records[:len(contents.records)]
        assert contents.good + contents.torn == cut
        assert contents.damage is None and not contents.closed
    path.write_bytes(whole[:-1] + bytes([whole[-1] ^ 1]))  # a bit flipped in the last
    assert read(path).records == records and read(path).damage is None
    path.write_bytes(whole + bytes(100))  # a torn write the disk filled with zeros
    assert read(path).damage is None and read(path).torn == 100


def record_offsets(data: bytes) -> list[int]:
    """Where each record of a whole journal begins."""
    offsets, offset = [], len(MAGIC)
    while offset < len(data):
        offsets.append(offset)
        (length, _), offset = HEADER.unpack_from(data, offset), offset
        offset += HEADER.size + length
    return offsets


def test_a_record_damaged_before_whole_ones_is_damage_not_a_torn_end(tmp_path: Path) -> None:
    path = tmp_path / "j.journal"
    journal = Journal.create(path)
    for n in range(12):
        journal.append({"t": "x", "n": n, "b": bytes([n]) * 30})
    journal.close()
    whole = path.read_bytes()
    offsets = record_offsets(whole)
    # Any byte of any record but the last (closed) one: the records after it still read.
    for at in range(len(MAGIC), offsets[-1]):
        damaged = bytearray(whole)
        damaged[at] ^= 0x10
        path.write_bytes(damaged)
        contents = read(path)
        start = max(o for o in offsets if o <= at)
        assert contents.damage is not None, at
        assert f"damaged at byte {start}:" in contents.damage
        assert contents.good == start and len(contents.records) == offsets.index(start)


def test_a_journal_is_locked_while_a_host_writes_it(tmp_path: Path) -> None:
    path = tmp_path / "j.journal"
    first = Journal.create(path)
    first.append({"t": "x"})
    with pytest.raises(JournalError, match="in use: another host is writing it"):
        Journal.open(path)
    first.close()
    second, contents = Journal.open(path)
    assert [r["t"] for r in contents.records] == ["x", "closed"]
    with pytest.raises(JournalError, match="in use"):
        Journal.open(path)
    second.close()


def test_a_resume_that_fails_to_cut_the_journal_lets_it_go(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.journal"
    table = Table(TableConfig(players=3, games=1, seed=1), journal=Journal.create(path))
    assert table.journal is not None
    table.journal.close(closed=False)  # a host killed in the lobby

    def fails(self: Journal, good: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Journal, "cut", fails)
    with pytest.raises(OSError, match="No space left"):
        Table.resume(path, 0.0)
    monkeypatch.undo()
    again = Table.resume(path, 0.0)  # not locked by the failed attempt
    assert again.journal is not None
    again.journal.close()


def test_an_old_journal_is_refused_with_a_sentence(tmp_path: Path) -> None:
    path = tmp_path / "old.journal"
    path.write_bytes(OLD_MAGIC + bytes(20))
    with pytest.raises(JournalError, match="older doubtlan"):
        read(path)


def test_a_journal_is_never_overwritten_and_a_stranger_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.journal"
    Journal.create(path).close()
    with pytest.raises(JournalError, match="already exists"):
        Journal.create(path)
    (tmp_path / "other").write_bytes(b"hello")
    with pytest.raises(JournalError, match="not a doubtlan journal"):
        read(tmp_path / "other")


# -- a table killed and resumed -------------------------------------------------------------


class Player:
    """A person's seat at ``table``, played by a bot through the table's own messages."""

    def __init__(self, spec: GameSpec, table: Table, conn: int, mirror: Mirror,
                 seed: int) -> None:
        """A connection ``conn`` to ``table`` whose client keeps ``mirror`` (over a lost
        connection, the same one: it comes back with the seat's token)."""
        self.table, self.conn, self.mirror = table, conn, mirror
        self.decider = Decider(spec.bot("random", bytes([seed])))
        table.connect(conn, "10.0.0.9")
        table.receive(conn, mirror.signed(Hello(PROTOCOL_VERSION, "Amy", None, mirror.token,
                                                False, mirror.seed_hash())), 0.0)

    def take(self, messages: list[tuple[int, Message]], now: float) -> None:
        for conn, message in messages:
            if conn != self.conn:
                continue
            self.mirror.receive(message)
            seed = self.mirror.seed_due()  # (the table waits for the seats' seeds)
            if seed is not None:
                self.table.receive(self.conn, seed, now)
            for act in self.decider.decide(self.mirror, message):
                act = self.mirror.signed(act)
                self.mirror.sending(act)
                self.table.receive(self.conn, act, now)


def config(spec: GameSpec) -> TableConfig:
    return TableConfig(players=4, games=2, window=5.0, turn_timeout=0.0, grace=0.0,
                       next_game_delay=0.0, game=spec.name, options=spec.options)


Told = tuple[int, list[Played]]


def step(table: Table, player: Player, now: float) -> tuple[float, Told]:
    """Send what the table has to send (and say which game and actions that told of); when
    nothing happens, let its next clock come."""
    out = table.take_outbox()
    told = (table.match.games, list(table.played))
    player.take(out, now)
    if not out and not table.outbox:
        due = table.next_deadline()
        if due is not None:
            now = max(now, due)
            table.tick(now)
    return now, told


def conserved(spec: GameSpec, table: Table) -> bool:
    return table.game is None or spec.conserved(table.game)


def start(spec: GameSpec, path: Path, seed: int | None = None,
          **changes: Any) -> tuple[Table, Player]:
    settings = config(spec)
    settings.seed = seed
    for name, value in changes.items():
        setattr(settings, name, value)
    table = Table(settings, Journal.create(path))
    for _ in range(3):
        table.seat_bot("random")
    player = Player(spec, table, 1, Mirror(contribution=b"\xab" * 16), seed=1)
    return table, player


@pytest.mark.parametrize("run", range(4))
def test_a_host_killed_at_any_moment_resumes_and_loses_nothing(spec: GameSpec, tmp_path: Path,
                                                                run: int) -> None:
    """30 random moments in each of 4 runs: 120 kills. The journal as it is on the disk at
    the kill (and, half the time, a torn record after it) is all that is left."""
    rng = random.Random(run)
    for moment in range(30):
        path = tmp_path / f"{moment}.journal"
        table, player = start(spec, path)
        now, steps = 0.0, rng.randrange(5, 400)
        told: Told = (0, [])  # the game, and its actions, the table last told anyone of
        for _ in range(steps):
            if table.state == "over":
                break
            now, told = step(table, player, now)
            assert conserved(spec, table)
        # kill -9: what reached the disk is all there is (and maybe half a record)
        left = path.read_bytes()
        if rng.random() < 0.5:
            left += rng.randbytes(rng.randrange(1, 40))
        copy = tmp_path / f"{moment}-left.journal"
        copy.write_bytes(left)
        assert table.journal is not None
        table.journal.close()  # (only now: a copy of what was on the disk is what is left)
        resumed = Table.resume(copy, now)
        told_game, told_actions = told
        assert resumed.match.games >= told_game, "a deal told to the players was lost"
        if resumed.match.games == told_game:
            assert resumed.played[:len(told_actions)] == told_actions, \
                "an action told to the players was lost"
        # The actions read back from the journal are the table's, in order; the table
        # resumed then plays on by itself (bots, stand-ins, clocks), for no player. (Its
        # bots are new: I Know You Don't's may now intercept where the old ones did not.)
        restored = sum(1 for record in read(copy).records
                       if record["t"] == "act" and record["game"] == resumed.match.games)
        if resumed.match.games == table.match.games:
            assert resumed.played[:restored] == table.played[:restored], \
                "an action was applied that the table had not (or twice)"
        assert len(resumed.played) >= restored
        assert all(played.by != "player" for played in resumed.played[restored:])
        assert conserved(spec, resumed)
        # Amy comes back with her token and the match plays on to its end.
        assert player.mirror.token is not None
        back = Player(spec, resumed, 2, player.mirror, seed=2)
        now += 1.0
        for _ in range(5000):
            if resumed.state == "over":
                break
            now, _ = step(resumed, back, now)
            assert conserved(spec, resumed)
        assert resumed.state == "over" and len(resumed.results) == 2
        assert back.mirror.seat == player.mirror.seat
        assert all(verdict.ok for verdict in back.mirror.verdicts.values()), back.mirror.verdicts
        # The journal of the whole match reads back to the same match.
        assert resumed.journal is not None
        resumed.journal.close()
        again = Table.resume(copy, now)
        assert again.journal is not None
        again.journal.close()
        assert again.results == resumed.results and again.played == resumed.played


# -- doubtlan verify --------------------------------------------------------------------------


def played_match(spec: GameSpec, tmp_path: Path, **changes: Any) -> Path:
    """The journal of a whole match of two games (Amy, who answers at once, and three bots),
    the same each time; ``changes``: to the table's settings."""
    path = tmp_path / "match.journal"
    table, player = start(spec, path, seed=7, **changes)
    now = 0.0
    for _ in range(5000):
        if table.state == "over":
            break
        now, _ = step(table, player, now)
    assert table.state == "over" and table.journal is not None
    table.journal.close(why="over")
    return path


def rewritten(path: Path, change: Callable[[list[dict[str, Any]]], None]) -> Path:
    """A copy of the journal at ``path`` with its records changed by ``change`` (each
    record written whole again, checksums and all, as a forger would)."""
    records = read(path).records
    change(records)
    copy = path.with_name("changed.journal")
    copy.unlink(missing_ok=True)
    journal = Journal.create(copy)
    for record in records:
        journal.append(record)
    journal.close(closed=False)  # (the records hold their own ``closed``, or not)
    return copy


def edited(path: Path, change: Callable[[list[bytes]], list[bytes]]) -> Path:
    """A copy of the journal at ``path`` with its records' bytes changed by ``change``, each
    record changed written again with its own header made right, as someone editing the
    file by hand with docs/journal.md would: the records after it are left as they were."""
    data = path.read_bytes()
    offsets = [*record_offsets(data), len(data)]
    chunks = [data[a:b] for a, b in zip(offsets, offsets[1:], strict=False)]
    links = [HEADER.unpack_from(chunk)[1] for chunk in chunks]
    out = bytearray(MAGIC)
    previous = FIRST_LINK
    for chunk in change(chunks):
        if chunk in chunks:
            out += chunk
            previous = links[chunks.index(chunk)]
        else:  # a record changed: its own link made right, from the one before it
            body = chunk[HEADER.size:]
            previous = chain_link(previous, body)
            out += HEADER.pack(len(body), previous) + body
    copy = path.with_name("edited.journal")
    copy.write_bytes(bytes(out))
    return copy


def test_verify_passes_a_whole_match_and_a_torn_one(spec: GameSpec, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = played_match(spec, tmp_path)
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert "game 1: verified, won by seat" in out and "game 2: verified" in out
    assert "seat 0" not in out  # seats count from 1 in what a person reads
    assert out.rstrip().endswith("journal verified")
    torn = tmp_path / "torn.journal"
    torn.write_bytes(path.read_bytes()[:-5])  # the ``closed`` record torn: a crash
    assert main(["verify", str(torn)]) == 1
    out = capsys.readouterr().out
    assert "game 2: verified" in out and "a write cut short" in out
    assert "MISMATCH: the journal does not end where its table closed it" in out


def test_verify_fails_on_each_edit_of_the_journal_file(spec: GameSpec, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """The seven edits of issue 14, made to the file's bytes: each is named."""
    path = played_match(spec, tmp_path)
    data = path.read_bytes()
    records = read(path).records
    kinds = [record["t"] for record in records]
    deals = [i for i, kind in enumerate(kinds) if kind == "deal"]
    game_one = slice(deals[0], deals[1])

    def body(chunk: bytes) -> dict[str, Any]:
        return msgpack.unpackb(chunk[HEADER.size:])

    def packed(record: dict[str, Any]) -> bytes:
        return bytes(HEADER.size) + msgpack.packb(record)

    def flipped(chunks: list[bytes]) -> list[bytes]:
        return chunks  # (the flip is made below, on the bytes)

    def cut(chunks: list[bytes]) -> list[bytes]:
        return chunks[:deals[1] + 3]

    def removed(chunks: list[bytes]) -> list[bytes]:
        return chunks[:game_one.start] + chunks[game_one.stop:]

    def repeated(chunks: list[bytes]) -> list[bytes]:
        return chunks[:game_one.stop] + chunks[game_one] + chunks[game_one.stop:]

    def relabelled(chunks: list[bytes]) -> list[bytes]:
        at = next(i for i, r in enumerate(records) if r["t"] == "act" and r["by"] == "player")
        return [packed({**body(c), "by": "timer"}) if i == at else c
                for i, c in enumerate(chunks)]

    def renamed(chunks: list[bytes]) -> list[bytes]:
        table = body(chunks[0])
        table["config"]["name"] = "Mallory's table"
        return [packed(table), *chunks[1:]]

    def repinned(chunks: list[bytes]) -> list[bytes]:
        table = body(chunks[0])
        table["config"]["pin"] = "0000"
        return [packed(table), *chunks[1:]]

    damaged = "damaged at byte"
    for change, said in ((flipped, damaged), (cut, "does not end where its table closed"),
                         (removed, damaged), (repeated, damaged), (relabelled, damaged),
                         (renamed, damaged), (repinned, damaged)):
        copy = edited(path, change)
        if change is flipped:
            flip = bytearray(copy.read_bytes())
            flip[len(data) // 2] ^= 0x01
            copy.write_bytes(bytes(flip))
        assert main(["verify", str(copy)]) == 1, change.__name__
        out = capsys.readouterr().out
        assert "MISMATCH" in out and said in out, (change.__name__, out)
        assert not out.rstrip().endswith("journal verified")
        if change is not cut:  # (a journal cut at a record's end resumes, as after a crash)
            before = copy.read_bytes()
            with pytest.raises(JournalError, match="damaged at byte .* left as it is"):
                Table.resume(copy, 0.0)
            assert copy.read_bytes() == before, "a damaged journal was cut"


def test_verify_names_games_missing_repeated_and_actions_the_host_could_not_play(
        spec: GameSpec, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Even a forger who writes the whole chain again is caught at these."""
    path = played_match(spec, tmp_path)
    records = read(path).records
    deals = [i for i, r in enumerate(records) if r["t"] == "deal"]

    def removed(changed: list[dict[str, Any]]) -> None:
        del changed[deals[0]:deals[1]]

    def repeated(changed: list[dict[str, Any]]) -> None:
        changed[deals[1]:deals[1]] = changed[deals[0]:deals[1]]

    def relabelled(changed: list[dict[str, Any]]) -> None:
        # a player's turn action said to be the turn timer's, where the timer plays another
        game = None
        from doubtlan.rules import game_named
        from doubtlan.rules.fairness import deal_seed
        kind = game_named(spec.name)
        for record in changed:
            if record["t"] == "deal":
                game = kind(4, spec.options, seed=deal_seed(
                    record["secret"], record["game"], tuple(record["seeds"])),
                    opener=record["opener"])
            elif record["t"] == "act" and game is not None:
                action = game.parse_action(record["action"])
                rule = game.timeout_actions(record["seat"])
                if record["by"] == "player" and game.turn_seat() == record["seat"] and \
                        rule and rule[0] != action:
                    record["by"] = "timer"
                    return
                game.apply(record["seat"], action)
        raise AssertionError("no player's turn the timer would have played otherwise")

    for change, said in ((removed, "game 1 is missing"), (repeated, "game 1 is dealt again"),
                         (relabelled, "is not what the rules play when time runs out")):
        assert main(["verify", str(rewritten(path, change))]) == 1, change.__name__
        out = capsys.readouterr().out
        assert said in out, (change.__name__, out)


def test_verify_catches_a_changed_secret_seed_or_action(spec: GameSpec, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    path = played_match(spec, tmp_path)

    def deal(records: list[dict[str, Any]]) -> dict[str, Any]:
        return next(r for r in records if r["t"] == "deal")

    def secret(records: list[dict[str, Any]]) -> None:
        deal(records)["secret"] = bytes(32)

    def seed(records: list[dict[str, Any]]) -> None:
        seeds = deal(records)["seeds"]
        seeds[3] = b"another seed"

    def action(records: list[dict[str, Any]]) -> None:
        turn, illegal = spec.forged_turn
        acts = [r for r in records if r["t"] == "act" and r["action"].split()[0] == turn]
        acts[0]["action"] = illegal

    def dropped(records: list[dict[str, Any]]) -> None:
        records.remove(next(r for r in records if r["t"] == "act"))

    def answered(records: list[dict[str, Any]]) -> None:
        given = next(r for r in records if r["t"] == "act" and spec.changed(r["action"]))
        given["action"] = spec.changed(given["action"])  # still legal: only what followed shows it

    for change, said in ((secret, "does not match the commitment"),
                         # (another deal: its first card is not in the hand, or its seal
                         # is another)
                         (seed, "breaks the rules|went otherwise than the journal says"),
                         (action, "breaks the rules"),
                         (dropped, "journal says|breaks the rules"),
                         (answered, "went otherwise than the journal says")):
        assert main(["verify", str(rewritten(path, change))]) == 1, change.__name__
        out = capsys.readouterr().out
        assert "MISMATCH" in out and re.search(said, out), (change.__name__, out)


def test_the_journal_verifies_and_a_table_resumed_between_games_plays_on(
        spec: GameSpec, tmp_path: Path) -> None:
    path = tmp_path / "between.journal"
    table = Table(TableConfig(players=3, games=2, seed=None, next_game_delay=None,
                              window=10.0, turn_timeout=60.0, grace=15.0, game=spec.name,
                              options=spec.options), Journal.create(path))
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
    assert again.kind.name == spec.name and again.config.options == spec.options
    assert again.match.games == 1 and again.results == table.results
    for _ in range(100):
        if again.state == "over":
            break
        now += 5.0
        again.tick(now)
        again.take_outbox()
    assert again.state == "over" and len(again.results) == 2
    assert again.journal is not None
    again.journal.close(why="over")
    lines, problems = verify_journal(path)
    assert not problems and sum("verified" in line for line in lines) == 2, lines


def test_a_new_hosts_journal_is_on_the_disk_before_it_serves(tmp_path: Path) -> None:
    """A host stopped before its first message (kill -9 while nobody has joined) leaves a
    journal that reads and resumes, not an empty file."""
    path = tmp_path / "table.journal"
    hosted = HostedTable(TableConfig(players=3, games=1), bots=2, strategy="random",
                         bind="127.0.0.1", journal=path)
    try:
        records = read(path).records
        assert records[0]["t"] == "table" and records[-1]["t"] == "seats"
    finally:
        assert hosted.table.journal is not None
        hosted.table.journal.close(closed=False)
    resumed = HostedTable(TableConfig(players=3, games=1), bind="127.0.0.1", resume=path)
    assert resumed.resumed and [seat.taken for seat in resumed.table.seats].count(True) == 2
    assert resumed.table.journal is not None
    resumed.table.journal.close(closed=False)


# -- the host's key ---------------------------------------------------------------------------


async def test_a_resumed_table_presents_the_same_key(tmp_path: Path) -> None:
    """The host's key lives in the data folder beside the journals (docs/security.md): the
    table resumed from its journal shows the players the key they saw before."""
    path = tmp_path / "table.journal"
    settings = TableConfig(players=3, games=1, autostart=False)
    first = HostedTable(settings, bind="127.0.0.1", journal=path)
    await first.start()
    client = Client("127.0.0.1", first.port, "Amy", first_try_for=5.0)
    try:
        seen = await _first_key(client)
    finally:
        await first.close()
    resumed = HostedTable(settings, bind="127.0.0.1", resume=path)
    await resumed.start()
    again = Client("127.0.0.1", resumed.port, "Amy", first_try_for=5.0)
    try:
        assert await _first_key(again) == seen == resumed.table.fingerprint
        assert len(seen) == 32
    finally:
        await resumed.close()


async def _first_key(client: Client) -> bytes:
    """The fingerprint ``client`` saw, once the host welcomed it."""
    task = asyncio.create_task(client.run())
    try:
        async with asyncio.timeout(10):
            await client.connected.wait()
        return bytes(client.fingerprint)
    finally:
        await client.close()
        await asyncio.gather(task, return_exceptions=True)
