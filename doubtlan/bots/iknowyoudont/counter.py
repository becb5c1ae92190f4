"""``counter`` for I Know You Don't: places the cards it can, weighs each declaration,
challenges on expected value."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from math import comb

from ...rules import Action, Event
from ...rules.iknowyoudont import (
    Card,
    Deck,
    Declaration,
    Kind,
    Options,
    Play,
    Showdown,
    TableView,
    true_declaration,
)
from ...rules.seeds import Seed
from .base import DECIDING, KnowBot

#: Room in a record for every seat and every level the rules allow (a record's counts are
#: lists by seat or level, not dictionaries: every bot reads them at every claim).
SEATS = max(Options(deck).max_players for deck in Deck)
LEVELS = max(Options(deck).max_level for deck in Deck) + 1


def counts(size: int) -> list[float]:
    """A count for each of ``size`` seats or levels, none yet."""
    return [0.0] * size


def fade(lists: Iterable[list[float]], keep: float) -> None:
    """Count what each of ``lists`` counted as ``keep`` of it."""
    for counted in lists:
        counted[:] = [n * keep for n in counted]


class Record:
    """What a match has shown so far: how often each seat's claims turned out true when they
    were challenged (a claim saved by a Wildcard counts as the lie it was), and how often a
    claim of each level was challenged, over every game of a match. Counts are by seat
    (``shown[seat]``) or by level (``made[level]``)."""

    def __init__(self) -> None:
        self.shown, self.true = counts(SEATS), counts(SEATS)
        self.made, self.challenged = counts(LEVELS), counts(LEVELS)
        #: Each seat's claims, and how many of them declared each level
        #: (``declared[seat][level]``).
        self.claims = counts(SEATS)
        self.declared = [counts(LEVELS) for _ in range(SEATS)]

    def fade(self, keep: float) -> None:
        """Count what came before as ``keep`` of what it was: players change their ways."""
        fade((self.shown, self.true, self.made, self.challenged, self.claims, *self.declared),
             keep)

    def note(self, claims: Sequence[Event]) -> None:
        """Settled claims, in order: each one's seat and level, whether it was challenged,
        and if so whether it was true."""
        shown, true, made, challenged, by_seat, declared = (
            self.shown, self.true, self.made, self.challenged, self.claims, self.declared)
        for claim in claims:
            seat, declaration = claim.seat, claim.declaration  # type: ignore[attr-defined]
            level = declaration.level
            made[level] += 1
            by_seat[seat] += 1
            declared[seat][level] += 1
            if type(claim) is Showdown:
                shown[seat] += 1
                true[seat] += claim.card.matches(declaration)
                challenged[level] += 1


class CounterKnowBot(KnowBot):
    """Counts cards, and bluffs when the table lets it.

    It knows where some cards are: its own hand, every scoring pile (the cards shown in
    showdowns end there), and the Interceptions and Wildcards discarded into the vault since
    it was last shuffled (read back from the settled claims and the vault's size). The other
    cards are unknown. From how many cards matching a declaration are unknown, against how
    many unknown cards the active player held, it tells how likely the active player could
    make that claim truthfully; it weighs that by how often the claimer's shown claims were
    true, over the whole match. It challenges when that pays against letting the claim
    stand (the declared level's round points, a token both ways, the two cards drawn after
    a wrong challenge; a last token is the match), intercepts only a claim very likely
    false, and always plays its Wildcard when it may. On its turn it weighs its best true
    declaration against declaring a higher level with its least useful card, by how often
    claims of that level have been challenged at this table.
    """

    name = "counter"
    about = "counts cards, reads players, bluffs when it pays"
    #: What another player's gain is worth to this seat (there are several to beat).
    others = 0.3
    #: What a token is worth, in round points, by how many this seat holds (a last token
    #: lost is the match lost).
    tokens = {1: 40.0, 2: 8.0}
    token = 5.0
    #: What each card drawn after a wrong challenge is worth (more cards, more choice).
    card = 0.5
    #: What keeping an Interception is worth: an interception must gain more than this.
    interception = 2.0
    #: How many shown claims the even guess (one claim in two true) is worth, against a
    #: claimer's record; and how many claims the first guess at a level's challenge rate
    #: (one in three) is worth.
    prior_weight, rate_weight = 3.0, 3.0
    #: How much of a game's record counts in the next (the last few games count most).
    fade = 0.5

    def __init__(self, seed: Seed | None = None) -> None:
        super().__init__(seed)
        self.record = Record()
        self.discards = Discards()
        #: The game being followed (its opener and first claim), its claims read so far, and
        #: the claims made when it last looked (fewer now: another game).
        self._game: tuple[int, Event | None] | None = None
        self._seen = self._turns = 0

    def remember(self, view: TableView) -> None:
        """Read the claims settled since it last looked into the match's record (following
        a new game from its start, and a game first seen half-way through from its first
        claim)."""
        claims, seen, known = view.record, self._seen, self._game
        first = claims[0] if claims else None
        if known is None or known[0] != view.opener or known[1] is not first:
            if known is None or known[0] != view.opener or (
                    known[1] is not None and known[1] != first):  # (a first claim is no new game)
                seen = len(claims) + 1  # (another game)
            self._game = (view.opener, first)
        if seen > len(claims) or self._turns > view.decision:
            if known is not None:
                self.record.fade(self.fade)
            seen = 0
        self._turns = view.decision
        if seen < len(claims):
            self.record.note(claims[seen:])
        self._seen = len(claims)

    # -- what is known ------------------------------------------------------------------

    def chance_true(self, view: TableView) -> float:
        """The chance that the waiting declaration is true, as far as this seat can tell."""
        declaration, active = view.declaration, view.active
        assert declaration is not None
        self.remember(view)
        known = _known(view, False, self.discards)
        deck = _deck(view.options)
        matching = sum(n for card, n in deck.items() if card.matches(declaration))
        unknown_matching = matching - sum(n for card, n in known.items()
                                          if card.matches(declaration))
        if unknown_matching <= 0:
            return 0.0
        held = view.hand_sizes[active] + 1  # the hand it chose its card from
        could = _any_of(unknown_matching, sum(deck.values()) - sum(known.values()), held)
        usual = _any_of(matching, sum(deck.values()), held)
        record = self.record
        shown, true = record.shown[active], record.true[active]
        honesty = (true + 0.5 * self.prior_weight) / (shown + self.prior_weight)
        odds = honesty / max(1e-9, 1 - honesty) * could / usual
        # Its style: a seat that declares this level more often than it could hold a card
        # for it cannot be telling the truth every time.
        often = (record.declared[active][declaration.level] + usual * self.prior_weight) \
            / (record.claims[active] + self.prior_weight)
        return min(odds / (1 + odds), could / max(often, could))

    def challenge_rate(self, level: int) -> float:
        """How often a claim of ``level`` has been challenged at this table."""
        record = self.record
        return (record.challenged[level] + self.rate_weight / 3) \
            / (record.made[level] + self.rate_weight)

    def token_worth(self, view: TableView, seat: int) -> float:
        """What ``seat`` losing a token is worth to it."""
        return self.tokens.get(view.tokens[seat], self.token)

    def worth(self, view: TableView, lie: float, cost: float = 0.0) -> float:
        """What challenging the waiting claim is worth to this seat against letting it
        stand, when it is a lie with chance ``lie`` (``cost``: what the challenge spends)."""
        me, active = view.seat, view.active
        assert me is not None and view.declaration is not None
        level = view.declaration.level
        gain = 2.0  # a token taken is worth less than one kept
        caught = (level + gain) * (1 + self.others) \
            + self.others * self.token_worth(view, active)
        wrong = self.token_worth(view, me) + self.others * gain - 2 * self.card
        return lie * caught - (1 - lie) * wrong - cost

    # -- deciding -----------------------------------------------------------------------

    def challenges(self, view: TableView) -> bool:
        return self.worth(view, 1 - self.chance_true(view)) > 0

    def intercepts(self, view: TableView) -> bool:
        chance = self.chance_true(view)
        if chance > 0.3:
            return False
        # A lie may still be saved by a Wildcard from the active player's hand.
        wildcards, unknown = self.wildcards_unknown(view)
        saved = _any_of(wildcards, unknown, view.hand_sizes[view.active])
        return self.worth(view, (1 - chance) * (1 - saved), self.interception) > 0

    def wildcards_unknown(self, view: TableView) -> tuple[int, int]:
        """How many Wildcards, and how many cards in all, this seat cannot place."""
        known = _known(view, False, self.discards)
        deck = _deck(view.options)
        wildcards = sum(n for card, n in deck.items() if card.kind is Kind.WILDCARD) \
            - sum(n for card, n in known.items() if card.kind is Kind.WILDCARD)
        return wildcards, sum(deck.values()) - sum(known.values())

    def wild(self, view: TableView) -> bool:
        return True  # it wins the showdown, which keeping the Wildcard would lose

    def turn(self, view: TableView) -> list[Action]:
        """The best of its true declarations (a Wildcard is true at any level) and a higher
        one made with its least useful card, by what each is worth if it stands, against
        what a challenge costs, at the rate this table challenges that level."""
        assert view.seat is not None
        self.remember(view)
        top = view.options.max_level
        public = _known(view, True, self.discards)
        deck = _deck(view.options)

        def believable(declaration: Declaration) -> int:  # matching cards others can't place
            return sum(n for card, n in deck.items() if card.matches(declaration)) \
                - sum(n for card, n in public.items() if card.matches(declaration))

        def declared(level: int) -> Declaration:
            return max((Declaration(level, kind) for kind in (Kind.TRUTH, Kind.BLUFF)),
                       key=believable)

        lose = self.token_worth(view, view.seat) + self.others * 2.0
        choices: list[tuple[float, Play]] = []
        plain = [card for card in view.hand if card.level is not None]
        wildcards = [card for card in view.hand if card.kind is Kind.WILDCARD]
        for card in plain:  # true: challenged, it wins a token too
            level = card.level or 1
            choices.append((level + self.challenge_rate(level) * 2.0,
                            Play(card, true_declaration(card))))
        if wildcards:
            choices.append((top + self.challenge_rate(top) * 2.0,
                            Play(wildcards[0], declared(top))))
        interceptions = [card for card in view.hand if card.kind is Kind.INTERCEPTION]
        spare = min(plain, key=lambda c: c.level or 0) if plain else \
            interceptions[0] if len(interceptions) > 1 or not wildcards else None
        if spare is not None:
            for level in range(1, top + 1):  # a lie: caught, it gives the level away
                rate = self.challenge_rate(level)
                worth = (1 - rate) * level - rate * (lose + self.others * level)
                if spare.level is None:
                    worth -= self.interception
                choices.append((worth, Play(spare, declared(level))))
        return [max(choices, key=lambda choice: choice[0])[1]]


@cache
def _deck(options: Options) -> Counter[Card]:
    """The deck's cards, and how many copies of each."""
    return Counter(options.cards())


@cache
def _one_of(options: Options, kind: Kind) -> Card:
    """A card of ``kind`` from the deck: which Interception or Wildcard went into the vault
    is not shown, and does not matter."""
    return next(card for card in options.cards() if card.kind is kind)


class Discards:
    """How many Interceptions and Wildcards lie in the vault, discarded since it was last
    shuffled, kept from one view of a game to the next.

    The vault holds the last of the cards added to it (as many as its size), and every
    addition is in the settled claims: a standing claim's card (unseen), an Interception and
    then a Wildcard for a showdown that used them. So the discards are those among the last
    ``vault`` additions. This reads each claim once, noting where among the additions each
    Interception and Wildcard came (few are), and counts those within the vault's size
    from the newest back (a game's claims only grow; other claims than the ones it read
    start it again).
    """

    def __init__(self) -> None:
        self._last: Event | None = None
        self._seen = self._showdowns = 0
        #: Each Interception's and Wildcard's place among the additions, and whether it is
        #: a Wildcard.
        self._marks: list[tuple[int, bool]] = []

    def __call__(self, view: TableView) -> tuple[int, int]:
        claims, seen = view.record, self._seen
        count = len(claims)
        if seen != count or (count and claims[-1] is not self._last):
            if seen > count or (seen and claims[seen - 1] is not self._last):
                seen, self._showdowns, self._marks = 0, 0, []
            marks, showdowns = self._marks, self._showdowns
            for number in range(seen, count):
                claim = claims[number]
                if type(claim) is Showdown:
                    showdowns += 1
                    if claim.intercept:  # (the additions before it: the claims that stood)
                        marks.append((number + 1 - showdowns + len(marks), False))
                    if claim.wild:
                        marks.append((number + 1 - showdowns + len(marks), True))
            self._seen, self._showdowns = count, showdowns
            self._last = claims[-1] if claims else None
        room, interceptions, wildcards = view.vault, 0, 0
        if view.phase is DECIDING and view.intercept:  # its Interception is already in
            room, interceptions = room - 1, 1
        marks = self._marks
        if marks and room > 0:
            first = count - self._showdowns + len(marks) - room  # the oldest still there
            for place, wild in reversed(marks):
                if place < first:
                    break
                if wild:
                    wildcards += 1
                else:
                    interceptions += 1
        return interceptions, wildcards


def vault_discards(view: TableView) -> tuple[int, int]:
    """How many Interceptions and Wildcards lie in the vault (:class:`Discards`), read from
    the whole of one view."""
    return Discards()(view)


def _known(view: TableView, public: bool,
           discards: Callable[[TableView], tuple[int, int]] = vault_discards) -> Counter[Card]:
    """The cards whose whereabouts the seat knows: every scoring pile, the Interceptions and
    Wildcards discarded into the vault since it was last shuffled (``discards``: a seat's
    own :class:`Discards`, kept from view to view), and (unless ``public``, what everybody
    knows) its own hand."""
    known: Counter[Card] = Counter(card for pile in view.piles for card in pile)
    if not public:
        known.update(view.hand)
    interceptions, wildcards = discards(view)
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
