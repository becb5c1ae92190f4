"""A bot that plays one seat over the network (``doubtlan join --bot``).

:class:`Decider` is the pure part: given what the seat's connection knows, it says which
actions to send, once per moment of decision. :func:`play` runs it on a live connection.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..bots import make_bot
from .client import Client
from .messages import Act, Error, Message, State, Welcome
from .mirror import Mirror


class Decider:
    """Asks the bot for a decision once per moment that needs one.

    A moment is a game, a claim number, a phase, and whether a claim is waiting: the turn's
    cards are chosen once (and sent together), a window is answered once, an open claim is
    considered once. A refusal lets the bot think once more about the same moment (the
    table may have moved on under it), but not again, so it never argues with the host.
    A new ``welcome`` (after a reconnect) forgets the moment: what was sent on the old
    connection may never have arrived.
    """

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self._moment: tuple[object, ...] | None = None
        self._retried: tuple[object, ...] | None = None

    def decide(self, mirror: Mirror, message: Message) -> list[Act]:
        if isinstance(message, Welcome):  # (re)joined: what was sent before may be lost
            self._moment = self._retried = None
            game = message.table.game
            if game != self.bot.game:  # the same strategy, for the game this table plays
                self.bot = make_bot(self.bot.name, self.bot.rng.randbytes(16), game)
            return []
        if isinstance(message, Error):
            if self._moment is None or self._retried == self._moment:
                return []
            self._retried, self._moment = self._moment, None
        elif not isinstance(message, State):
            return []
        view = mirror.view
        if view is None or not view.legal or view.winner is not None:
            return []
        moment = (mirror.game_number, *view.moment)
        if moment == self._moment:
            return []
        self._moment = moment
        return [Act(view.decision, action.text) for action in self.bot.act(view)]


async def play(client: Client, bot: Any,
               also: Callable[[Message], None] | None = None) -> None:
    """Let ``bot`` play ``client``'s seat until the host says goodbye (``also`` is given
    every message first)."""
    decider = Decider(bot)

    async def on_message(message: Message) -> None:
        if also is not None:
            also(message)
        for act in decider.decide(client.mirror, message):
            await client.send(act)

    client.on_message = on_message
    await client.run()
