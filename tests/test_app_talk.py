"""Table talk and the story of a game on the screen (docs/talk.md, docs/story.md): quick
words on one key, a line of one's own, the host's mutes, the story stepped through on the
results, and the player's record against this game. Real apps at a real table over
loopback, driven by Pilot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from apps import FrozenClock, host_app, join_app, start_match, wait_for
from drive_liarsdeck import LiarKeyPlayer
from textual.events import Paste
from textual.pilot import Pilot
from textual.widgets import Input

from doubtlan.net.record import Record
from doubtlan.rules.fairness import Verdict
from doubtlan.rules.liarsdeck import Lives
from doubtlan.rules.liarsdeck import Options as LiarOptions
from doubtlan.tui.app import DoubtApp
from doubtlan.tui.screens.message import MessageScreen
from doubtlan.tui.screens.story import StoryScreen
from doubtlan.tui.screens.talk import MuteScreen, TalkScreen
from doubtlan.tui.widgets.history import History
from doubtlan.tui.widgets.talk import SHOWN, TalkStrip

SIZE = (100, 30)


def strip(app: DoubtApp) -> str:
    assert app.play is not None
    talk = app.play.query_one(TalkStrip)
    return " ".join(str(line) for line in talk.texts) if talk.display else ""


def lines_heard(app: DoubtApp) -> list[str]:
    return [said.line for said in app.client.mirror.talk] if app.client else []


def frozen_host(**changes: object) -> tuple[DoubtApp, FrozenClock]:
    app = host_app(**changes)
    clock = FrozenClock()
    app.clock = clock
    return app, clock


async def test_a_quick_word_is_one_key_and_shows_for_a_few_seconds() -> None:
    app, clock = frozen_host()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby")
        await wait_for(pilot, lambda: app.client is not None and app.client.connected.is_set())
        await pilot.press("g")
        await wait_for(pilot, lambda: lines_heard(app) == ["Honest!"], "the line back")
        await wait_for(pilot, lambda: strip(app) == "Amy: Honest!", "the strip")
        clock.now += SHOWN + 0.1
        await wait_for(pilot, lambda: strip(app) == "", "the strip to go")
        # At the table, each key its words (the seat's allowance: 3 at once), and the
        # claims list keeps them.
        await start_match(pilot, app)
        await pilot.press("f", "h")
        want = ["Honest!", "Sure you do.", "Nice one"]
        await wait_for(pilot, lambda: lines_heard(app) == want, "the lines")
        await wait_for(pilot, lambda: strip(app) == "Amy: Nice one  (+1)", "the strip")
        history = app.play.query_one(History)  # type: ignore[union-attr]
        await wait_for(pilot, lambda: [str(row).strip() for row in history.rows()] == [
            "Amy: Sure you do.", "Amy: Nice one"], "the lines in the claims list")


async def test_talking_too_fast_is_refused_and_said(monkeypatch: pytest.MonkeyPatch) -> None:
    # (No line comes back to the allowance while the keys are pressed, however slowly a
    # busy machine presses them: the host's clock is the real one.)
    monkeypatch.setattr("doubtlan.net.table.talk.TALK_EVERY", 1e9)
    app, clock = frozen_host()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.play is not None and app.play.pane == "lobby")
        await wait_for(pilot, lambda: app.client is not None and app.client.connected.is_set())
        await pilot.press("g", "g", "g", "g", "g")
        await wait_for(pilot, lambda: app.client.mirror.error is not None, "the refusal")  # type: ignore[union-attr]
        assert app.client.mirror.error.code == "talk_too_fast"  # type: ignore[union-attr]
        assert lines_heard(app) == ["Honest!"] * 3
        assert any("too fast" in n.message for n in app._notifications)


async def test_a_line_of_ones_own_is_typed_after_t() -> None:
    app, clock = frozen_host()
    async with app.run_test(size=SIZE) as pilot:
        await start_match(pilot, app)
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TalkScreen), "the talk box")
        await pilot.press("escape")  # (changed one's mind: nothing said)
        await wait_for(pilot, lambda: not isinstance(app.screen, TalkScreen))
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TalkScreen), "the talk box")
        await pilot.press(*"Ben, you   never bluff?")
        await pilot.press("enter")
        await wait_for(pilot, lambda: lines_heard(app) == ["Ben, you never bluff?"], "the line")
        assert strip(app) == "Amy: Ben, you never bluff?"
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TalkScreen), "the talk box")
        app.screen.query_one(Input).post_message(Paste("x" * 100))  # (it takes 80 at most)
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(lines_heard(app)) == 2, "the long line")
        assert lines_heard(app)[-1] == "x" * 80


async def test_the_host_mutes_a_player_whom_nobody_then_hears() -> None:
    amy, clock = frozen_host(players=3, bots=1)
    async with amy.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: amy.hosted is not None and amy.play is not None
                       and amy.play.pane == "lobby", "Amy's lobby")
        assert amy.hosted is not None
        ben = join_app(amy.hosted)
        async with ben.run_test(size=SIZE) as ben_pilot:
            await wait_for(ben_pilot, lambda: ben.play is not None and ben.play.pane == "lobby"
                           and ben.client is not None and ben.client.connected.is_set())
            await ben_pilot.press("h")
            await wait_for(pilot, lambda: lines_heard(amy) == ["Nice one"], "Ben heard")
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(amy.screen, MuteScreen), "the mute list")
            names = [seat.name for seat in amy.screen.seats]  # type: ignore[attr-defined]
            assert names == ["Ada", "Ben"]  # (not Amy herself)
            await pilot.press("down", "enter")
            await wait_for(ben_pilot, lambda: ben.client.mirror.table.seats[2].muted,  # type: ignore[union-attr]
                           "Ben told he is muted")
            await ben_pilot.press("g")
            await wait_for(ben_pilot, lambda: ben.client.mirror.error is not None  # type: ignore[union-attr]
                           and ben.client.mirror.error.code == "muted", "the refusal")
            assert [s.line for s in amy.hosted.table.talk] == ["Nice one"]  # (not relayed)
            assert lines_heard(amy) == ["Nice one"]
            # Heard again.
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(amy.screen, MuteScreen), "the mute list")
            assert "muted" in str(amy.screen.query_one("#mute-seats").get_option_at_index(1).prompt)  # type: ignore[attr-defined]
            await pilot.press("down", "enter")
            await wait_for(ben_pilot, lambda: not ben.client.mirror.table.seats[2].muted,  # type: ignore[union-attr]
                           "Ben unmuted")
            await ben_pilot.press("j")
            await wait_for(pilot, lambda: lines_heard(amy) == ["Nice one", "Hurry up"])


@asynccontextmanager
async def watching(pilot: Pilot[Any], amy: DoubtApp) -> AsyncIterator[tuple[DoubtApp,
                                                                          Pilot[Any]]]:
    """Zed, watching Amy's table from an app of his own."""
    await wait_for(pilot, lambda: amy.hosted is not None and amy.play is not None
                   and amy.play.pane == "lobby", "Amy's lobby")
    assert amy.hosted is not None
    zed = join_app(amy.hosted, name="Zed", watch=True)
    async with zed.run_test(size=SIZE) as zed_pilot:
        await wait_for(zed_pilot, lambda: zed.play is not None and zed.client is not None
                       and zed.client.mirror.table is not None, "Zed watching")
        yield zed, zed_pilot


async def test_a_watcher_hears_the_table_and_cannot_talk() -> None:
    amy, _ = frozen_host()
    async with amy.run_test(size=SIZE) as pilot, watching(pilot, amy) as (zed, zed_pilot):
        assert zed.play is not None and zed.play.check_action("talk", ()) is False
        await zed_pilot.press("t", "g")
        await zed_pilot.pause()
        assert not isinstance(zed.screen, TalkScreen) and zed.client.mirror.error is None  # type: ignore[union-attr]
        assert amy.hosted is not None and not amy.hosted.table.talk
        await pilot.press("f")
        await wait_for(zed_pilot, lambda: lines_heard(zed) == ["Sure you do."], "heard")


# -- the story ---------------------------------------------------------------------------


def short_game() -> DoubtApp:
    """A host's app for a short game: Liar's Deck, one life each."""
    return host_app(seed=4, game="liarsdeck", options=LiarOptions(lives=Lives.ONE))


async def played_to_the_end(pilot: object, app: DoubtApp) -> None:
    await start_match(pilot, app)  # type: ignore[arg-type]
    await LiarKeyPlayer(pilot, app).play_game()  # type: ignore[arg-type]
    await wait_for(pilot, lambda: app.client.mirror.verdicts, "the deal's check")  # type: ignore[arg-type,union-attr]


async def test_r_steps_through_the_story_of_the_game(tmp_path: Path) -> None:
    record = Record(tmp_path / "record.jsonl")
    app = short_game()
    app.record = record
    async with app.run_test(size=SIZE) as pilot:
        await played_to_the_end(pilot, app)
        mirror = app.client.mirror  # type: ignore[union-attr]
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, StoryScreen), "the story")
        screen = app.screen
        assert isinstance(screen, StoryScreen)
        story = mirror.story(mirror.game_number)
        assert not isinstance(story, str) and screen.story == story
        assert screen.index == 0 and f"claimed {story.steps[0].told.said}" in str(
            screen.query_one("#told").render())
        await pilot.press("right", "right")
        assert screen.index == 2
        told = story.steps[2].told
        shown = str(screen.query_one("#told").render())
        assert f"claimed {told.said}" in shown
        assert ("a lie" if told.held is False else "true") in shown
        await pilot.press("end")
        assert "won the game" in str(screen.query_one("#told").render())
        await pilot.press("left")
        assert screen.index == len(story.steps) - 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, StoryScreen), "back")
        # The game went into the record, and the results show it against the average.
        entries, notes = record.load()
        assert len(entries) == 1 and not notes and entries[0].seat == 0
        assert "You, this game:" in str(app.play.query_one("#results").render())  # type: ignore[union-attr]


async def test_a_game_whose_deal_did_not_verify_is_not_told() -> None:
    app = short_game()
    async with app.run_test(size=SIZE) as pilot:
        await played_to_the_end(pilot, app)
        mirror = app.client.mirror  # type: ignore[union-attr]
        mirror.verdicts[mirror.game_number] = Verdict(("card 3 was shown as 7H, but the "
                                                       "deal gives 7S",))
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, MessageScreen), "why not")
        text = str(app.screen.query_one("#message").render())
        assert "only of a game whose deal verified" in text and "7S" in text



async def test_a_watcher_is_told_the_same_story() -> None:
    amy = short_game()
    async with amy.run_test(size=SIZE) as pilot, watching(pilot, amy) as (zed, zed_pilot):
        await played_to_the_end(pilot, amy)
        await wait_for(zed_pilot, lambda: zed.play.pane == "results"  # type: ignore[union-attr]
                       and zed.client.mirror.verdicts, "Zed's results")  # type: ignore[union-attr]
        await zed_pilot.press("r")
        await wait_for(zed_pilot, lambda: isinstance(zed.screen, StoryScreen), "the story")
        mine = amy.client.mirror.story(1)  # type: ignore[union-attr]
        assert not isinstance(mine, str)
        assert zed.screen.story == mine and zed.screen.me is None  # type: ignore[attr-defined]
