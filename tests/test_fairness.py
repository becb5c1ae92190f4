"""The verifiable deal (docs/fairness.md): the commitment chain and the deal from every seat's
seed; then, as a contract of every game, the check of a whole game against what a seat was
shown, and tampering caught; last, what only one game has (I Know You Don't's reshuffles)."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from games import SPECS, GameSpec, spec_of
from wire import Harness

from doubtlan.net import botclient
from doubtlan.net.botclient import Decider
from doubtlan.net.client import Client
from doubtlan.net.headless import verdict_line
from doubtlan.net.host import Host
from doubtlan.net.messages import PROTOCOL_VERSION, Error, Hello, Seed
from doubtlan.net.mirror import Mirror
from doubtlan.net.table import Table, TableConfig
from doubtlan.net.timing import SEED_WAIT
from doubtlan.rules import ChallengeMode, Event, Options
from doubtlan.rules.fairness import (
    Disclosure,
    Played,
    SeedChain,
    Seen,
    Verdict,
    deal_seed,
    links_to,
    verify,
)
from doubtlan.rules.iknowyoudont import Reshuffled
from doubtlan.tui.widgets.results import deal_text

# -- the chain and the deal -----------------------------------------------------------------


def test_each_games_secret_hashes_back_to_the_commitment_and_to_no_other_game() -> None:
    chain = SeedChain(b"a root", links=50)
    assert chain.games == 50
    for game in (1, 2, 17, 50):
        secret = chain.secret(game)
        assert links_to(secret, game, chain.commitment)
        assert not links_to(secret, game + 1, chain.commitment)
        assert not links_to(secret, game - 1, chain.commitment)
        # The previous game's secret is this one's hash: revealing it gives nothing away.
        assert hashlib.sha256(secret).digest() == (
            chain.secret(game - 1) if game > 1 else chain.commitment)
    with pytest.raises(ValueError):
        chain.secret(51)
    with pytest.raises(ValueError):
        chain.secret(0)


def test_the_deal_changes_with_every_seats_seed_and_with_the_game() -> None:
    secret = SeedChain(b"root", links=3).secret(1)
    seeds = (b"one", b"", b"three")
    base = deal_seed(secret, 1, seeds)
    assert deal_seed(secret, 1, seeds) == base
    assert deal_seed(secret, 2, seeds) != base
    assert deal_seed(secret, 1, (b"one", b"x", b"three")) != base
    assert deal_seed(secret, 1, (b"on", b"e", b"three")) != base  # lengths are part of it
    assert deal_seed(b"another secret", 1, seeds) != base
    with pytest.raises(ValueError):
        deal_seed(secret, 1, (b"x" * 33,))


# -- a game to check --------------------------------------------------------------------------


@dataclasses.dataclass
class PlayedGame:
    spec: GameSpec
    reveal: Disclosure
    commitment: bytes
    players: int
    options: Any
    #: What each seat was shown and sent; ``seen`` is the one checking.
    seens: tuple[Seen, ...]
    seen: Seen
    seeded: bool = False


def play(spec: GameSpec, rng: random.Random, seeded: bool = False) -> PlayedGame:
    """A whole game between random bots, dealt from a chain and the seats' seeds (none for
    a ``seeded`` table), and what a random seat was shown of it."""
    players, options = spec.fair_table(rng)
    chain = SeedChain(rng.randbytes(32), links=3)
    number = rng.randint(1, 3)
    seeds = () if seeded else tuple(rng.randbytes(16) for _ in range(players))
    opener = (number - 1) % players  # the match's rule: the opener moves one seat a game
    game = spec.rules(players, options, seed=deal_seed(chain.secret(number), number, seeds),
                      opener=opener)
    bots = [spec.bot("random", rng.randbytes(8)) for _ in range(players)]
    played: list[Played] = []
    while not game.over:
        seat_now = rng.choice(game.may_act())
        for action in bots[seat_now].act(game.view(seat_now)) or \
                game.timeout_actions(seat_now):
            game.apply(seat_now, action)
            played.append(Played(seat_now, action.text, "player"))
    claims = game.view(None).record
    seens = tuple(Seen(s, rng.randbytes(16) if seeded else seeds[s], claims, 0, game.log(s),
                       tuple(p.action for p in played if p.seat == s), game.view(s).hand)
                  for s in range(players))
    me = rng.randrange(players)
    reveal = Disclosure(number, chain.secret(number), seeds, opener, tuple(played))
    return PlayedGame(spec, reveal, chain.commitment, players, options, seens, seens[me],
                      seeded)


def check(game: PlayedGame, seen: Seen | None = None) -> Verdict:
    return verify(game.reveal, commitment=game.commitment, players=game.players,
                  options=game.options, seen=seen or game.seen, seeded=game.seeded,
                  game=game.spec.name)


def caught(game: PlayedGame) -> bool:
    """Whether the checking seat, or (for a lie in the reveal, which all get) any seat,
    finds a problem."""
    return not check(game).ok or any(not check(game, seen).ok for seen in game.seens)


def _log(game: PlayedGame, seat: int | None) -> tuple[Event, ...]:
    """Deal and play ``game`` again, for the events ``seat`` would have been shown."""
    reveal = game.reveal
    again = game.spec.rules(game.players, game.options,
                            seed=deal_seed(reveal.secret, reveal.game, reveal.contributions),
                            opener=reveal.opener)
    for played in reveal.actions:
        again.apply(played.seat, again.parse_action(played.action))
    return again.log(seat)


def test_an_honest_game_is_verified_from_every_seat_and_by_a_spectator(spec: GameSpec) -> None:
    rng = random.Random(1)
    for _ in range(20):
        game = play(spec, rng)
        assert all(check(game, seen) == Verdict(()) for seen in game.seens)
        watcher = Seen(None, None, game.seen.record, 0, _log(game, None), ())
        assert check(dataclasses.replace(game, seen=watcher)).ok


def test_a_seat_that_joined_late_checks_the_events_it_was_shown(spec: GameSpec) -> None:
    game = play(spec, random.Random(2))
    half = len(game.seen.events) // 2  # (joined half way through the game)
    assert half > 15
    late = dataclasses.replace(game.seen, events_from=half, events=game.seen.events[half:])
    assert check(dataclasses.replace(game, seen=late)).ok


def test_a_table_dealt_from_a_fixed_seed_is_checked_but_says_no_seed_went_in(
        spec: GameSpec) -> None:
    verdict = check(play(spec, random.Random(3), seeded=True))
    assert verdict.ok and "fixed seed" in verdict.notes[0]


# -- tampering ----------------------------------------------------------------------------

Tampering = Callable[[PlayedGame, random.Random], PlayedGame | None]


def seen_lie(lie: Callable[[Seen, random.Random], Seen | None]) -> Tampering:
    """The game's own lie (tests/games.py) in what the checking seat was shown."""

    def tamper(game: PlayedGame, rng: random.Random) -> PlayedGame | None:
        seen = lie(game.seen, rng)
        return None if seen is None else dataclasses.replace(game, seen=seen)

    tamper.__name__ = lie.__name__
    return tamper


def seed_changed(game: PlayedGame, rng: random.Random) -> PlayedGame | None:
    """The host dealt from another secret, or without this seat's seed."""
    reveal = game.reveal
    if rng.random() < 0.5:
        return dataclasses.replace(game, reveal=dataclasses.replace(
            reveal, secret=rng.randbytes(32)))
    seeds = list(reveal.contributions)
    seeds[game.seen.seat or 0] = rng.randbytes(16)
    return dataclasses.replace(game, reveal=dataclasses.replace(reveal,
                                                                contributions=tuple(seeds)))


def event_reordered_or_dropped(game: PlayedGame, rng: random.Random) -> PlayedGame | None:
    """An action of the game swapped with the next or left out, in the reveal or in what
    the seat was shown."""
    if rng.random() < 0.5:
        actions = list(game.reveal.actions)
        at = rng.randrange(len(actions) - 1)
        if rng.random() < 0.5:
            del actions[at]
        elif actions[at] != actions[at + 1]:
            actions[at], actions[at + 1] = actions[at + 1], actions[at]
        else:
            return None
        return dataclasses.replace(game, reveal=dataclasses.replace(
            game.reveal, actions=tuple(actions)))
    events = list(game.seen.events)
    at = rng.randrange(len(events) - 1)
    if rng.random() < 0.5:
        del events[at]
    elif events[at] != events[at + 1]:
        events[at], events[at + 1] = events[at + 1], events[at]
    else:
        return None
    return dataclasses.replace(game, seen=dataclasses.replace(game.seen, events=tuple(events)))


def action_forged(game: PlayedGame, rng: random.Random) -> PlayedGame | None:
    """The host played an action for the seat that its player never sent."""
    sent = list(game.seen.sent)
    if not sent:
        return None
    del sent[rng.randrange(len(sent))]
    return dataclasses.replace(game, seen=dataclasses.replace(game.seen, sent=tuple(sent)))


def _host_could_play(game: PlayedGame) -> tuple[list[int], list[int]]:
    """The player's actions of ``game`` that the host could not have played for them (not
    what the rules play when time runs out), and those it could have: their indexes."""
    dealt = game.spec.rules(game.players, game.options, seed=deal_seed(
        game.reveal.secret, game.reveal.game, game.reveal.contributions),
        opener=game.reveal.opener)
    could, could_not = [], []
    for index, played in enumerate(game.reveal.actions):
        rule = dealt.timeout_actions(played.seat)
        action = dealt.parse_action(played.action)
        timed = dealt.turn_seat() == played.seat or dealt.window_key() is not None
        if rule and timed:
            (could if rule[0] == action else could_not).append(index)
        dealt.apply(played.seat, action)
    return could_not, could


def test_the_claims_marked_as_played_for_you_are_held_to_the_reveal(spec: GameSpec) -> None:
    """A host marks the claims it played in a seat's name (``state.played_for``): a mark on
    a claim the seat played itself, or a claim played for it left unmarked, is a problem for
    that seat; no marks told (an older host) is not."""
    rng = random.Random(11)
    marked = unmarked = 0
    while marked < 5 or unmarked < 5:
        game = play(spec, rng)
        me = game.seen.seat
        assert me is not None
        assert check(game, dataclasses.replace(game.seen, played_for=frozenset())).ok
        wrong = check(game, dataclasses.replace(game.seen, played_for=frozenset({0})))
        assert any("the host marked claim 1 as played for you" in p for p in wrong.problems)
        marked += 1
        _, could = _host_could_play(game)
        mine = [index for index in could if game.reveal.actions[index].seat == me]
        if not mine:
            continue
        played_for = dataclasses.replace(game, reveal=dataclasses.replace(
            game.reveal, actions=tuple(dataclasses.replace(p, by="stand-in") if i == mine[0]
                                       else p for i, p in enumerate(game.reveal.actions))))
        assert check(played_for).ok  # (no marks told)
        left_out = check(played_for, dataclasses.replace(game.seen, played_for=frozenset()))
        assert any("without marking it as played for you" in p for p in left_out.problems)
        unmarked += 1


def host_played_forged(game: PlayedGame, rng: random.Random) -> PlayedGame | None:
    """The host played in a seat's name, by its clock, what the clock does not play (a doubt
    said to be a window's silence, a bluff said to be the turn timer's)."""
    could_not, _ = _host_could_play(game)
    if not could_not:
        return None
    index = rng.choice(could_not)
    actions = list(game.reveal.actions)
    dealt = game.spec.rules(game.players, game.options, seed=deal_seed(
        game.reveal.secret, game.reveal.game, game.reveal.contributions),
        opener=game.reveal.opener)
    for played in actions[:index]:
        dealt.apply(played.seat, dealt.parse_action(played.action))
    by = "timer" if dealt.turn_seat() == actions[index].seat else "window"
    actions[index] = dataclasses.replace(actions[index], by=by)
    return dataclasses.replace(game, reveal=dataclasses.replace(game.reveal,
                                                                actions=tuple(actions)))


def tamperings(spec: GameSpec) -> list[Tampering]:
    """The game's own lies in what a seat was shown, then the lies of every game."""
    return [*map(seen_lie, spec.lies()), seed_changed, event_reordered_or_dropped,
            action_forged, host_played_forged]


def test_what_the_host_plays_by_its_clocks_is_what_the_rules_play(spec: GameSpec) -> None:
    """Every action the rules' clocks would play, said to be the clock's, verifies (from
    every seat); every other is caught, said as a sentence."""
    rng = random.Random(5)
    fair = forged = 0
    while fair < 40 or forged < 40:
        game = play(spec, rng)
        could_not, could = _host_could_play(game)
        for index in could[:3]:
            relabelled = dataclasses.replace(game, reveal=dataclasses.replace(
                game.reveal, actions=tuple(
                    dataclasses.replace(p, by="stand-in") if i == index else p
                    for i, p in enumerate(game.reveal.actions))))
            assert all(check(relabelled, seen).ok for seen in game.seens)
            fair += 1
        if could_not:
            mutated = host_played_forged(game, rng)
            assert mutated is not None
            problem = check(mutated).problems[0]
            assert problem.startswith("action ") and (
                "is not what the rules play when time runs out" in problem
                or "it was not waiting for" in problem), problem
            forged += 1


def test_tampering_is_caught_in_every_mutated_game(spec: GameSpec) -> None:
    """As many games of each kind (600 games of I Doubt It, 240 of I Know You Don't). A
    lie in what one seat was shown is caught by that seat; a lie in the reveal, which every
    seat gets, by at least one of them (two cards laid in another order by Ben look the same
    to Amy, but not to Ben)."""
    rng = random.Random(2026)
    tampering = tamperings(spec)
    kinds = dict.fromkeys((t.__name__ for t in tampering), 0)
    games = 0
    while games < spec.tampered_games:
        game = play(spec, rng)
        tamper = tampering[games % len(tampering)]
        mutated = tamper(game, rng)
        if mutated is None:
            continue  # nothing of that kind in this game (no doubt, say): another game
        assert all(check(game, seen).ok for seen in game.seens), "an honest game verifies"
        assert caught(mutated), f"{tamper.__name__} was not caught (game {games})"
        kinds[tamper.__name__] += 1
        games += 1
    each = spec.tampered_games // len(tampering)
    assert all(count == each for count in kinds.values()), kinds


def test_each_problem_is_a_sentence_saying_what_did_not_match(spec: GameSpec) -> None:
    rng = random.Random(7)
    game = play(spec, rng)
    reveal = game.reveal
    wrong = dataclasses.replace(game, reveal=dataclasses.replace(reveal, secret=b"x" * 32))
    assert check(wrong).problems == (
        f"the host's secret for game {reveal.game} does not match the commitment it gave "
        "before the deal",)
    lie = seen_lie(spec.lies()[0])(game, rng)  # a challenged card shown as another
    assert lie is not None
    problem = check(lie).problems[0]
    assert problem.startswith("claim ") and "the deal and the actions give" in problem
    forged = action_forged(game, rng)
    assert forged is not None
    assert any("which you never sent" in p for p in check(forged).problems)
    illegal = dataclasses.replace(game, reveal=dataclasses.replace(
        reveal, actions=(Played(reveal.opener, spec.illegal_opening, "player"),
                         *reveal.actions)))
    assert "breaks the rules" in check(illegal).problems[0]


def test_a_host_cannot_choose_the_deal_by_the_seeds_or_the_opener(spec: GameSpec) -> None:
    game = play(spec, random.Random(11))
    reveal = game.reveal
    empty = dataclasses.replace(game, reveal=dataclasses.replace(
        reveal, contributions=(b"",) * game.players))
    said = verify(empty.reveal, commitment=game.commitment, players=game.players,
                  options=game.options, seen=game.seen, game=spec.name,
                  seed_hashes=[hashlib.sha256(seed).digest() for seed in reveal.contributions],
                  seeds_in=range(game.players))  # the table had said it had them all
    assert len(said.problems) == 1 and said.problems[0].endswith(  # not a "fixed seed", nor
        "seed was left out of the deal after the table said the host had it")  # came late
    nobody = dataclasses.replace(game, reveal=dataclasses.replace(reveal, contributions=()))
    assert "seeds are missing" in check(nobody).problems[0]
    assert game.seen.seat is not None
    bot = (game.seen.seat + 1) % game.players
    assert verify(reveal, commitment=game.commitment, players=game.players,
                  options=game.options, seen=game.seen, bots=(bot,),
                  game=spec.name).problems == (
        "the host added a seed of its own for a bot's seat",)
    moved = dataclasses.replace(game, reveal=dataclasses.replace(
        reveal, opener=(reveal.opener + 1) % game.players))
    assert "was opened by seat" in check(moved).problems[0]


def test_a_hand_shown_that_the_deal_does_not_give_is_caught(spec: GameSpec) -> None:
    game = play(spec, random.Random(12))
    assert game.seen.seat is not None
    shown = dataclasses.replace(game.seen, events=(), events_from=len(_log(game, None)),
                                hand=spec.hand_not_given(game.seen))
    assert "your hand as last shown" in " ".join(check(game, shown).problems)
    late = dataclasses.replace(shown, hand=None, from_start=False)
    verdict = check(game, late)
    assert verdict.ok and "were not checked" in verdict.notes[-1]


# -- over the network ------------------------------------------------------------------------


async def _match(spec: GameSpec, config: TableConfig,
                 lie: Callable[[Table], None] | None = None) -> tuple[Table, list[Client]]:
    """Three bot clients play ``config``'s match on loopback; ``lie`` changes the table
    once they have sat down (and the table starts then: ``config`` must not autostart)."""
    table = Table(config)
    host = Host(table, "127.0.0.1", 0)
    await host.start()
    clients = [Client("127.0.0.1", host.port, f"b{n}", retry_for=5.0) for n in range(3)]
    tasks = [asyncio.create_task(botclient.play(client, spec.bot("random", bytes([n]))))
             for n, client in enumerate(clients)]
    try:
        if lie is not None:
            await asyncio.wait_for(_until(lambda: table.taken == 3), 30)
            lie(table)
            host.start_match()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        await asyncio.wait_for(host.over.wait(), 30)
    finally:
        for task in tasks:
            task.cancel()
        for client in clients:
            await client.close()
        await host.close()
    return table, clients


async def _until(predicate: Callable[[], bool]) -> None:
    while not predicate():
        await asyncio.sleep(0.01)  # polling the table (in this loop) for a condition


def _config(spec: GameSpec, **changes: Any) -> TableConfig:
    return TableConfig(players=3, window=0.5, turn_timeout=0.0, game=spec.name,
                       options=spec.options, **changes)


async def test_every_client_verifies_every_deal_of_a_match_over_loopback(
        spec: GameSpec) -> None:
    table, clients = await _match(spec, _config(spec, games=2))
    assert table.state == "over"
    for client in clients:
        mirror = client.mirror
        assert mirror.commitment == table.chain.commitment.hex()
        assert set(mirror.verdicts) == {1, 2}
        assert all(verdict == Verdict(()) for verdict in mirror.verdicts.values())
    # Every player's seed went into the deals.
    assert {seat.contribution for seat in table.seats} == {c.mirror.contribution
                                                           for c in clients}


async def test_a_host_that_deals_from_a_secret_it_did_not_commit_to_is_caught(
        spec: GameSpec) -> None:
    def swap(table: Table) -> None:
        table.chain = SeedChain(b"another root", links=10)

    _, clients = await _match(spec, _config(spec, games=1, autostart=False), swap)
    for client in clients:
        verdict = client.mirror.verdicts[1]
        assert not verdict.ok
        assert verdict.problems[0] in (
            "the host changed its commitment after you joined",
            "the host's secret for game 1 does not match the commitment it gave before the deal")


# -- I Know You Don't ------------------------------------------------------------------------


def test_i_know_you_donts_reshuffled_games_verify_too() -> None:
    spec = spec_of("iknowyoudont")
    rng = random.Random(5)
    found = 0
    for _ in range(200):
        game = play(spec, rng)
        if any(isinstance(e, Reshuffled) for e in game.seen.events):
            found += 1
            assert all(check(game, seen).ok for seen in game.seens)
    assert found >= 3  # the vault is shuffled back in, now and then


# -- the host's clocks, and reveals that come late or never ---------------------------------


def _clocked(spec: GameSpec, **changes: Any) -> tuple[Harness, int]:
    """Amy and two bots at a table whose turn timer gives 30 s, at Amy's first turn."""
    settings: dict[str, Any] = {"players": 3, "games": 1, "window": 5.0, "turn_timeout": 30.0,
                                "grace": 60.0, "game": spec.name, "options": spec.options}
    h = Harness(TableConfig(**{**settings, **changes}), bots=2)
    amy = h.hello("Amy")
    seat = h.mirrors[amy].seat  # (after the bots)
    for _ in range(200):
        game = h.table.game
        if game is not None and game.turn_seat() == seat and not game.over:
            break
        h.advance(1.0)
    return h, amy


def _to_the_end(h: Harness) -> None:
    for _ in range(2000):
        if h.table.state == "over":
            return
        h.advance(10.0)
    raise AssertionError("the match did not end")


def test_a_turn_timer_that_runs_out_early_for_a_player_fails_its_check(spec: GameSpec) -> None:
    h, amy = _clocked(spec)
    game = h.table.game
    assert game is not None and game.turn_seat() == h.mirrors[amy].seat
    h.now += 1.0  # the host plays Amy's turn by its timer after 1 s of her 30
    h.table._play_for(game)
    h.table.tick(h.now)
    h.flush()
    _to_the_end(h)
    verdict = h.mirrors[amy].verdicts[1]
    assert any("the host's turn timer played for you after at most 1.0 s of your 30 s" in problem
               for problem in verdict.problems), verdict
    # The same table, honest: the timer plays her turns when her 30 s are up.
    h, amy = _clocked(spec)
    _to_the_end(h)
    assert h.mirrors[amy].verdicts[1].ok, h.mirrors[amy].verdicts[1]


def test_in_the_open_mode_a_turn_with_a_claim_open_is_timed_as_a_turn() -> None:
    """While a claim may still be called, the next player's turn runs on the turn clock (not
    a window's): the timer playing it after its 30 s is no problem."""
    spec = SPECS["idoubtit"]
    h, amy = _clocked(spec, options=Options(challenge=ChallengeMode.OPEN), seed=5)
    view = h.mirrors[amy].view
    assert view is not None and view.window_key is not None and view.my_turn
    _to_the_end(h)
    verdict = h.mirrors[amy].verdicts[1]
    assert verdict.ok and h.table.played and any(
        played.by == "timer" for played in h.table.played), verdict


def test_a_turn_begun_before_a_reconnect_is_not_held_against_the_host(spec: GameSpec) -> None:
    """Amy's turn comes while her connection is down: back 20 s into it, she cannot know
    when it began, and the timer playing it 10 s later is no problem."""
    h = Harness(TableConfig(players=3, games=1, window=5.0, turn_timeout=30.0, grace=60.0,
                            bot_delay=2.0, seed=3, game=spec.name, options=spec.options),
                bots=2)
    amy = h.hello("Amy")
    mirror, game = h.mirrors[amy], h.table.game
    assert game is not None and mirror.token is not None
    assert game.turn_seat() != mirror.seat  # (a bot opens, and takes its time)
    h.drop(amy)
    for _ in range(100):
        if game.turn_seat() == mirror.seat:
            break
        h.advance(0.5)
    h.advance(20.0)
    _back(h, mirror, mirror.token)
    assert not any(played.by == "timer" for played in h.table.played)
    h.advance(10.5)  # the host's timer plays her turn when her 30 s are up
    assert any(played.by == "timer" for played in h.table.played)
    _to_the_end(h)
    assert mirror.verdicts[1].ok, mirror.verdicts[1]


def _lost_before_the_end(spec: GameSpec) -> tuple[Harness, Mirror, str]:
    """Amy's connection drops in game 1 of 2, and the game ends (a stand-in playing her
    seat) and game 2 is dealt while she is away."""
    h, amy = _clocked(spec, games=2, grace=1.0, next_game_delay=0.0, turn_timeout=0.0,
                      bot_delay=1.0)  # (the bots take their time: game 2 is not over at once)
    mirror = h.mirrors[amy]
    token = mirror.token
    assert token is not None and mirror.game_number == 1
    h.drop(amy)
    for _ in range(5000):
        if h.table.match.games == 2:
            break
        h.advance(1.0)
    assert h.table.match.games == 2 and h.table.game is not None and not h.table.game.over
    return h, mirror, token


def _back(h: Harness, mirror: Mirror, token: str) -> int:
    conn = h.connect()
    h.mirrors[conn] = mirror  # the same client, reconnecting with its token
    h.send(conn, Hello(PROTOCOL_VERSION, "Amy", None, token, False))
    return conn


def test_a_game_lost_before_its_end_is_checked_when_its_player_comes_back(
        spec: GameSpec) -> None:
    h, mirror, token = _lost_before_the_end(spec)
    assert 1 not in mirror.verdicts
    _back(h, mirror, token)
    verdict = mirror.verdicts[1]  # the host sent the last game's reveal with the welcome
    assert verdict.checked and verdict.ok, verdict
    assert any("checked as far as you saw it" in note for note in verdict.notes)


def test_a_reveal_that_never_comes_is_not_checked_and_says_so(spec: GameSpec) -> None:
    h, mirror, token = _lost_before_the_end(spec)
    h.table._previous = ()  # a host that does not send it again
    amy = _back(h, mirror, token)
    assert 1 not in mirror.verdicts
    h.deciders[amy] = Decider(spec.bot("random", b"amy"))  # she plays game 2 to its end
    h.play_bots()
    _to_the_end(h)
    verdict = mirror.verdicts[1]
    assert not verdict.checked and verdict.ok and mirror.verdicts[2].checked
    assert verdict_line(1, verdict) == \
        "game 1: deal not checked: the host never sent this game's reveal"
    assert deal_text(verdict).plain == \
        "Deal not checked: the host never sent this game's reveal."


# -- seeds committed before any is sent -------------------------------------------------------


def _person(h: Harness, spec: GameSpec, n: int, **mirror: Any) -> int:
    """A client playing random moves whose seed is ``n`` repeated, not yet said hello."""
    conn = h.connect()
    h.mirrors[conn] = Mirror(contribution=bytes([n + 1]) * 16, **mirror)
    h.deciders[conn] = Decider(spec.bot("random", bytes([n])))
    return conn


def _hello(h: Harness, conn: int, name: str) -> None:
    h.send(conn, Hello(PROTOCOL_VERSION, name, None, None, False, h.mirrors[conn].seed_hash()))
    h.play_bots()


def _seeding(spec: GameSpec) -> tuple[Harness, list[int]]:
    """A table of three for two games: one bot and two players whose clients commit to
    seeds, the first game dealt."""
    h = Harness(TableConfig(players=3, games=2, window=5.0, turn_timeout=0.0, grace=60.0,
                            next_game_delay=0.0, game=spec.name, options=spec.options), bots=1)
    conns = [_person(h, spec, n) for n in range(2)]
    for n, conn in enumerate(conns):
        _hello(h, conn, f"p{n}")
    return h, conns


def test_no_seed_is_sent_before_every_seat_has_committed_and_the_deal_takes_them_all(
        spec: GameSpec) -> None:
    seen: list[tuple[str, tuple[bool, ...]]] = []
    h = Harness(TableConfig(players=3, games=1, window=5.0, turn_timeout=0.0,
                            game=spec.name, options=spec.options), bots=1)
    original = h.table.receive

    def watched(conn: int, message: Any, now: float) -> None:
        if isinstance(message, Seed):  # what the host knows when a seed reaches it
            seen.append((h.table.state, tuple(s.seed_hash is not None or s.strategy is not None
                                              for s in h.table.seats)))
        original(conn, message, now)

    h.table.receive = watched  # type: ignore[method-assign]
    mirrors = []
    for n in range(2):
        conn = _person(h, spec, n + 6)
        mirror = h.mirrors[conn]
        _hello(h, conn, f"p{n}")
        mirrors.append(mirror)
        # The commitment to the host's secrets came in the welcome, before any seed.
        assert mirror.commitment == h.table.chain.commitment.hex()
    assert len(seen) == 2 and all(state == "seeding" and all(committed)
                                  for state, committed in seen), seen
    assert h.table.match.games == 1  # dealt (and maybe played out already)
    assert h.table.contributions[1:] == (bytes([7]) * 16, bytes([8]) * 16)
    _to_the_end(h)
    for mirror in mirrors:
        assert mirror.verdicts[1].ok and mirror.verdicts[1].notes == ()


def test_a_seed_that_is_not_the_one_committed_to_is_refused(spec: GameSpec) -> None:
    h = Harness(TableConfig(players=3, games=1, game=spec.name, options=spec.options), bots=2)
    conn = h.connect()
    h.send(conn, Hello(PROTOCOL_VERSION, "Amy", None, None, False,
                       hashlib.sha256(b"mine").hexdigest()))
    assert h.table.state == "seeding"
    h.send(conn, Seed(b"another".hex()))
    error = h.last(conn, Error)
    assert isinstance(error, Error) and error.code == "bad_message"
    assert "not the seed this seat's hello committed to" in error.message
    assert h.table.state == "seeding" and not h.table.seats[2].contribution
    h.send(conn, Seed(b"mine".hex()))  # the connection stays, and the right one is taken
    assert h.table.state == "playing" and h.table.contributions[2] == b"mine"


def test_a_seed_that_does_not_come_is_dealt_without_and_noted(spec: GameSpec) -> None:
    """The table waits for a seed, then closes the connection it did not come on (a seed
    left out of a deal made while its connection was up would be the host's doing) and
    deals without it: noted, not a problem, for the player back and for the others."""
    h = Harness(TableConfig(players=3, games=1, window=5.0, turn_timeout=0.0, grace=15.0,
                            game=spec.name, options=spec.options), bots=1)
    conns = [_person(h, spec, n) for n in range(2)]
    mirror = h.mirrors[conns[1]]
    mirror.seed_due = lambda: None  # type: ignore[method-assign]  # never sent
    for n, conn in enumerate(conns):
        _hello(h, conn, f"p{n}")
    assert h.table.state == "seeding"
    h.advance(SEED_WAIT - 0.1)
    assert h.table.state == "seeding" and conns[1] not in h.closed  # the table waits ...
    h.now += 0.2
    h.table.tick(h.now)  # (no bot plays before p1 is back)
    h.flush()
    assert conns[1] in h.closed  # ... closes the connection its seed did not come on ...
    assert h.table.match.games == 1 and h.table.contributions[2] == b""  # ... and deals
    back = h.connect()  # (the client comes back, as it does after a lost connection)
    h.mirrors[back] = mirror
    h.send(back, Hello(PROTOCOL_VERSION, "p1", None, mirror.token, False, mirror.seed_hash()))
    h.deciders[back] = h.deciders.pop(conns[1])
    h.play_bots()
    _to_the_end(h)
    first, second = h.mirrors[conns[0]].verdicts[1], mirror.verdicts[1]
    assert first.ok and "seat 3's seed did not come in time" in " ".join(first.notes)
    assert second.ok and "your seed did not reach the host in time" in " ".join(second.notes)


def test_a_player_who_lost_the_connection_while_the_seeds_came_in_is_waited_for(
        spec: GameSpec) -> None:
    """The table waits for an away player's seed as long as for the player (the grace
    time): back in time, the seed goes in; the deal is verified, with nothing to note."""
    h = Harness(TableConfig(players=3, games=1, window=5.0, turn_timeout=0.0, grace=15.0,
                            game=spec.name, options=spec.options), bots=1)
    conns = [_person(h, spec, n) for n in range(2)]
    mirror = h.mirrors[conns[1]]
    mirror.seed_due = lambda: None  # type: ignore[method-assign]  # lost before it was sent
    for n, conn in enumerate(conns):
        _hello(h, conn, f"p{n}")
    assert h.table.state == "seeding"
    h.drop(conns[1])
    h.advance(SEED_WAIT + 5.0)
    assert h.table.state == "seeding"  # past the seeds' wait, within the grace time
    del mirror.seed_due  # the client as it is: it sends its seed on each new connection
    back = h.connect()
    h.mirrors[back] = mirror
    assert mirror.token is not None
    h.send(back, Hello(PROTOCOL_VERSION, "p1", None, mirror.token, False, mirror.seed_hash()))
    assert h.table.state == "playing" and h.table.contributions[2] == bytes([2]) * 16
    h.deciders[back] = h.deciders.pop(conns[1])
    h.play_bots()
    _to_the_end(h)
    verdict = mirror.verdicts[1]
    assert verdict.ok and verdict.notes == (), verdict


def test_a_seed_the_table_said_it_had_cannot_leave_the_deals(spec: GameSpec) -> None:
    h, (amy, ben) = _seeding(spec)
    h.table.seats[2].contribution = b""  # Ben's seed, dropped after game 1
    h.table._broadcast_table()
    h.flush()
    _to_the_end(h)
    assert h.mirrors[amy].verdicts[2].problems == (
        "seat 3's seed left the deals after it went in",)


def test_a_host_that_changes_a_seats_seed_or_commitment_between_games_is_caught(
        spec: GameSpec) -> None:
    # Game 2 dealt with another seed for Ben's seat than the one he committed to: Amy sees it.
    h2, (amy2, ben2) = _seeding(spec)
    h2.table.seats[2].contribution = b"the host's choice"
    _to_the_end(h2)
    assert h2.mirrors[amy2].verdicts[2].problems == (
        "seat 3's seed is not the one it committed to before any seed was sent",)
    # A seat's commitment that changes after the match began fails every check after.
    h3, (amy3, ben3) = _seeding(spec)
    h3.table.seats[2].seed_hash = hashlib.sha256(b"another").digest()
    h3.table._broadcast_table()
    h3.flush()
    _to_the_end(h3)
    assert h3.table.match.games == 2 and h3.mirrors[amy3].verdicts[2].problems == (
        "the seed seat 3 committed to changed after the match began",)


def test_a_commitment_other_than_the_adverts_fails_the_check(spec: GameSpec) -> None:
    h = Harness(TableConfig(players=3, games=1, window=5.0, turn_timeout=0.0,
                            game=spec.name, options=spec.options), bots=2)
    conn = _person(h, spec, 0, advertised="ab" * 32)
    mirror = h.mirrors[conn]
    _hello(h, conn, "Amy")
    _to_the_end(h)
    assert mirror.verdicts[1].problems == ("the host's commitment is not the one its advert "
                                           "gave",)


def test_a_match_of_rounds_is_checked_deal_after_deal() -> None:
    """Every round of I Know You Don't is dealt again from the game's seed: a player who
    plays every round and a spectator check every deal (what each was shown of the later
    rounds' hands included)."""
    spec = spec_of("iknowyoudont")
    h = Harness(TableConfig(players=3, games=1, window=5.0, turn_timeout=0.0, seed=None,
                            game=spec.name, options=spec.options), bots=2, strategy="honest")
    watcher = h.hello("Eve", watch=True)
    amy = _person(h, spec, 0)
    h.deciders[amy] = Decider(spec.bot("honest", b"amy"))  # nobody challenges: two rounds
    _hello(h, amy, "Amy")  # (and the whole match is played)
    _to_the_end(h)
    game = h.table.game
    assert game is not None and len(game.state.pad) >= 2  # (a tie plays more rounds)
    deals = sum(isinstance(e, type(game.state.events[0])) for e in game.state.events)
    assert deals == len(game.state.pad)
    for conn in (amy, watcher):
        assert h.mirrors[conn].verdicts[1].ok, h.mirrors[conn].verdicts[1]


def test_a_player_back_between_games_is_not_told_of_moves_it_never_saw_live(
        spec: GameSpec) -> None:
    """Amy's connection drops early in game 1 and a stand-in plays her seat to its end;
    she comes back while the table waits for the host to deal the next game: the snapshot
    of the game over is not what she saw live, and nothing in it is held against the
    host's clocks."""
    h = Harness(TableConfig(players=3, games=2, window=5.0, turn_timeout=30.0, grace=2.0,
                            next_game_delay=None, game=spec.name, options=spec.options),
                bots=2)
    amy = h.hello("Amy")
    mirror = h.mirrors[amy]
    assert mirror.token is not None
    h.advance(1.0)
    h.drop(amy)
    for _ in range(5000):
        if h.table.state == "between":
            break
        h.advance(1.0)
    assert h.table.state == "between"
    assert any(p.by == "stand-in" and p.seat == mirror.seat for p in h.table.played)
    _back(h, mirror, mirror.token)
    assert mirror.verdicts[1].ok, mirror.verdicts[1]
