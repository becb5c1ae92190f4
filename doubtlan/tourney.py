"""Bot tournaments, in process and without a network: ``doubtlan tourney``."""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bots import make_bot
from .rules import DEFAULT_GAME, Action, Game, Match, Misplay, game_named
from .rules.seeds import Seed, derive, seed_bytes

#: A game still going after this many claims is stopped and reported as unfinished.
MAX_TURNS = 2000


class BotError(RuntimeError):
    """A bot chose an action the rules refuse, or nothing when it had to act."""


def play(game: Game[Any, Any], bots: Sequence[Any], max_turns: int = MAX_TURNS,
         decisions: list[int] | None = None, *, fast: bool = True) -> bool:
    """Let ``bots`` (one per seat) play ``game`` out; True if it finished within ``max_turns``.

    A game with a fast path plays itself out (``Game.play_out``: I Doubt It with a window
    for every claim), unless ``fast`` is False. Otherwise seats are asked one at a time, in
    the order the rules settle them, and only as long as their answers can matter:

    - when several seats must all answer (I Doubt It's window), they are asked clockwise
      from the claimer, each from the same moment, and asking stops at the first call (a
      doubt): every seat before it let the claim stand, so it settles the claim;
    - otherwise the seats that may call (I Doubt It's doubts in the open mode, I Know You
      Don't's interceptions: ``Action.call``) are asked in ``call_order``, and the first
      call counts; the seat the game waits for is asked in its place in that order, and its
      answer, unless it is a call, is played once nobody called.

    An action taken from its view's ``legal`` list is applied unchecked (``Game.advance``);
    any other (a turn's later cards) is checked, and a refusal is the bot's fault.
    ``decisions``, when given, has its first item raised by the answers played (a turn, a
    doubt, a let-stand: one each).
    """
    try:
        played_out = game.play_out([bot.act for bot in bots], max_turns) if fast else None
    except Misplay as error:
        bot = bots[error.seat]
        chose = "nothing" if error.action is None else error.action
        raise BotError(f"{bot!r} at seat {error.seat + 1} chose {chose}: {error.reason}") \
            from error
    if played_out is not None:
        if decisions is not None:
            decisions[0] += played_out
        return game.over
    played = 0
    while not game.over:
        if game.decision >= max_turns:
            if decisions is not None:
                decisions[0] += played
            return False
        awaited = game.awaiting()
        if len(awaited) > 1:  # a window: every seat answers, and the first doubt settles it
            played += _window(game, bots, awaited)
            continue
        seats = game.may_act()
        if len(seats) == 1:
            _advance(game, bots, seats[0], *_asked(game, bots, seats[0], "on its turn"))
            played += 1
            continue
        played += _calls(game, bots, seats, awaited)
    if decisions is not None:
        decisions[0] += played
    return True


def _asked(game: Game[Any, Any], bots: Sequence[Any], seat: int,
           when: str) -> tuple[Sequence[Action], tuple[Action, ...]]:
    """What ``seat``'s bot does now, and what its view allowed; :class:`BotError` if it
    does nothing though it must (``when``: when it had to act)."""
    seen = game.view(seat)
    actions = bots[seat].act(seen)
    if not actions:
        raise BotError(f"{bots[seat]!r} at seat {seat + 1} did not act {when}")
    return actions, seen.legal


def _window(game: Game[Any, Any], bots: Sequence[Any], awaited: tuple[int, ...]) -> int:
    """Every awaited seat answers the claim from the same moment (nobody sees another's
    answer), clockwise, until the first call; the answers are played; how many."""
    answers = []
    for seat in awaited:
        actions, legal = _asked(game, bots, seat, "when it had to")
        if len(actions) > 1:  # (as the fast path: an answer is one action)
            raise BotError(f"{bots[seat]!r} at seat {seat + 1} chose {actions[1]}: "
                           "answered the claim with more than one action")
        answers.append((seat, actions, legal))
        if actions[0].call:
            break  # the seats after it cannot change how the claim is settled
    for answer in answers:
        _advance(game, bots, *answer)
    return len(answers)


def _calls(game: Game[Any, Any], bots: Sequence[Any], seats: tuple[int, ...],
           awaited: tuple[int, ...]) -> int:
    """The seats that may call are asked in ``call_order`` and the first call counts; the
    awaited seat's answer is played once nobody called; 1 if anything was played."""
    order = game.call_order(seats)
    waiting: tuple[int, Sequence[Action], tuple[Action, ...]] | None = None
    for seat in (*order, *(s for s in seats if s not in order)):
        seen = game.view(seat)
        actions = bots[seat].act(seen)
        if seat in awaited and not actions:
            raise BotError(f"{bots[seat]!r} at seat {seat + 1} did not act when it had to")
        if actions and actions[0].call:
            _advance(game, bots, seat, actions, seen.legal)
            return 1  # the first call counts: the moment has changed
        if actions and seat not in awaited:
            raise BotError(f"{bots[seat]!r} at seat {seat + 1} chose {actions[0]}, but it "
                           "may only call now")
        if actions:
            waiting = (seat, actions, seen.legal)
    if waiting is not None:
        _advance(game, bots, *waiting)
    return int(waiting is not None)


def _advance(game: Game[Any, Any], bots: Sequence[Any], seat: int, actions: Sequence[Action],
             legal: tuple[Action, ...]) -> None:
    """Apply ``seat``'s ``actions`` in order; the first unchecked when it is one of the
    view's ``legal`` actions (taken from that list, or equal to one of them)."""
    action = actions[0]
    try:
        game.advance(seat, action, legal=action in legal)
        for action in actions[1:]:
            if game.over:
                break  # (a lay that let an open claim stand can end the game: rule 8)
            game.advance(seat, action)
    except ValueError as error:
        raise BotError(f"{bots[seat]!r} at seat {seat + 1} chose {action}: {error}") from error


@dataclass
class Standing:
    """One strategy's results."""

    seats: int
    wins: int = 0
    #: Games in which one of this strategy's seats opened.
    opened: int = 0
    #: The share of each match's games its seats won (several matches: ``--matches``).
    by_match: list[float] = field(default_factory=list)

    def rate(self, games: int) -> float:
        return self.wins / games if games else 0.0

    def interval(self, games: int) -> tuple[float, float]:
        """95% interval of the win rate: from the matches' win rates when there are
        several (bots that learn make a match's games depend on each other, so the games
        are not independent trials), else from the games (Wilson)."""
        if len(self.by_match) > 1:
            return mean_interval(self.by_match)
        return wilson(self.wins, games)


@dataclass
class Result:
    """The outcome of a tournament."""

    players: int
    options: Any
    seed: str
    max_turns: int = MAX_TURNS
    games: int = 0
    unfinished: int = 0
    turns: int = 0
    seconds: float = 0.0
    standings: dict[str, Standing] = field(default_factory=dict)
    game: str = DEFAULT_GAME
    #: Games won by each seat (four of one strategy read 1.0 by name; by seat, they do not),
    #: by each place round the table from the game's opener (0: the opener; where the
    #: seats rotate, the place tells whether opening is worth anything), and how many games
    #: ended each way (``Game.ending``; "unfinished" past ``max_turns``).
    seat_wins: list[int] = field(default_factory=list)
    place_wins: list[int] = field(default_factory=list)
    endings: dict[str, int] = field(default_factory=dict)
    #: Independent matches played (each of ``games / matches`` games, with fresh bots).
    matches: int = 1
    #: The bots' answers played: turns, and answers to calls or windows.
    decisions: int = 0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0

    @property
    def turns_per_game(self) -> float:
        return self.turns / self.games if self.games else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "games": self.games,
            "matches": self.matches,
            "game": self.game,
            "players": self.players,
            "rules": self.options.text,
            "seed": self.seed,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 2),
            "decisions": self.decisions,
            "decisions_per_second": round(self.decisions_per_second),
            "turns_per_game": round(self.turns_per_game, 2),
            "unfinished": self.unfinished,
            "max_turns": self.max_turns,
            "seats": {name: s.seats for name, s in self.standings.items()},
            "opened": {name: s.opened for name, s in self.standings.items()},
            "wins": {name: s.wins for name, s in self.standings.items()},
            "win_rate": {name: round(s.rate(self.games), 4) for name, s in self.standings.items()},
            "win_rate_95": {
                name: [round(x, 4) for x in s.interval(self.games)]
                for name, s in self.standings.items()
            },
            "match_win_rates": {name: [round(x, 4) for x in s.by_match]
                                for name, s in self.standings.items()},
            "seat_wins": self.seat_wins,
            "seat_win_rate": [round(w / self.games, 4) if self.games else 0.0
                              for w in self.seat_wins],
            "place_win_rate": [round(w / self.games, 4) if self.games else 0.0
                               for w in self.place_wins],
            "endings": self.endings,
        }

    def report(self) -> str:
        matches = f" in {self.matches} matches" if self.matches > 1 else ""
        lines = [
            f"{self.games} games{matches} of {game_named(self.game).title}, {self.players} "
            f"players, rules {self.options.text}, seed {self.seed}",
            "",
            f"{'strategy':<10}{'seats':>6}{'opened':>8}{'wins':>8}{'win rate':>10}   95% interval",
        ]
        for name, standing in self.standings.items():
            low, high = standing.interval(self.games)
            lines.append(
                f"{name:<10}{standing.seats:>6}{standing.opened:>8}{standing.wins:>8}"
                f"{standing.rate(self.games):>10.3f}   {low:.3f} to {high:.3f}"
            )
        def rates(wins: list[int]) -> str:
            return "  ".join(f"{w / self.games:.3f}" for w in wins) if self.games else ""

        lines += [
            "",
            "intervals: from the matches' win rates (Student's t)" if self.matches > 1
            else "intervals: from the games (Wilson); for bots that learn, play --matches",
            f"win rate by seat: {rates(self.seat_wins)}",
            f"win rate by place from the opener: {rates(self.place_wins)}",
            "endings: " + ", ".join(f"{kind} {n}" for kind, n in sorted(self.endings.items())),
            f"unfinished games (stopped at {self.max_turns} turns): {self.unfinished}",
            f"turns per game: {self.turns_per_game:.1f}",
            f"games per second: {self.games_per_second:.1f} ({self.seconds:.2f} s); "
            f"decisions (turns and answers) per second: {self.decisions_per_second:.0f}",
        ]
        return "\n".join(lines)


def run(
    strategies: Sequence[str],
    games: int,
    *,
    options: Any = None,
    seed: Seed | None = None,
    max_turns: int = MAX_TURNS,
    game: str = DEFAULT_GAME,
    matches: int = 1,
    workers: int = 1,
    progress: Callable[[int, int], object] | None = None,
) -> Result:
    """Play ``games`` games between ``strategies`` (one per seat, in seat order).

    The games form one match, so the opening seat moves round the table and every seat
    opens as often as the others. With ``matches``, that many independent matches of
    ``games`` games each are played, each with new bots (which learn afresh) and its own
    deals; the strategies move one seat round the table from match to match. ``workers``
    processes play the matches side by side (a match's games depend on each other through
    the bots that learn, so one match is one process's), with the same results as one
    process. ``progress`` is told the games played so far and the games in all.
    """
    kind = game_named(game)
    options = options or kind.options_type()
    players = len(strategies)
    options.check_players(players)
    for name in strategies:
        make_bot(name, game=game)  # fails early on an unknown name
    if seed is None:  # a fresh seed from the system, reported so that the run can be replayed
        seed = secrets.randbelow(2**63)
    master = seed_bytes(seed)
    result = Result(players, options, str(seed), max_turns, game=kind.name,
                    seat_wins=[0] * players, place_wins=[0] * players, matches=matches)
    for name in strategies:
        result.standings.setdefault(name, Standing(seats=0)).seats += 1
    tasks = [_Task(tuple(strategies), games, options, master, max_turns, kind.name, number)
             for number in range(matches)]
    total = games * matches
    started = time.perf_counter()
    if workers > 1 and matches > 1:
        for played in _side_by_side(tasks, workers, progress, total):
            _add(result, played)
    else:
        for task in tasks:
            done = result.games

            def each(number: int, done: int = done) -> None:
                if progress is not None:
                    progress(done + number, total)

            _add(result, _play_match(task, each))
    result.seconds = time.perf_counter() - started
    return result


def _side_by_side(tasks: Sequence[_Task], workers: int,
                  progress: Callable[[int, int], object] | None, total: int) -> list[_Played]:
    """Play ``tasks`` in ``workers`` processes, all given at once: each process takes the
    next match as it finishes one, so none waits for another until the last matches. The
    matches' figures come back in the matches' order.

    On Linux, when this process runs no other thread and no asyncio loop, they are forked
    from it (the platform's default, and fast: each plays at once, with the modules already
    imported); otherwise they start fresh ("spawn": the default elsewhere, and no fork of a
    process whose other threads may hold a lock, or whose loop's files a child would share).
    An error (a bot's, or Ctrl-C) cancels the matches not yet begun."""
    import multiprocessing
    import sys
    import threading
    from concurrent.futures import ProcessPoolExecutor, as_completed

    played: dict[int, _Played] = {}
    done = 0
    events = sys.modules.get("asyncio")
    alone = threading.active_count() == 1 and (
        events is None or events._get_running_loop() is None)  # (a loop's fds would be shared)
    start = "fork" if sys.platform == "linux" and alone else "spawn"
    context = multiprocessing.get_context(start)
    most = 61 if sys.platform == "win32" else workers  # (Windows waits on 63 handles at most)
    with ProcessPoolExecutor(min(workers, len(tasks), most), mp_context=context) as pool:
        running = {pool.submit(_play_match, task): task.number for task in tasks}
        try:
            for future in as_completed(running):
                match = played[running[future]] = future.result()
                done += match.games
                if progress is not None:
                    progress(done, total)
        except BaseException:  # a bot's error, or Ctrl-C: the matches not begun are not played
            # (waiting here: the ``with``'s own shutdown would undo the cancelling otherwise)
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return [played[number] for number in range(len(tasks))]


@dataclass(frozen=True)
class _Task:
    """One match to play (what a worker process is given)."""

    strategies: tuple[str, ...]
    games: int
    options: Any
    master: bytes
    max_turns: int
    game: str
    number: int


@dataclass
class _Played:
    """One match's figures (what a worker process gives back)."""

    games: int = 0
    turns: int = 0
    unfinished: int = 0
    decisions: int = 0
    opened: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    seat_wins: dict[int, int] = field(default_factory=dict)
    place_wins: dict[int, int] = field(default_factory=dict)
    endings: dict[str, int] = field(default_factory=dict)


def _play_match(task: _Task, each: Callable[[int], None] | None = None) -> _Played:
    kind = game_named(task.game)
    players, number = len(task.strategies), task.number
    # (The first match is seeded as a single match always was: its figures stand.)
    label = "" if number == 0 else f"match {number} "
    seated = [task.strategies[(seat + number) % players] for seat in range(players)]
    match = Match(players, task.options, seed=derive(task.master, f"{label}deal"), game=kind)
    # A bot keeps its seat for the whole match, so it may learn how its opponents play.
    bots = [make_bot(name, derive(task.master, f"{label}seat {seat}"), task.game)
            for seat, name in enumerate(seated)]
    played = _Played(wins=dict.fromkeys(task.strategies, 0))
    decided = [0]
    for _ in range(task.games):
        dealt = match.new_game()
        opener = seated[dealt.opener]
        played.opened[opener] = played.opened.get(opener, 0) + 1
        finished = play(dealt, bots, task.max_turns, decided)
        played.games += 1
        played.turns += dealt.decision
        if finished and dealt.winner is not None:
            played.wins[seated[dealt.winner]] += 1
            played.seat_wins[dealt.winner] = played.seat_wins.get(dealt.winner, 0) + 1
            place = (dealt.winner - dealt.opener) % players
            played.place_wins[place] = played.place_wins.get(place, 0) + 1
        else:
            played.unfinished += 1
        ending = (dealt.ending() or "no winner") if finished else "unfinished"
        played.endings[ending] = played.endings.get(ending, 0) + 1
        if each is not None:
            each(played.games)
    played.decisions = decided[0]
    return played


def _add(result: Result, played: _Played) -> None:
    """A match's figures into the tournament's, in the order the matches were dealt."""
    result.games += played.games
    result.turns += played.turns
    result.unfinished += played.unfinished
    result.decisions += played.decisions
    for name, count in played.opened.items():
        result.standings[name].opened += count
    for seat, count in played.seat_wins.items():
        result.seat_wins[seat] += count
    for place, count in played.place_wins.items():
        result.place_wins[place] += count
    for ending, count in played.endings.items():
        result.endings[ending] = result.endings.get(ending, 0) + count
    for name, standing in result.standings.items():
        standing.wins += played.wins[name]
        standing.by_match.append(played.wins[name] / played.games if played.games else 0.0)


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95% interval of the mean of ``values`` (Student's t), within 0 to 1."""
    n = len(values)
    if n < 2:
        return (0.0, 1.0)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(n - 1) * spread / math.sqrt(n)
    return (max(0.0, mean - half), min(1.0, mean + half))


def t_quantile(df: int) -> float:
    """Student's t for a two-sided 95% interval with ``df`` degrees of freedom: from a
    table up to 7, else a Cornish-Fisher expansion about the normal's 1.96 (within 0.05%)."""
    if df <= 7:
        return (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646)[df - 1]
    z = 1.959964
    return (z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3))
