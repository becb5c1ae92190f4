"""How soon the table app shows what a key did, and how soon `doubtlan --help` starts.

    python bench/tui.py                  # both
    python bench/tui.py keys [--presses 400] [--seed 1] [--gap 0.1] [--limit 300]
    python bench/tui.py startup [--runs 20]
    python bench/tui.py ... --json       # one JSON object instead of the report

Keys: the host's table app (DoubtApp) runs headless in this process at 100x30, with two
`random` bots seated on its table (bot delay 0, a 30 s window, no turn timeout); its own
player joins over loopback TCP as in `doubtlan host`. The benchmark plays that seat by posting
key events to the app, one at a time, as a terminal's driver does: without waiting for the app
to go idle (Pilot.press waits until the app is idle, a delay no player sees). It presses
`s` in the lobby, then, on each turn, moves the cursor (`right`/`left`: local only), lays
(`enter`: to the host and back, then the hand is redrawn) and announces (`a`); in each
window it lets the claim stand (`p`) or doubts it (`d`, once the app's half-second guard has
passed). Between a press's frame and the next press it waits `--gap` seconds, and as long
again when the table turns to the player, before the first press (a player reacts to what
the screen shows, not to the message under it).

The latency of a press runs from posting its key event to the first frame that shows its
effect. Every frame the app hands its driver is stamped with time.perf_counter(), after it is
encoded into the terminal's escape sequences (a headless app skips that step, so the benchmark
does it as the app would for a terminal; only the write itself is missing). A frame shows the
effect when:

- the effect has happened in the app (the cursor is on the next card; the host's answer has
  come: the card is out of the hand, the claim is made, the window is answered);
- and every widget the effect changed has been handed to the screen's compositor since then
  (so its new content is in this frame, not merely due), which is seen by wrapping the
  compositor's `update_widgets`: the hand for right, left, enter (the card gone from the hand,
  shown as laid) and a (the laid cards and the Announce button gone); the prompt for p and d.
  A new layout (as when the game ends and the results take the table's place) draws every
  widget.

Reported: count, p50, p95, p99 and max per kind of key and overall; for the keys that go to
the host, how soon its answer came in (the rest is the app's own work); and the garbage
collector's full collections during play, which stop everything while they run. Not measured:
the terminal's driver reading and parsing the key, and the write of the frame to the terminal.
Target: every press within 50 ms.

Start-up: `python -m doubtlan --help` and the `doubtlan` console script next to this Python
(if installed), each also with `host --help` and `join --help`, run `--runs` times as
subprocesses, timed from spawn to exit; `python -c pass` is timed as the floor. Reported:
min, median and max. Target: a median of at most 0.3 s for each.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import random
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import RenderableType  # noqa: E402
from textual import events  # noqa: E402
from textual._compositor import CompositorUpdate, ReflowResult  # noqa: E402
from textual.geometry import Size  # noqa: E402
from textual.screen import Screen  # noqa: E402
from textual.widget import Widget  # noqa: E402

from doubtlan.net.messages import Message  # noqa: E402
from doubtlan.net.table import TableConfig  # noqa: E402
from doubtlan.rules import Announce, Card, Doubt, Lay, LetStand  # noqa: E402
from doubtlan.rules.idoubtit import TableView  # noqa: E402
from doubtlan.tui.app import DoubtApp, HostSetup  # noqa: E402
from doubtlan.tui.games.idoubtit.hand import Hand  # noqa: E402
from doubtlan.tui.games.idoubtit.prompt import Prompt  # noqa: E402
from doubtlan.tui.screens.play import DOUBT_GUARD, PlayScreen  # noqa: E402

#: Milliseconds from a key to the screen that shows what it did.
KEY_TARGET_MS = 50.0
#: Seconds from spawning `doubtlan --help` (or `host --help`, `join --help`) to its exit.
STARTUP_TARGET_S = 0.3
#: The CPU `doubtlan --help` may take beyond `python -c pass`'s, in seconds (median of each).
HELP_CPU_TARGET_S = 0.040
SIZE = (100, 30)
#: The longest one press may take to show, and the longest any other wait may take (s).
PRESS_DEADLINE = 5.0
STEP_DEADLINE = 30.0
#: How often the benchmark looks at the table while it waits for its turn (s).
POLL = 0.002
#: The share of windows in which the player doubts.
DOUBT_RATE = 1 / 3
KINDS = ("right", "left", "enter", "a", "p", "d")
#: The character a terminal sends with each key.
CHARACTERS: dict[str, str | None] = {"right": None, "left": None, "enter": "\r"}


# -- key presses -----------------------------------------------------------------------------


def no_widgets() -> Iterable[Widget]:
    return ()


@dataclass
class Press:
    """One key press and what shows that it took effect (see the module's docstring)."""

    key: str
    #: True for the keys whose effect is the host's answer (not for moving the cursor).
    remote: bool
    #: True once the key has done its work in the app (read from the app's state).
    effect: Callable[[], bool]
    #: The widgets whose new content must be drawn (asked once the effect has happened).
    changed: Callable[[], Iterable[Widget]] = no_widgets
    posted: float = 0.0
    #: When the host's answer that made the effect came in (for the keys sent to the host).
    answered: float | None = None
    shown: float | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)
    _happened: bool = False
    _undrawn: set[Widget] = field(default_factory=set)

    def flushing(self, widgets: Iterable[Widget], everything: bool = False) -> None:
        """The compositor is about to draw ``widgets`` as they are now (``everything``: a
        new layout, drawn whole)."""
        if self.shown is not None:
            return
        if not self._happened:
            if not self.effect():
                return
            self._happened = True
            self._undrawn = set(self.changed())
        if everything:
            self._undrawn.clear()
        else:
            self._undrawn.difference_update(widgets)

    def frame(self, now: float) -> None:
        """A frame went to the driver at ``now``."""
        if self.shown is None and self._happened and not self._undrawn:
            self.shown = now
            self.done.set()

    def message(self, now: float) -> None:
        """A message from the host came in at ``now`` (and has been drawn into the widgets)."""
        if self.remote and self.answered is None and self.effect():
            self.answered = now


class TimedApp(DoubtApp):
    """The app, with every frame it writes stamped and shown to the press under way."""

    #: A relative CSS_PATH is found next to the class's module: this one is the app's.
    CSS_PATH = Path(sys.modules[DoubtApp.__module__].__file__ or "").parent / str(
        DoubtApp.CSS_PATH)
    press: Press | None = None
    frames = 0

    def _display(self, screen: Screen[Any], renderable: RenderableType | None) -> None:
        super()._display(screen, renderable)
        if renderable is None or self._batch_count:
            return
        if isinstance(renderable, CompositorUpdate):
            renderable.render_segments(self.console)  # the bytes for a terminal
        now = time.perf_counter()
        self.frames += 1
        if self.press is not None:
            self.press.frame(now)

    def _received(self, message: Message) -> None:
        now = time.perf_counter()  # the client has decoded it into its mirror
        super()._received(message)
        if self.press is not None:
            self.press.message(now)


class FullCollections:
    """Times the garbage collector's full (generation 2) collections: a gc.callbacks entry."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] == 2:
            if phase == "start":
                self._started = time.perf_counter()
            else:
                self.pauses.append(time.perf_counter() - self._started)


def table_config(seed: int) -> TableConfig:
    return TableConfig(players=3, seed=seed, autostart=False, next_game_delay=None, games=0,
                       window=30.0, turn_timeout=0.0)


def table_command(seed: int) -> str:
    """The `doubtlan host` command that sets up the same table (run here without a screen)."""
    return (f"doubtlan host --players 3 --bots 2 --strategy random --seed {seed} --games 0 "
            "--window 30 --turn-timeout 0 --bot-delay 0 --bind 127.0.0.1 --port 0 "
            "--no-advertise")


async def until(predicate: Callable[[], object], what: str) -> None:
    """Wait until ``predicate()`` holds, looking every POLL seconds, for STEP_DEADLINE at most."""
    deadline = time.monotonic() + STEP_DEADLINE
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what}")
        await asyncio.sleep(POLL)


class Player:
    """Plays the app's seat by keys, timing ``budget`` presses."""

    def __init__(self, app: TimedApp, budget: int, seed: int, gap: float) -> None:
        self.app, self.budget, self.gap = app, budget, gap
        self.rng = random.Random(seed)
        self.latencies: dict[str, list[float]] = {kind: [] for kind in KINDS}
        #: For the keys that go to the host: from the key to the host's answer coming in.
        self.answers: dict[str, list[float]] = {kind: [] for kind in KINDS}
        self.missed: dict[str, int] = dict.fromkeys(KINDS, 0)

    # -- what the app shows ---------------------------------------------------------------

    @property
    def screen(self) -> PlayScreen:
        assert self.app.play is not None
        return self.app.play

    @property
    def view(self) -> TableView:
        client = self.app.client
        assert client is not None and client.mirror.view is not None
        return client.mirror.view

    @property
    def hand(self) -> Hand:
        return self.screen.query_one(Hand)

    def need(self) -> str | None:
        """What the table waits for from this player now, if anything."""
        client, play = self.app.client, self.app.play
        if client is None or play is None or client.mirror.view is None:
            return None
        view, info = client.mirror.view, client.mirror.table
        if play.pane == "results" and info is not None and info.state == "between":
            return "next"
        if play.pane != "table" or view.winner is not None:
            return None
        if view.my_turn and view.can(Lay):
            return "turn"
        if view.can(LetStand) and view.my_answer is None:
            return "window"
        return None

    @property
    def over(self) -> bool:
        """True once the game is over and its results are shown instead of the table."""
        return self.screen.pane != "table"

    def laid(self, card: Card) -> bool:
        return card in self.view.my_laid

    @property
    def full(self) -> bool:
        """True once ``budget`` presses have been made."""
        return sum(map(len, self.latencies.values())) + sum(self.missed.values()) >= self.budget

    # -- pressing keys --------------------------------------------------------------------

    def post(self, key: str) -> None:
        """Hand the app a key as a terminal's driver does, without waiting for anything."""
        event = events.Key(key, CHARACTERS.get(key, key))
        event.set_sender(self.app)
        self.app.post_message(event)

    async def press(self, press: Press) -> None:
        """Press a key and wait for the frame that shows it; then wait ``gap`` seconds."""
        self.app.press = press
        press.posted = time.perf_counter()
        self.post(press.key)
        try:
            await asyncio.wait_for(press.done.wait(), PRESS_DEADLINE)
        except TimeoutError:
            self.missed[press.key] += 1
        finally:
            self.app.press = None
        if press.shown is not None:
            self.latencies[press.key].append(press.shown - press.posted)
            if press.answered is not None:
                self.answers[press.key].append(press.answered - press.posted)
        await asyncio.sleep(self.gap)

    async def move(self, step: int) -> None:
        """Move the cursor one card to the right (``step`` 1) or left (-1)."""
        hand = self.hand
        new = (hand.cursor + step) % len(hand.cards)
        await self.press(Press("right" if step > 0 else "left", remote=False,
                               effect=lambda: hand.cursor == new, changed=lambda: (hand,)))

    async def lay(self, card: Card) -> None:
        """Lay the card under the cursor, ``card``."""
        hand = self.hand
        await self.press(Press(
            "enter", remote=True, changed=lambda: (hand,),
            effect=lambda: card not in self.view.hand and (card in hand.laid or self.over)))

    async def announce(self) -> None:
        turns, hand = self.view.decision, self.hand
        await self.press(Press("a", remote=True, changed=lambda: (hand,),
                               effect=lambda: self.view.decision > turns and (not hand.laid
                                                                           or self.over)))

    async def answer(self, doubt: bool) -> None:
        """Doubt the claim in the window (``d``) or let it stand (``p``)."""
        game, turns = self.app.seen.game_number, self.view.decision
        prompt = self.screen.query_one(Prompt)

        def answered() -> bool:
            view = self.view
            return (view.my_answer is not None or view.decision != turns or view.claim is None
                    or self.app.seen.game_number != game)

        await self.press(Press("d" if doubt else "p", remote=True, effect=answered,
                               changed=lambda: (prompt,)))

    # -- playing --------------------------------------------------------------------------

    async def take_turn(self) -> None:
        """Browse the hand a little, lay the true cards (or one bluff), announce."""
        view = self.view
        true = [card for card in view.hand if card.rank is view.rank]
        for card in true[: view.options.max_claim] or [self.rng.choice(view.hand)]:
            hand = self.hand
            if len(hand.cards) > 1:
                for _ in range(self.rng.randint(0, 2)):
                    if not self.full:
                        await self.move(self.rng.choice((-1, 1)))
                distance = (hand.cards.index(card) - hand.cursor) % len(hand.cards)
                step = 1 if distance <= len(hand.cards) // 2 else -1
                for _ in range(len(hand.cards)):
                    if hand.card == card or self.full:
                        break
                    await self.move(step)
            if hand.card != card or self.full:
                return
            await self.lay(card)
            await until(partial(self.laid, card), "the card to be laid")
        if self.view.can(Announce) and not self.full:
            await self.announce()

    async def take_window(self) -> None:
        doubt = self.rng.random() < DOUBT_RATE and self.view.can(Doubt)
        if doubt:  # a doubt in the first half second of a window is taken for a slip
            since = self.app.clock() - self.app.seen.window_since
            await asyncio.sleep(max(0.0, DOUBT_GUARD + 0.05 - since))
            if self.need() != "window":
                return
        await self.answer(doubt)

    async def play(self, limit: float) -> float:
        """Start the match and play until the presses are made or ``limit`` seconds have
        passed; returns the seconds spent playing."""
        app = self.app

        def seated() -> bool:
            info = app.client.mirror.table if app.client else None
            return (app.play is not None and app.play.pane == "lobby" and info is not None
                    and all(seat.name is not None for seat in info.seats))

        await until(seated, "the bots to sit down")
        self.post("s")
        await until(lambda: self.screen.pane == "table", "the deal")
        started = time.perf_counter()
        while not self.full and time.perf_counter() - started < limit:
            await until(self.need, "a move of this player's")
            # A player sees the table turn to them before pressing a key: by then the
            # screen shows it (a new game's table takes a layout of tens of ms).
            await asyncio.sleep(self.gap)
            need = self.need()
            if need == "turn":
                await self.take_turn()
            elif need == "window":
                await self.take_window()
            elif need == "next":
                self.post("n")
                await until(lambda: self.need() != "next", "the next game")
        return time.perf_counter() - started


async def time_keys(presses: int, seed: int, gap: float, limit: float) -> dict[str, Any]:
    setup = HostSetup(table_config(seed), bots=2, strategy="random", bind="127.0.0.1")
    app = TimedApp("Amy", host=setup, clock=time.monotonic)
    async with app.run_test(size=SIZE, notifications=True):
        await until(lambda: app.play is not None, "the table's screen")
        player = Player(app, presses, seed, gap)
        compositor = player.screen._compositor
        update_widgets = compositor.update_widgets

        def watched(widgets: set[Widget]) -> None:
            if app.press is not None:
                app.press.flushing(widgets)
            update_widgets(widgets)

        compositor.update_widgets = watched  # type: ignore[method-assign]
        reflow = compositor.reflow

        def watched_reflow(parent: Widget, size: Size) -> ReflowResult:
            if app.press is not None:
                app.press.flushing((), everything=True)
            return reflow(parent, size)

        compositor.reflow = watched_reflow  # type: ignore[method-assign]
        full = FullCollections()
        gc.callbacks.append(full)
        try:
            seconds = await player.play(limit)
        finally:
            gc.callbacks.remove(full)
        frames = app.frames
        await app.shut_down()
    return report_keys(player, seconds, frames, full.pauses)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def summary(values: list[float]) -> dict[str, float]:
    """count, p50, p95, p99 and max, in milliseconds."""
    if not values:
        return {"count": 0}
    ms = [value * 1000 for value in values]
    return {"count": len(ms), "p50": statistics.median(ms), "p95": percentile(ms, 0.95),
            "p99": percentile(ms, 0.99), "max": max(ms)}


def report_keys(player: Player, seconds: float, frames: int,
                pauses: list[float]) -> dict[str, Any]:
    every = [value for values in player.latencies.values() for value in values]
    return {
        "by_key": {kind: summary(values) for kind, values in player.latencies.items()},
        "all": summary(every),
        "host_answer": {kind: summary(values) for kind, values in player.answers.items()
                        if values},
        "missed": {kind: count for kind, count in player.missed.items() if count},
        "seconds": seconds,
        "frames": frames,
        "full_collections": {"count": len(pauses), "max": max(pauses, default=0.0) * 1000,
                             "total": sum(pauses) * 1000},
    }


# -- start-up --------------------------------------------------------------------------------


def startup_commands() -> list[tuple[str, list[str]]]:
    """(what, argv) for each command timed; the first is the interpreter alone."""
    python = sys.executable
    commands: list[tuple[str, list[str]]] = [("python -c pass", [python, "-c", "pass"])]
    launchers = [("python -m doubtlan", [python, "-m", "doubtlan"])]
    script = Path(python).parent / "doubtlan"
    if script.exists():
        launchers.append(("doubtlan", [str(script)]))
    for name, argv in launchers:
        for args in (["--help"], ["host", "--help"], ["join", "--help"]):
            commands.append((f"{name} {' '.join(args)}", [*argv, *args]))
    return commands


def children_cpu() -> float:
    """CPU seconds (user and system) of this process's children that have ended."""
    import resource  # (POSIX: the benchmarks run on Linux)

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def time_startup(runs: int) -> dict[str, dict[str, object]]:
    """Each command, ``runs`` times, all taking turns (so that each sees the machine
    alike): wall seconds from spawn to exit, and CPU seconds it used."""
    commands = startup_commands()
    for _, argv in commands:
        subprocess.run(argv, capture_output=True, check=True, cwd=ROOT)  # warm the caches
    seconds: dict[str, list[float]] = {what: [] for what, _ in commands}
    cpu: dict[str, list[float]] = {what: [] for what, _ in commands}
    for _ in range(runs):
        for what, argv in commands:
            started, used = time.perf_counter(), children_cpu()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True, cwd=ROOT)
            seconds[what].append(time.perf_counter() - started)
            cpu[what].append(children_cpu() - used)
    return {what: {"command": shlex.join(argv), "min": min(seconds[what]),
                   "median": statistics.median(seconds[what]), "max": max(seconds[what]),
                   "cpu_median": statistics.median(cpu[what])}
            for what, argv in commands}


# -- the report ----------------------------------------------------------------------------


def keys_met(report: dict[str, Any]) -> bool:
    every = report["all"]
    return not report["missed"] and every["count"] > 0 and every["max"] <= KEY_TARGET_MS


def startup_met(report: dict[str, dict[str, Any]]) -> bool:
    timed = list(report.values())[1:]  # not the interpreter alone
    return all(stats["median"] <= STARTUP_TARGET_S for stats in timed) and help_cpu_met(report)


def help_cpu(report: dict[str, dict[str, Any]]) -> float:
    """The CPU seconds ``doubtlan --help`` takes beyond the interpreter's own start."""
    alone = list(report.values())[0]["cpu_median"]
    helps = [stats["cpu_median"] for what, stats in report.items()
             if what.endswith("doubtlan --help")]
    return max(helps) - alone


def help_cpu_met(report: dict[str, dict[str, Any]]) -> bool:
    return help_cpu(report) <= HELP_CPU_TARGET_S


def print_keys(report: dict[str, Any]) -> None:
    every, answers = report["all"], report["host_answer"]
    print(f"table app, key press to the frame that shows it: {every['count']} presses, "
          f"{report['frames']} frames in {report['seconds']:.1f} s of play")
    print(f"  command: {report['command']}")
    print(f"  the table: {report['table']}")
    print(f"    (its app run headless in this process at {SIZE[0]}x{SIZE[1]})")
    print(f"  {'key':<6} {'count':>5} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}  ms;"
          "  host's answer in, p50")
    for name, stats in [*report["by_key"].items(), ("all", every)]:
        if stats["count"]:
            line = (f"  {name:<6} {stats['count']:>5} {stats['p50']:>7.1f} {stats['p95']:>7.1f} "
                    f"{stats['p99']:>7.1f} {stats['max']:>7.1f}")
            if name in answers:
                line += f"      {answers[name]['p50']:>7.1f}"
            print(line)
    if report["missed"]:
        missed = report["missed"]
        print(f"  {sum(missed.values())} presses not shown within {PRESS_DEADLINE:g} s: "
              + ", ".join(f"{kind} {count}" for kind, count in missed.items()))
    full = report["full_collections"]
    print(f"  the garbage collector's full collections during play: {full['count']}, "
          f"{full['total']:.0f} ms in all, the longest {full['max']:.0f} ms")
    print(f"target: every press shown within {KEY_TARGET_MS:g} ms: "
          f"{'met' if keys_met(report) else 'NOT met'}")


def print_startup(report: dict[str, dict[str, Any]], runs: int) -> None:
    print(f"start-up, from spawn to exit, {runs} runs each (min / median / max):")
    for index, (what, stats) in enumerate(report.items()):
        note = "   (the interpreter alone)" if index == 0 else ""
        print(f"  {what:<30} {stats['min']:.3f} / {stats['median']:.3f} / {stats['max']:.3f} s,"
              f" CPU {stats['cpu_median'] * 1000:.0f} ms{note}")
        print(f"    command: {stats['command']}")
    print(f"`doubtlan --help` beyond the interpreter's start: "
          f"{help_cpu(report) * 1000:.0f} ms of CPU (target at most "
          f"{HELP_CPU_TARGET_S * 1000:.0f} ms: {'met' if help_cpu_met(report) else 'NOT met'})")
    print(f"target: a median of at most {STARTUP_TARGET_S:g} s for each, and the CPU above: "
          f"{'met' if startup_met(report) else 'NOT met'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("which", nargs="?", choices=("keys", "startup"),
                        help="measure only this (default: both)")
    parser.add_argument("--presses", type=int, default=400, help="key presses to time (400)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the keys (1)")
    parser.add_argument("--gap", type=float, default=0.1,
                        help="seconds from a press's frame to the next press (0.1)")
    parser.add_argument("--limit", type=float, default=300.0,
                        help="seconds of play at most, however many presses are left (300)")
    parser.add_argument("--runs", type=int, default=20, help="runs of each start-up command (20)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    met = True
    if args.which in (None, "keys"):
        keys = asyncio.run(time_keys(args.presses, args.seed, args.gap, args.limit))
        keys["command"] = (f"python bench/tui.py keys --presses {args.presses} "
                           f"--seed {args.seed} --gap {args.gap:g} --limit {args.limit:g}")
        keys["table"] = table_command(args.seed)
        results["keys"] = keys
        met &= keys_met(keys)
        if not args.json:
            print_keys(keys)
    if args.which in (None, "startup"):
        startup = time_startup(args.runs)
        results["startup"] = startup
        met &= startup_met(startup)
        if not args.json:
            print_startup(startup, args.runs)
    if args.json:
        print(json.dumps(results))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
