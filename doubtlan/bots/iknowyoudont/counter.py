"""``counter`` for I Know You Don't: places the cards it can, weighs each declaration,
challenges on expected value."""

from __future__ import annotations

from collections import Counter
from functools import cache
from math import comb

from ...rules import Action, Event
from ...rules.iknowyoudont import (
    TARGET,
    Card,
    Declaration,
    Kind,
    Options,
    Phase,
    Play,
    Showdown,
    Stood,
    TableView,
)
from ...rules.seeds import Seed
from .base import KnowBot, true_declaration


class Record:
    """How often each seat's claims turned out true when they were shown, over every game of
    a match (a claim saved by a Wildcard counts as the lie it was)."""

    def __init__(self) -> None:
        self.shown: Counter[int] = Counter()
        self.true: Counter[int] = Counter()

    def add(self, seat: int, true: bool) -> None:
        self.shown[seat] += 1
        self.true[seat] += true


class CounterKnowBot(KnowBot):
    """Counts cards.

    It knows where some cards are: its own hand, every scoring pile (the cards shown in
    showdowns end there), and the Interceptions and Wildcards discarded into the vault since
    it was last shuffled (read back from the settled claims and the vault's size). The other
    cards are unknown. From how many cards matching a declaration are unknown, against how
    many unknown cards the active player held, it tells how likely the active player could
    make that claim truthfully; it weighs that by how often the claimer's shown claims were
    true, over the whole match. It challenges when that pays (a token both ways, the card's
    victory point, the two cards drawn after a wrong challenge, and the game won or lost when
    the showdown ends it), intercepts only a claim very likely false, and always plays its
    Wildcard when it may. On its turn it tells the truth, with the card whose declaration
    looks least likely to the others, so that it may be challenged.
    """

    name = "counter"
    #: What a token is worth to this seat, against a victory point.
    token = 0.5
    #: What another player's gain is worth to this seat (there are several to beat).
    others = 0.3
    #: What each card drawn after a wrong challenge is worth (more cards, more choice).
    card = 0.05
    #: What a showdown that ends the game is worth, won or lost.
    ending = 5.0
    #: What keeping an Interception is worth: an interception must gain more than this.
    interception = 0.5
    #: How many shown claims the even guess (one claim in two true) is worth, against a
    #: claimer's record.
    prior_weight = 3.0

    def __init__(self, seed: Seed | None = None) -> None:
        super().__init__(seed)
        self.record = Record()
        #: The game being followed (its opener and first claim), its claims read so far, and
        #: the claims made when it last looked (fewer now: another game).
        self._game: tuple[int, Event | None] | None = None
        self._seen = self._turns = 0

    def remember(self, view: TableView) -> None:
        """Read the claims settled since it last looked into the match's record (following
        a new game from its start, and a game first seen half-way through from its first
        claim)."""
        claims = view.claims
        game = (view.opener, claims[0] if claims else None)
        if game != self._game or self._seen > len(claims) or self._turns > view.turns:
            self._game, self._seen = game, 0
        self._turns = view.turns
        for claim in claims[self._seen:]:
            if isinstance(claim, Showdown):
                self.record.add(claim.seat, claim.card.matches(claim.declaration))
        self._seen = len(claims)

    # -- what is known ------------------------------------------------------------------

    def chance_true(self, view: TableView) -> float:
        """The chance that the waiting declaration is true, as far as this seat can tell."""
        declaration, active = view.declaration, view.active
        assert declaration is not None
        self.remember(view)
        known = _known(view, public=False)
        deck = _deck(view.options)
        matching = sum(n for card, n in deck.items() if card.matches(declaration))
        unknown_matching = matching - sum(n for card, n in known.items()
                                          if card.matches(declaration))
        if unknown_matching <= 0:
            return 0.0
        held = view.hand_sizes[active] + 1  # the hand it chose its card from
        could = _any_of(unknown_matching, sum(deck.values()) - sum(known.values()), held)
        usual = _any_of(matching, sum(deck.values()), held)
        shown, true = self.record.shown[active], self.record.true[active]
        honesty = (true + 0.5 * self.prior_weight) / (shown + self.prior_weight)
        odds = honesty / max(1e-9, 1 - honesty) * could / usual
        return odds / (1 + odds)

    def value(self, view: TableView, challenger: int, lie: bool) -> float:
        """What a showdown of the waiting claim, challenged by ``challenger``, is worth to
        this seat: ``lie`` whether the challenger wins it."""
        me, active = view.seat, view.active
        winner, loser = (challenger, active) if lie else (active, challenger)
        points, tokens = list(view.points), list(view.tokens)
        points[winner] += 1
        tokens[winner] += 1
        tokens[loser] -= 1
        if points[winner] >= TARGET or tokens[loser] == 0:
            order = [(active + i) % view.players for i in range(1, view.players + 1)]
            first = winner if points[winner] >= TARGET else max(
                order, key=lambda s: (points[s], tokens[s]))
            return self.ending if first == me else -self.ending
        worth = 0.0
        for seat, gain in ((winner, 1 + self.token), (loser, -self.token)):
            worth += gain if seat == me else -self.others * gain
        if not lie and challenger == me:
            worth += 2 * self.card
        return worth

    # -- deciding -----------------------------------------------------------------------

    def challenges(self, view: TableView) -> bool:
        assert view.seat is not None
        chance = self.chance_true(view)
        worth = (1 - chance) * self.value(view, view.seat, True) \
            + chance * self.value(view, view.seat, False)
        return worth > 0

    def intercepts(self, view: TableView) -> bool:
        assert view.seat is not None
        chance = self.chance_true(view)
        if chance > 0.2:
            return False
        # A lie may still be saved by a Wildcard from the active player's hand.
        known = _known(view, public=False)
        deck = _deck(view.options)
        wildcards = sum(n for card, n in deck.items() if card.kind is Kind.WILDCARD) \
            - sum(n for card, n in known.items() if card.kind is Kind.WILDCARD)
        saved = _any_of(wildcards, sum(deck.values()) - sum(known.values()),
                        view.hand_sizes[view.active])
        lie = (1 - chance) * (1 - saved)
        worth = lie * self.value(view, view.seat, True) \
            + (1 - lie) * self.value(view, view.seat, False)
        return worth > self.interception

    def wild(self, view: TableView) -> bool:
        return True  # it wins the showdown, which keeping the Wildcard would lose

    def turn(self, view: TableView) -> list[Action]:
        """Tell the truth with the Truth or Bluff card whose declaration the others can
        least believe; with none, a Wildcard (true whatever it is called) declared so; with
        only Interceptions, one declared as the likeliest claim."""
        public = _known(view, public=True)
        deck = _deck(view.options)

        def believable(declaration: Declaration) -> int:  # matching cards others can't place
            return sum(n for card, n in deck.items() if card.matches(declaration)) \
                - sum(n for card, n in public.items() if card.matches(declaration))

        plain = [card for card in view.hand if card.level is not None]
        if plain:
            card = min(plain, key=lambda c: believable(true_declaration(c)))
            return [Play(card, true_declaration(card))]
        every = [Declaration(level, kind) for level in range(1, view.options.max_level + 1)
                 for kind in (Kind.TRUTH, Kind.BLUFF)]
        wildcards = [card for card in view.hand if card.kind is Kind.WILDCARD]
        if wildcards:
            return [Play(wildcards[0], min(every, key=believable))]
        return [Play(view.hand[0], max(every, key=believable))]


@cache
def _deck(options: Options) -> Counter[Card]:
    """The deck's cards, and how many copies of each."""
    return Counter(options.cards())


@cache
def _one_of(options: Options, kind: Kind) -> Card:
    """A card of ``kind`` from the deck: which Interception or Wildcard went into the vault
    is not shown, and does not matter."""
    return next(card for card in options.cards() if card.kind is kind)


def _known(view: TableView, public: bool) -> Counter[Card]:
    """The cards whose whereabouts the seat knows: every scoring pile, the Interceptions and
    Wildcards discarded into the vault since it was last shuffled, and (unless ``public``,
    what everybody knows) its own hand.

    The vault holds what was added to it since its last shuffle, and every addition is in the
    settled claims: a standing claim's card (unseen), an Interception and a Wildcard for a
    showdown that used them. Walking back from the newest claim until the vault's size is
    reached finds the discards still there.
    """
    known: Counter[Card] = Counter(card for pile in view.piles for card in pile)
    if not public:
        known.update(view.hand)
    room = view.vault
    interceptions = wildcards = 0
    if view.phase is Phase.DECIDING and view.intercept:  # its Interception is already in
        interceptions, room = 1, room - 1
    for claim in reversed(view.claims):
        if room <= 0:
            break
        if isinstance(claim, Stood):
            room -= 1
        elif isinstance(claim, Showdown):
            if claim.wild and room > 0:
                wildcards, room = wildcards + 1, room - 1
            if claim.intercept and room > 0:
                interceptions, room = interceptions + 1, room - 1
    if interceptions:
        known[_one_of(view.options, Kind.INTERCEPTION)] += interceptions
    if wildcards:
        known[_one_of(view.options, Kind.WILDCARD)] += wildcards
    return known


def _any_of(good: int, pool: int, drawn: int) -> float:
    """The chance that ``drawn`` cards from ``pool`` hold at least one of ``good`` of them."""
    drawn = min(drawn, pool)
    if good <= 0 or drawn <= 0:
        return 0.0
    return 1.0 - comb(pool - good, drawn) / comb(pool, drawn)
