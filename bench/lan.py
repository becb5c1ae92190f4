"""How soon a new table shows up on the LAN: from starting `doubtlan host` to a browser on
another machine seeing the table. Target: within 1 s.

    sudo python bench/lan.py           # from the repo root; needs root and iproute2

It builds a private LAN of two network namespaces (tests/lan.py), so no packet reaches the
machine's real interfaces. In each run a browser (doubtlan.net.discovery.Browser) starts in
namespace 2 first; then the host is spawned in namespace 1, advertising on its address, and
the browser prints the moment it sees the table. Every moment is read on CLOCK_MONOTONIC,
which all processes on one machine share, namespaces or not. The figures: from spawning the
host, and from its "listening" line, to the table being seen (median and max of the runs).
For reference, `doubtlan tables --timeout 1` is timed end to end while a table is up.
"""

from __future__ import annotations

import os
import shlex
import signal
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from lan import NETNS_MISSING, Guest, Lan, netns_available  # noqa: E402

RUNS = 5
#: Seconds from spawning the host to the table being seen.
TARGET = 1.0
#: The longest any one step may take before the run is given up.
STEP = 30.0

WATCH = """
import asyncio, sys, time
from doubtlan.net.discovery import Browser

async def main():
    seen = asyncio.Event()

    def changed(tables):
        if sys.argv[2] in tables and not seen.is_set():
            print(f"seen {time.monotonic():.6f}", flush=True)
            seen.set()

    async with Browser([sys.argv[1]], on_change=changed):
        print(f"browsing {time.monotonic():.6f}", flush=True)
        await asyncio.wait_for(seen.wait(), float(sys.argv[3]))

asyncio.run(main())
"""


def env() -> dict[str, str]:
    """Run doubtlan from this checkout."""
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def host_argv(lan: Lan, name: str) -> list[str]:
    return [
        "doubtlan", "host", "--headless", "--players", "4", "--name", name, "--port", "0",
        "--advertise", lan.address(1),
    ]


def stop(guest: Guest) -> None:
    """Ask a host to stop (it withdraws its table) and wait for it; kill it if it hangs."""
    if guest.popen.poll() is None:
        guest.popen.send_signal(signal.SIGTERM)
    guest.finish(STEP)


def one_run(lan: Lan, number: int) -> tuple[float, float, float]:
    """Seconds from the host's spawn to the table seen, from its "listening" line to the table
    seen, and from its spawn to its "advertised" line."""
    name = f"Bench {number}"
    watcher = lan.run(2, [sys.executable, "-c", WATCH, lan.address(2), name, str(STEP)],
                      cwd=ROOT, env=env())
    watcher.expect(lambda line: line.startswith("browsing "), STEP, "the browser to start")
    spawned = time.monotonic()
    host = lan.run(1, [sys.executable, "-m", *host_argv(lan, name)], cwd=ROOT, env=env())
    try:
        host.expect(lambda line: "listening on" in line, STEP, "the host to listen")
        listening = time.monotonic()
        host.expect(lambda line: line.startswith("advertised as"), STEP, "the advert")
        advertised = time.monotonic()
        line = watcher.expect(lambda line: line.startswith("seen "), STEP, "the table")
        seen = float(line.split()[1])
    finally:
        stop(host)
        watcher.finish(STEP)
    return seen - spawned, seen - listening, advertised - spawned


def tables_command(lan: Lan) -> tuple[float, bool]:
    """Seconds `doubtlan tables --timeout 1` takes end to end, and whether it listed the
    table up in namespace 1."""
    started = time.monotonic()
    guest = lan.run(2, [sys.executable, "-m", "doubtlan", "tables", "--timeout", "1"],
                    cwd=ROOT, env=env())
    status = guest.finish(STEP)
    took = time.monotonic() - started
    assert guest.stdout is not None
    listed = status == 0 and any(line.startswith("Reference") for line in guest.stdout.seen)
    return took, listed


def summary(values: list[float]) -> str:
    return f"median {statistics.median(values):.3f} s, max {max(values):.3f} s"


def main() -> int:
    if not netns_available():
        print(NETNS_MISSING, file=sys.stderr)
        return 2
    with Lan(hosts=2, prefix="bench") as lan:
        runs = [one_run(lan, number) for number in range(1, RUNS + 1)]
        host = lan.run(1, [sys.executable, "-m", *host_argv(lan, "Reference")],
                       cwd=ROOT, env=env())
        try:
            host.expect(lambda line: line.startswith("advertised as"), STEP, "the advert")
            reference = [tables_command(lan) for _ in range(RUNS)]
        finally:
            stop(host)
        command = shlex.join(host_argv(lan, "Bench N"))

    from_spawn = [run[0] for run in runs]
    met = max(from_spawn) <= TARGET
    print(f"table discovery on a private LAN of network namespaces, {RUNS} runs")
    print(f"  host (namespace 1):  {command}")
    print("  browser (namespace 2): doubtlan.net.discovery.Browser, started before the host")
    print(f"  host spawned -> table seen:          {summary(from_spawn)}")
    print(f"  host 'listening' line -> table seen: {summary([run[1] for run in runs])}")
    print(f"  host spawned -> 'advertised' line:   {summary([run[2] for run in runs])}")
    listed = sum(found for _, found in reference)
    print(
        f"  reference: `doubtlan tables --timeout 1` end to end: "
        f"{summary([took for took, _ in reference])}; listed the table in {listed}/{RUNS} runs"
    )
    verdict = "met" if met else "NOT met"
    print(f"target: every run sees the table within {TARGET:g} s of spawning the host: {verdict}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
