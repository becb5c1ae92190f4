"""Skull in real terminals: two people find a table on a private LAN and play a whole game by
keys (tests/test_tmux.py says how the terminals and the LAN are made and read).

Amy hosts Skull with `doubtlan host` on one machine of the LAN, a bot in the third seat; Ben,
on another, finds the table by zeroconf with `doubtlan join` and joins it. Each lays discs
with enter, opens the bidding and raises with ``b``, passes with ``p`` and turns stacks with
their numbers, reading what they may do from the key bar, until one player has won: both
screens show the results and the deal verified.
"""

from __future__ import annotations

import re

from lan import Lan
from test_tmux import AMY, BEN, NAMES, Screens, Tmux, fills, leave_and_end, need_tools

#: The key bar's words for each move (tui/games/skull/table.py, ``keys``).
LAY, BID, PASS, TURN = "⏎ Lay", "b Bid", "p Pass", "1-6 Turn a stack"
#: What the results say of the winner, on every screen.
WON = re.compile(r"(You win!| wins\.)")


def moves(screen: str) -> set[str]:
    """What this screen's player may do now, as its key bar (the last line) says."""
    lines = screen.splitlines()
    keys = lines[-1] if lines else ""
    return {name for name, shown in (("lay", LAY), ("bid", BID), ("pass", PASS), ("turn", TURN))
            if shown in keys}


def table_part(screen: str) -> str:
    """The screen above its key bar: what a move changes (the key bar may stay the same)."""
    return "\n".join(screen.splitlines()[:-1])


def play_skull(tmux: Tmux, sessions: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """Play the people of ``sessions`` by keys until the game is over on every screen. On
    a turn: turn every stack it may (1, 2 and 3); in the bidding, raise every third time,
    else pass; otherwise lay a disc, or open the bidding at two more than the least (every
    third turn, or with no disc left to lay). Returns what each did, counted."""
    done = {session: dict.fromkeys(("lay", "bid", "pass", "turn"), 0) for session in sessions}
    turns = dict.fromkeys(sessions, 0)

    def over(s: Screens) -> bool:
        return all(WON.search(s[session]) for session in sessions)

    def mover(s: Screens) -> str | None:
        return next((session for session in sessions if moves(s[session])), None)

    while True:
        screens = tmux.wait("a player's move or the game's end",
                            lambda s: over(s) or mover(s) is not None)
        session = mover(screens)
        if session is None:
            return done
        turns[session] += 1
        may, bold = moves(screens[session]), turns[session] % 3 == 0
        keys: tuple[str, ...]
        if "turn" in may:
            keys, move = ("1", "2", "3"), "turn"
        elif "pass" in may:
            keys, move = (("b",), "bid") if bold and "bid" in may else (("p",), "pass")
        elif "lay" in may and not (bold and "bid" in may):
            keys, move = ("Enter",), "lay"
        else:  # (two more than the least: more than its own stack, so others' are turned)
            keys, move = ("+", "+", "b"), "bid"
        before = table_part(screens[session])
        tmux.press(session, *keys)
        done[session][move] += 1
        tmux.wait(f"{NAMES[session]}'s move to show",
                  lambda s, session=session, before=before:  # type: ignore[misc]
                  table_part(s[session]) != before or over(s))


def test_skull_played_to_the_end_by_two_people_over_the_lan() -> None:
    need_tools()
    with Lan(hosts=2, prefix="lanskull") as lan, Tmux(lan) as tmux:
        tmux.start(
            AMY, 1, "host", "--game", "skull", "--players", "3", "--bots", "1",
            "--name", "Amy", "--table", "Amy's table", "--port", "0", "--bot-delay", "0",
            "--turn-timeout", "0", "--seed", "4", "--advertise", lan.address(1),
        )
        tmux.wait("Amy's lobby for Skull", lambda s: "Skull" in s[AMY]
                  and "2/3 seated" in s[AMY] and fills(s[AMY]))
        tmux.start(BEN, 2, "join", "--name", "Ben")
        tmux.wait("the list focused on Amy's table", lambda s: "Amy's table" in s[BEN] and (
            "table: Enter joins" in s[BEN] or "tables: Enter joins" in s[BEN]))
        tmux.press(BEN, "Enter")
        tmux.wait("Ben seated, on Amy's screen",
                  lambda s: "Ben (you)" in s[BEN] and "3/3 seated" in s[AMY])
        tmux.press(AMY, "s")
        screens = tmux.wait("the game on both screens", lambda s: all(
            "Your hand: 4 discs" in s[session] for session in (AMY, BEN)))
        for shown in ("discs", "won", "bids", "Your stack: none"):
            assert shown in screens[AMY], (shown, screens[AMY])

        done = play_skull(tmux, (AMY, BEN))
        assert all(done[AMY][move] + done[BEN][move] > 0 for move in done[AMY]), done
        screens = tmux.wait("the deal verified on both screens", lambda s: all(
            "Deal verified" in s[session] for session in (AMY, BEN)))
        for session in (AMY, BEN):
            screen = screens[session]
            assert WON.search(screen) and "made" in screen and "failed" in screen, screen

        leave_and_end(tmux)
