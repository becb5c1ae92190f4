"""I Know You Don't's table: the players, the prompt and your hand with its declaration on
the left; the pot, draw pile and vault over the claims on the right; and the game's keys
(play as declared; pass, accept, challenge; intercept; Wildcard or keep)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from ....net.messages import TableInfo
from ....rules import Action, Event
from ....rules.iknowyoudont import (
    Accept,
    Card,
    Challenge,
    Declaration,
    Ended,
    Intercept,
    Keep,
    Kind,
    Pass,
    Phase,
    Play,
    Showdown,
    Stood,
    TableView,
    Wild,
)
from ...client_state import ClientState
from ...widgets.gametable import GameTable, KeyEntry
from ...widgets.prompt import Answer
from ...words import cap
from .cards import declaration_text
from .centre import Centre
from .hand import KnowHand
from .history import KnowHistory
from .players import KnowPlayers
from .prompt import ACCEPT, CHALLENGE, INTERCEPT, KEEP, PASS, WILD, KnowPrompt
from .results import KnowResults
from .scorepad import KnowScorepad

RULES = """\
# I Know You Don't

A match is played in **rounds** (5 unless the host chose otherwise). Each player holds
**5 cards**, dealt again every round, and **3 credibility tokens** for the whole match.
The deck has Truth cards
(**T1** to **T6**), Bluff cards (**B1** to **B6**), Interceptions (**I**) and Wildcards
(**W**); with the standard deck, levels go to 10 (red A-10 Truth, black A-10 Bluff, jacks
and queens Interceptions, kings Wildcards).

On your turn lay **one card** face down and **declare** a level and Truth or Bluff:
"level 3 Truth". You may lie, with any card.

Then **priority** goes round from the next player: **pass** (it moves on), **accept** (the
claim stands) or **challenge**. If all pass, the claim stands: you score its **declared
level** in round points, true or not, the card goes to the **vault** unseen and you draw a
card. Anyone else holding an **Interception** may discard it and **intercept** (challenge
ahead of the player with priority), passed or not.

A challenge shows the card. A Wildcard always matches; another card matches when its level
and type are the ones declared. A lie: the challenger scores the declared level and you pay
a token. True: you score it, and the challenger pays a token and draws two. The winner
takes the token from the **pot**. Intercepted with a card that does not match, you may
discard a **Wildcard** to make it count as matching, or **keep** it and lose.

Hands fill up to 5 from the **draw pile** (the vault is shuffled in when it runs out). A
round is 32 claims (in whole turns round the table). At its end the **scorepad** gives
**victory points**: 5 for the most round points, 3 for the second, 1 for the third. The
match ends when a player has **15 victory points** and more than anyone, when a player
loses their **last token** (they lose), or after the last round (a tie plays up to 3 more
rounds).

On screen: **▶** is the active player, **◆** holds priority; hand, tokens (tok), this
round's points (pts) and victory points (vp) are each player's; the table box shows the
round, the pot, the draw pile, the vault and the declaration waiting; the scorepad each
round's victory points; in the claims list **i** marks an interception.

# Keys

| key | at the table |
|---|---|
| left, right | move along your hand (Home, End: its first and last card) |
| up, down, 1-9, 0 | the level to declare (0 is 10) |
| y, b | declare Truth ("yes, true"), Bluff (t talks) |
| enter | play the card under the cursor as declared (until you choose, its truth) |
| p, a, c | with priority: pass, accept, challenge (none in its first half second) |
| i | intercept with an Interception card |
| w, k | intercepted: play your Wildcard, or keep it |
"""


class KnowTable(GameTable):
    """The table of I Know You Don't."""

    game = "iknowyoudont"
    rules = RULES
    TALK_NOTE = "Looking for Truth? It is y at the table (t is for talk)."
    #: The rounds whose end this screen has told (None: it has not drawn the match yet).
    _rounds_told: int | None = None

    PLAYERS, PROMPT, HAND, RESULTS = KnowPlayers, KnowPrompt, KnowHand, KnowResults
    HISTORY, ABOVE, ENDED = KnowHistory, (Centre, KnowScorepad), Ended
    # (The declaration may be made ready before the turn comes.)
    READY = ("move", "move_to", "level", "set_level", "kind")
    MOVES: ClassVar[dict[str, type[Action]]] = {"play": Play}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "level(1)", "Level", show=False),
        Binding("down", "level(-1)", "Level", show=False),
        *(Binding(str(n % 10), f"set_level({n})", f"Level {n}", show=False)
          for n in range(1, 11)),
        Binding("y", "kind('T')", "Truth", show=False),  # (t: table talk, every game's)
        Binding("b", "kind('B')", "Bluff", show=False),
        Binding("enter", "play", "Play", show=False),
        Binding("p", "answer('pass')", "Pass", show=False),
        Binding("a", "answer('accept')", "Accept", show=False),
        Binding("c", "answer('challenge')", "Challenge", show=False),
        Binding("i", "answer('intercept')", "Intercept", show=False),
        Binding("w", "answer('wild')", "Wildcard", show=False),
        Binding("k", "answer('keep')", "Keep", show=False),
    ]

    #: Each answer's action kind.
    ANSWERS: ClassVar[dict[str, type[Action]]] = {
        "pass": Pass, "accept": Accept, "challenge": Challenge, "intercept": Intercept,
        "wild": Wild, "keep": Keep,
    }

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, view: TableView, info: TableInfo, seen: ClientState) -> None:
        names = self.names()
        self.query_one(Centre).show(view, names)
        self.query_one(KnowScorepad).show(view, info)
        self._round_end(view, names)
        self.query_one(KnowHand).show(view.hand, max_level=view.options.max_level,
                                      seated=view.seat is not None,
                                      playing=view.can(Play))
        self._say(view, names)

    def _round_end(self, view: TableView, names: dict[int, str]) -> None:
        """Tell the end of a round as it comes (not those ended before this screen saw the
        match)."""
        ended = len(view.awards)
        seen, self._rounds_told = self._rounds_told, ended
        if seen is None or ended <= seen:
            return
        self.notify(self.round_summary(view, names, ended), title=f"Round {ended} is over",
                    timeout=8)

    @staticmethod
    def round_summary(view: TableView, names: dict[int, str], number: int) -> str:
        """Round ``number``'s round points and the victory points they gave, in a line."""
        points, awards = view.pad[number - 1], view.awards[number - 1]
        order = sorted(range(view.players), key=lambda s: -points[s])

        def name(seat: int) -> str:
            return "you" if seat == view.seat else names.get(seat, "?")

        return "; ".join(f"{cap(name(s)) if i == 0 else name(s)} {points[s]}"
                         + (f" (+{awards[s]} vp)" if awards[s] else "")
                         for i, s in enumerate(order)) + "."

    def _say(self, view: TableView, names: dict[int, str]) -> None:
        me = view.seat

        def name(seat: int | None) -> str:
            return "you" if seat == me else names.get(seat if seat is not None else -1, "?")

        phase = view.phase
        answers: tuple[Answer, ...] = ()
        ask = False
        text = Text()
        if phase is Phase.PRIORITY and view.declaration is not None:
            answers, ask = _priority(text, view, view.declaration, name)
        elif phase is Phase.DECIDING and view.shown is not None:
            answers, ask = _deciding(text, view, view.shown, name)
        elif phase is Phase.PLAYING:
            self._playing(text, view, names, name)
        else:
            winner = view.winner
            text.append("The game is over." if winner is None else
                        f"{cap(name(winner))} won.", style="bold")
        self.query_one(KnowPrompt).say(text, answers, ask=ask)
        if ask:
            self.tick(self.clock())

    def _playing(self, text: Text, view: TableView, names: dict[int, str],
                 name: Callable[[int | None], str]) -> None:
        """A card to play: whose turn, and how the last claim ended (at a round's start,
        how the last round ended)."""
        if view.my_turn:
            text.append("Your turn. ", style="bold yellow")
            text.append("Choose a card, a level and Truth or Bluff, then play it (enter).")
        else:
            text.append(f"{cap(name(view.active))} is to play a card.")
        last = view.record[-1] if view.record else None
        if view.round_claims == 0 and view.pad:
            text.append(f"\nRound {view.round} begins. Round {len(view.pad)}: ",
                        style="dim")
            text.append(self.round_summary(view, names, len(view.pad)), style="dim")
        elif last is not None:
            text.append("\n")
            text.append_text(self._told(last, name))

    def _told(self, record: Event, name: Callable[[int | None], str]) -> Text:
        """How the last claim ended, in a sentence."""
        if isinstance(record, Stood):
            text = Text(f"{cap(name(record.seat))} declared "
                        f"{record.declaration.describe()}: ", style="dim")
            text.append("accepted." if record.by is not None else "it stood.", style="dim")
            return text
        assert isinstance(record, Showdown)
        how = "intercepted" if record.intercept else "challenged"
        whose = "your" if name(record.seat) == "you" else f"{name(record.seat)}'s"
        text = Text(f"{cap(name(record.challenger))} {how} {whose} "
                    f"{record.declaration.describe()}: {record.card.describe()}. ")
        if record.lie:
            text.append("A lie!", style="bold red")
        else:
            text.append("A Wildcard made it true!" if record.wild else "True!", style="yellow")
        text.append(f" {cap(name(record.winner))} scored it.")
        return text

    # -- what the app follows --------------------------------------------------------------


    # -- keys and clicks -------------------------------------------------------------------

    def keys(self) -> list[KeyEntry]:
        view = self.view
        if not self.live or view is None:
            return []
        keys: list[KeyEntry] = []
        if view.can(Play):
            keys += [("←→", "Card", "right"), ("↑↓", "Level", "up"), ("y", "Truth", "y"),
                     ("b", "Bluff", "b"), ("⏎", "Play", "enter")]
        for key, label, kind in (("p", "Pass", "pass"), ("a", "Accept", "accept"),
                                 ("c", "Challenge", "challenge"), ("i", "Intercept", "intercept"),
                                 ("w", "Wildcard", "wild"), ("k", "Keep", "keep")):
            if view.can(self.ANSWERS[kind]):
                keys.append((key, label, key))
        return keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "answer":
            kind = self.ANSWERS.get(str(parameters[0])) if parameters else None
            return kind is not None and self.can(kind)
        return super().check_action(action, parameters)

    def action_level(self, step: int) -> None:
        hand = self.query_one(KnowHand)
        hand.choose_level(hand.level + step)

    def action_set_level(self, level: int) -> None:
        self.query_one(KnowHand).choose_level(level)

    def action_kind(self, code: str) -> None:
        self.query_one(KnowHand).choose_kind(Kind(code))

    def action_play(self) -> None:
        hand = self.query_one(KnowHand)
        card = hand.card
        if card is not None:
            self.act(f"play {card.code} {hand.declaration.code}")

    def on_know_hand_play(self, event: KnowHand.Play) -> None:
        if self.check_action("play", ()):
            self.action_play()

    def action_answer(self, kind: str) -> None:
        if not self.guarded():  # (too soon after the claim, or the priority, to be meant)
            self.act(kind)


def _priority(text: Text, view: TableView, declaration: Declaration,
              name: Callable[[int | None], str]) -> tuple[tuple[Answer, ...], bool]:
    """The declaration waiting and who has priority (yours: pass, accept or challenge?),
    and an interception you may make; the answers, and whether the table asks you."""
    answers: tuple[Answer, ...] = ()
    ask = False
    text.append(f"{cap(name(view.active))} declared ", style="bold")
    text.append_text(declaration_text(declaration))
    text.stylize("bold")
    if view.my_card is not None:
        text.append(f" (your card: {view.my_card.describe()})", style="dim")
    if view.priority == view.seat:
        text.append("\nYour priority: pass, accept or challenge?", style="bold yellow")
        answers, ask = (PASS, ACCEPT, CHALLENGE), True
    else:
        text.append(f"\n{cap(name(view.priority))} has priority")
        passed = [name(s) for s in view.passed]
        if passed:
            text.append(f"; passed: {', '.join(passed)}", style="dim")
        text.append(".")
    if view.can(Intercept):
        text.append("\nYou hold an Interception: i intercepts.", style="dim")
        answers += (INTERCEPT,)
    return answers, ask


def _deciding(text: Text, view: TableView, shown: Card,
              name: Callable[[int | None], str]) -> tuple[tuple[Answer, ...], bool]:
    """An intercepted or challenged claim whose card did not match, and the Wildcard's
    question; the answers, and whether the table asks you."""
    active = name(view.active)
    how = "intercepted" if view.intercept else "challenged"
    whose = "your" if view.active == view.seat else f"{active}'s"
    text.append(f"{cap(name(view.challenger))} {how} {whose} claim: ",
                style="bold")
    text.append(f"{shown.describe()}, no match.", style="bold red")
    if view.can(Wild):  # (two lines of at most 44 cells: the prompt at 80x24)
        text.append("\nPlay your Wildcard to count as true?",
                    style="bold yellow")
        return (WILD, KEEP), True
    text.append(f"\n{cap(active)} may play a Wildcard to make it count.")
    return (), False
