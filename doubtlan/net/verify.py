"""``doubtlan verify``: a journal checked from its first record to its last (docs/journal.md):
each deal from the secret the table committed to, each action by the rules, each action the
host played in someone's name against the clocks the journal records and the seats it
says were bots', and why the match closed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..rules import RulesError, game_named
from ..rules.fairness import (
    CHAIN_LINKS,
    HOST_PLAYED,
    PLAYED_BY,
    Played,
    SeedChain,
    host_played,
    links_to,
)
from .journal import UNNAMED_GAME, Contents, Replay, in_use, read
from .last_name import valid as valid_name
from .messages import LONGEST_LINE
from .signing import act_text, say_text, signed_by_any

#: Seconds allowed for the rounding of the journal's times.
SLACK = 0.05


class _Waits:
    """When the game's current turn and window began, by the journal's times (None: before
    a resume, on another clock), to judge what the host says its clocks played."""

    def __init__(self) -> None:
        self.turn: tuple[object, float | None] | None = None
        self.window: tuple[object, float | None] | None = None

    def note(self, game: Any, at: float | None) -> None:
        """The game as it is now, at ``at`` (after a deal or an action)."""
        turn = (game.decision, game.turn_seat())
        if self.turn is None or self.turn[0] != turn:
            self.turn = (turn, at)
        window = game.window_key()
        if self.window is None or self.window[0] != window:
            self.window = (window, at)

    def unknown(self) -> None:
        """A resume: the waits running began on another clock."""
        if self.turn is not None:
            self.turn = (self.turn[0], None)
        if self.window is not None:
            self.window = (self.window[0], None)

    def judge(self, game: Any, by: str, at: float | None, turn_timeout: float,
              window: float) -> str | None:
        """Why the host's clock cannot have played an action labelled ``by`` at ``at``."""
        if at is None:
            return None
        if by == "timer" and self.turn is not None and self.turn[1] is not None \
                and self.turn[0] == (game.decision, game.turn_seat()) \
                and at - self.turn[1] < turn_timeout - SLACK:
            return (f"the turn timer played it {at - self.turn[1]:.1f} s into the turn, "
                    f"of the table's {turn_timeout:g} s")
        if by == "window" and self.window is not None and self.window[1] is not None \
                and self.window[0] == game.window_key() \
                and at - self.window[1] < window - SLACK:
            return (f"a window's time ran out {at - self.window[1]:.1f} s into the window, "
                    f"of the table's {window:g} s")
        return None


def _label(by: str, seat: int, bots: set[int]) -> str | None:
    """Why ``by`` cannot have played for ``seat``, given the seats the journal says are
    bots'."""
    if by == "player" and seat in bots:
        return f"seat {seat + 1} is a bot's, but the journal says its player played it"
    if by == "bot" and seat not in bots:
        return f"the journal says a bot played it, but seat {seat + 1} is a person's"
    return None


class _Signed:
    """Each seat's keys as the journal's seats give them, and the number of its last line:
    what a player's actions and lines are checked by (net/signing.py)."""

    def __init__(self, match: str) -> None:
        self.match = match
        self.keys: dict[int, set[str]] = {}
        self.heard: dict[int, int] = {}

    def seats(self, record: dict[str, Any]) -> None:
        for row in record["seats"]:
            if len(row) > 8 and isinstance(row[8], str):
                self.keys.setdefault(row[0], set()).add(row[8])

    def act(self, record: dict[str, Any], game: int, decision: int) -> str | None:
        """Why an action the journal says a player played is not that player's."""
        if signed_by_any(self.keys.get(record["seat"], set()), act_text(
                self.match, game, decision, record["action"]), record.get("sig")):
            return None
        return f"seat {record['seat'] + 1}'s player did not sign {record['action']!r}"

    def say(self, record: dict[str, Any], bots: set[int]) -> str | None:
        """Why a line the journal says a seat said is not that seat's."""
        seat, name, line = record["seat"], record["name"], record["line"]
        if record["bot"]:
            return None if seat in bots else f"{name}'s seat is a person's, not a bot's"
        number = record.get("number")
        if type(number) is not int or not signed_by_any(
                self.keys.get(seat, set()), say_text(self.match, number, line), record.get("sig")):
            return f"{name} did not sign {line!r}"
        if number <= self.heard.get(seat, 0):
            return f"{name}'s line {line!r} is said again, or out of its order"
        self.heard[seat] = number
        return None


def _closed(closed: dict[str, Any], games: int, played: int,
            finished: bool) -> tuple[str | None, bool]:
    """What the ``closed`` record says, held to what the journal shows: ``played`` of the
    match's ``games`` dealt, the last of them ``finished`` or not. Returns a line to say
    (or None) and whether it is a problem."""
    why, when = closed.get("why"), closed.get("when")
    through = games > 0 and played >= games and finished
    if why == "ended":
        if through:
            return (f"the journal says the host ended the match, but all of its {games} "
                    "games were played to their end"), True
        if games > 0:
            return (f"the host ended the match after game {played} of its {games}, at "
                    f"{when}"), False
        return None, False
    if why == "over":
        if games > 0 and played < games:
            return (f"the journal says the match was played to its end, but it holds "
                    f"{played} of its {games} games"), True
        if games > 0 and not finished:
            return (f"the journal says the match was played to its end, but its game "
                    f"{played} did not end"), True
        return None, False
    return f"the journal closed without saying why (it says {why!r})", True


class _Times:
    """The host's clock as the journal's deals and actions record it: each must have its
    time, and no time may come before the one before it (until a resume, after which the
    times are on another clock)."""

    def __init__(self) -> None:
        self.last: float | None = None

    def judge(self, at: object) -> str | None:
        """Why ``at`` cannot be the time of the next deal or action."""
        if isinstance(at, bool) or not isinstance(at, int | float) or at != at:
            return f"it has no time on the host's clock ({at!r})"
        if self.last is not None and at < self.last:
            return (f"its time ({at:.3f} s on the host's clock) comes before the time of "
                    f"the deal or action before it ({self.last:.3f} s)")
        self.last = float(at)
        return None


def _words(record: dict[str, Any]) -> str | None:
    """Why a ``seats`` or ``say`` record holds a name or a line the wire would refuse (a
    control character, a bidi override, a zero-width one: docs/security.md), or None."""
    if record["t"] == "seats":
        for row in record["seats"]:
            if isinstance(row[1], str) and not valid_name(row[1]):
                return f"seat {row[0] + 1} is named {row[1]!r}, which no table takes"
        return None
    name, line = record["name"], record["line"]
    if not isinstance(name, str) or not valid_name(name):
        return f"a line is said by {name!r}, a name no table takes"
    if not isinstance(line, str) or not 1 <= len(line) <= LONGEST_LINE \
            or not line.isprintable():
        return f"{name} said {line!r}, a line no table takes"
    return None


class _Walk:
    """A journal read record by record after its table's: the game replayed, its number and
    its actions so far, the seats' bots, clocks and keys as the records give them, and what
    was found (``lines`` for people, ``problems``)."""

    def __init__(self, commitment: bytes, replay: Replay, config: dict[str, Any],
                 lines: list[str], problems: list[str]) -> None:
        self.commitment = commitment
        self.replay = replay
        self.number = self.actions = 0
        self.turn_timeout, self.window = config.get("turn_timeout", 0.0), config.get(
            "window", 0.0)
        self.bots: set[int] = set()
        self.waits = _Waits()
        self.times = _Times()
        self.signatures = _Signed(commitment.hex())
        self.lines = lines
        self.problems = problems

    def record(self, index: int, record: dict[str, Any]) -> None:
        """Record number ``index`` (from 1), checked and played; one that breaks the rules
        or cannot be read ends its game's replay."""
        try:
            self._record(index, record)
        except RulesError as error:
            self.problems.append(f"record {index}: game {self.number}, action "
                                 f"{self.actions + 1} breaks the rules: {error.message}")
            self.replay.game = None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            self.problems.append(f"record {index} cannot be read ({error!r})")
            self.replay.game = None

    def ended(self) -> None:
        """The game replayed so far is over, or stops here: a line on how far it went."""
        game = self.replay.game
        if game is None:
            return
        if game.over:
            winner = "nobody" if game.winner is None else f"seat {game.winner + 1}"
            self.lines.append(f"game {self.number}: verified, won by {winner} "
                              f"in {self.actions} actions")
        else:
            self.lines.append(f"game {self.number}: verified as far as it went "
                              f"({self.actions} actions)")

    def _record(self, index: int, record: dict[str, Any]) -> None:
        """One record, by its kind: the words in it, then what it does."""
        kind = record["t"]
        if kind in ("seats", "say"):
            wrong_words = _words(record)
            if wrong_words is not None:
                self.problems.append(f"record {index}: {wrong_words}")
        if kind == "say" and (unsigned := self.signatures.say(record, self.bots)) is not None:
            self.problems.append(f"record {index}: {unsigned}")
        if kind == "seats":
            self._seats(record)
        elif kind == "resumed":
            self.waits.unknown()
            self.times = _Times()
        elif kind == "deal":
            self._deal(index, record)
        elif kind == "act":
            self._act(index, record)
        elif kind not in ("table", "closed", "resumed", "say"):  # (talk: not the game's)
            self.problems.append(f"record {index}: unknown record {kind!r}")

    def _seats(self, record: dict[str, Any]) -> None:
        """A ``seats`` record: the keys, players, rules, clocks and bots from now on."""
        self.signatures.seats(record)
        self.replay.seats(record)
        self.turn_timeout, self.window = record["turn_timeout"], record["window"]
        self.bots = {row[0] for row in record["seats"] if row[2] is not None}

    def _deal(self, index: int, record: dict[str, Any]) -> None:
        """A ``deal`` record: at its time, after the last game ended, numbered next and
        dealt from the committed secret; it is dealt as it says, whatever was found."""
        wrong_time = self.times.judge(record.get("at"))
        if wrong_time is not None:
            self.problems.append(f"record {index}: the deal of game {record.get('game')}: "
                                 f"{wrong_time}")
        game = self.replay.game
        if game is not None and not game.over:
            self.problems.append(f"record {index}: game {record['game']} was dealt before "
                                 f"game {self.number} ended")
        self.ended()
        last, self.number, self.actions = self.number, record["game"], 0
        if type(self.number) is not int or not 1 <= self.number <= CHAIN_LINKS:
            self.problems.append(f"record {index}: a game numbered {self.number!r}")
            self.replay.game, self.number = None, 0
            return
        self._numbered(index, last)
        self._committed(record)
        self.replay.deal(record)  # as the record says, whatever was found above
        self.waits = _Waits()
        self.waits.note(self.replay.game, record.get("at"))

    def _numbered(self, index: int, last: int) -> None:
        """The game dealt is the one after game ``last``."""
        number = self.number
        if number <= last:
            self.problems.append(f"record {index}: game {number} is dealt again (it "
                                 f"comes after game {last})")
        elif number > last + 1:
            missing = f"game {last + 1} is" if number == last + 2 else \
                f"games {last + 1} to {number - 1} are"
            self.problems.append(f"record {index}: {missing} missing (game {number} "
                                 f"comes after game {last})")

    def _committed(self, record: dict[str, Any]) -> None:
        """The deal's secret links to the commitment, with a seed for each seat and the
        opener whose turn it is to open."""
        number, players = self.number, self.replay.players
        secret, seeds = record["secret"], tuple(record["seeds"])
        if not links_to(secret, number, self.commitment):
            self.problems.append(f"game {number}: its secret does not match the commitment")
        if len(seeds) != players:
            self.problems.append(f"game {number}: {len(seeds)} seeds for {players} seats")
        if record["opener"] != (number - 1) % players:
            self.problems.append(f"game {number}: opened by seat {record['opener'] + 1}, "
                                 f"not seat {(number - 1) % players + 1}")

    def _act(self, index: int, record: dict[str, Any]) -> None:
        """An ``act`` record: in its game, at its time, played by whom it could be, then
        applied; its game goes on only as the record's digest says."""
        if self.replay.game is None and record["game"] == self.number and self.number:
            return  # the rest of a game already found wrong
        game = self.replay.game
        if game is None or record["game"] != self.number:
            self.problems.append(f"record {index}: an action outside its game")
            return
        wrong_time = self.times.judge(record.get("at"))
        if wrong_time is not None:
            self.problems.append(f"record {index}: game {self.number}, action "
                                 f"{self.actions + 1}: {wrong_time}")
        self._played_by(index, record, game)
        self.replay.act(record)
        self.waits.note(game, record.get("at"))
        self.actions += 1
        if record["h"] != self.replay.digest:
            self.problems.append(f"record {index}: game {self.number}, action {self.actions}: "
                                 "the game went otherwise than the journal says")
            self.replay.game = None

    def _played_by(self, index: int, record: dict[str, Any], game: Any) -> None:
        """Whoever the record says played the action could have: the host's clocks and
        stand-ins as the rules and the clocks allow, a bot in a bot's seat, a player in a
        person's, with the player's signature."""
        taken = Played(record["seat"], record["action"], record["by"])
        where = f"record {index}: game {self.number}, action {self.actions + 1}"
        if taken.by not in PLAYED_BY:
            self.problems.append(f"{where} was played by {taken.by!r}, which is no one")
            return
        wrong = host_played(game, taken) if taken.by in HOST_PLAYED else None
        wrong = wrong or _label(taken.by, taken.seat, self.bots) or self.waits.judge(
            game, taken.by, record.get("at"), self.turn_timeout, self.window)
        if wrong is None and taken.by == "player":
            wrong = self.signatures.act(record, self.number, game.decision)
        if wrong is not None:
            self.problems.append(f"{where}: {wrong}")


def verify(path: Path) -> tuple[list[str], list[str]]:
    """Check the journal at ``path``: each deal from the secret the table committed to (and
    from the seats' seeds), each game's actions by the rules. Returns (lines for people,
    problems): no problems means verified."""
    contents = read(path)
    lines: list[str] = []
    problems: list[str] = []
    if contents.damage is not None:
        problems.append(contents.damage)
    records = contents.records
    if not records or records[0].get("t") != "table":
        return lines, [*problems, f"{path} does not start with a table"]
    try:
        commitment = SeedChain(records[0]["root"]).commitment
        players = records[0]["config"]["players"]
        played = game_named(records[0]["config"].get("game", UNNAMED_GAME))
        options = played.options_type.parse(records[0]["config"]["options"])
    except (KeyError, TypeError, ValueError, AttributeError, RulesError) as error:
        return lines, [f"the table's record cannot be read ({error!r})"]
    lines.append(f"commitment {commitment.hex()}")
    config = records[0]["config"]
    walk = _Walk(commitment, Replay(played, players, options), config, lines, problems)
    for index, record in enumerate(records[1:], 2):
        walk.record(index, record)
    walk.ended()
    _end(path, contents, config, walk)
    return lines, problems


def _end(path: Path, contents: Contents, config: dict[str, Any], walk: _Walk) -> None:
    """How the journal ends: bytes torn off it, why its match closed, or that it is not
    closed (its table still writing it, or stopped without closing it)."""
    lines, problems = walk.lines, walk.problems
    if contents.torn and contents.damage is None:
        lines.append(f"{contents.torn} bytes after the last whole record were left out "
                     "(a write cut short by a crash)")
    games = config.get("games", 0)
    if contents.closed:
        finished = walk.replay.game is not None and bool(walk.replay.game.over)
        said, fault = _closed(contents.records[-1], games if type(games) is int else 0,
                              walk.number, finished)
        if said is not None:
            (problems if fault else lines).append(said)
    if not contents.closed and contents.damage is None and in_use(path):
        lines.append("a table is still writing this journal (it is open): its end is not "
                     "written yet")
    elif not contents.closed and contents.damage is None:
        problems.append("the journal does not end where its table closed it: the host "
                        "stopped without closing it (a crash it was not resumed from), or "
                        "the file was cut short")
