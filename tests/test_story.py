"""The story of a game (rules/story.py): every claim told with the cards the deal gave and
the actions laid, for every game (each in its own kind: a claim's cards, a bid's discs)."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

from games import SPECS, GameSpec
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fairness import play

from doubtlan.rules import game_named
from doubtlan.rules.fairness import deal_seed
from doubtlan.rules.story import Told, figures, tell


def _laid(spec: GameSpec, game: Any, text: str) -> tuple[Any, ...]:
    """The cards an action lays face down: its fields that hold the game's cards (none for a
    doubt, a pass, a call, a bid)."""
    action = game.parse_action(text)
    laid: list[Any] = []
    for field in dataclasses.fields(action):
        value = getattr(action, field.name)
        laid += [card for card in (value if isinstance(value, tuple) else (value,))
                 if isinstance(card, spec.card)]
    return tuple(laid)


@settings(max_examples=40, deadline=None)
@given(spec=st.sampled_from(sorted(SPECS)), seed=st.integers(0, 2**32))
def test_a_story_shows_the_cards_the_deal_gave_and_the_lays_the_claims_made(
        spec: str, seed: int) -> None:
    played = play(SPECS[spec], random.Random(seed))
    kind = game_named(spec)
    story = tell(kind, played.players, played.options, played.reveal)
    # The game again, for what its rules say (not what the story says).
    reveal = played.reveal
    game = kind(played.players, played.options, seed=deal_seed(
        reveal.secret, reveal.game, reveal.contributions), opener=reveal.opener)
    assert story.dealt == tuple(tuple(hand) for hand in game.state.hands)
    lays: dict[int, list[Any]] = {seat: [] for seat in range(played.players)}
    # All the cards laid so far, after each action (by the events it ended with).
    so_far: list[tuple[int, Counter[Any]]] = []
    for action in reveal.actions:
        lays[action.seat].extend(_laid(SPECS[spec], kind, action.action))
        game.apply(action.seat, game.parse_action(action.action))
        so_far.append((game.event_count, Counter(card for laid in lays.values()
                                                 for card in laid)))
    # Every claim of the game, in order, each with what was shown for it: in a game whose
    # claims show what their player laid from its hand (its words mark it there: ``laid``),
    # every card its player laid for it; in any game, cards laid before it was settled.
    from_hand = kind.words.laid != ""
    assert len(story.steps) == len(game.view(None).record)
    told: dict[int, list[Any]] = {seat: [] for seat in range(played.players)}
    for step, record in zip(story.steps, game.view(None).record, strict=True):
        assert step.told.seat == record.seat
        cards = step.told.shown
        assert cards is not None and cards
        told[step.told.seat].extend(cards)
        laid = next(counted for count, counted in so_far if count > step.told.end)
        assert not Counter(cards) - laid
        # The hand as the claim began held every card laid for it.
        assert not from_hand or not Counter(cards) - Counter(step.hands[step.told.seat])
        assert step.told.held is not None
        if step.told.by is not None:
            assert step.told.right in (step.told.seat, step.told.by)
    assert not from_hand or told == lays
    assert story.winner == game.winner


def test_what_the_table_saw_of_a_claim_keeps_its_cards_face_down() -> None:
    """The spectator's events tell each claim without what the game keeps face down (the
    cards of claims that stood; the discs no bid turned): the bots' talk reads those, so it
    can say nothing their hand or the deal alone knows."""
    for name, spec in SPECS.items():
        played = play(spec, random.Random(3))
        kind = game_named(name)
        reveal = played.reveal
        game = kind(played.players, played.options, seed=deal_seed(
            reveal.secret, reveal.game, reveal.contributions), opener=reveal.opener)
        laid = 0
        for action in reveal.actions:
            laid += len(_laid(spec, kind, action.action))
            game.apply(action.seat, game.parse_action(action.action))
        public = kind.tell(game.log(None))
        whole = kind.tell(game.state.events)
        assert len(public) == len(whole)
        # What nobody tested stays face down where the game keeps it so (a claim that
        # stood); the rest is told to the table whole (a claim doubted, a bid turned).
        assert any(t.by is None for t in whole), name
        down = [(p, w) for p, w in zip(public, whole, strict=True) if spec.face_down(w)]
        assert all(p.shown is None and p.held is None and (p.seat, p.said) == (w.seat, w.said)
                   for p, w in down), name
        shown = [(p, w) for p, w in zip(public, whole, strict=True) if not spec.face_down(w)]
        assert shown and all(p == w for p, w in shown), name
        # Fewer cards shown to the table than were laid face down: the rest stayed so.
        assert sum(len(p.shown or ()) for p in public) < laid, name


def test_figures_count_each_seats_claims_bluffs_and_doubts() -> None:
    steps = [Told(0, "one 7", (), False, 1, 1, 0, 3), Told(1, "two 8s", (), True, 0, 1, 4, 9),
             Told(0, "one 9", (), False, None, None, 10, 12),
             Told(2, "one 10", (), None, None, None, 13, 15),
             Told(2, "one J", (), True, 0, 2, 16, 20)]
    mine = figures(steps, 0)
    assert (mine.claims, mine.bluffs, mine.caught) == (2, 2, 1)
    assert (mine.doubts_right, mine.doubts_wrong) == (0, 2)
    theirs = figures(steps, 1)
    assert (theirs.claims, theirs.bluffs, theirs.doubts_right) == (1, 0, 1)


def test_a_lie_a_wildcard_saved_is_no_catch() -> None:
    """I Know You Don't: a lie shown to a challenger, which the Wildcard turned into a win
    for its player, was not caught (and its player's bot is saved, not caught)."""
    from doubtlan.bots.talk import mood

    saved = Told(0, "level 3 Truth", (), False, 1, 0, 0, 5)
    assert figures([saved], 0).caught == 0 and figures([saved], 0).bluffs == 1
    assert figures([saved], 1).doubts_wrong == 1
    assert mood(saved, 0) == "saved" and mood(saved, 1) == "wrong"
