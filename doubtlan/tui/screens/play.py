"""The screen at the table: the lobby, the game and the results, one after another, all
drawn from what this player's client was sent."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Static

from ...net.client import Mirror
from ...net.messages import Message, TableInfo
from ...rules import Announce, Doubt, Lay, LetStand, Phase
from ...rules.idoubtit import TableView
from ..cards import cards_text
from ..widgets.hand import Hand
from ..widgets.history import History
from ..widgets.keys import KeyLine
from ..widgets.lobby import Lobby
from ..widgets.players import Players
from ..widgets.prompt import Prompt
from ..widgets.rank import RankBanner
from ..widgets.results import Results
from ..widgets.titlebar import TitleBar

if TYPE_CHECKING:
    from ..app import DoubtApp, Seen

#: Seconds the title bar says "Your turn" for, when a turn begins.
TURN_NOTICE = 3.0
#: Seconds at the start of a window in which a doubt is ignored (a slip of the finger).
DOUBT_GUARD = 0.5


class PlayScreen(Screen[None]):
    """Lobby, table or results, as the table's state says."""

    BINDINGS = [
        Binding("left", "move(-1)", "Card", show=False),
        Binding("right", "move(1)", "Card", show=False),
        Binding("enter", "lay", "Lay card"),
        Binding("a", "announce", "Announce"),
        Binding("d", "doubt", "Doubt"),
        Binding("p", "stand", "Let stand"),
        Binding("b", "add_bot", "Add bot"),
        Binding("x", "remove_bot", "Remove bot"),
        Binding("o", "options", "Options"),
        Binding("s", "start", "Start"),
        Binding("n", "next_game", "Next game"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.mirror: Mirror | None = None
        self.seen: Seen | None = None
        self.pane = "waiting"
        self._my_turn = False
        self._notice_until = 0.0
        self._mounted = False

    @property
    def doubt_app(self) -> DoubtApp:
        from ..app import DoubtApp

        app = self.app
        assert isinstance(app, DoubtApp)
        return app

    def compose(self) -> ComposeResult:
        yield TitleBar(id="titlebar")
        yield Static("", id="connection")
        with ContentSwitcher(initial="waiting", id="panes"):
            yield Static("Connecting to the table...", id="waiting")
            yield Lobby(id="lobby")
            with Horizontal(id="table"):
                with Vertical(id="left"):
                    yield Players()
                    with Horizontal(id="middle"):
                        yield RankBanner()
                        yield Prompt()
                    yield Hand(ascii=self.doubt_app.ascii)
                yield History(id="history")
            yield Results(id="results")
        yield KeyLine()

    def on_mount(self) -> None:
        self.set_interval(0.1, self._tick)
        self._mounted = True
        if self.mirror is not None and self.seen is not None:
            self.show(self.mirror, self.seen)  # what arrived before the screen was up

    def on_unmount(self) -> None:
        self._mounted = False

    # -- drawing -------------------------------------------------------------------------

    def show(self, mirror: Mirror, seen: Seen, message: Message | None = None) -> None:
        """Draw what ``mirror`` knows (called after every message from the host)."""
        self.mirror, self.seen = mirror, seen
        if not self._mounted:
            return  # on_mount draws it
        info, view = mirror.table, mirror.view
        connection = self.query_one("#connection", Static)
        if seen.reconnecting:
            connection.update(Text(" Connection lost. Reconnecting... ", style="bold reverse red"))
            connection.display = True
        else:
            connection.display = False
        if info is None:
            return
        app = self.doubt_app
        seat = mirror.seat
        who = "watching" if seat is None else f"you are {mirror.name}"
        title = Text(f" {info.name}", style="bold")
        title.append(f" · {who}" + (", hosting" if app.is_host else ""))
        if info.game_number:
            title.append(f" · game {info.game_number}" + (f" of {info.games}" if info.games
                                                           else ""))
        self.query_one(TitleBar).show(title)
        view = cast(TableView | None, view)  # (the app plays I Doubt It's views here)
        if view is not None and view.winner is not None and info.state != "lobby":
            pane = "results"
            self.query_one(Results).show(
                view, info, seen.won, is_host=app.is_host,
                over=info.state == "over" or mirror.bye is not None,
                verdict=mirror.verdicts.get(mirror.game_number),
            )
        elif view is not None and info.state != "lobby":
            pane = "table"
            self._show_table(view, info, seen)
        else:
            pane = "lobby"
            hosted = app.hosted
            self.query_one(Lobby).show(
                info, seat, addresses=app.join_addresses(),
                pin=hosted.table.config.pin if hosted else None, is_host=app.is_host,
                connected_to="{}:{}".format(*app.address) if app.address else "",
            )
        if pane != self.pane:
            self.pane = pane
            if pane != "table":
                self.query_one(TitleBar).tell("")
            self.query_one("#panes", ContentSwitcher).current = pane
            if pane == "lobby":
                self.query_one(Lobby).seats.focus()
            elif pane == "table":
                self.query_one(Hand).focus()
            else:
                self.set_focus(None)
        self._show_keys()

    def _show_keys(self) -> None:
        """The key line: this screen's keys that do something now, then the app's."""
        app = self.doubt_app
        bindings = [b for b in self.BINDINGS if isinstance(b, Binding) and b.show
                    and self.check_action(b.action.partition("(")[0], ())]
        bindings += [b for b in app.BINDINGS if isinstance(b, Binding) and b.show]
        self.query_one(KeyLine).show(tuple(
            (app.get_key_display(b), b.description, b.key) for b in bindings))

    def _show_table(self, view: TableView, info: TableInfo, seen: Seen) -> None:
        names = {s.seat: s.name or f"seat {s.seat}" for s in info.seats}
        self.query_one(Players).show(view, info)
        # A claim being judged lies on the pile: whoever loses the doubt takes both.
        waiting = view.claim.count if view.claim is not None else 0
        self.query_one(RankBanner).show(view.rank, view.pile + waiting)
        self.query_one(History).show(seen.game_number, view.claims, names)
        laying = view.my_turn and bool(view.my_laid)
        self.query_one(Hand).show(view.hand, view.my_laid if laying else (),
                                  seated=view.seat is not None)
        self._say(view, info, seen, names)
        my_turn = view.my_turn
        if my_turn and not self._my_turn:
            self.app.bell()
            self.query_one(TitleBar).tell("Your turn")
            self._notice_until = self.doubt_app.clock() + TURN_NOTICE
        elif not my_turn:
            self.query_one(TitleBar).tell("")
        self._my_turn = my_turn

    def _say(self, view: TableView, info: TableInfo, seen: Seen, names: dict[int, str]) -> None:
        prompt = self.query_one(Prompt)
        claim, claimer = view.claim, view.claimer
        who = names.get(claimer, "?") if claimer is not None else "?"
        if claim is not None and view.phase is Phase.WINDOW and view.seat in view.awaiting \
                and view.my_answer is None:
            text = Text(f"{who} claims {claim.describe()}", style="bold")
            text.append("\nd doubts, p lets it stand", style="dim")
            prompt.say(text, ask=True)
            self._tick()
            return
        if claim is not None and view.can(Doubt):  # open mode: call before the next card
            text = Text(f"{who} claims {claim.describe()}", style="bold")
            text.append("\nd calls it, until the next card is laid", style="dim")
            prompt.say(text, call=True)
            return
        last = view.claims[-1] if view.claims else None
        if claim is None and last is not None and last == seen.reveal:
            doubter = "You" if last.doubter == view.seat else names.get(last.doubter or 0, "?")
            whose = "your" if last.seat == view.seat else f"{names.get(last.seat)}'s"
            text = Text(f"{doubter} doubted {whose} {last.claim.describe()}:\n",
                        style="bold")
            text.append_text(cards_text(last.shown or (), self.doubt_app.ascii))
            taker = "You take" if last.taker == view.seat else f"{names.get(last.taker or 0)} takes"
            verdict = "True!" if last.honest else "A bluff!"
            cards = f"{last.taken} card{'s' if last.taken != 1 else ''}"
            text.append(f"\n{verdict} {taker} the pile ({cards}).",
                        style="yellow" if last.honest else "bold red")
            if view.my_turn:
                text.append("\nYour turn: ", style="bold yellow")
                text.append(f"lay {view.rank.plural()} (enter), then announce (a).")
        elif claim is not None and view.phase is Phase.WINDOW:
            text = Text(f"{who} claims {claim.describe()}", style="bold")
            waiting = [names.get(s, "?") for s in view.awaiting if s != view.seat]
            if view.my_answer is not None:
                text.append("\nyou " + ("doubted" if view.my_answer else "let it stand"))
            if waiting:
                text.append("\nwaiting for " + ", ".join(waiting), style="dim")
        elif view.my_turn:
            text = Text("Your turn. ", style="bold yellow")
            text.append(f"Lay 1 to {view.options.max_claim} cards as {view.rank.plural()} "
                        "(enter), then announce (a).")
        else:
            text = Text(f"{names.get(view.turn, '?')} is laying ({view.laid} so far).")
        if claim is not None and claimer != view.seat and view.phase is Phase.LAYING:
            text.append(f"\n{who} claimed {claim.describe()}", style="dim")
        prompt.say(text)

    def _tick(self) -> None:
        """Run the window's countdown bar; end the turn's notice when its time is up."""
        seen, mirror = self.seen, self.mirror
        if seen is None or mirror is None or mirror.table is None:
            return
        if self.doubt_app.clock() >= self._notice_until:
            self.query_one(TitleBar).tell("")
        prompt = self.query_one(Prompt)
        if prompt.has_class("ask"):
            total = mirror.table.window
            left = total - (self.doubt_app.clock() - seen.window_since)
            prompt.countdown(left, total)

    # -- keys and clicks -----------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        app = self.doubt_app
        view = self.mirror.view if self.mirror else None
        info = self.mirror.table if self.mirror else None
        connected = self.seen is None or not self.seen.reconnecting
        at_table = self.pane == "table" and view is not None and connected
        if action in ("move", "lay"):
            return at_table and view is not None and view.can(Lay)
        if action == "announce":
            return at_table and view is not None and view.can(Announce)
        if action == "doubt":
            return at_table and view is not None and view.can(Doubt)
        if action == "stand":
            return at_table and view is not None and view.can(LetStand)
        lobby = self.pane == "lobby" and app.is_host and info is not None \
            and info.state == "lobby"
        if action in ("add_bot", "remove_bot", "options", "start"):
            return lobby
        if action == "next_game":
            return app.is_host and info is not None and info.state == "between" \
                and self.pane == "results"
        return True

    def action_move(self, step: int) -> None:
        self.query_one(Hand).move(step)

    async def action_lay(self) -> None:
        card = self.query_one(Hand).card
        if card is not None:
            await self.doubt_app.act(f"lay {card.code}")

    async def on_hand_chosen(self, event: Hand.Chosen) -> None:
        hand = self.query_one(Hand)
        hand.cursor = event.index
        if event.lay and self.check_action("lay", ()):
            await self.action_lay()

    async def action_announce(self) -> None:
        await self.doubt_app.act("announce")

    async def action_doubt(self) -> None:
        seen = self.seen
        if seen is not None and self.doubt_app.clock() - seen.window_since < DOUBT_GUARD:
            return  # too soon after the claim to be meant
        await self.doubt_app.act("doubt")

    async def action_stand(self) -> None:
        await self.doubt_app.act("stand")

    def action_add_bot(self) -> None:
        self.doubt_app.command(lambda hosted: hosted.host.add_bot())

    def action_remove_bot(self) -> None:
        info = self.mirror.table if self.mirror else None
        row = self.query_one(Lobby).seats.cursor_row
        if info is None or not 0 <= row < len(info.seats) or not info.seats[row].bot:
            self.notify("Select a bot's seat to remove it.", severity="warning")
            return
        self.doubt_app.command(lambda hosted: hosted.host.remove_bot(row))

    def action_options(self) -> None:
        from .options import OptionsScreen

        hosted = self.doubt_app.hosted
        if hosted is not None:
            self.app.push_screen(OptionsScreen(hosted.table.config))

    def action_start(self) -> None:
        self.doubt_app.command(lambda hosted: hosted.host.start_match())

    def action_next_game(self) -> None:
        self.doubt_app.command(lambda hosted: hosted.host.next_game())
