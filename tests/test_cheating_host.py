"""A host that cheats is caught by the unmodified client: `doubtlan join --bot` as a process
of its own, against the real host with a cheat's hooks (tests/tampering.py), on loopback.
Each attack is also made zero times, against which the same client must find nothing.
"""

from __future__ import annotations

import asyncio
import random

import pytest
import tampering
from delay import SPIKE, DelayProxy
from games import GameSpec, spec_of

from doubtlan.net.client import Client
from doubtlan.net.table import Table, TableConfig
from doubtlan.rules.fairness import Verdict

#: What the client says of each attack (net/timing.py's sentences).
SAID = {
    "instant": ("before it showed you your turn", "a window on you that it had not shown you"),
    "early": ("the host's turn timer played for you after at most",
              "the host closed a window on you after at most"),
    "stand-in": ("for you (action",),
}


async def _cheated(spec: GameSpec, attack: str, times: int) -> tuple[tampering.Tampering,
                                                                    int, str, str]:
    turn = 1.0 if attack == "stand-in" else 5.0
    config = TableConfig(players=3, games=1, window=2.0, turn_timeout=turn, bot_delay=0.0,
                         game=spec.name, options=spec.options)
    table = tampering.Tampering(config, attack, times=times)
    table.seat_bot("random")
    table.seat_bot("random")
    host = await tampering.serve(table)
    try:
        code, out, err = await tampering.join_bot(host.port)
    finally:
        await host.close()
    return table, code, out, err


@pytest.mark.parametrize("attack", tampering.ATTACKS)
async def test_a_clock_move_no_wait_explains_is_a_problem_for_its_seat(
        spec: GameSpec, attack: str) -> None:
    table, code, out, err = await _cheated(spec, attack, times=2)
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
    spec = spec_of("idoubtit")
    config = TableConfig(players=3, games=2, window=1.0, turn_timeout=1.0, bot_delay=0.0,
                         game=spec.name, options=spec.options)
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
    timed_out = [p for p in table.played if p.seat == amy.mirror.seat and p.by != "player"]
    assert len({p.by for p in timed_out}) == 2 and len(timed_out) >= 30, timed_out
    assert link.longest > SPIKE  # (the link did hold some chunks long)
    assert amy.connections == 1
    assert sorted(amy.mirror.verdicts) == [1, 2]
    assert all(verdict == Verdict(()) for verdict in amy.mirror.verdicts.values()), \
        amy.mirror.verdicts
