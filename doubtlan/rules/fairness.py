"""A deal every player can check: the host's committed secrets, the players' seeds, and the
replay that checks a game once it is over (docs/fairness.md).

- The host draws one secret, the root, when its table opens, and hashes it over and over:
  ``link[n-1] = SHA-256(link[n])``. ``link[0]``, the commitment, is told to everyone before
  anything is dealt; game ``n`` is dealt with ``link[n]``, which is revealed when game ``n``
  ends. Anyone checks it by hashing it ``n`` times back to the commitment; nobody can work
  out the next game's secret from the ones revealed.
- Each player sends a seed of their own when they sit down. Game ``n``'s deck is shuffled
  (:func:`~doubtlan.rules.seeds.shuffle`) with ``HMAC-SHA256(link[n], "doubtlan deal" ||
  n || each seat's seed, length first, in seat order)``: while one player's seed is secret
  and random, nobody, the host included, can choose the deal.
- When the game ends, the host reveals its secret, the seeds and every action in order.
  :func:`verify` deals the game again from them, plays every action through the rules, and
  compares what that gives with what this seat was shown.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .base import Event
from .errors import RulesError

#: Games one commitment covers (a table needs a new one after that many).
CHAIN_LINKS = 10_000
#: The longest seed a player may add to a deal, in bytes.
MAX_CONTRIBUTION = 32
#: Who played an action: the seat's player, a seated bot, a bot standing in for an absent
#: player, the host when the turn timer ran out, or the host when a window's time ran out.
PLAYED_BY = ("player", "bot", "stand-in", "timer", "window")
#: Those of :data:`PLAYED_BY` that are the host playing in a player's name: each plays what
#: the rules' ``timeout_actions`` give, and nothing else (:func:`host_played`).
HOST_PLAYED = ("stand-in", "timer", "window")


def digest(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


class SeedChain:
    """The host's secrets for a match's deals: ``secret(n)`` deals game ``n``; hashing it
    ``n`` times gives ``commitment``."""

    def __init__(self, root: bytes, links: int = CHAIN_LINKS) -> None:
        chain = [root]
        for _ in range(links):
            chain.append(digest(chain[-1]))
        chain.reverse()
        self._chain = chain
        self.root = root

    @property
    def commitment(self) -> bytes:
        return self._chain[0]

    @property
    def games(self) -> int:
        """How many games the chain can deal."""
        return len(self._chain) - 1

    def secret(self, game: int) -> bytes:
        if not 1 <= game < len(self._chain):
            raise ValueError(f"this table's commitment covers games 1 to {self.games}")
        return self._chain[game]


def links_to(secret: bytes, game: int, commitment: bytes) -> bool:
    """Whether ``secret`` is game ``game``'s link of the chain that ``commitment`` heads."""
    if game < 1:
        return False
    for _ in range(game):
        secret = digest(secret)
    return hmac.compare_digest(secret, commitment)


def deal_seed(secret: bytes, game: int, contributions: Sequence[bytes]) -> bytes:
    """The seed game ``game`` is shuffled with, from the host's secret and every seat's."""
    message = bytearray(b"doubtlan deal")
    message += game.to_bytes(4, "big")
    for seed in contributions:
        if len(seed) > MAX_CONTRIBUTION:
            raise ValueError(f"a seed is at most {MAX_CONTRIBUTION} bytes")
        message += len(seed).to_bytes(1, "big") + seed
    return hmac.new(secret, bytes(message), hashlib.sha256).digest()


@dataclass(frozen=True, slots=True)
class Played:
    """One action the game accepted: ``seat`` did ``action`` (its text), played ``by``;
    ``sig``, the player's signature over it when ``by`` is ``"player"`` (hexadecimal)."""

    seat: int
    action: str
    by: str
    sig: str = ""


def host_played(game: Any, played: Played) -> str | None:
    """Why the host could not have played ``played`` in its seat's name now, in ``game``
    (before the action is applied), or None. The turn timer plays the turn's seat's
    ``timeout_actions``; a window's time, an awaited seat's; a stand-in, either."""
    seat, by = played.seat, played.by
    if by == "timer" and game.turn_seat() != seat:
        return f"the turn timer played for seat {seat + 1}, whose turn it was not"
    if by == "window" and (game.window_key() is None or seat not in game.awaiting()):
        return f"a window's time ran out for seat {seat + 1}, which it was not waiting for"
    rule = game.timeout_actions(seat)
    if not rule or game.parse_action(played.action) != rule[0]:
        what = repr(rule[0].text) if rule else "nothing"
        return (f"{played.action!r} played by the host for seat {seat + 1} ({by}) is not "
                f"what the rules play when time runs out ({what})")
    return None


@dataclass(frozen=True, slots=True)
class Disclosure:
    """What the host discloses when game ``game`` ends (sent in ``reveal`` messages)."""

    game: int
    secret: bytes
    #: Each seat's seed, in seat order (empty for a bot's seat, or all empty when the table
    #: was dealt from a fixed seed).
    contributions: tuple[bytes, ...]
    opener: int
    actions: tuple[Played, ...]


@dataclass(frozen=True, slots=True)
class Seen:
    """What one seat was shown of a game, and did in it, to check against a reveal."""

    #: None for a spectator.
    seat: int | None
    #: The seed this seat added (None: it added none).
    contribution: bytes | None
    #: Every settled claim of the game, as shown.
    record: tuple[Event, ...]
    #: The game's events from index ``events_from`` to the end, as shown to this seat (from
    #: 0, or from where it last joined and was shown the game afresh).
    events_from: int
    events: tuple[Event, ...]
    #: The actions this seat's player sent, in order (some may have been refused).
    sent: tuple[str, ...]
    #: The seat's hand as last shown (None for a spectator).
    hand: tuple[Any, ...] | None = None
    #: False when this client came to the game after it started (its actions from before
    #: are not known to it).
    from_start: bool = True
    #: False when this client lost the game before its end (it came back in the next): what
    #: it was shown is checked as far as it went.
    to_end: bool = True
    #: The claims the host marked as played in this seat's name (``state.played_for``), as
    #: last shown (None: not told).
    played_for: frozenset[int] | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """``problems``: what did not match, each a sentence (none: the deal is verified).
    ``notes``: what could not be checked, and why."""

    problems: tuple[str, ...]
    notes: tuple[str, ...] = ()
    #: False when the game could not be checked (its reveal never came): ``notes`` says why.
    checked: bool = True
    #: The replay's count of the game's events after each number of its actions (from
    #: none), when it got that far: what the host's clocks are judged by (net/timing.py).
    marks: tuple[int, ...] = field(default=(), compare=False, repr=False)
    #: For the checking seat, by the same count of actions: the turn (``turns``) while it
    #: is the seat's on the turn clock, and the game's window key, as the replay gives them.
    waits: tuple[tuple[int | None, object], ...] = field(default=(), compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return not self.problems


def unchecked(why: str) -> Verdict:
    """The verdict on a game that could not be checked, and why."""
    return Verdict((), (why,), checked=False)


class _Mismatch(Exception):
    """A check of a deal that failed: ``problem`` is the one sentence its verdict gives."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


@dataclass(slots=True)
class _Case:
    """What :func:`verify` checks: the reveal, what the table said before the deal, and what
    the seat was shown; ``notes`` gathers, in order, what could not be checked."""

    reveal: Disclosure
    commitment: bytes
    players: int
    options: Any
    seen: Seen
    seeded: bool
    bots: tuple[int, ...]
    game: str
    seed_hashes: Sequence[bytes | None]
    seeds_in: Collection[int]
    signed: Callable[[Played, int], str | None] | None
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Replay:
    """The game dealt again and played through the reveal's actions: after each number of
    actions (from none), its count of events and what the seat waits on; and the claims the
    host played in the seat's name."""

    dealt: Any
    marks: list[int]
    waits: list[tuple[int | None, object]]
    played_for: set[int] = field(default_factory=set)


def verify(reveal: Disclosure, *, commitment: bytes, players: int, options: Any,
           seen: Seen, seeded: bool = False, bots: tuple[int, ...] = (),
           game: str = "idoubtit", seed_hashes: Sequence[bytes | None] = (),
           seeds_in: Collection[int] = (),
           signed: Callable[[Played, int], str | None] | None = None) -> Verdict:
    """Check a game of ``game`` from its reveal against the commitment and what ``seen`` was
    shown. ``seeded``: the table said, before the deal, that it deals from a fixed seed;
    ``bots``: the seats it said were bots' (which add no seed); ``seed_hashes``: the SHA-256
    each seat committed to before any seed was sent (None: it added none), as shown;
    ``seeds_in``: the seats whose seed the table said the host had. A committed seed missing
    from the deal is a note (it did not come in time: a player who lost the connection while
    the seeds came in) unless the table had said the host had it. ``signed``, when given,
    says why an action labelled as a player's (``by`` ``"player"``) is not signed by that
    player, given the decision it was played at (``game.decision``), or None."""
    case = _Case(reveal, commitment, players, options, seen, seeded, bots, game, seed_hashes,
                 seeds_in, signed)
    try:
        for check in _BEFORE_THE_DEAL:
            check(case)
        replay = _replay(case, _deal(case))
    except _Mismatch as mismatch:  # the first that fails is the verdict, without notes
        return Verdict((mismatch.problem,))
    problems = [problem for check in _AFTER_THE_REPLAY for problem in check(case, replay)]
    return Verdict(tuple(problems), tuple(case.notes), marks=tuple(replay.marks),
                   waits=tuple(replay.waits))


# -- before the deal: the secret, the opener and the seeds ------------------------------------


def _secret_links(case: _Case) -> None:
    """The host's secret is this game's link of the chain it committed to."""
    reveal = case.reveal
    if not links_to(reveal.secret, reveal.game, case.commitment):
        raise _Mismatch(f"the host's secret for game {reveal.game} does not match the "
                        "commitment it gave before the deal")


def _opener_in_turn(case: _Case) -> None:
    """Game ``n`` is opened by the seat after game ``n - 1``'s opener."""
    reveal, players = case.reveal, case.players
    if reveal.opener != (reveal.game - 1) % players:
        raise _Mismatch(f"game {reveal.game} was opened by seat {reveal.opener + 1}, not by "
                        f"seat {(reveal.game - 1) % players + 1}")


def _seeds_shaped(case: _Case) -> None:
    """The seeds revealed are none, or one for each seat, none too long."""
    contributions = case.reveal.contributions
    if len(contributions) not in (0, case.players) or any(
            len(seed) > MAX_CONTRIBUTION for seed in contributions):
        raise _Mismatch("the players' seeds revealed are not one for each seat")


def _seeds_as_said(case: _Case) -> None:
    """A table dealing from a fixed seed took no seeds; any other took every seat's, as
    :func:`_seeds_as_committed` checks."""
    if case.seeded:
        if any(case.reveal.contributions):
            raise _Mismatch("the table said it deals from a fixed seed, but seeds went in")
        case.notes.append("this table dealt from a fixed seed, so no player's seed went into it")
    elif len(case.reveal.contributions) != case.players:
        raise _Mismatch("the players' seeds are missing from the deal")
    else:
        _seeds_as_committed(case)


def _seeds_as_committed(case: _Case) -> None:
    """This seat's seed went in as sent, no bot's seat got one, and each seat's is the one
    it committed to (or, left out, is noted or, when the host said it had it, wrong)."""
    seat, contributions = case.seen.seat, case.reveal.contributions
    if seat is not None and case.seen.contribution is not None \
            and contributions[seat] not in (b"", case.seen.contribution):
        raise _Mismatch("your seed is not the one the deal was made with")
    if any(contributions[bot] for bot in case.bots if 0 <= bot < case.players):
        raise _Mismatch("the host added a seed of its own for a bot's seat")
    for number, (wanted, seed) in enumerate(zip(case.seed_hashes, contributions,
                                                strict=False), 1):
        _seat_seed(case, number, wanted, seed)


def _seat_seed(case: _Case, number: int, wanted: bytes | None, seed: bytes) -> None:
    """Seat ``number``'s seed (from 1) against the hash it committed to (None: none)."""
    if wanted is None and seed:
        raise _Mismatch(f"the host added a seed for seat {number}, which committed to none")
    yours = number - 1 == case.seen.seat and case.seen.contribution is not None
    if wanted is not None and not seed and number - 1 in case.seeds_in:
        raise _Mismatch(("your" if yours else f"seat {number}'s") + " seed was left out "
                        "of the deal after the table said the host had it")
    if wanted is not None and not seed:
        case.notes.append("your seed did not reach the host in time: the deals went on "
                          "without it" if yours else f"seat {number}'s seed did not come in "
                          "time: the deal went on without it")
    elif wanted is not None and seed and not hmac.compare_digest(digest(seed), wanted):
        raise _Mismatch(f"seat {number}'s seed is not the one it committed to before any seed "
                        "was sent")


#: The checks before the game is dealt again, in the order they run.
_BEFORE_THE_DEAL: tuple[Callable[[_Case], None], ...] = (
    _secret_links, _opener_in_turn, _seeds_shaped, _seeds_as_said)


# -- the deal and its actions, played again ----------------------------------------------------


def _deal(case: _Case) -> Any:
    """The game dealt again from the host's secret and the seeds."""
    from . import game_named  # (the registry imports this module's neighbours)

    reveal = case.reveal
    try:
        return game_named(case.game)(case.players, case.options, seed=deal_seed(
            reveal.secret, reveal.game, reveal.contributions), opener=reveal.opener)
    except (RulesError, ValueError, TypeError) as error:
        raise _Mismatch(f"the game cannot be dealt again: {error}") from error


def _replay(case: _Case, dealt: Any) -> _Replay:
    """Every action of the reveal, checked and played through the rules, in order."""
    replay = _Replay(dealt, [dealt.event_count], [_waits(dealt, case.seen.seat)])
    for number, played in enumerate(case.reveal.actions, 1):
        if played.by not in PLAYED_BY:
            raise _Mismatch(f"action {number} was played by {played.by!r}, which is no one")
        try:
            _play(case, replay, number, played)
        except RulesError as error:
            raise _Mismatch(f"action {number} ({played.action!r} by seat {played.seat + 1}) "
                            f"breaks the rules: {error.message}") from error
    return replay


def _play(case: _Case, replay: _Replay, number: int, played: Played) -> None:
    """Action ``number``: whoever the host says played it could have, then it is applied
    and what follows from it noted."""
    dealt, seat = replay.dealt, case.seen.seat
    _played_rightly(case, dealt, number, played)
    before = mark_before(dealt, played.seat, played.by) if played.seat == seat else None
    dealt.apply(played.seat, dealt.parse_action(played.action))
    if (claim := mark_after(dealt, played.seat, before)) is not None:
        replay.played_for.add(claim)
    replay.marks.append(dealt.event_count)
    replay.waits.append(_waits(dealt, seat))


def _played_rightly(case: _Case, dealt: Any, number: int, played: Played) -> None:
    """The host's clocks and stand-ins play only what the rules play when time runs out, a
    bot only a bot's seat, and a player's action carries the player's signature."""
    if played.by in HOST_PLAYED and (wrong := host_played(dealt, played)) is not None:
        raise _Mismatch(f"action {number}: {wrong}")
    if played.by == "bot" and played.seat not in case.bots:
        raise _Mismatch(f"action {number}: the host says a bot played seat "
                        f"{played.seat + 1}, a person's")
    if played.by == "player" and case.signed is not None \
            and (wrong := case.signed(played, dealt.decision)) is not None:
        raise _Mismatch(f"action {number}: {wrong}")


# -- after it: what the replay gives against what the seat was shown -------------------------


def _finished(case: _Case, replay: _Replay) -> Iterator[str]:
    """The actions revealed finish the game."""
    if not replay.dealt.over:
        yield "the actions revealed do not finish the game"


def _as_shown(case: _Case, replay: _Replay) -> Iterator[str]:
    """The settled claims and the seat's events are the ones it was shown (as far as it saw
    them, when it left before the end)."""
    seen, dealt = case.seen, replay.dealt
    claims = dealt.view(None).record
    events = dealt.log(seen.seat, seen.events_from)
    if not seen.to_end:  # shown as far as this client saw the game
        claims, events = claims[:len(seen.record)], events[:len(seen.events)]
        case.notes.append("you left this game before its end: it was checked as far as you "
                          "saw it")
    if claims != seen.record:
        yield _first_difference("claim", seen.record, claims)
    if seen.events != events:
        yield _first_difference("event", seen.events, events, seen.events_from)


def _hand_as_shown(case: _Case, replay: _Replay) -> Iterator[str]:
    """The seat's hand as last shown is the one the replay ends with."""
    seen = case.seen
    if seen.seat is not None and seen.hand is not None and seen.to_end \
            and replay.dealt.view(seen.seat).hand != seen.hand:
        yield "your hand as last shown is not the one the deal and the actions give"


def _marks_as_shown(case: _Case, replay: _Replay) -> Iterator[str]:
    """The claims the host marked as played for the seat are those it played in them."""
    seen = case.seen
    if seen.seat is not None and seen.to_end and seen.played_for is not None \
            and seen.played_for != replay.played_for:
        yield _marks_problem(seen.played_for, frozenset(replay.played_for))


def _sent_as_played(case: _Case, replay: _Replay) -> Iterator[str]:
    """Every action the host says the seat's player played, the player sent (in order,
    some refused between them); unchecked for a seat that joined the game late."""
    seat = case.seen.seat
    if seat is not None and not case.seen.from_start:
        case.notes.append("this seat's actions from before this screen joined the game (on "
                          "coming back, or taking the seat over) were not checked: it did not "
                          "see them sent")
    elif seat is not None:
        mine = [p.action for p in case.reveal.actions if p.seat == seat and p.by == "player"]
        sent = iter(case.seen.sent)
        for action in mine:
            if not any(action == text for text in sent):  # in order, skipping refusals
                yield f"the host says you played {action!r}, which you never sent"
                break


#: The comparisons after the replay, in the order they run (each may find a problem).
_AFTER_THE_REPLAY: tuple[Callable[[_Case, _Replay], Iterator[str]], ...] = (
    _finished, _as_shown, _hand_as_shown, _marks_as_shown, _sent_as_played)


def mark_before(game: Any, seat: int, by: str) -> tuple[int, bool] | None:
    """Before an action the host played in ``seat``'s name (a stand-in, the turn timer, the
    window's clock) is applied: the claims settled so far, and whether it is a turn's
    action; None for an action the seat played itself."""
    if by not in HOST_PLAYED:
        return None
    # (a turn's action is made outside any window; an answer is made in one)
    return len(game.view(seat).record), game.window_key() is None


def mark_after(game: Any, seat: int, before: tuple[int, bool] | None) -> int | None:
    """After it: the claim the action was part of, which the host marks as played for the
    seat (``state.played_for``). An answer is part of the claim waiting (the next to
    settle, as it was before); a turn's action of the claim it makes, which follows any
    claim that its first card settled (open calls)."""
    if before is None:
        return None
    settled, turn = before
    return len(game.view(seat).record) if turn else settled


def _marks_problem(shown: frozenset[int], played: frozenset[int]) -> str:
    """What is wrong with the claims the host marked as played for this seat."""
    if shown - played:
        claim = min(shown - played) + 1
        return (f"the host marked claim {claim} as played for you, but the reveal says no "
                "clock or stand-in of the host's played in it")
    claim = min(played - shown) + 1
    return (f"the host played in your name in claim {claim} (its reveal says so) without "
            "marking it as played for you")


def _waits(game: Any, seat: int | None) -> tuple[int | None, object]:
    """What ``seat`` waits on now, by the rules: its turn, and the window's key."""
    if seat is None:
        return None, None
    return (game.decision if game.turn_seat() == seat else None), game.window_key()


def _first_difference(what: str, shown: Sequence[object], dealt: Sequence[object],
                      start: int = 0) -> str:
    for index, (a, b) in enumerate(zip(shown, dealt, strict=False), start + 1):
        if a != b:
            return f"{what} {index} was shown as {a}, but the deal and the actions give {b}"
    return (f"you were shown {len(shown)} {what}s, but the deal and the actions give "
            f"{len(dealt)}")
