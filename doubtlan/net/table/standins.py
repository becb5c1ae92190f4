"""The bots at the table: those the host seated, and the stand-ins that play for an absent
player. A stand-in plays the rules' ``timeout_actions``, as the turn timer does (silent in
windows, its turns as the rules say, never a call), so that every player can check what the
host played in an absent player's name (``fairness.host_played``). Each bot plans from its
seat's view at a moment of the game and plays its plan one action at a time, paced by the
bot delay.
"""

from __future__ import annotations

from typing import Any

from ...bots import make_bot
from ...rules import Game, RulesError
from ...rules.seeds import derive, seed_bytes
from ..messages import Note
from .base import Seat, TableParts


class StandIn:
    """What plays for an absent player: the rules' ``timeout_actions`` (no strategy)."""

    name = "stand-in"


#: The one stand-in (it keeps nothing of its own).
STAND_IN = StandIn()


class StandIns(TableParts):
    """Makes the table's bots and lets them play when the game waits for them."""

    def _bot(self, strategy: str, seat: int) -> Any:
        """A bot for ``seat``; seeded from the table's seed when it has one, so a seeded
        table plays the same way every time."""
        seed = self.config.seed
        if seed is None:
            return make_bot(strategy, game=self.kind.name)
        self._bots_made += 1
        return make_bot(strategy, derive(seed_bytes(seed), f"bot {seat} {self._bots_made}"),
                        self.kind.name)

    def _run_bots(self, game: Game[Any, Any], now: float) -> None:
        delay = self.config.bot_delay
        if delay > 0 and self._bot_due is not None and now < self._bot_due:
            return
        self._bot_due = None
        while not game.over:
            acted = self._bot_step(game, now)
            if acted is None:
                return
            if delay > 0 and acted:
                self._bot_due = now + delay  # answers and calls are not held back
                return

    def _bot_step(self, game: Game[Any, Any], now: float) -> bool | None:
        """One action by a bot, if any bot has one to play: whether it was a turn's action
        (not an answer to a window, nor a call); None if no bot played."""
        awaiting = game.awaiting()
        key = game.window_key()
        moment = (self.match.games, game.decision, key)
        for number in game.may_act():
            seat = self.seats[number]
            if seat.bot is None:
                continue
            if seat.plan and seat.planned != moment:
                seat.plan = []  # planned for a moment that has passed (a claim intercepted)
            for _ in range(2):  # a refused action: think again, once, from the table now
                if not seat.plan and not self._plan(game, number, seat, awaiting, moment):
                    break
                if key is not None and number in awaiting and self._hold_answer(game, key, now):
                    return None
                action = seat.plan.pop(0)
                try:
                    self._apply(number, action, "bot" if seat.strategy is not None else
                                "stand-in")
                except RulesError:
                    seat.plan = []  # the table moved on (a call settled the claim)
                    continue
                return key is None and not action.call
        return None

    def _plan(self, game: Game[Any, Any], number: int, seat: Seat,
              awaiting: tuple[int, ...], moment: tuple[object, ...]) -> bool:
        """Ask the bot in ``seat`` what it does now (into ``seat.plan``); whether it does
        anything."""
        stand_in = seat.strategy is None
        if number not in awaiting:  # an optional call: offered once per decision
            if stand_in or seat.asked == game.decision:
                return False  # a stand-in never calls for an absent player
            seat.asked = game.decision
        if stand_in:
            # The turn timer's rule: silent in windows (I Doubt It: the claim stands).
            seat.plan = list(game.timeout_actions(number))
            if game.window_key() is None and seat.plan:
                self._notes.append(Note("away", number))
        else:
            seat.plan = list(seat.bot.act(game.view(number)))
        seat.planned = moment
        return bool(seat.plan)

    def _hold_answer(self, game: Game[Any, Any], key: tuple[object, ...], now: float) -> bool:
        """Whether a bot's answer waits (the bot delay, once per wait of the window clock):
        only while a person sits where the rules let a call come out of turn meanwhile (I
        Know You Don't: intercept ahead of a bot that would pass or accept at once). Decided
        from who sits where (``could_call``), never from what is in a hand: everyone sees
        when the answer comes."""
        delay = self.config.bot_delay
        held = (self.match.games, key)
        if delay <= 0 or self._held == held:
            return False
        if not any(self.seats[s].bot is None for s in game.could_call()):
            return False
        self._held, self._bot_due = held, now + delay
        return True
