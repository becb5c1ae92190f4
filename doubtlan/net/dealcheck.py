"""One client's check of a game once the host's reveal of it is in (docs/fairness.md): named
checks of what the reveal can be checked against, run in a fixed order, then the deal
checked by the rules (rules/fairness.py), the host's clocks judged (net/timing.py) and a seed
the deal left out held against the host. No I/O: the mirror (net/mirror.py) gathers the
reveal's parts and runs :func:`check_game` with what it holds when the check runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules import RulesError, game_named
from ..rules.fairness import Disclosure, Played, Seen, Verdict, verify
from .messages import Reveal, TableInfo
from .seatkeys import SeatKeys
from .seatseeds import SeatSeeds
from .timing import Shown, judge

#: The latest verified games whose reveals are kept for their stories.
STORIES_KEPT = 3

#: What a game's story is told from: the table's game, players and rules, and the reveal.
Kept = tuple[str, int, Any, Disclosure]


@dataclass
class RevealParts:
    """The host's reveal of a game as it comes, part by part (a long game's actions come in
    several)."""

    #: The game whose reveal's parts are being received, and its parts so far.
    game: int = 0
    parts: list[Reveal] = field(default_factory=list)

    def add(self, part: Reveal) -> list[Reveal] | None:
        """Keep ``part``: the whole reveal once its last part is in, else None."""
        if part.game_number != self.game or part.actions_from != sum(
                len(p.actions) for p in self.parts):
            self.parts = []  # a part out of place: wait for a whole reveal
            if part.actions_from != 0:
                return None
        if not self.parts:
            self.game = part.game_number
        self.parts.append(part)
        if not part.complete:
            return None
        parts, self.parts = self.parts, []
        return parts


@dataclass(frozen=True, slots=True)
class Case:
    """A game to check: its reveal's parts, what this client was shown of it (``seen``, and
    the states' times, ``shown``) and the table when the reveal came; and what the client
    holds now: the commitment and fixed seed as first seen, what it saw break every deal
    (``broken``), the seats' seeds and keys, the host's unsigned lines by game (``forged``,
    taken into the verdict) and the reveals kept for stories (``revealed``, added to)."""

    parts: Sequence[Reveal]
    seen: Seen
    shown: tuple[Shown, ...]
    table: TableInfo | None
    commitment: str | None
    seeded: bool | None
    broken: str | None
    seeds: SeatSeeds
    keys: SeatKeys
    forged: dict[int, list[str]]
    revealed: dict[int, Kept]


class _Refused(Exception):
    """A check that failed before the deal is checked: ``problem`` is the verdict's one."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


def check_game(case: Case) -> Verdict:
    """The verdict on ``case``'s game: the first of the checks before the deal that fails,
    or the deal's check with the host's unsigned lines, its clocks and a seed it left out
    among the problems. A reveal that breaks the rules in a way no check catches raises
    what the rules raised (the mirror makes it the verdict)."""
    first = case.parts[0]
    try:
        table = _table_as_joined(case)
        revealed, commitment, options = _readable(case, table)
        _unbroken(case)
        hashes = _seed_commitments(case)
    except _Refused as refused:
        return Verdict((refused.problem,))
    verdict = verify(revealed, commitment=commitment, players=table.players, options=options,
                     seen=case.seen, seeded=bool(case.seeded),
                     bots=tuple(s.seat for s in table.seats if s.bot), game=table.game,
                     seed_hashes=hashes, seeds_in=case.seeds.seeds_in,
                     signed=_signed_by(case.keys, case.commitment or "", first.game_number))
    verdict = _with_forged(case, first.game_number, verdict)
    if verdict.ok and case.seen.to_end:
        _keep(case.revealed, first.game_number, (table.game, table.players, options, revealed))
    return _with_clocks(case, table, revealed, verdict)


# -- before the deal is checked -----------------------------------------------------------


def _table_as_joined(case: Case) -> TableInfo:
    """The client saw the game's table, with the commitment (and fixed seed or not) it
    first saw."""
    table = case.table
    if table is None:
        raise _Refused("the host revealed a game this client did not see")
    if table.commitment != case.commitment or table.seeded != case.seeded:
        raise _Refused("the host changed its commitment after you joined")
    return table


def _readable(case: Case, table: TableInfo) -> tuple[Disclosure, bytes, Any]:
    """The reveal, the commitment and the table's rules, read."""
    first = case.parts[0]
    try:
        revealed = Disclosure(
            first.game_number, bytes.fromhex(first.secret),
            tuple(bytes.fromhex(seed) for seed in first.seeds), first.opener,
            tuple(played for part in case.parts for played in part.actions))
        commitment = bytes.fromhex(case.commitment or "")
        options = game_named(table.game).options_type.parse(table.rules)
    except (ValueError, RulesError) as error:
        raise _Refused(f"the host's reveal cannot be read: {error}") from error
    return revealed, commitment, options


def _unbroken(case: Case) -> None:
    """Nothing the client saw before the deal breaks every deal."""
    if case.broken is not None:
        raise _Refused(case.broken)


def _seed_commitments(case: Case) -> tuple[bytes | None, ...]:
    """The seats' seed commitments, read."""
    try:
        return case.seeds.commitments()
    except ValueError:
        raise _Refused("the seats' seed commitments cannot be read") from None


# -- the deal checked, and what is added to its verdict --------------------------------------


def _signed_by(keys: SeatKeys, match: str, game: int) -> Callable[[Played, int], str | None]:
    """Why an action the reveal says a player played is not signed by that player."""

    def signed(played: Played, decision: int) -> str | None:
        return keys.unsigned(played, decision, match, game)

    return signed


def _with_forged(case: Case, game: int, verdict: Verdict) -> Verdict:
    """The verdict with the lines the host relayed in the game in a player's name that the
    player did not sign, first."""
    forged = tuple(case.forged.pop(game, ()))
    if forged:
        verdict = dataclasses.replace(verdict, problems=forged + verdict.problems)
    return verdict


def _keep(revealed: dict[int, Kept], game: int, kept: Kept) -> None:
    """Keep a verified game's reveal for its story, and only the latest few."""
    revealed[game] = kept
    for old in sorted(revealed)[:-STORIES_KEPT]:
        del revealed[old]


def _with_clocks(case: Case, table: TableInfo, revealed: Disclosure,
                 verdict: Verdict) -> Verdict:
    """For a seat the replay got that far in: the verdict with what the host's clocks did
    to it that no delay explains, and a seed of its left out of the deal by the host's
    doing, first among the problems."""
    seen, seat = case.seen, case.seen.seat
    if seat is None or not verdict.marks:
        return verdict
    clocks = judge(case.shown, revealed.actions, seat, verdict.marks, verdict.waits,
                   table.turn_timeout, table.window)
    notes = verdict.notes
    if seen.contribution and not case.seeded and not revealed.contributions[seat]:
        left_out = case.seeds.left_out()
        if left_out is not None:
            clocks.append(left_out)
            notes = tuple(n for n in notes if not n.startswith("your seed did not"))
    return Verdict(tuple(clocks) + verdict.problems, notes, verdict.checked, verdict.marks)


def found_after(verdicts: dict[int, Verdict], forged: dict[int, list[str]], game: int,
                wrong: str) -> None:
    """A problem of game ``game`` the client found outside its check (a line the host
    relayed in a player's name, unsigned): added to the game's verdict, or kept in
    ``forged`` for its check."""
    verdict = verdicts.get(game)
    if verdict is not None:
        verdicts[game] = dataclasses.replace(verdict, problems=verdict.problems + (wrong,))
    else:
        forged.setdefault(game, []).append(wrong)
