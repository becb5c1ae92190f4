"""A table with browser seats for bench/web.py, in a process of its own, on loopback.

    python bench/webhost.py --way seats|process [--players 8]

Prints the page's address, then serves until its standard input closes. ``--way`` picks how
each tab's app is started: ``seats`` on a thread of the seats' process (doubtlan's way),
``process`` as a process of its own (the way before, and the way when the seats' process
cannot be had). Every
page of the benchmark comes from 127.0.0.1, so the limits on one address's pages are lifted
here (a table's players each come from their own phone).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from doubtlan.net.hosted import HostedTable, WebOffer
from doubtlan.net.table import TableConfig
from doubtlan.net.web.starter import Starter


async def serve(way: str, players: int) -> None:
    hosted = HostedTable(TableConfig(players=players, name="Bench table", autostart=False),
                         bots=1, strategy="random", bind="127.0.0.1", web=WebOffer(0))
    await hosted.start()
    web = hosted.web
    assert web is not None
    if way == "process":
        await web.starter.close()
        web.starter = Starter()
    web.per_address = web.most = 64
    web.burst = 64.0
    print(web.url("127.0.0.1"), flush=True)
    try:
        await asyncio.to_thread(sys.stdin.read)  # (until the benchmark closes it)
    finally:
        await hosted.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--way", choices=("seats", "process"), default="seats")
    parser.add_argument("--players", type=int, default=8)
    args = parser.parse_args()
    asyncio.run(serve(args.way, args.players))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
