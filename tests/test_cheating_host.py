"""A host that cheats is caught by the unmodified client: `doubtlan join --bot` as a process
of its own, against the real host with a cheat's hooks (tests/tampering.py), on loopback.
Each attack is also made zero times, against which the same client must find nothing.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
import tampering
from apps import DRIVERS, TickingClock, wait_for
from delay import SPIKE, DelayProxy
from games import GameSpec, spec_of
from relay import Relay

from doubtlan.cli import main
from doubtlan.net import known
from doubtlan.net.client import Client
from doubtlan.net.identity import words
from doubtlan.net.journal import Journal
from doubtlan.net.table import Table, TableConfig
from doubtlan.tui.app import DoubtApp
from doubtlan.tui.setup import JoinSetup

#: What the client says of each attack (net/timing.py's sentences).
SAID = {
    "instant": ("before it showed you your turn", "a window on you that it had not shown you"),
    "early": ("the host's turn timer played for you after at most",
              "the host closed a window on you after at most"),
    "stand-in": ("for you (action",),
    "ping-silence": ("that it showed while it left your pings unanswered for more than",
                     "after a turn it showed while it left your pings unanswered"),
    "ignore-seed": ("your seed on a connection that stayed up until the deal",),
    "rush-seed": ("your seed on a connection that stayed up until the deal",),
    "held-pongs": ("your seed on a connection that stayed up until the deal",),
    "rewrite": ("but the deal and the actions give",),
    "false-mark": ("as played for you, but the reveal says no clock or stand-in",),
    "forged-move": ("which its player did not sign",),
    "forged-line": (f"the host relayed {tampering.FORGED_LINE!r} as Amy's, who did not sign it",),
}
#: What `doubtlan verify` says of the host's journal, where the journal can tell (its times:
#: a stand-in's, a seed's and the reveal's lies leave none there).
JOURNAL_SAID = {"instant": ("s into the turn, of the table's", "s into the window, of the"),
                "early": ("s into the turn, of the table's", "s into the window, of the"),
                "ping-silence": ("s into the turn, of the table's", "s into the window, of the"),
                "forged-move": ("'s player did not sign",),
                "forged-line": (f"Amy did not sign {tampering.FORGED_LINE!r}",)}


async def _cheated(spec: GameSpec, attack: str, times: int, journal: Path | None = None
                   ) -> tuple[tampering.Tampering, int, str, str]:
    # (the stand-in's victim lets its clocks run out: short ones; and a name of its own:
    # each in-process host has a key of its own, which the client remembers for the name.
    # Otherwise long ones: a wait cut after tampering.EARLY is told from a whole one by its
    # client's own clock, with seconds to spare for a machine busy with other work)
    turn, window = (1.0, 0.5) if attack == "stand-in" else (5.0, 5.0)
    config = TableConfig(players=3, games=1, window=window, turn_timeout=turn, bot_delay=0.0,
                         game=spec.name, options=spec.options,
                         name=f"{attack} {spec.name} {times}")
    table = tampering.Tampering(config, attack, times=times,
                                journal=None if journal is None else Journal.create(journal))
    table.seat_bot("random")
    table.seat_bot("random")
    host = await tampering.serve(table)
    try:
        code, out, err = await tampering.join_bot(host.port)
    finally:
        await host.close()
        if table.journal is not None:
            table.journal.close(why="over" if table.state == "over" else "ended")
    return table, code, out, err


@pytest.mark.parametrize("attack", [a for a in tampering.CLOCK_ATTACKS if a != "ping-silence"])
async def test_each_clock_cheat_is_a_problem_for_the_seat_it_cheats(
        spec: GameSpec, attack: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "cheat.journal"
    await _caught(spec, attack, journal)
    if attack in JOURNAL_SAID:  # and the host's own journal gives it away
        assert main(["verify", str(journal)]) == 1
        said = capsys.readouterr().out
        assert any(line in said for line in JOURNAL_SAID[attack]), said


async def test_a_clock_move_after_pings_left_unanswered_is_a_problem(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """(The clocks are judged by the same code, net/timing.py, in every game: one shows
    it.)"""
    journal = tmp_path / "cheat.journal"
    await _caught(spec_of("iknowyoudont"), "ping-silence", journal)
    assert main(["verify", str(journal)]) == 1
    said = capsys.readouterr().out
    assert any(line in said for line in JOURNAL_SAID["ping-silence"]), said


@pytest.mark.parametrize("attack", tampering.SEED_ATTACKS)
async def test_a_seed_left_out_is_a_problem_for_its_seat(attack: str) -> None:
    """(The seeds go into every game's deal by the same code, rules/fairness.py: one game
    shows it.)"""
    await _caught(spec_of("idoubtit"), attack)


async def test_a_story_rewritten_in_the_reveal_is_caught_by_the_cards_seals() -> None:
    """Two cards a bot laid in claims that stood, swapped in the reveal: every replay but
    the bot's own shows the same cards and counts (on a doubtlan without seals, Amy's
    client verified it), but not the same seals."""
    await _caught(spec_of("idoubtit"), "rewrite")


async def test_a_claim_of_yours_marked_as_played_for_you_is_caught(spec: GameSpec) -> None:
    """The host stars claims the player made as if its clocks had played them: the
    player's client holds the marks to the reveal."""
    await _caught(spec, "false-mark")


@pytest.mark.parametrize("attack", tampering.SIGNED_ATTACKS)
async def test_a_move_or_a_line_in_a_players_name_is_caught_by_its_signature(
        spec: GameSpec, attack: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The host makes a move or says a line in Amy's name that her key never signed: her
    client finds it (exit 1), and `doubtlan verify` finds it in the host's own journal."""
    journal = tmp_path / "forged.journal"
    await _caught(spec, attack, journal)
    assert main(["verify", str(journal)]) == 1
    said = capsys.readouterr().out
    assert any(line in said for line in JOURNAL_SAID[attack]), said


async def _caught(spec: GameSpec, attack: str, journal: Path | None = None) -> None:
    table, code, out, err = await _cheated(spec, attack, times=2, journal=journal)
    assert table.forged, "the host made no forged move: the test tests nothing"
    assert code == 1, (out, err)
    assert "game 1: the deal did not check out" in out, out
    assert any(said in out for said in SAID[attack]), out


async def test_the_same_host_playing_fair_is_verified(spec: GameSpec) -> None:
    table, code, out, err = await _cheated(spec, "early", times=0)
    assert not table.forged
    assert code == 0, (out, err)
    assert "game 1: deal verified" in out, out


async def test_an_honest_host_is_not_accused_on_a_congested_link() -> None:
    """Amy's client lets every turn and window of two games run out, through a link that
    holds each chunk 20 to 150 ms and one in seven 1.2 s more: every game is verified,
    though many a wait's start reached her late (the host was honest). Each wait is 1 s:
    the spikes are longer than that."""
    spec = spec_of("iknowyoudont")
    # (a fixed seed, so that the host's bots play the same short match every time: this
    # one takes 12 s of waits)
    config = TableConfig(players=3, games=2, window=1.0, turn_timeout=1.0, bot_delay=0.0,
                         game=spec.name, options=spec.options, seed=12, name="Congested")
    table = Table(config)
    table.seat_bot("random")
    table.seat_bot("random")
    host = await tampering.serve(table)
    try:
        async with DelayProxy(host.port, random.Random(8)) as link:
            amy = Client("127.0.0.1", link.port, "Amy", retry_for=0.0)  # (never acts)
            bye = await asyncio.wait_for(amy.run(), 240)
            await amy.close()
    finally:
        await host.close()
    assert bye is not None and bye.code == "match_over", bye
    # (in the last game alone: the table keeps the actions of the game it plays)
    timed_out = [p for p in table.played if p.seat == amy.mirror.seat and p.by != "player"]
    assert len({p.by for p in timed_out}) == 2 and len(timed_out) >= 5, timed_out
    assert link.longest > SPIKE  # (the link did hold some chunks long)
    assert amy.connections == 1
    assert sorted(amy.mirror.verdicts) == [1, 2]
    assert all(verdict.checked and not verdict.problems
               for verdict in amy.mirror.verdicts.values()), amy.mirror.verdicts


async def test_a_relay_in_front_of_a_table_joined_before_is_refused_before_the_hello() -> None:
    """Amy joined the real table before (its key is remembered for its name); now a relay
    with a key of its own stands in front of it, relaying its name. `join --bot` refuses it
    (exit 1) having said nothing but `peek`: no hello, no seed, no seat taken."""
    config = TableConfig(players=3, games=1, window=2.0, turn_timeout=5.0, bot_delay=0.0,
                         name="The real table")
    table = Table(config)
    table.seat_bot("random")
    host = await tampering.serve(table)
    try:
        known.check(config.name, table.fingerprint)  # as if Amy had joined it before
        async with Relay("127.0.0.1", host.port) as relay:
            code, out, err = await tampering.join_bot(relay.port)
            sent = relay.messages("to host")
    finally:
        await host.close()
    assert code == 1, (out, err)
    assert "the table 'The real table' had another key when you last joined it" in err, err
    assert f"now: {words(relay.identity.fingerprint)}" in err
    assert [message["type"] for message in sent] == ["peek"]
    assert table.taken == 1  # (the bot)


async def test_the_app_shows_a_clock_move_no_wait_explains() -> None:
    """Ben plays in the app at a host that plays every one of his turns and windows by its
    clocks the moment each begins: the results say the deal did not check out, and why.
    (The results' line is every game's: tests/test_app.py.)"""
    spec = spec_of("idoubtit")
    config = TableConfig(players=3, games=1, window=2.0, turn_timeout=5.0, bot_delay=0.0,
                         game=spec.name, options=spec.options, name=f"Forged {spec.name}")
    table = tampering.Tampering(config, "instant", victim="Ben", times=10_000)
    table.seat_bot("random")
    table.seat_bot("random")
    host = await tampering.serve(table)
    driver = DRIVERS[spec.name]
    try:
        app = DoubtApp("Ben", join=JoinSetup(address=("127.0.0.1", host.port)),
                       clock=TickingClock())
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: app.play is not None and app.play.pane == "results"
                           and app.play.query(driver.results), "the results")
            assert app.play is not None
            results = app.play.query_one(driver.results)
            await wait_for(pilot, lambda: str(results.deal).startswith(
                "The deal did not check out"), "the check")
            assert "before it showed you your turn" in str(results.deal) or \
                "a window on you that it had not shown you" in str(results.deal)
    finally:
        await host.close()
    assert len(table.forged) >= 3
