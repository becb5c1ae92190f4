"""The table app in real terminals: two people find a table on a private LAN and play by keys
(I Doubt It; Liar's Deck at two and at four seats, to the end of a game).

Amy hosts a table with `doubtlan host` (the table app) on one machine of a private LAN of
network namespaces (tests/lan.py); Ben, on another, runs `doubtlan join` with no address,
finds the table on the discovery screen by zeroconf alone and joins it; a bot takes the third
seat. Each app runs in a terminal of a tmux server of the test's own (`tmux -L`), which the
test reads with `capture-pane` and types into with `send-keys`, as the players would. Like
tests/test_lan.py, the test needs root (for the namespaces), and tmux; without them it fails
(it does not skip), saying so.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import NamedTuple, Self

import pytest
from lan import NETNS_MISSING, Lan, netns_available

from doubtlan.tui.screens.play import DOUBT_GUARD

ROOT = Path(__file__).resolve().parent.parent

#: The terminals' size: what the test reads is the table app's layout at this size.
WIDTH, HEIGHT = 100, 30
#: The longest one step may take (an app starting, a table showing up, a key taking effect),
#: and the whole test.
STEP = 20.0
TOTAL = 300.0  # (bounds a stuck test; a busy machine takes its time)
#: How often a screen is read while waiting for it to change.
POLL = 0.05
#: How long one tmux command may take.
TMUX_TIMEOUT = 10.0

#: The sessions (one terminal each) and who plays in them.
AMY, BEN = "amy", "ben"
NAMES = {AMY: "Amy", BEN: "Ben"}

#: What the prompt says when a claim waits for this player's answer.
ASK = "d doubts, p lets it stand"
#: What a pane says once its doubtlan has ended (see Tmux.start).
EXITED = re.compile(r"^EXITED (?P<status>\d+)$", re.MULTILINE)
#: A row of the claims list: who (cut short), the claim ("1 A"), and how it ended, which
#: starts with a word: "stood", "true" or "bluff" (the rest is who took the pile).
ROW = re.compile(r" (?P<who>\S.*?) {2,}(?P<claim>\d+ \S+) {2,}(?P<outcome>\S.*?) *")
VERDICTS = ("stood", "true", "bluff")
HAND = re.compile(r"Your hand: (?P<cards>\d+) cards")

_counter = itertools.count()

#: What each terminal shows, by session.
Screens = dict[str, str]


class Row(NamedTuple):
    """One claim of the claims list on the right of the table screen."""

    who: str
    claim: str
    #: The outcome's first word: one of VERDICTS, unless the app says it another way.
    verdict: str


def history(screen: str) -> list[Row]:
    """The claims listed on a table screen, oldest first. The list is the rightmost box, so
    a row is what stands between the last two '│' of a line."""
    rows = []
    for line in screen.splitlines():
        cells = line.rstrip().split("│")
        found = ROW.fullmatch(cells[-2]) if len(cells) >= 3 else None
        if found is not None:
            verdict = re.split(r"\W", found["outcome"], maxsplit=1)[0]
            rows.append(Row(found["who"], found["claim"], verdict))
    return rows


def my_turn(screen: str) -> bool:
    """Whether this screen's player may lay a card now. The key bar at the bottom says so
    every time: the prompt says "Your turn" too, but not on the turn after a doubt."""
    lines = screen.splitlines()
    return bool(lines) and "Lay card" in lines[-1]


def fills(screen: str) -> bool:
    """Whether the app took the terminal's size (the layout the test reads): its key bar is
    on the terminal's last line."""
    lines = screen.splitlines()
    return len(lines) == HEIGHT and "q Quit" in lines[-1]


def hand(screen: str) -> int | None:
    """How many cards the screen's player holds (None when no hand is shown)."""
    found = HAND.search(screen)
    return int(found["cards"]) if found else None


def exit_status(screen: str) -> int | None:
    """The status doubtlan ended with in this pane, or None while it runs."""
    found = EXITED.search(screen)
    return int(found["status"]) if found else None


class Tmux:
    """A tmux server of the test's own, ``tmux -L NAME`` with no configuration file, so that
    no other server and no one's settings come into it; each session is one terminal,
    running doubtlan in one host of ``lan``. Leaving the ``with`` block kills the server and
    everything that runs in it."""

    def __init__(self, lan: Lan) -> None:
        self.lan = lan
        self.name = f"doubtlan{os.getpid()}n{next(_counter)}"
        self.sessions: list[str] = []
        self.socket: Path | None = None
        #: Every wait ends by then.
        self.deadline = time.monotonic() + TOTAL

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            ["tmux", "-L", self.name, "-f", "/dev/null", *args],
            capture_output=True, text=True, timeout=TMUX_TIMEOUT, check=False,
        )
        if check and result.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)} failed: {result.stderr.strip()}")
        return result

    def start(self, session: str, host: int, *args: str) -> None:
        """Run ``doubtlan ARGS`` with this interpreter in ``host``, in a new terminal of
        WIDTH x HEIGHT. Once doubtlan ends, the pane says "EXITED <status>" and stays, to be
        read, until the server is killed."""
        command = [
            "ip", "netns", "exec", self.lan.namespace(host),
            # tmux would set its own TERM; PYTHONPATH picks this checkout, as in test_lan.
            # COLUMNS and LINES would win over the terminal's size, and pytest's process has
            # them (80x24) in its C environment from GNU readline, which sets them on import.
            "env", "-u", "COLUMNS", "-u", "LINES", "TERM=xterm-256color", f"PYTHONPATH={ROOT}",
            sys.executable, "-m", "doubtlan", *args,
        ]
        script = f"{shlex.join(command)}; echo EXITED $?; exec sleep {2 * TOTAL:.0f}"
        # Given as several arguments, the command is run as it is, by no one's login shell.
        self.run("new-session", "-d", "-s", session, "-x", str(WIDTH), "-y", str(HEIGHT),
                 "-c", str(ROOT), "/bin/sh", "-c", script)
        self.sessions.append(session)
        if self.socket is None:
            where = self.run("list-sessions", "-F", "#{socket_path}").stdout.split("\n")[0]
            self.socket = Path(where)

    def screen(self, session: str, scrollback: bool = False) -> str:
        """What the terminal shows (and, with ``scrollback``, what scrolled off it)."""
        extra = ["-S", "-"] if scrollback else []
        return self.run("capture-pane", "-p", "-t", f"={session}:", *extra).stdout

    def screens(self) -> Screens:
        return {session: self.screen(session) for session in self.sessions}

    def press(self, session: str, *keys: str) -> None:
        """Type ``keys`` (tmux key names: "Enter", "a") into the terminal."""
        self.run("send-keys", "-t", f"={session}:", *keys)

    def poll(self, ready: Callable[[Screens], object], timeout: float) -> Screens | None:
        """The screens, once ``ready`` says they are; None after ``timeout`` seconds (or at
        the test's deadline)."""
        end = min(time.monotonic() + timeout, self.deadline)
        while True:
            screens = self.screens()
            if ready(screens):
                return screens
            if time.monotonic() >= end:
                return None
            time.sleep(POLL)

    def wait(
        self, what: str, ready: Callable[[Screens], object], timeout: float = STEP
    ) -> Screens:
        """The screens, once ``ready`` says they are; AssertionError naming ``what`` and
        showing every screen if that takes longer than ``timeout`` seconds."""
        screens = self.poll(ready, timeout)
        if screens is None:
            raise self.failure(what)
        return screens

    def press_until(
        self, session: str, key: str, what: str, ready: Callable[[Screens], object],
        again: float,
    ) -> Screens:
        """Press ``key`` until the screens are ``ready``, again after every ``again``
        seconds without it (for a key that may be ignored), for STEP seconds at most."""
        end = min(time.monotonic() + STEP, self.deadline)
        while True:
            self.press(session, key)
            screens = self.poll(ready, min(again, end - time.monotonic()))
            if screens is not None:
                return screens
            if time.monotonic() >= end:
                raise self.failure(what)

    def failure(self, what: str) -> AssertionError:
        late = "the test's" if time.monotonic() >= self.deadline else "the step's"
        shown = "".join(
            f"\n--- {session} ({NAMES.get(session, '?')}):\n{screen}"
            for session, screen in self.screens().items()
        )
        return AssertionError(
            f"waited for {what} until {late} deadline (steps {STEP:g} s, the test {TOTAL:g} s);"
            f" the screens:{shown}{self.tables_seen()}"
        )

    def tables_seen(self) -> str:
        """What a fresh browse finds from each host now (for a failure's report: whether a
        table missing from a screen is on the network at all)."""
        code = ("import asyncio; from doubtlan.net.discovery import find_tables; "
                "print([(t.name, t.addresses, t.state) for t in asyncio.run(find_tables(3))])")
        found = []
        for host in range(1, self.lan.hosts + 1):
            try:
                done = subprocess.run(
                    ["ip", "netns", "exec", self.lan.namespace(host), sys.executable, "-c", code],
                    capture_output=True, text=True, timeout=15, check=False,
                    env={**os.environ, "PYTHONPATH": str(ROOT)})
                found.append(f"host {host}: {done.stdout.strip() or done.stderr.strip()[-300:]}")
            except subprocess.TimeoutExpired:
                found.append(f"host {host}: no answer in 15 s")
        return "\n--- a fresh browse from each host:\n" + "\n".join(found)

    def close(self) -> None:
        """Kill the server and whatever still runs in its terminals; remove its socket."""
        listed = self.run("list-panes", "-a", "-F", "#{pane_pid}", check=False)
        panes = [int(pid) for pid in listed.stdout.split()] if listed.returncode == 0 else []
        self.run("kill-server", check=False)  # hangs up on every terminal
        # A pane's process leads a process group that holds all it started (sh, doubtlan,
        # sleep): anything that outlived the hang-up would keep its namespace alive.
        for pid in panes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
        if self.socket is not None:  # tmux leaves it behind
            self.socket.unlink(missing_ok=True)
        self.sessions.clear()


def need_tools() -> None:
    """Fail (not skip), as tests/test_lan.py does, when this machine cannot run the test."""
    if shutil.which("tmux") is None:
        pytest.fail("this test needs tmux, to run the table app in terminals it can read")
    if not netns_available():
        pytest.fail(NETNS_MISSING)


def other(session: str) -> str:
    return BEN if session == AMY else AMY


def next_move(screens: Screens) -> tuple[str, str] | None:
    """Who must act and how: ("amy", "answer") for a claim to answer, ("ben", "turn") to
    lay cards; None while only the bot has something to do."""
    for session in (AMY, BEN):
        if ASK in screens[session]:
            return session, "answer"
        if my_turn(screens[session]):
            return session, "turn"
    return None


def lay_and_announce(tmux: Tmux, session: str, screens: Screens) -> None:
    """Lay the card under the cursor (the first) and claim it: the card leaves the hand, and
    both screens show the claim, which the other person is asked about."""
    name = NAMES[session]
    cards = hand(screens[session])
    assert cards is not None, screens[session]
    tmux.press(session, "Enter")
    tmux.wait(
        f"{name}'s card to leave the hand for the laid row",
        lambda s: "Laid: " in s[session] and hand(s[session]) == cards - 1,
    )
    tmux.press(session, "a")
    claim = f"{name} claims one "
    tmux.wait(
        f"{name}'s claim of one card on both screens, and {NAMES[other(session)]} asked",
        lambda s: claim in s[session] and not my_turn(s[session])
        and claim in s[other(session)] and ASK in s[other(session)],
    )


def answer(tmux: Tmux, session: str, screens: Screens, doubt: bool) -> None:
    """Doubt the claim asked about, or let it stand: the screen then says the answer, or
    the claim is settled and the claims list grows."""
    settled = len(history(screens[session]))

    def answered(s: Screens) -> bool:
        return ASK not in s[session] or len(history(s[session])) > settled

    what = f"{NAMES[session]} to {'doubt' if doubt else 'let it stand'}"
    # An answer within DOUBT_GUARD seconds of the claim showing up is taken for a slip of
    # the finger and not taken (the screen says "too soon"): press again until it counts.
    tmux.press_until(session, "d" if doubt else "p", what, answered, again=2 * DOUBT_GUARD)


def test_two_people_find_a_table_play_by_keys_and_quit() -> None:
    need_tools()
    with Lan(hosts=2, prefix="lantmux") as lan, Tmux(lan) as tmux:
        # Amy hosts in host 1, advertised on its address as in test_lan; a bot sits down.
        tmux.start(
            AMY, 1, "host", "--players", "3", "--bots", "1", "--name", "Amy",
            "--table", "Amy's table", "--port", "0", "--bot-delay", "0", "--window", "30",
            "--turn-timeout", "0", "--seed", "5", "--advertise", lan.address(1),
        )
        tmux.wait(
            f"Amy's lobby, with Amy and the bot seated, filling the {WIDTH}x{HEIGHT} terminal",
            lambda s: "Amy (you)" in s[AMY] and "Ada" in s[AMY] and "bot, medium" in s[AMY]
            and "2/3 seated" in s[AMY] and fills(s[AMY]),
        )

        # Ben, in host 2, is told no address: the discovery screen finds the table.
        tmux.start(BEN, 2, "join", "--name", "Ben")
        tmux.wait(
            "Ben's discovery screen to list Amy's table",
            lambda s: "Tables on this network" in s[BEN] and "Amy's table" in s[BEN]
            and "Enter joins" in s[BEN],
        )
        tmux.wait("the list focused (the name given)", lambda s: "table: Enter joins" in s[BEN]
                  or "tables: Enter joins" in s[BEN])
        tmux.press(BEN, "Enter")
        tmux.wait(
            "Ben seated in the lobby, on both screens",
            lambda s: "Ben (you)" in s[BEN] and "starts when the host says so" in s[BEN]
            and re.search(r"\bBen +human +connected", s[AMY]) and "3/3 seated" in s[AMY],
        )

        tmux.press(AMY, "s")
        screens = tmux.wait(
            "the match to start on both screens",
            lambda s: hand(s[AMY]) is not None and hand(s[BEN]) is not None,
        )
        assert history(screens[AMY]) == history(screens[BEN]) == []

        # Play until three claims are settled, at least one by each person, one of them
        # doubted (by whoever is asked first); the bot's claims come in between.
        rows: list[Row] = []
        doubted: int | None = None  # the doubted claim's place in the list
        while not (
            len(rows) >= 3 and {"Amy", "Ben"} <= {row.who for row in rows}
            and doubted is not None and len(rows) > doubted
        ):
            screens = tmux.wait(
                "Amy or Ben to have the turn or a claim to answer",
                lambda s: next_move(s) is not None,
            )
            move = next_move(screens)
            assert move is not None
            session, kind = move
            if kind == "turn":
                lay_and_announce(tmux, session, screens)
            else:
                doubt = doubted is None
                if doubt:
                    doubted = len(history(screens[session]))
                answer(tmux, session, screens, doubt)
            now = history(tmux.screen(AMY))
            assert now[: len(rows)] == rows, f"the claims list changed its past: {rows} {now}"
            rows = now

        # Both screens list the same claims; each person's claim is of the one card laid,
        # and the doubt turned the claim over.
        screens = tmux.wait(
            "both screens to list the same claims",
            lambda s: history(s[AMY]) == history(s[BEN]),
        )
        rows = history(screens[AMY])
        assert all(row.verdict in VERDICTS for row in rows), rows
        assert doubted is not None and rows[doubted].verdict in ("true", "bluff"), rows
        assert all(row.claim.startswith("1 ") for row in rows if row.who in ("Amy", "Ben"))

        # Ben leaves: his app ends, and Amy's table sees his seat empty of him.
        tmux.press(BEN, "q")
        tmux.wait("Ben to be asked to leave", lambda s: "Leave the table?" in s[BEN])
        tmux.press(BEN, "y")
        screens = tmux.wait("Ben's app to end", lambda s: exit_status(s[BEN]) is not None)
        assert exit_status(screens[BEN]) == 0, screens[BEN]
        tmux.wait(
            "Amy's screen to show Ben away",
            lambda s: re.search(r"\bBen\b.*\baway\b", s[AMY]) is not None,
        )

        # Amy ends the table.
        tmux.press(AMY, "q")
        tmux.wait("Amy to be asked", lambda s: "End the table for everyone?" in s[AMY])
        tmux.press(AMY, "y")
        screens = tmux.wait("Amy's app to end", lambda s: exit_status(s[AMY]) is not None)
        assert exit_status(screens[AMY]) == 0, screens[AMY]

        for session in (AMY, BEN):
            everything = tmux.screen(session, scrollback=True)
            assert "Traceback" not in everything, everything


def test_i_know_you_dont_in_a_terminal_played_by_keys() -> None:
    """Amy hosts I Know You Don't against two bots and plays a card with a declaration she
    chose by keys; her screen shows the tokens, points, the pot, the draw pile and the
    vault, and the claim goes into the claims list."""
    need_tools()
    with Lan(hosts=1, prefix="lanknowt") as lan, Tmux(lan) as tmux:
        tmux.start(
            AMY, 1, "host", "--game", "iknowyoudont", "--players", "3", "--bots", "2",
            "--name", "Amy", "--port", "0", "--bot-delay", "0", "--window", "30",
            "--turn-timeout", "0", "--seed", "3", "--no-advertise",
        )
        tmux.wait("Amy's lobby for I Know You Don't",
                  lambda s: "I Know You Don't" in s[AMY] and "3/3 seated" in s[AMY])
        tmux.press(AMY, "s")
        screens = tmux.wait("Amy's turn", lambda s: "Your turn." in s[AMY]
                            and "Play" in s[AMY])
        screen = screens[AMY]
        for shown in ("tok", "pts", "pot 0", "draw", "vault 0", "⏎ Play", "y Truth"):
            assert shown in screen, (shown, screen)
        tmux.press(AMY, "b")
        tmux.press(AMY, "4")
        tmux.wait("the declaration chosen", lambda s: re.search(
            r"as level 4 Bluff(: a bluff)? \(enter\)", s[AMY]) is not None)
        tmux.press(AMY, "Enter")
        screens = tmux.wait(
            "Amy's claim in the claims list",
            lambda s: re.search(r"│ Amy +4B ", s[AMY]) is not None,
        )
        tmux.press(AMY, "q")
        tmux.wait("Amy to be asked", lambda s: "End the table?" in s[AMY])  # (bots only)
        tmux.press(AMY, "y")
        screens = tmux.wait("Amy's app to end", lambda s: exit_status(s[AMY]) is not None)
        assert exit_status(screens[AMY]) == 0, screens[AMY]
        everything = tmux.screen(AMY, scrollback=True)
        assert "Traceback" not in everything, everything


def hand_row(screen: str) -> str:
    """The cards of the screen's player's hand, as the line under "Your hand:" shows them."""
    lines = screen.splitlines()
    at = next((i for i, line in enumerate(lines) if "Your hand:" in line), None)
    assert at is not None and at + 1 < len(lines), screen
    return lines[at + 1].split("│")[0].strip()


def test_a_player_whose_app_was_killed_takes_the_seat_back_by_joining_again() -> None:
    """Ben's app dies (kill -9) in the middle of a game at a table with a PIN; `doubtlan join
    --name Ben` again, on the same machine, lists the table as his seat, takes him back to
    the same seat with the same hand (net/kept.py) without asking the PIN (the seat's token
    proves it), and his claims list says which claims the host played for him meanwhile
    (the window's clock let Amy's claim stand for him)."""
    need_tools()
    with Lan(hosts=2, prefix="lankill") as lan, Tmux(lan) as tmux:
        tmux.start(
            AMY, 1, "host", "--players", "3", "--bots", "1", "--name", "Amy",
            "--table", "Amy's table", "--port", "0", "--bot-delay", "0", "--window", "2",
            "--turn-timeout", "0", "--grace", "60", "--seed", "7", "--pin", "4321",
            "--advertise", lan.address(1),
        )
        tmux.wait("Amy's lobby", lambda s: "2/3 seated" in s[AMY] and fills(s[AMY]))
        tmux.start(BEN, 2, "join", "--name", "Ben")
        tmux.wait("Amy's table listed", lambda s: "Amy's table" in s[BEN]
                  and "Enter joins" in s[BEN])
        tmux.wait("the list focused (the name given)", lambda s: "table: Enter joins" in s[BEN]
                  or "tables: Enter joins" in s[BEN])
        tmux.press(BEN, "Enter")
        tmux.wait("the PIN asked", lambda s: "needs a PIN" in s[BEN])
        tmux.press(BEN, *"4321", "Enter")
        tmux.wait("Ben seated", lambda s: "3/3 seated" in s[AMY] and "Ben (you)" in s[BEN])
        tmux.press(AMY, "s")
        screens = tmux.wait("the match to start", lambda s: hand(s[BEN]) is not None)
        before = hand_row(screens[BEN])

        # Ben's app is killed: no goodbye, the terminal just ends it.
        listed = tmux.run("list-panes", "-t", f"={BEN}:", "-F", "#{pane_pid}").stdout.split()
        subprocess.run(["pkill", "-KILL", "-P", listed[0]], check=False, timeout=TMUX_TIMEOUT)
        tmux.wait("Ben's app to die", lambda s: "EXITED 137" in s[BEN])  # (SIGKILL: 128 + 9)
        tmux.wait("Amy's screen to show Ben away",
                  lambda s: re.search(r"\bBen\b.*\baway\b", s[AMY]) is not None)
        # Amy claims; the window's clock answers for the absent Ben, and the claim stands.
        tmux.wait("Amy's turn", lambda s: my_turn(s[AMY]))
        tmux.press(AMY, "Enter")
        tmux.wait("Amy's card laid", lambda s: "Laid: " in s[AMY])
        tmux.press(AMY, "a")
        tmux.wait("Amy's claim settled", lambda s: len(history(s[AMY])) >= 1)

        # He runs it again: the list says it holds his seat, and Enter takes it back.
        again = "ben2"
        tmux.start(again, 2, "join", "--name", "Ben")
        tmux.wait("the table listed as Ben's seat",
                  lambda s: "your seat" in s[again] and "Amy's table" in s[again])
        tmux.wait("the list focused (the name given)", lambda s: "table: Enter joins" in s[again]
                  or "tables: Enter joins" in s[again])
        tmux.press(again, "Enter")
        screens = tmux.wait("Ben back at the table, with a hand, or a question",
                            lambda s: hand(s[again]) is not None or "needs a PIN" in s[again])
        assert "needs a PIN" not in screens[again], screens[again]
        assert hand_row(screens[again]) == before, (before, screens[again])
        tmux.wait("Ben's claims list to say what was played for him",
                  lambda s: "* played for you" in s[again])
        tmux.wait("Amy's screen to show Ben back",
                  lambda s: re.search(r"\bBen\b.*\baway\b", s[AMY]) is None)
        for session in (AMY, BEN, again):
            everything = tmux.screen(session, scrollback=True)
            assert "Traceback" not in everything, everything


def leave_and_end(tmux: Tmux) -> None:
    """Ben leaves the table and Amy ends it (``q``, then ``y``, each): both apps end with
    status 0, and neither terminal ever showed a traceback."""
    for session, asked in ((BEN, "Leave the table?"), (AMY, "End the table for everyone?")):
        tmux.press(session, "q")
        tmux.wait(f"{NAMES[session]} to be asked", lambda s, session=session, asked=asked:  # type: ignore[misc]
                  asked in s[session])
        tmux.press(session, "y")
        screens = tmux.wait(f"{NAMES[session]}'s app to end",
                            lambda s, session=session: exit_status(s[session]) is not None)  # type: ignore[misc]
        assert exit_status(screens[session]) == 0, screens[session]
    for session in (AMY, BEN):
        everything = tmux.screen(session, scrollback=True)
        assert "Traceback" not in everything, everything


# -- Liar's Deck --------------------------------------------------------------------------

#: The round box beside the prompt: the round, and the cards down in it.
ROUND = re.compile(r"│ +round (?P<round>\d+) +│")
DOWN = re.compile(r"│ +(?P<down>\d+) down +│")
#: What a Liar's Deck screen says once its game is over.
STANDING = "The last player standing after"


def liar_moves(screen: str) -> tuple[bool, bool]:
    """Whether this screen's player may put cards down, and may call, now: the key bar at
    the bottom says which."""
    lines = screen.splitlines()
    keys = lines[-1] if lines else ""
    return "⏎ Put down" in keys, "l Liar!" in keys


def liar_moment(screen: str) -> tuple[str, ...]:
    """Where the round is, as the round box says it (what a move changes)."""
    found = [ROUND.search(screen), DOWN.search(screen)]
    return tuple(match.group(0) if match else "" for match in found)


def play_liars_deck(tmux: Tmux, sessions: tuple[str, ...]) -> Screens:
    """Play the people of ``sessions`` by keys until the game is over on every screen: on a
    turn, every third a call when there is a claim to call (or when it is the one move), the
    others the card under the cursor put down. Returns the screens at the end."""
    turns = dict.fromkeys(sessions, 0)

    def over(s: Screens) -> bool:
        return all(STANDING in s[session] for session in sessions)

    def mover(s: Screens) -> str | None:
        return next((session for session in sessions if any(liar_moves(s[session]))), None)

    while True:
        screens = tmux.wait("a player's move or the game's end",
                            lambda s: over(s) or mover(s) is not None)
        session = mover(screens)
        if session is None:
            return screens
        turns[session] += 1
        put, call = liar_moves(screens[session])
        before = liar_moment(screens[session])
        tmux.press(session, "l" if call and (not put or turns[session] % 3 == 0) else "Enter")
        tmux.wait(f"{NAMES[session]}'s move to show",
                  lambda s, session=session, before=before:  # type: ignore[misc]
                  liar_moment(s[session]) != before or STANDING in s[session])


@pytest.mark.parametrize("players", [2, 4])
def test_liars_deck_played_to_the_end_by_two_people_over_the_lan(players: int) -> None:
    """Amy hosts Liar's Deck on one machine of the LAN (with bots in the seats beyond two),
    Ben finds and joins it from another, and they play by keys, putting cards down and
    calling, until one player is left standing: both screens show the results."""
    need_tools()
    with Lan(hosts=2, prefix=f"lanliar{players}") as lan, Tmux(lan) as tmux:
        tmux.start(
            AMY, 1, "host", "--game", "liarsdeck", "--players", str(players), "--bots",
            str(players - 2), "--name", "Amy", "--table", "Amy's table", "--port", "0",
            "--bot-delay", "0", "--turn-timeout", "0", "--seed", "4",
            "--advertise", lan.address(1),
        )
        tmux.wait("Amy's lobby for Liar's Deck", lambda s: "Liar's Deck" in s[AMY]
                  and f"{players - 1}/{players} seated" in s[AMY] and fills(s[AMY]))
        tmux.start(BEN, 2, "join", "--name", "Ben")
        tmux.wait("Ben's discovery screen to list Amy's table",
                  lambda s: "Amy's table" in s[BEN] and "Enter joins" in s[BEN])
        tmux.wait("the list focused (the name given)", lambda s: "table: Enter joins" in s[BEN]
                  or "tables: Enter joins" in s[BEN])
        tmux.press(BEN, "Enter")
        tmux.wait("Ben seated, on Amy's screen",
                  lambda s: "Ben (you)" in s[BEN] and f"{players}/{players} seated" in s[AMY])
        tmux.press(AMY, "s")
        screens = tmux.wait("the game on both screens",
                            lambda s: hand(s[AMY]) is not None and hand(s[BEN]) is not None)
        for shown in ("cards", "lives", "round 1", "and Jokers"):
            assert shown in screens[AMY], (shown, screens[AMY])

        screens = play_liars_deck(tmux, (AMY, BEN))
        for session in (AMY, BEN):
            screen = screens[session]
            assert "You win!" in screen or " wins." in screen, screen
            assert "calls: right" in screen and "1st" in screen and "2nd" in screen, screen
            assert ("4th" in screen) == (players == 4), screen  # (a place for every player)
        tmux.wait("the deal verified on both screens",
                  lambda s: all("Deal verified" in s[session] for session in (AMY, BEN)))

        leave_and_end(tmux)
