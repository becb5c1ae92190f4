"""What TLS costs the table: plain TCP and TLS 1.3 side by side, bot clients on loopback.

    python bench/net.py [--games 5] [--clients 8] [--processes 1] [--connects 500]
                        [--rounds 3] [--only plain|tls]

Each transport is measured the same way, plain TCP first, then TLS (or only one, with
``--only``), in ``--rounds`` rounds whose figures are pooled: taking turns, both see the
machine alike. The host runs in this process; the clients run in other processes
(``--processes``, one by default: on a machine of two cores, nine busy processes would mostly
measure how the system shares two cores among them). Every process stamps what it does with
time.monotonic(), which is one clock for the whole machine.

- Connect to welcome: one client connects ``--connects`` times, one connection after another,
  each as a spectator (a few more first, not counted: the process warming up). The time from
  opening the connection (the TLS handshake included) to the moment the host's first frame,
  the welcome, has been read.
- Action to every client: ``--clients`` bot clients play ``--games`` games, each on its own
  connection. The host stamps each accepted action with the game's version after it; each
  client stamps the first moment it has read a frame with a view of that version or later
  (as the frame's bytes are read, before they are decoded). The latency of an action is the
  time from the host applying it to the last client having it.

Also reported: bytes of frames sent to each client per game (the frames alone: TLS adds its
records' headers and tags on top; the random bots play games of different lengths).
Targets: TLS within 1.5x of plain TCP for the p50 and p99 of both; action to every client
p99 at most 5 ms. The exit status is 0 only when the targets are met.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from doubtlan.bots import make_bot  # noqa: E402
from doubtlan.net import botclient  # noqa: E402
from doubtlan.net.client import Client  # noqa: E402
from doubtlan.net.host import Host, Limits  # noqa: E402
from doubtlan.net.messages import Message, State, Welcome  # noqa: E402
from doubtlan.net.table import Table, TableConfig  # noqa: E402

#: The transports, as the clients' processes are told them.
TRANSPORTS = {"plain": False, "tls": True}
LABELS = {"plain": "plain TCP", "tls": "TLS 1.3"}
#: Connections made before those counted, while the client's process warms up.
WARM_UP = 10
#: The longest a client process may take.
PROCESS_TIMEOUT = 300.0
#: The targets: TLS over plain TCP, and the p99 of an action reaching every client (ms).
RATIO_TARGET, FAN_OUT_TARGET = 1.5, 5.0


# -- the clients' processes --------------------------------------------------------------------


async def client(port: int, name: str, tls: bool) -> dict[str, object]:
    """A bot client; returns when it first saw each version, and the bytes it received."""
    seen: dict[str, float] = {}
    connection = Client("127.0.0.1", port, name, tls=tls)
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


async def clients(port: int, tls: bool, names: list[str]) -> None:
    """Several bot clients in one process, each on its own connection."""
    gc.freeze()  # as `doubtlan join --bot` does once it is set up
    reports = await asyncio.gather(*(client(port, name, tls) for name in names))
    for report in reports:
        print(json.dumps(report))


async def connects(port: int, tls: bool, count: int) -> None:
    """Connect ``count`` times, one after another, as a spectator: print the seconds from
    opening each connection to having read its welcome (after WARM_UP not counted)."""
    gc.freeze()
    seconds: list[float] = []
    for number in range(WARM_UP + count):
        connection = Client("127.0.0.1", port, f"watcher {number}", watch=True, tls=tls)
        welcomed: list[float] = []

        async def on_message(message: Message, connection: Client = connection,
                             welcomed: list[float] = welcomed) -> None:
            if isinstance(message, Welcome) and not welcomed:
                welcomed.append(connection.last_read)  # when its bytes were read
                await connection.close()

        connection.on_message = on_message
        started = time.monotonic()
        await connection.run()
        if number >= WARM_UP:
            seconds.append(welcomed[0] - started)
    print(json.dumps(seconds))


# -- the host ----------------------------------------------------------------------------------


@dataclass
class Figures:
    """What one transport measured, in milliseconds (bytes per client per game)."""

    connect: list[float]
    fan_out: list[float]
    per_client: float
    seconds: float

    @staticmethod
    def p(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[max(int(len(ordered) * q) - 1, 0)] if q < 1 else ordered[-1]


async def spawn(*args: str) -> list[str]:
    """Run this file with ``args`` in another process; the lines it printed."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, *args, stdout=asyncio.subprocess.PIPE, cwd=ROOT
    )
    out, _ = await asyncio.wait_for(proc.communicate(), PROCESS_TIMEOUT)
    if proc.returncode != 0:
        raise RuntimeError(f"bench/net.py {' '.join(args[:2])} failed ({proc.returncode})")
    return out.decode().splitlines()


async def measure_connect(transport: str, count: int) -> list[float]:
    """Milliseconds from opening a connection to its welcome, ``count`` times."""
    table = Table(TableConfig(players=3, turn_timeout=0))
    # (one client connecting hundreds of times in a row: no allowance of connections)
    unlimited = Limits(handshake=30.0, connect_burst=1e9, connect_rate=1e9,
                       handshake_burst=1e9, handshake_rate=1e9)
    server = Host(table, "127.0.0.1", 0, unlimited, tls=TRANSPORTS[transport])
    port = await server.start()
    try:
        lines = await spawn("connects", str(port), transport, str(count))
    finally:
        await server.close()
    return [s * 1000 for s in json.loads(lines[0])]


async def measure_fan_out(transport: str, games: int, players: int,
                          processes: int) -> tuple[list[float], float, float]:
    """Milliseconds from each action to every client having it; bytes per client per game;
    seconds the match took."""
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
    server = Host(table, "127.0.0.1", 0, tls=TRANSPORTS[transport])
    port = await server.start()
    names = [f"bot{i}" for i in range(players)]
    started = time.monotonic()
    runs = [asyncio.create_task(spawn("clients", str(port), transport, *names[i::processes]))
            for i in range(processes)]
    await server.serve()
    seconds = time.monotonic() - started
    reports = [json.loads(line) for lines in await asyncio.gather(*runs) for line in lines]
    await server.close()
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
            latencies.append((max(firsts) - at) * 1000)
    per_client = statistics.mean(r["bytes"] for r in reports) / games
    return latencies, per_client, seconds


async def host(args: argparse.Namespace) -> int:
    transports = [args.only] if args.only else list(TRANSPORTS)
    figures = {transport: Figures([], [], 0.0, 0.0) for transport in transports}
    for _ in range(args.rounds):  # taking turns, so that both see the machine alike
        for transport in transports:
            connect = await measure_connect(transport, args.connects)
            fan_out, per_client, seconds = await measure_fan_out(
                transport, args.games, args.clients, args.processes)
            kept = figures[transport]
            kept.connect += connect
            kept.fan_out += fan_out
            kept.per_client += per_client / args.rounds
            kept.seconds += seconds
    return report(figures, args)


def report(figures: dict[str, Figures], args: argparse.Namespace) -> int:
    """Print the figures side by side (with TLS over plain TCP when both were measured);
    0 if the targets are met."""
    both = len(figures) == 2
    print(f"on loopback, {args.rounds} round(s) of: {args.connects} connections one after "
          f"another, then {args.clients} bot clients in {args.processes} process(es) playing "
          f"{args.games} games")
    header = f"{'':28}" + "".join(f"{LABELS[t]:>12}" for t in figures)
    print(header + (f"{'TLS/plain':>12}" if both else ""))
    ratios: list[tuple[str, float]] = []
    rows = [("connect to welcome", "connect"), ("action to every client", "fan_out")]
    for title, attribute in rows:
        for label, q in (("p50", 0.5), ("p99", 0.99), ("max", 1.0)):
            values = {t: Figures.p(getattr(f, attribute), q) for t, f in figures.items()}
            line = f"{title if label == 'p50' else '':23}{label:>5}"
            line += "".join(f"{v:>9.2f} ms" for v in values.values())
            if both:
                ratio = values["tls"] / values["plain"]
                line += f"{ratio:>11.2f}x"
                if label != "max":
                    ratios.append((f"{title} {label}", ratio))
            print(line)
    print(f"{'actions timed':28}" + "".join(f"{len(f.fan_out):>12}" for f in figures.values()))
    print(f"{'bytes per client per game':28}"
          + "".join(f"{f.per_client / 1024:>8.1f} KiB" for f in figures.values()))
    print(f"{'match time, all rounds':28}"
          + "".join(f"{f.seconds:>10.1f} s" for f in figures.values()))
    met = True
    if both:
        over = [f"{name} {ratio:.2f}x" for name, ratio in ratios if ratio > RATIO_TARGET]
        met = not over
        print(f"target TLS within {RATIO_TARGET}x of plain TCP: "
              + ("met" if met else "NOT met (" + ", ".join(over) + ")"))
    last = list(figures)[-1]
    p99 = Figures.p(figures[last].fan_out, 0.99)
    print(f"target action to every client p99 at most {FAN_OUT_TARGET:g} ms ({LABELS[last]}): "
          f"{'met' if p99 <= FAN_OUT_TARGET else 'NOT met'}")
    return 0 if met and p99 <= FAN_OUT_TARGET else 1


def main() -> int:
    if sys.argv[1:2] == ["clients"]:
        port, transport, *names = sys.argv[2:]
        asyncio.run(clients(int(port), TRANSPORTS[transport], names))
        return 0
    if sys.argv[1:2] == ["connects"]:
        port, transport, count = sys.argv[2:]
        asyncio.run(connects(int(port), TRANSPORTS[transport], int(count)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--processes", type=int, default=1,
                        help="processes the bot clients are spread over (default 1)")
    parser.add_argument("--connects", type=int, default=500,
                        help="connections timed from opening to the welcome (default 500)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds, the transports taking turns in each (default 3)")
    parser.add_argument("--only", choices=list(TRANSPORTS),
                        help="measure one transport (default: both, side by side)")
    return asyncio.run(host(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
