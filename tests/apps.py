"""What the app tests share: an app at a table on loopback, waiting with a deadline, where
text is drawn and clicking it, and each game's :class:`GameDriver` (how the tests play it by
keys), from the game's own tests file, ``tests/drive_NAME.py``."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, ClassVar

from owned import Owned
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from doubtlan.net.hosted import HostedTable
from doubtlan.net.table import TableConfig
from doubtlan.tui.app import DoubtApp, HostSetup, JoinSetup
from doubtlan.tui.widgets.results import GameResults

DEADLINE = 20.0


class TickingClock:
    """The app's clock in tests: every reading is a second after the last, so that the
    half second in which a doubt is ignored has always passed."""

    def __init__(self) -> None:
        self._ticks = itertools.count()

    def __call__(self) -> float:
        return float(next(self._ticks))


async def wait_for(
    pilot: Pilot[object], predicate: Callable[[], object], what: str = "",
    timeout: float = DEADLINE,
) -> None:
    """Let the app run until ``predicate()`` holds; fail after ``timeout`` seconds."""
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"gave up waiting for {what or predicate}")
        await pilot.pause(0.01)
    await caught_up(pilot.app)


async def caught_up(app: object, timeout: float = DEADLINE) -> None:
    """Wait until the play screen has taken in what the app told it so far: the app posts
    what the host sends to the screen as messages (tui/messages.py), so a client's mirror
    may be ahead of the screen for a moment."""
    import asyncio

    play = getattr(app, "play", None)
    done = asyncio.Event()
    if play is not None and play.is_running and play.call_later(done.set):
        await asyncio.wait_for(done.wait(), timeout)


def place_of(widget: Widget, text: str) -> tuple[int, int]:
    """Where ``text`` is drawn in ``widget`` (its border included), as (x, y)."""
    width, height = widget.outer_size
    for y, strip in enumerate(widget.render_lines(Region(0, 0, width, height))):
        x = strip.text.find(text)
        if x >= 0:
            return x, y
    raise AssertionError(f"{text!r} is not drawn in {widget!r}")


async def click_text(pilot: Pilot[object], widget: Widget, text: str) -> None:
    """Click the middle of ``text`` where ``widget`` draws it, as a player would."""
    x, y = place_of(widget, text)
    await pilot.click(widget, offset=(x + len(text) // 2, y))


def acts_of(app: DoubtApp) -> list[str]:
    """Every action the app sends from now on, in its text form (the list grows as it
    sends: a test reads it to see that a tap sent nothing)."""
    sent: list[str] = []
    act = app.act

    async def recorded(text: str) -> None:
        sent.append(text)
        await act(text)

    app.act = recorded  # type: ignore[method-assign]
    return sent


def drawn(app: DoubtApp, widget: type[Widget]) -> str:
    """What ``widget`` of the play screen draws, its lines joined and its spaces made single."""
    assert app.play is not None
    return " ".join(str(app.play.query_one(widget).render()).split())


async def start_match(pilot: Pilot[object], app: DoubtApp, seated: int = 3) -> None:
    """From the host's lobby, once ``seated`` seats are taken, start the match (``s``)."""
    await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby", "lobby")
    await wait_for(pilot, lambda: app.client and app.client.mirror.table and sum(
        s.name is not None for s in app.client.mirror.table.seats) >= seated, "the seats")
    await pilot.press("s")
    await wait_for(pilot, lambda: app.play is not None and app.play.pane == "table", "table")


class FrozenClock:
    """The app's clock in tests that say when time passes (``clock.now += 0.6``)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def at_a_challenge(
        driver: GameDriver) -> AsyncIterator[tuple[Pilot[object], DoubtApp, FrozenClock,
                                                   list[str]]]:
    """The host's app of ``driver``'s game on a frozen clock, at the first claim its seat
    may challenge: the pilot, the app, the clock and the actions it sends from then."""
    clock = FrozenClock()
    app = driver.host_app(seed=driver.seed)
    app.clock = clock
    sent = record_actions(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_match(pilot, app)
        await driver.to_a_challenge(pilot, app)
        yield pilot, app, clock, sent


def record_actions(app: DoubtApp) -> list[str]:
    """The actions the app sends from now on, in their text form, as a list that grows."""
    sent: list[str] = []
    act = app.act

    async def recording_act(text: str) -> None:
        sent.append(text)
        await act(text)

    app.act = recording_act  # type: ignore[method-assign]
    return sent


def config(**changes: object) -> TableConfig:
    settings: dict[str, object] = {
        "players": 3, "seed": 3, "autostart": False, "next_game_delay": None, "games": 0,
        "window": 30.0, "turn_timeout": 0.0, "name": "Amy's table",
        # (the bots' remarks are the talk's tests' own: tests/test_talk*.py)
        "bot_talk": False,
    }
    settings.update(changes)
    return TableConfig(**settings)  # type: ignore[arg-type]


def host_app(bots: int = 2, strategy: str = "random", **changes: object) -> DoubtApp:
    setup = HostSetup(config(**changes), bots=bots, strategy=strategy, bind="127.0.0.1")
    return DoubtApp("Amy", host=setup, clock=TickingClock())


def join_app(hosted: HostedTable, name: str = "Ben", watch: bool = False,
             **options: object) -> DoubtApp:
    setup = JoinSetup(address=("127.0.0.1", hosted.port), watch=watch)
    return DoubtApp(name, join=setup, clock=TickingClock(), **options)  # type: ignore[arg-type]


# -- each game, as the contract tests drive it ------------------------------------------------


def under(results: Widget, heading: str, word: str, players: int) -> None:
    """Each player's figure in the results stands under ``word`` of ``heading``."""
    lines = str(results.render()).splitlines()
    top = next(n for n, line in enumerate(lines) if heading in line)
    column = lines[top].index(heading) + heading.index(word)
    assert all(line[column].isdigit() for line in lines[top + 1:top + 1 + players]), \
        lines[top:top + 1 + players]


class GameDriver:
    """How the tests drive the app at a table of one game, and what its screens say there.
    The contract tests (tests/test_app.py) run once per game of ``rules.GAMES``, each with
    the game's driver from :data:`DRIVERS`."""

    game: ClassVar[str]
    #: A table of this game (``TableConfig``'s fields).
    changes: ClassVar[dict[str, object]]
    #: A seed at which the key player's games end, and the app's seat may challenge, soon.
    seed: ClassVar[int]
    #: The game's hand, prompt and results widgets.
    hand: ClassVar[type[Widget]]
    prompt: ClassVar[type[Widget]]
    results: ClassVar[type[GameResults]]
    #: The lobby's rules at the tests' table (default options, a window of 30 s).
    lobby_rules: ClassVar[str]
    #: Words the help screen's rules have.
    help_words: ClassVar[tuple[str, ...]]
    #: The key that challenges a claim, the action it sends, and its button's words.
    challenge: ClassVar[tuple[str, str, str]]
    #: The key that lets a claim stand (passes it on), and the action it sends.
    stand: ClassVar[tuple[str, str]]
    #: One option the dialog changes: the Select's id and the value chosen, and the rules'
    #: text the table tells then.
    option: ClassVar[tuple[str, str, str]]
    #: Words of the button that makes the turn's move with the card(s) picked.
    move_button: ClassVar[str]

    def host_app(self, bots: int = 2, strategy: str = "random", **changes: object) -> DoubtApp:
        setup = HostSetup(config(**{**self.changes, **changes}), bots=bots, strategy=strategy,
                          bind="127.0.0.1")
        return DoubtApp("Amy", host=setup, clock=TickingClock())

    def player(self, pilot: Pilot[object], app: DoubtApp) -> Any:
        """A player of the app's seat by keys, whose ``play_game()`` plays to the results."""
        raise NotImplementedError

    def may_challenge(self, app: DoubtApp) -> bool:
        """True while the app's seat may challenge the claim waiting (on the clock)."""
        raise NotImplementedError

    async def to_a_challenge(self, pilot: Pilot[object], app: DoubtApp) -> None:
        """Play by keys until the app's seat may challenge a claim."""
        raise NotImplementedError

    def check_results(self, results: Any, view: Any, player: Any) -> None:
        """What this game's results show after ``player`` played a whole game."""


#: Each game's driver, by the game's name (each from its own tests file, drive_NAME.py).
DRIVERS: Owned[GameDriver] = Owned("drive", "DRIVER", "how the app tests play")
