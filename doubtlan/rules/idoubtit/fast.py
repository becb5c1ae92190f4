"""The tourney's fast path through a game of I Doubt It: :meth:`IDoubtIt.play_out`.

The game asks its seats itself and applies their choices straight to its state, with the
checks :meth:`IDoubtIt.check` would make, but without dispatching each action through
:meth:`IDoubtIt.apply`. ``tests/test_properties.py`` holds it to the same outcome as
stepping through the game with every check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from ..base import Action, Game, Misplay
from ..errors import RulesError
from .actions import Announce, Doubt, Lay, LetStand
from .state import LAYING, WINDOW, State
from .view import TableView

Player = Callable[[TableView], Sequence[Action]]


def play_out(game: Game[Any, TableView], state: State, announce: Callable[[int], None],
             settle: Callable[[int | None], None], players: Sequence[Player],
             max_turns: int) -> int:
    """Play ``game`` (a window for every claim) until it is over or ``max_turns`` claims
    have been made; return the answers played (a turn one, an answer to a claim one).
    ``state`` is the game's, ``announce(seat)`` makes the laid cards its claim and
    ``settle(doubter)`` settles the claim (``doubter`` None: it stands).

    Each turn's seat is asked for its turn; then the window's seats, clockwise from the
    claimer and each from the same moment, until the first doubt (the seats after it
    cannot change how the claim is settled), and the claim is settled once. Every action
    bumps the version as :meth:`IDoubtIt.apply` would; the lays, announcements and answers
    leave no events (the settled claims and the win do)."""
    view, check = game.view, game.check
    max_claim = state.options.max_claim
    decisions = 0
    while state.turns < max_turns:
        phase = state.phase
        if phase is LAYING:
            seat = state.turn
            actions = players[seat](view(seat))
            decisions += 1
            if not actions:
                raise Misplay(seat, None, "did not act on its turn")
            hand = state.hands[seat]
            for action in actions:
                kind = type(action)
                laid = state.laid
                if kind is Lay and len(laid) < max_claim and state.phase is LAYING:
                    card = action.card  # type: ignore[attr-defined]
                    try:
                        hand.remove(card)  # (one search of the hand, not two)
                    except ValueError:
                        _refuse(check, seat, action)  # not in the hand
                    laid.append(card)
                    state.changed[seat] = state.version + 1
                elif kind is Announce and laid and state.phase is LAYING:
                    announce(seat)
                else:
                    _refuse(check, seat, action)
                state.version += 1
        elif phase is WINDOW:
            doubter = None
            answered = 0
            for seat in state.window:
                answer = players[seat](view(seat))
                answered += 1
                answered_with = type(answer[0]) if answer and len(answer) == 1 else None
                if answered_with is LetStand:
                    continue
                if answered_with is not Doubt:
                    _misplaced(check, seat, answer)
                doubter = seat
                break
            decisions += answered
            state.version += answered - 1  # the last answer settles the claim
            settle(doubter)
            state.version += 1
        else:
            break
    return decisions


def _refuse(check: Callable[[int, Action], None], seat: int, action: Action) -> NoReturn:
    """Raise the :class:`Misplay` of a turn's action that is not a lay or an announcement
    the rules allow now (the refusal :meth:`IDoubtIt.check` gives)."""
    try:
        check(seat, action)
    except RulesError as error:
        raise Misplay(seat, action, str(error)) from error
    raise Misplay(seat, action, "not a turn's action")  # pragma: no cover


def _misplaced(check: Callable[[int, Action], None], seat: int,
               answer: Sequence[Action]) -> NoReturn:
    """Raise the :class:`Misplay` of a window's answer that is not one doubt or let-stand."""
    if not answer:
        raise Misplay(seat, None, "did not answer the claim")
    first = answer[0]
    if type(first) not in (Doubt, LetStand):
        _refuse(check, seat, first)
    raise Misplay(seat, answer[1], "answered the claim with more than one action")
