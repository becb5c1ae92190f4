"""The story of a game (rules/story.py): every claim told with the cards the deal gave and
the actions laid, for every game."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games import SPECS
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fairness import play

from doubtlan.rules import game_named
from doubtlan.rules.fairness import deal_seed
from doubtlan.rules.story import Told, figures, tell


def _laid(game: Any, text: str) -> tuple[Any, ...]:
    """The cards an action lays face down (none for a doubt, a pass, a call)."""
    action = game.parse_action(text)
    cards = getattr(action, "cards", None)
    if cards is not None:
        return tuple(cards)
    card = getattr(action, "card", None)
    return () if card is None else (card,)


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
    dealt = game.state.events[0].hands
    assert story.dealt == tuple(tuple(hand) for hand in dealt)
    lays: dict[int, list[Any]] = {seat: [] for seat in range(played.players)}
    for action in reveal.actions:
        lays[action.seat].extend(_laid(kind, action.action))
        game.apply(action.seat, game.parse_action(action.action))
    # Every claim of the game, in order, each with every card its player laid for it.
    assert len(story.steps) == len(game.view(None).record)
    told: dict[int, list[Any]] = {seat: [] for seat in range(played.players)}
    for step, record in zip(story.steps, game.view(None).record, strict=True):
        assert step.told.seat == record.seat
        cards = step.told.shown
        assert cards is not None and cards
        told[step.told.seat].extend(cards)
        # The hand as the claim began held every card laid for it.
        assert not Counter(cards) - Counter(step.hands[step.told.seat])
        assert step.told.held is not None
        if step.told.by is not None:
            assert step.told.right in (step.told.seat, step.told.by)
    assert told == lays
    assert story.winner == game.winner


def test_what_the_table_saw_of_a_claim_keeps_its_cards_face_down() -> None:
    """The spectator's events tell each claim without the cards of claims that stood: the
    bots' talk reads those, so it can say nothing their hand or the deal alone knows."""
    for name, spec in SPECS.items():
        played = play(spec, random.Random(3))
        kind = game_named(name)
        reveal = played.reveal
        game = kind(played.players, played.options, seed=deal_seed(
            reveal.secret, reveal.game, reveal.contributions), opener=reveal.opener)
        for action in reveal.actions:
            game.apply(action.seat, game.parse_action(action.action))
        public = kind.tell(game.log(None))
        whole = kind.tell(game.state.events)
        assert len(public) == len(whole)
        stood = [t for t in public if t.by is None]
        assert stood and all(t.shown is None and t.held is None for t in stood), name
        doubted = [(p, w) for p, w in zip(public, whole, strict=True) if w.by is not None]
        assert doubted and all(p == w for p, w in doubted), name


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
