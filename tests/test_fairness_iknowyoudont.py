"""The verifiable deal for I Know You Don't (docs/fairness.md): an honest game verifies from
every seat and by a spectator, the vault's reshuffles included; a host that lies about a
shown card, a drawn card, the seeds, the order of play or a player's action is caught."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from test_fairness import action_forged, seed_changed

from doubtlan.bots import make_bot
from doubtlan.rules.fairness import Played, Reveal, SeedChain, Seen, Verdict, deal_seed, verify
from doubtlan.rules.iknowyoudont import (
    Deck,
    Drew,
    IKnowYouDont,
    Options,
    Reshuffled,
    Revealed,
    Showdown,
    own_deck,
    standard_deck,
)


@dataclasses.dataclass
class PlayedGame:
    reveal: Reveal
    commitment: bytes
    players: int
    options: Options
    seens: tuple[Seen, ...]
    seen: Seen


def play(rng: random.Random, seat: int | None = None) -> PlayedGame:
    players = rng.randint(3, 6)
    options = Options(rng.choice(list(Deck)))
    chain = SeedChain(rng.randbytes(32), links=3)
    number = rng.randint(1, 3)
    seeds = tuple(rng.randbytes(16) for _ in range(players))
    opener = (number - 1) % players
    game = IKnowYouDont(players, options, seed=deal_seed(chain.secret(number), number, seeds),
                        opener=opener)
    bots = [make_bot("random", rng.randbytes(8), "iknowyoudont") for _ in range(players)]
    played: list[Played] = []
    while not game.over:
        seat_now = rng.choice(game.may_act())
        for action in bots[seat_now].act(game.view(seat_now)) or \
                game.timeout_actions(seat_now) or ():
            game.apply(seat_now, action)
            played.append(Played(seat_now, action.text, "player"))
    claims = game.view(None).claims
    seens = tuple(Seen(s, seeds[s], claims, 0, game.log(s),
                       tuple(p.action for p in played if p.seat == s), game.view(s).hand)
                  for s in range(players))
    me = rng.randrange(players) if seat is None else seat
    reveal = Reveal(number, chain.secret(number), seeds, opener, tuple(played))
    return PlayedGame(reveal, chain.commitment, players, options, seens, seens[me])


def check(game: PlayedGame, seen: Seen | None = None) -> Verdict:
    return verify(game.reveal, commitment=game.commitment, players=game.players,
                  options=game.options, seen=seen or game.seen, game="iknowyoudont")


def caught(game: PlayedGame) -> bool:
    return not check(game).ok or any(not check(game, seen).ok for seen in game.seens)


def test_an_honest_game_verifies_from_every_seat_and_by_a_spectator() -> None:
    rng = random.Random(1)
    for _ in range(20):
        game = play(rng)
        assert all(check(game, seen) == Verdict(()) for seen in game.seens)
        again = IKnowYouDont(game.players, game.options, seed=deal_seed(
            game.reveal.secret, game.reveal.game, game.reveal.contributions),
            opener=game.reveal.opener)
        for played in game.reveal.actions:
            again.apply(played.seat, again.parse_action(played.action))
        watcher = Seen(None, None, game.seen.claims, 0, again.log(None), ())
        assert check(dataclasses.replace(game, seen=watcher)).ok


def test_reshuffled_games_verify_too() -> None:
    rng = random.Random(5)
    found = 0
    for _ in range(200):
        game = play(rng)
        if any(isinstance(e, Reshuffled) for e in game.seen.events):
            found += 1
            assert all(check(game, seen).ok for seen in game.seens)
    assert found >= 3  # the vault is shuffled back in, now and then


def _other(card: object, rng: random.Random) -> object:
    return rng.choice([c for c in set(own_deck()) | set(standard_deck()) if c != card])


def shown_card_changed(game: PlayedGame, rng: random.Random) -> PlayedGame | None:
    """The host showed a card in a showdown that was not the one laid."""
    shown = [i for i, claim in enumerate(game.seen.claims) if isinstance(claim, Showdown)]
    if not shown:
        return None
    index = rng.choice(shown)
    claim = game.seen.claims[index]
    assert isinstance(claim, Showdown)
    lie = dataclasses.replace(claim, card=_other(claim.card, rng))
    claims = (*game.seen.claims[:index], lie, *game.seen.claims[index + 1:])
    events = tuple(lie if event == claim else
                   dataclasses.replace(event, card=lie.card)
                   if isinstance(event, Revealed) and event.card == claim.card else event
                   for event in game.seen.events)
    return dataclasses.replace(game, seen=dataclasses.replace(game.seen, claims=claims,
                                                              events=events))


def drawn_card_changed(game: PlayedGame, rng: random.Random) -> PlayedGame | None:
    """The host told the seat it drew a card it did not draw."""
    mine = [i for i, e in enumerate(game.seen.events)
            if isinstance(e, Drew) and e.cards is not None]
    if not mine:
        return None
    at = rng.choice(mine)
    drew = game.seen.events[at]
    assert isinstance(drew, Drew) and drew.cards is not None
    cards = list(drew.cards)
    cards[0] = _other(cards[0], rng)  # type: ignore[assignment]
    events = list(game.seen.events)
    events[at] = dataclasses.replace(drew, cards=tuple(cards))
    return dataclasses.replace(game, seen=dataclasses.replace(game.seen, events=tuple(events)))


def action_reordered_or_dropped(game: PlayedGame, rng: random.Random) -> PlayedGame | None:
    actions = list(game.reveal.actions)
    at = rng.randrange(len(actions) - 1)
    if rng.random() < 0.5:
        del actions[at]
    elif actions[at] != actions[at + 1]:
        actions[at], actions[at + 1] = actions[at + 1], actions[at]
    else:
        return None
    return dataclasses.replace(game, reveal=dataclasses.replace(game.reveal,
                                                                actions=tuple(actions)))


# (seed_changed and action_forged, from I Doubt It's tests, read only reveal and seen.)
TAMPERING: list[Callable[[PlayedGame, random.Random], PlayedGame | None]] = [
    shown_card_changed, drawn_card_changed, seed_changed, action_reordered_or_dropped,
    action_forged,
]


def test_tampering_is_caught_in_every_one_of_500_mutated_games() -> None:
    rng = random.Random(2027)
    kinds = dict.fromkeys((t.__name__ for t in TAMPERING), 0)
    games = 0
    while games < 500:
        game = play(rng)
        tamper = TAMPERING[games % len(TAMPERING)]
        mutated = tamper(game, rng)
        if mutated is None:
            continue
        assert caught(mutated), f"{tamper.__name__} was not caught (game {games})"
        kinds[tamper.__name__] += 1
        games += 1
    assert all(count == 100 for count in kinds.values()), kinds
