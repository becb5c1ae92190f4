"""How fast the host tells everyone, and how much it sends: 8 bot clients on loopback.

    python bench/net.py [--games 5] [--clients 8] [--processes 1]

The host runs in this process; the bot clients run in other processes (`--processes`, one by
default: on a machine of two cores, nine busy processes would mostly measure how the system
shares two cores among them). Each client has its own connection. Every process stamps what
it does with time.monotonic(), which is one clock for the whole machine:

- the host stamps each accepted action with the game's version after it;
- each client stamps the first moment it has read a frame with a view of that version or
  later (stamped as the frame's bytes are read, before they are decoded).

The latency of an action is the time from the host applying it to the last client having it.
Also reported: bytes sent to each client per game. Targets: p99 latency at most 5 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doubtlan.bots import make_bot  # noqa: E402
from doubtlan.net import botclient  # noqa: E402
from doubtlan.net.client import Client  # noqa: E402
from doubtlan.net.host import Host  # noqa: E402
from doubtlan.net.messages import Message, State  # noqa: E402
from doubtlan.net.table import Table, TableConfig  # noqa: E402


async def client(port: int, name: str) -> dict[str, object]:
    """A bot client; returns when it first saw each version, and the bytes it received."""
    seen: dict[str, float] = {}
    connection = Client("127.0.0.1", port, name)
    decider = botclient.Decider(make_bot("random", name))

    async def handle(message: Message) -> None:
        if isinstance(message, State):
            key = f"{message.game_number}:{message.view.version}"
            seen.setdefault(key, connection.last_read)  # when the frame's bytes were read
        for act in decider.decide(connection.mirror, message):
            await connection.send(act)

    connection.on_message = handle
    await connection.run()
    return {"seen": seen, "bytes": connection.received}


async def clients(port: int, names: list[str]) -> None:
    """Several bot clients in one process, each on its own connection."""
    gc.freeze()  # as `doubtlan join --bot` does once it is set up
    reports = await asyncio.gather(*(client(port, name) for name in names))
    for report in reports:
        print(json.dumps(report))


async def host(games: int, players: int, processes: int) -> None:
    table = Table(TableConfig(players=players, games=games, seed=1, turn_timeout=0))
    applied: dict[str, float] = {}
    receive = table.receive

    def timed_receive(conn: int, message: Message, now: float) -> None:
        receive(conn, message, now)
        game = table.game
        if game is not None:
            applied.setdefault(f"{table.match.games}:{game.version}", time.monotonic())

    table.receive = timed_receive  # type: ignore[method-assign]
    gc.freeze()  # as `doubtlan host --headless` does once it is set up
    server = Host(table, "127.0.0.1", 0)
    port = await server.start()
    command = [sys.executable, __file__, "clients", str(port)]
    names = [f"bot{i}" for i in range(players)]
    procs = [
        subprocess.Popen([*command, *names[i::processes]], stdout=subprocess.PIPE, text=True,
                         cwd=ROOT)
        for i in range(processes)
    ]
    started = time.monotonic()
    await server.serve()
    seconds = time.monotonic() - started
    reports = [json.loads(line) for proc in procs
               for line in proc.communicate(timeout=60)[0].splitlines()]
    latencies = []
    for key, at in applied.items():
        game, version = key.split(":")
        firsts = []
        for report in reports:
            later = [t for k, t in report["seen"].items()
                     if k.split(":")[0] == game and int(k.split(":")[1]) >= int(version)]
            if later:
                firsts.append(min(later))
        if len(firsts) == len(reports):
            latencies.append(max(firsts) - at)
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
    per_client = statistics.mean(r["bytes"] for r in reports) / games
    print(f"{players} bot clients in {processes} process(es) on loopback, {games} games, "
          f"{len(latencies)} actions, {seconds:.1f} s")
    print(f"action to every client: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max "
          f"{latencies[-1] * 1000:.2f} ms; target p99 at most 5 ms: "
          f"{'met' if p99 <= 5 else 'NOT met'}")
    print(f"bytes sent per client per game: {per_client / 1024:.1f} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--processes", type=int, default=1,
                        help="processes the clients are spread over (default 1)")
    if sys.argv[1:2] == ["clients"]:
        asyncio.run(clients(int(sys.argv[2]), sys.argv[3:]))
        return
    args = parser.parse_args()
    asyncio.run(host(args.games, args.clients, args.processes))


if __name__ == "__main__":
    main()
