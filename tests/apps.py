"""Helpers for driving the table app with Pilot: wait on what the screen shows (with a
deadline, never a sleep), and play a seat by key presses."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, ClassVar

from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget

from doubtlan.net.hosted import HostedTable
from doubtlan.net.table import TableConfig
from doubtlan.rules.idoubtit import TableView
from doubtlan.rules.iknowyoudont import Challenge, Intercept, Kind, Pass, Wild
from doubtlan.rules.iknowyoudont import Options as KnowOptions
from doubtlan.rules.iknowyoudont import TableView as KnowView
from doubtlan.rules.liarsdeck import Liar, Put
from doubtlan.rules.liarsdeck import Options as LiarOptions
from doubtlan.rules.liarsdeck import TableView as LiarView
from doubtlan.tui.app import DoubtApp, HostSetup, JoinSetup
from doubtlan.tui.games.idoubtit.hand import Hand
from doubtlan.tui.games.idoubtit.prompt import Prompt
from doubtlan.tui.games.idoubtit.results import DoubtResults
from doubtlan.tui.games.iknowyoudont.hand import KnowHand
from doubtlan.tui.games.iknowyoudont.prompt import KnowPrompt
from doubtlan.tui.games.iknowyoudont.results import KnowResults
from doubtlan.tui.games.liarsdeck.hand import LiarHand
from doubtlan.tui.games.liarsdeck.prompt import LiarPrompt
from doubtlan.tui.games.liarsdeck.results import LiarResults
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


def view_of(app: DoubtApp) -> TableView | None:
    return app.client.mirror.view if app.client else None


class KeyPlayer:
    """Plays the app's seat by keys: lays the cards of the required rank it holds (or one
    other card, a bluff), announces, and in a window doubts every ``doubt_every``-th claim
    and lets the others stand. Counts what it did."""

    def __init__(self, pilot: Pilot[object], app: DoubtApp, doubt_every: int = 3) -> None:
        self.pilot, self.app, self.doubt_every = pilot, app, doubt_every
        self.done = {"lay": 0, "announce": 0, "doubt": 0, "stand": 0}
        self.windows = 0

    def view(self) -> TableView:
        view = view_of(self.app)
        assert view is not None
        return view

    async def play_game(self) -> TableView:
        """Play until the game is won; returns the last view."""
        pilot = self.pilot
        await wait_for(pilot, lambda: self.app.play and self.app.play.pane == "table",
                       "the table")
        while True:
            await wait_for(pilot, lambda: self._needs_me() is not None, "my move")
            need = self._needs_me()
            if need == "over":
                return self.view()
            if need == "turn":
                await self.take_turn()
            else:
                await self.answer()

    async def play_game_until(self, done: Callable[[], object]) -> None:
        """Play by keys until ``done()`` holds (looked at before each move)."""
        pilot = self.pilot
        await wait_for(pilot, lambda: self.app.play and self.app.play.pane == "table",
                       "the table")
        while not done():
            await wait_for(pilot, lambda: done() or self._needs_me() is not None, "my move")
            need = None if done() else self._needs_me()
            if need == "over":
                raise AssertionError("the game ended first")
            if need == "turn":
                await self.take_turn()
            elif need == "window":
                await self.answer()

    def _needs_me(self) -> str | None:
        view = view_of(self.app)
        if view is None or self.app.play is None:
            return None
        if view.winner is not None:
            return "over" if self.app.play.pane == "results" else None
        if self.app.play.pane != "table":
            return None
        if view.my_turn and not view.my_laid:
            return "turn"
        if view.seat in view.awaiting and view.my_answer is None and view.claim is not None:
            return "window"
        return None

    async def take_turn(self) -> None:
        view = self.view()
        true = [card for card in view.hand if card.rank is view.rank]
        cards = true[: view.options.max_claim] or [view.hand[0]]
        hand = self.app.play.query_one(Hand)  # type: ignore[union-attr]
        for card in cards:
            await wait_for(self.pilot, lambda c=card: c in hand.cards, "the card in hand")
            while hand.card != card:
                await self.pilot.press("right")
            await self.pilot.press("enter")
            await wait_for(self.pilot, lambda c=card: c in self.view().my_laid, "the lay")
            self.done["lay"] += 1
        turns = view.turns
        await self.pilot.press("a")
        await wait_for(self.pilot, lambda: self.view().turns > turns, "the claim")
        self.done["announce"] += 1

    async def answer(self) -> None:
        self.windows += 1
        doubt = self.windows % self.doubt_every == 0
        turns = self.view().turns
        await self.pilot.press("d" if doubt else "p")
        await wait_for(
            self.pilot,
            lambda: self.view().my_answer is not None or self.view().turns != turns
            or self.view().claim is None,
            "the answer",
        )
        self.done["doubt" if doubt else "stand"] += 1


def asked(app: DoubtApp) -> bool:
    """True while a claim waits for this app's seat to doubt or let it stand."""
    view = view_of(app)
    return (view is not None and view.claim is not None and view.seat in view.awaiting
            and view.my_answer is None)


# -- I Know You Don't ---------------------------------------------------------------------


def know_app(bots: int = 2, strategy: str = "random", **changes: object) -> DoubtApp:
    """The host's app at an I Know You Don't table."""
    changes.setdefault("options", KnowOptions())
    setup = HostSetup(config(game="iknowyoudont", **changes), bots=bots, strategy=strategy,
                      bind="127.0.0.1")
    return DoubtApp("Amy", host=setup, clock=TickingClock())


def know_view(app: DoubtApp) -> KnowView:
    view = app.client.mirror.view if app.client else None
    assert isinstance(view, KnowView)
    return view


class KnowKeyPlayer:
    """Plays the app's seat at an I Know You Don't table by keys: on its turn it moves to
    the card ``turns`` steps along, declares it truly every other turn (else one level
    off); with priority it passes, accepts and challenges in turn; it intercepts whenever
    it may and plays its Wildcard when asked. Counts what it did."""

    def __init__(self, pilot: Pilot[object], app: DoubtApp) -> None:
        self.pilot, self.app = pilot, app
        self.done = {"play": 0, "p": 0, "a": 0, "c": 0, "i": 0, "w": 0}

    def _needs_me(self) -> str | None:
        view = self.app.client.mirror.view if self.app.client else None
        if not isinstance(view, KnowView) or self.app.play is None:
            return None
        if view.winner is not None:
            return "over" if self.app.play.pane == "results" else None
        if self.app.play.pane != "table" or not view.legal:
            return None
        if view.my_turn:
            return "play"
        if view.can(Intercept):
            return "i"
        if view.can(Wild):
            return "w"
        if view.can(Pass):
            return "pac"[sum(self.done[k] for k in "pac") % 3]
        return None

    async def play_game(self, until: Callable[[KnowView], bool] = lambda view: False
                        ) -> KnowView:
        """Play until the game is over (and its results shown), or ``until`` the view says
        so; returns the last view."""
        pilot = self.pilot
        await wait_for(pilot, lambda: self.app.play and self.app.play.pane == "table",
                       "the table")
        while True:
            await wait_for(pilot, lambda: self._needs_me() is not None
                           or until(know_view(self.app)), "my move", 60)
            need = self._needs_me()
            view = know_view(self.app)
            moment = (view.version, view.turns)
            if need == "over" or until(view):
                return view
            if need == "play":
                await self.take_turn()
            else:
                assert need is not None
                await pilot.press(need)
                self.done[need] += 1
            await wait_for(pilot, lambda m=moment: (know_view(self.app).version,  # type: ignore[misc]
                                                    know_view(self.app).turns) != m
                           or not know_view(self.app).legal, "the move", 60)

    async def take_turn(self) -> None:
        view = know_view(self.app)
        hand = self.app.play.query_one(KnowHand)  # type: ignore[union-attr]
        await wait_for(self.pilot, lambda: hand.cards == view.hand, "the hand drawn")
        await self.pilot.press(*["right"] * (self.done["play"] % len(view.hand)))
        card = hand.card
        assert card is not None
        level = card.level or 1
        if self.done["play"] % 2:
            level = level % view.options.max_level + 1  # a lie, one level up
        await self.pilot.press(str(level % 10), "y" if card.kind is Kind.TRUTH else "b",
                               "enter")
        self.done["play"] += 1


# -- Liar's Deck ---------------------------------------------------------------------------


def liar_view(app: DoubtApp) -> LiarView:
    view = app.client.mirror.view if app.client else None
    assert isinstance(view, LiarView)
    return view


class LiarKeyPlayer:
    """Plays the app's seat at a Liar's Deck table by keys: on its turn it calls every third
    claim (and whenever it must), else marks the true cards it holds (up to 3, with space)
    and puts them down, or with none puts down the card under the cursor. Counts what it
    did."""

    def __init__(self, pilot: Pilot[object], app: DoubtApp) -> None:
        self.pilot, self.app = pilot, app
        self.done = {"put": 0, "mark": 0, "liar": 0}
        self.turns = 0

    def _needs_me(self) -> str | None:
        view = self.app.client.mirror.view if self.app.client else None
        if not isinstance(view, LiarView) or self.app.play is None:
            return None
        if view.winner is not None:
            return "over" if self.app.play.pane == "results" else None
        return "turn" if self.app.play.pane == "table" and view.my_turn else None

    async def play_game(self) -> LiarView:
        """Play until the game is over and its results shown; returns the last view."""
        pilot = self.pilot
        await wait_for(pilot, lambda: self.app.play and self.app.play.pane == "table",
                       "the table")
        while True:
            await wait_for(pilot, lambda: self._needs_me() is not None, "my move", 60)
            if self._needs_me() == "over":
                return liar_view(self.app)
            await self.take_turn()

    async def take_turn(self) -> None:
        view = liar_view(self.app)
        self.turns += 1
        decision = view.decision
        if view.can(Liar) and (not view.can(Put) or self.turns % 3 == 0):
            await self.pilot.press("l")
            self.done["liar"] += 1
        else:
            hand = self.app.play.query_one(LiarHand)  # type: ignore[union-attr]
            await wait_for(self.pilot, lambda: hand.cards == view.hand, "the hand drawn")
            true = [i for i, card in enumerate(view.hand) if card.matches(view.rank)][:3]
            for index in true:
                await self.pilot.press(*["right"] * ((index - hand.cursor) % len(hand.cards)),
                                       "space")
                self.done["mark"] += 1
            assert sorted(hand.chosen) == true
            await self.pilot.press("enter")
            self.done["put"] += 1
        await wait_for(self.pilot, lambda: liar_view(self.app).decision != decision, "the move")


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


class DoubtDriver(GameDriver):
    game = "idoubtit"
    changes: ClassVar[dict[str, object]] = {}
    seed = 1
    hand, prompt, results = Hand, Prompt, DoubtResults
    lobby_rules = "one deck · 30 s to doubt · no turn timer · games until the host stops"
    help_words = ("I Doubt It", "required rank", "announce", "| d |", "| p |")
    challenge = ("d", "doubt", "Doubt (d)")
    stand = ("p", "stand")
    move_button = "Lay "
    option = ("challenge", "open", "decks=1,challenge=open")

    def player(self, pilot: Pilot[object], app: DoubtApp) -> KeyPlayer:
        return KeyPlayer(pilot, app)

    def may_challenge(self, app: DoubtApp) -> bool:
        return asked(app)

    async def to_a_challenge(self, pilot: Pilot[object], app: DoubtApp) -> None:
        await wait_for(pilot, lambda: view_of(app).my_turn, "my turn")  # type: ignore[union-attr]
        await KeyPlayer(pilot, app).take_turn()
        await wait_for(pilot, lambda: asked(app), "a window")

    def check_results(self, results: Any, view: Any, player: Any) -> None:
        # Laid, announced, doubted and let claims stand, all by keys; this seed's game is won.
        assert all(count > 0 for count in player.done.values()), player.done
        assert view.winner == 0
        # The bluff counts are told at the end; each hand's sparkline is drawn.
        assert str(results.rows[0][3]) != "?"
        assert str(results.rows[0][7]).strip()
        under(results, "doubts: right", "right", view.players)


class KnowDriver(GameDriver):
    game = "iknowyoudont"
    changes: ClassVar[dict[str, object]] = {"game": "iknowyoudont", "options": KnowOptions()}
    seed = 7
    hand, prompt, results = KnowHand, KnowPrompt, KnowResults
    lobby_rules = ("I Know You Don't · its own deck · 5 rounds · 30 s with priority · no turn"
                   " timer · matches until the host stops")
    help_words = ("I Know You Don't", "Interception", "Wildcard", "credibility tokens",
                  "vault", "pot", "15 victory points", "scorepad", "| y, b |", "| p, a, c |",
                  "| i |")
    challenge = ("c", "challenge", "Challenge (c)")
    stand = ("p", "pass")
    option = ("deck", "standard", "deck=standard,rounds=5")
    move_button = "Play "

    def player(self, pilot: Pilot[object], app: DoubtApp) -> KnowKeyPlayer:
        return KnowKeyPlayer(pilot, app)

    def may_challenge(self, app: DoubtApp) -> bool:
        view = app.client.mirror.view if app.client else None
        return isinstance(view, KnowView) and view.can(Challenge)

    async def to_a_challenge(self, pilot: Pilot[object], app: DoubtApp) -> None:
        player = KnowKeyPlayer(pilot, app)
        while not self.may_challenge(app):
            await wait_for(pilot, lambda: know_view(app).my_turn or self.may_challenge(app),
                           "my turn or my priority", 60)
            if know_view(app).my_turn:
                await player.take_turn()
                await wait_for(pilot, lambda: not know_view(app).my_turn, "played")

    def check_results(self, results: Any, view: Any, player: Any) -> None:
        assert view.reason in ("points", "tokens", "rounds"), view.reason
        assert player.done["play"] > 0, player.done
        text = str(results.render())
        assert "vp" in text and "points" in text and "tokens" in text and "vp by round" in text
        for seat, row in enumerate(results.rows):
            points = view.points[seat] + sum(round_[seat] for round_ in view.pad)
            assert (str(row[2]), str(row[3]), str(row[4])) == (
                str(view.victory[seat]), str(points), str(view.tokens[seat]))


#: Each game's driver, by the game's name in rules.GAMES.
class LiarDriver(GameDriver):
    game = "liarsdeck"
    changes: ClassVar[dict[str, object]] = {"game": "liarsdeck", "options": LiarOptions()}
    seed = 1
    hand, prompt, results = LiarHand, LiarPrompt, LiarResults
    lobby_rules = "Liar's Deck · one deck · 3 lives · no turn timer · games until the host stops"
    help_words = ("Liar's Deck", "20 cards", "Jokers", "roulette", "last player standing",
                  "| space |", "| l |")
    challenge = ("l", "liar", "Liar! (l)")
    move_button = " down (enter)"
    stand = ("enter", "put")  # (no window: the next player's cards let a claim stand)
    option = ("lives", "roulette", "decks=1,lives=roulette")

    def player(self, pilot: Pilot[object], app: DoubtApp) -> LiarKeyPlayer:
        return LiarKeyPlayer(pilot, app)

    def may_challenge(self, app: DoubtApp) -> bool:
        view = app.client.mirror.view if app.client else None
        return isinstance(view, LiarView) and view.can(Liar)

    async def to_a_challenge(self, pilot: Pilot[object], app: DoubtApp) -> None:
        player = LiarKeyPlayer(pilot, app)
        while not self.may_challenge(app):
            await wait_for(pilot, lambda: liar_view(app).my_turn, "my turn", 60)
            if not self.may_challenge(app):
                await player.take_turn()

    def check_results(self, results: Any, view: Any, player: Any) -> None:
        # Marked and put cards down, and called, all by keys.
        assert all(count > 0 for count in player.done.values()), player.done
        text = str(results.render())
        assert "place" in text and "lives" in text and "calls: right" in text
        under(results, "calls: right", "right", view.players)
        assert str(results.rows[view.winner][2]) == "1st"
        assert sum(int(str(row[5])) for row in results.rows) == sum(  # lies caught
            getattr(claim, "lie", False) for claim in view.claims)


DRIVERS: dict[str, GameDriver] = {driver.game: driver for driver in (DoubtDriver(), KnowDriver(),
                                                                     LiarDriver())}
