"""How the app tests play I Know You Don't by keys (tests/apps.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from apps import GameDriver, TickingClock, config, wait_for
from textual.pilot import Pilot

from doubtlan.rules.iknowyoudont import Challenge, Intercept, Kind, Pass, Wild
from doubtlan.rules.iknowyoudont import Options as KnowOptions
from doubtlan.rules.iknowyoudont import TableView as KnowView
from doubtlan.tui.app import DoubtApp, HostSetup
from doubtlan.tui.games.iknowyoudont.hand import KnowHand
from doubtlan.tui.games.iknowyoudont.prompt import KnowPrompt
from doubtlan.tui.games.iknowyoudont.results import KnowResults


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
            moment = (view.version, view.decision)
            if need == "over" or until(view):
                return view
            if need == "play":
                await self.take_turn()
            else:
                assert need is not None
                await pilot.press(need)
                self.done[need] += 1
            await wait_for(pilot, lambda m=moment: (know_view(self.app).version,  # type: ignore[misc]
                                                    know_view(self.app).decision) != m
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


DRIVER = KnowDriver()
