"""What a seated player feels while the host is attacked (tests/hostile.py): the time from
sending a move to the host's answer, quiet and under attack.

    python bench/attack.py [--moves 400] [--seconds 30]

A real host process (`doubtlan host --headless`, two bots and one person's seat, on
127.0.0.1) plays a long match, its bots paced at 20 ms an action (unpaced, the three seats
play over 1,000 moves a second, and the seat's own client passes the host's limit of 500
messages a second). This process plays the person's seat with a `random` bot and
stamps each move: the time from writing an `act` to having read the host's next `state`.
First ``--moves`` moves with nothing else going on; then every move for ``--seconds`` while
another process attacks the host with everything at once:

- a slot flood: 36 connections that never say hello, from 9 loopback addresses, each opened
  again as soon as the host lets it go;
- CPU bombs (5,004 bytes of nested array32 headers) and maps of 13,000 keys, each on a
  connection of its own, back to back;
- 20 spectators sending malformed frames (unknown types, wrong fields, actions that are not
  actions), 500 each, again and again.

It prints the p50, p99 and max of both phases, and the attack's traffic. Target: p99 under
attack at most 50 ms. The exit status is 0 only when it is met. Everything stays on
loopback and ends within ``--seconds`` of the attack's start.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import hostile  # noqa: E402

from doubtlan.bots import make_bot  # noqa: E402
from doubtlan.net import botclient  # noqa: E402
from doubtlan.net.client import Client  # noqa: E402
from doubtlan.net.messages import Act, Message, State  # noqa: E402

TARGET_MS = 50.0


async def attack(port: int, seconds: float) -> dict[str, int]:
    """The attacker's process: everything at once for ``seconds``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    stop = asyncio.Event()
    counts = {"bombs": 0, "key floods": 0, "malformed": 0}
    flood = asyncio.create_task(hostile.slot_flood(port, 9, 4, stop, seconds))
    print("attacking", flush=True)  # (the measuring process counts moves from here)

    async def bombs() -> None:
        n = 0
        while loop.time() < end:
            frame, kind = (hostile.key_flood(), "key floods") if n % 4 == 0 else \
                (hostile.bomb(), "bombs")
            sent = await hostile.fire(port, frame, f"127.0.2.{n % 50 + 1}", tries=10)
            counts[kind] += sent  # (after the await: the tasks share the counts)
            n += 1

    async def sprayer(n: int) -> None:
        rng = random.Random(n)
        while loop.time() < end:
            connection = await hostile.spectator(port, f"127.0.1.{n + 1}", tries=5)
            sprayed = await hostile.spray(connection, 500, rng, pace=0.002)
            counts["malformed"] += sprayed

    await asyncio.gather(bombs(), *(sprayer(n) for n in range(20)))
    stop.set()
    counts["flood connections"] = await flood
    return counts


class Timer:
    """Stamps each move this seat sends and the host's next state."""

    def __init__(self) -> None:
        self.sent: float | None = None
        self.samples: list[float] = []
        #: Seconds each phase took; messages received.
        self.spans: dict[str, float] = {}
        self.received = 0

    def message(self, message: Message) -> None:
        self.received += 1
        if isinstance(message, State) and self.sent is not None:
            self.samples.append((time.monotonic() - self.sent) * 1000)
            self.sent = None


async def measure(port: int, moves: int, seconds: float) -> tuple[list[float], list[float],
                                                                  dict[str, float]]:
    client = Client("127.0.0.1", port, "Amy", retry_for=30.0)
    timer = Timer()
    send = client.send

    async def stamped(message: Message) -> bool:
        if isinstance(message, Act) and timer.sent is None:
            timer.sent = time.monotonic()
        return await send(message)

    client.send = stamped  # type: ignore[method-assign]
    playing = asyncio.create_task(botclient.play(client, make_bot("random", 1),
                                                 also=timer.message))
    started = time.monotonic()
    async with asyncio.timeout(seconds * 4):
        while len(timer.samples) < moves:
            await asyncio.sleep(0.05)  # polling the count of moves timed
    quiet, timer.samples = timer.samples, []
    timer.spans["quiet"] = time.monotonic() - started
    attacker = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--attacker", str(port), "--seconds", str(seconds),
        stdout=asyncio.subprocess.PIPE)
    assert attacker.stdout is not None
    await attacker.stdout.readline()  # "attacking": every move from now on is under attack
    timer.samples, started = [], time.monotonic()
    received = timer.received
    out, _ = await asyncio.wait_for(attacker.communicate(), seconds * 4)
    timer.received -= received
    attacked = timer.samples
    timer.spans["under attack"] = time.monotonic() - started
    playing.cancel()
    await client.close()
    traffic = json.loads(out.decode().strip().splitlines()[-1])
    return quiet, attacked, {**traffic, "messages to the player": timer.received,
                             **{f"seconds {k}": round(v, 1) for k, v in timer.spans.items()}}


def figures(samples: list[float]) -> str:
    if not samples:
        return "no moves"
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"{len(ordered)} moves: p50 {statistics.median(ordered):.2f} ms, p99 {p99:.2f} ms, "
            f"max {ordered[-1]:.2f} ms")


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--attacker", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attacker is not None:
        print(json.dumps(asyncio.run(attack(args.attacker, args.seconds))), flush=True)
        return 0
    host = subprocess.Popen(
        [sys.executable, "-m", "doubtlan", "host", "--headless", "--bind", "127.0.0.1",
         "--port", "0", "--no-advertise", "--no-journal", "--players", "3", "--bots", "2",
         "--games", "0", "--window", "2", "--bot-delay", "0.02"],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert host.stdout is not None
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", host.stdout.readline())
        assert found, "the host did not say where it listens"
        quiet, attacked, traffic = asyncio.run(measure(int(found.group(1)), args.moves,
                                                       args.seconds))
    finally:
        host.terminate()
        host.communicate(timeout=30)
    print(f"python bench/attack.py --moves {args.moves} --seconds {args.seconds:g}")
    print(f"quiet:          {figures(quiet)}")
    print(f"under attack:   {figures(attacked)}")
    print("attack traffic: " + ", ".join(f"{n} {kind}" for kind, n in traffic.items()
                                         if not kind.startswith("seconds")))
    print("phases:         " + ", ".join(f"{kind.removeprefix('seconds ')} {n} s"
                                         for kind, n in traffic.items()
                                         if kind.startswith("seconds")))
    met = bool(attacked) and p99(attacked) <= TARGET_MS
    print(f"target p99 under attack <= {TARGET_MS:g} ms: {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
