"""The story told of a journal (``doubtlan replay``) and the player's record (net/record.py,
``doubtlan stats``), on journals and records these tests make."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from games import SPECS

from doubtlan.cli import main
from doubtlan.net.journal import Journal, read
from doubtlan.net.record import FIGURES, Entry, Record, averages, entry
from doubtlan.net.stories import stories
from doubtlan.net.table import Table, TableConfig
from doubtlan.rules import game_named
from doubtlan.rules.story import Story, figures
from doubtlan.tui.screens.story import StoryApp, StoryScreen
from doubtlan.tui.widgets.titlebar import TitleBar


def bots_journal(path: Path, game: str = "idoubtit", games: int = 2,
                 stop_after: int | None = None) -> Table:
    """A journal of a match between bots (closed; or, after ``stop_after`` actions of its
    last game, left as a host stopped mid-game leaves it)."""
    spec = SPECS[game]
    table = Table(TableConfig(players=3, games=games, seed=None, next_game_delay=0.0,
                              bot_delay=1.0, game=game, options=spec.options),
                  Journal.create(path))
    for _ in range(3):
        table.seat_bot("counter")
    now = 0.0
    table.start(now)
    while table.state != "over":
        if stop_after is not None and table.match.games == games \
                and len(table.played) >= stop_after:
            break
        now += 1.0
        table.tick(now)
        table.take_outbox()
    assert table.journal is not None
    table.journal.close(closed=stop_after is None, why="over")
    return table


@pytest.mark.parametrize("game", sorted(SPECS))
def test_replay_tells_every_game_of_a_journal(game: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.journal"
    bots_journal(path, game)
    told, problems = stories(path)
    assert not problems and [t.number for t in told] == [1, 2]
    assert all(t.story is not None and t.story.over for t in told)
    names = told[0].names
    assert sorted(names.values()) == ["Ada", "Bex", "Cal"]
    assert main(["replay", str(path), "--text"]) == 0
    out = capsys.readouterr().out
    kind = game_named(game)
    words = kind.words  # (a "match" of I Know You Don't, "challenged", Skull's "bid"...)
    steps = [step for t in told if t.story is not None for step in t.story.steps]
    # Claims challenged and claims that stood, where the game's words have a challenge; in a
    # game whose words have none (a bid, turned by its bidder), nobody tests another's.
    assert {step.told.by is not None for step in steps} == \
        ({True, False} if words.challenge else {False})
    for story in (t.story for t in told):
        assert story is not None
        assert f"{words.game} {story.number} " \
               f"({words.count(len(story.steps), words.claim, words.claims)})" in out
        for step in story.steps:
            truth, how = kind.verdict(step.told, names)
            assert f"{words.claim} {step.number}: {names[step.told.seat]} {words.claimed} " \
                   f"{step.told.said}; really {' '.join(map(str, step.told.shown or ()))}: " \
                   f"{truth}; {how}." in out
    if words.challenge:
        assert f"nobody {words.challenged}: it stood" in out
    assert main(["replay", str(path), "--text", "--game", "2"]) == 0
    assert f"{words.game} 1 (" not in capsys.readouterr().out


def test_a_game_the_journal_cut_short_or_that_does_not_verify_is_not_told(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = tmp_path / "cut.journal"
    bots_journal(cut, stop_after=10)
    told, _ = stories(cut)
    assert told[0].story is not None
    assert told[1].story is None and told[1].why == "the journal stops before it ended"
    assert main(["replay", str(cut), "--text"]) == 0
    assert "game 2 is not told: the journal stops before it ended" in capsys.readouterr().out
    # A journal whose first game was dealt from another secret than the one committed to.
    good = tmp_path / "good.journal"
    bots_journal(good)
    forged = tmp_path / "forged.journal"
    journal = Journal.create(forged)
    for record in read(good).records:
        if record["t"] == "deal" and record["game"] == 1:
            record = {**record, "secret": bytes(32)}
        journal.append(record)
    journal.close(closed=False)
    told, _ = stories(forged)
    assert told[0].story is None and "did not verify" in (told[0].why or "") \
        and "game 1" in (told[0].why or "")
    assert told[1].story is not None
    assert main(["replay", str(forged), "--text", "--game", "1"]) == 1
    assert "game 1 is not told: it did not verify" in capsys.readouterr().err


def test_replay_refuses_what_is_not_a_journal(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "none.journal")]) == 1
    assert "no journal at" in capsys.readouterr().err
    junk = tmp_path / "junk.journal"
    junk.write_bytes(b"not a journal at all")
    assert main(["replay", str(junk), "--text"]) == 1
    assert "is not a doubtlan journal" in capsys.readouterr().err


async def test_the_replay_app_steps_through_a_journals_game(tmp_path: Path) -> None:
    path = tmp_path / "match.journal"
    bots_journal(path, "liarsdeck", games=1)
    told, _ = stories(path)
    story = told[0].story
    assert story is not None
    app = StoryApp(story, told[0].names, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StoryScreen)
        await pilot.press("right", "right", "left")
        assert screen.index == 1
        assert f"claimed {story.steps[1].told.said}" in str(screen.query_one("#told").render())
        await pilot.press("escape")
    assert app.return_code == 0


@pytest.mark.parametrize("game", sorted(SPECS))
async def test_the_story_tells_a_game_in_its_own_words(game: str, tmp_path: Path) -> None:
    path = tmp_path / "match.journal"
    bots_journal(path, game, games=1)
    told, _ = stories(path)
    story = told[0].story
    assert story is not None
    kind = game_named(game)
    words, names = kind.words, told[0].names
    # Another game's word for saying and for challenging (none of them empty) is not this
    # game's story's.
    said = ("claimed", "challenged")
    others = {getattr(game_named(other).words, field) for other in SPECS for field in said} \
        - {getattr(words, field) for field in said} - {""}
    # A claim challenged, where the game's words have a challenge; else the first.
    shown = next((i for i, step in enumerate(story.steps) if step.told.by is not None), 0)
    step = story.steps[shown]
    assert (step.told.by is not None) == (words.challenge != "")
    truth, how = kind.verdict(step.told, names)
    app = StoryApp(story, names, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StoryScreen)
        assert f"The story of {words.game} 1" in str(screen.query_one(TitleBar).render())
        await pilot.press(*["right"] * shown)
        claim = str(screen.query_one("#told").render())
        assert f"{names[step.told.seat]} {words.claimed} {step.told.said}." in claim, claim
        assert f"{truth}." in claim and f"{how[0].upper()}{how[1:]}." in claim, claim
        assert words.challenged in claim
        assert not any(re.search(rf"\b{word}\b", claim) for word in others), claim
        await pilot.press("end")
        assert f"won the {words.game}." in str(screen.query_one("#told").render())


# -- the record ------------------------------------------------------------------------------


def a_story(tmp_path: Path, game: str = "idoubtit") -> Story:
    path = tmp_path / f"{game}.journal"
    bots_journal(path, game, games=1)
    story = stories(path)[0][0].story
    assert story is not None
    return story


def test_a_game_is_recorded_once_with_its_figures(tmp_path: Path) -> None:
    story = a_story(tmp_path)
    record = Record(tmp_path / "data" / "record.jsonl")
    made = entry(story, table="Amy's table", match="ab" * 32, deal="0123456789abcdef",
                 seats=("Amy", "Ben", "Cleo"), seat=1)
    assert record.add(made) and not record.add(made)  # (once)
    entries, notes = record.load()
    assert entries == [made] and not notes
    mine = figures((step.told for step in story.steps), 1)
    assert (made.claims, made.bluffs, made.caught, made.doubts_right, made.doubts_wrong) == (
        mine.claims, mine.bluffs, mine.caught, mine.doubts_right, mine.doubts_wrong)
    assert made.claims == sum(step.told.seat == 1 for step in story.steps) > 0
    assert made.won == (story.winner == 1) and made.match == "ab" * 8
    # The same game at another seat is another entry; another game of the same match (or of a
    # table dealt from the same fixed seed) is too.
    assert record.add(entry(story, table="T", match="ab" * 32, deal="0123456789abcdef",
                            seats=("A", "B", "C"), seat=2))
    assert record.add(entry(story, table="T", match="ab" * 32, deal="fedcba9876543210",
                            seats=("A", "B", "C"), seat=1))
    assert len(record.load()[0]) == 3


def test_a_damaged_line_is_skipped_with_a_note_and_nothing_else_is_lost(tmp_path: Path) -> None:
    story = a_story(tmp_path)
    record = Record(tmp_path / "record.jsonl")
    made = [entry(story, table="T", match="m" * 16, deal=f"{n:016x}", seats=("A", "B", "C"),
                  seat=n % 3) for n in range(4)]
    record.add(made[0])
    record.add(made[1])
    good = json.loads(json.dumps(made[2].__dict__))
    damaged = ["{not json", json.dumps({**good, "claims": "many"}),
               json.dumps({**good, "won": 1}), json.dumps({**good, "claims": -1}),
               json.dumps({**good, "game": "poker"}), json.dumps({**good, "seat": 7}),
               "[" * 100_000, json.dumps([good])]
    with record.path.open("a", encoding="utf-8") as file:
        for line in damaged:
            file.write(line + "\n")
        file.write('{"game": "idoubtit", "date": "2026-12-03T10:00:00+00:00", "tab')  # torn
    record.add(made[3])  # (after a line cut short: a line of its own)
    entries, notes = record.load()
    assert entries == [made[0], made[1], made[3]]
    assert len(notes) == len(damaged) + 1 and all("was skipped" in note for note in notes)
    assert [note.split()[1] for note in notes] == [str(n) for n in range(3, 12)]
    assert "{not json" in record.path.read_text()  # (left in the file as it was)


def test_averages_by_game(tmp_path: Path) -> None:
    made = [Entry("idoubtit", "d", "t", "m", 1, f"{n}", ("a", "b", "c"), 0, n == 0,
                  claims=n * 2, bluffs=n, caught=0, doubts_right=1, doubts_wrong=n)
            for n in range(3)]
    other = Entry("liarsdeck", "d", "t", "m", 1, "x", ("a", "b"), 1, True, 9, 9, 9, 9, 9)
    mean = averages([*made, other], "idoubtit")
    assert mean == {"claims": 2.0, "bluffs": 1.0, "caught": 0.0, "doubts_right": 1.0,
                    "doubts_wrong": 1.0}
    assert set(mean) == set(FIGURES) and averages(made, "iknowyoudont") == {}


def test_doubtlan_stats_prints_the_record_its_chart_and_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "record.jsonl"
    assert main(["stats", "--record", str(path)]) == 0
    assert "No games on record yet" in capsys.readouterr().out
    record = Record(path)
    for n in range(6):
        record.add(Entry("idoubtit", f"2026-12-0{n + 1}T10:00:00+00:00", "Amy's table",
                         "a" * 16, n + 1, f"{n:016x}", ("Amy", "Ben", "Cleo"), 0, n % 2 == 0, 10,
                         n * 2, n, 1, 0))
    record.add(Entry("liarsdeck", "2026-12-07T10:00:00+00:00", "Amy's table", "f" * 16, 1,
                     "f" * 16, ("Amy", "Ben"), 1, False, 4, 4, 2, 0, 1))
    record.add(Entry("iknowyoudont", "2026-12-08T10:00:00+00:00", "Amy's table", "e" * 16, 1,
                     "e" * 16, ("Amy", "Ben", "Cleo"), 0, True, 6, 1, 1, 1, 0))
    with path.open("a") as file:
        file.write("garbage\n")
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["stats", "--record", str(path)]) == 0
    captured = capsys.readouterr()
    assert f"Your record ({path}):" in captured.out
    # Each game's figures in its own words: doubts, calls and lies, challenges and matches.
    assert "I Doubt It: 6 games, 3 won (50%).\n  On average, a game: 10.0 claims, 5.0 bluffs " \
           "(2.5 caught), doubts 1.0 right, 0.0 wrong." in captured.out
    assert "Liar's Deck: 1 game, 0 won (0%).\n  On average, a game: 4.0 claims, 4.0 lies " \
           "(2.0 caught), calls 0.0 right, 1.0 wrong." in captured.out
    assert "I Know You Don't: 1 match, 1 won (100%).\n  On average, a match: 6.0 claims, " \
           "1.0 bluffs (1.0 caught), challenges 1.0 right, 0.0 wrong." in captured.out
    assert "doubt" not in captured.out.split("Liar's Deck:")[1]
    # Lies a claim, 0 to 1 (0, 0.2 ... 1.0, Liar's Deck's 1.0, I Know You Don't's 1/6).
    assert "lie rate        ▁▂▄▅▇██▂" in captured.out
    assert "won             ●·●·●··●" in captured.out
    assert "(the last 8 played, oldest first)" in captured.out
    assert "line 9" in captured.err and "skipped" in captured.err
    assert main(["stats", "--record", str(path), "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert len(data["games"]) == 8 and data["skipped"] == 1
    assert data["by_game"]["idoubtit"]["played"] == 6
    assert data["by_game"]["idoubtit"]["average"]["bluffs"] == 5.0
    monkeypatch.setenv("COLUMNS", "30")  # (no room for the chart)
    assert main(["stats", "--record", str(path)]) == 0
    assert "lie rate" not in capsys.readouterr().out


def test_replay_without_a_journal_tells_the_newest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOUBTLAN_HOME", str(tmp_path / "home"))
    assert main(["replay", "--text"]) == 1
    assert "only the machine that hosts a table keeps its journal" in capsys.readouterr().err
    folder = tmp_path / "home" / "journals"
    folder.mkdir(parents=True)
    bots_journal(folder / "20261203-100000-a.journal", "liarsdeck", games=1)
    assert main(["replay", "--text"]) == 0
    assert "game 1 (" in capsys.readouterr().out


def test_a_journal_a_table_still_writes_is_said_to_be_in_use(tmp_path: Path) -> None:
    from doubtlan.net.verify import verify

    path = tmp_path / "open.journal"
    table = Table(TableConfig(players=3, games=1, seed=None, next_game_delay=0.0,
                              bot_delay=1.0), Journal.create(path))
    for _ in range(3):
        table.seat_bot("counter")
    table.start(0.0)
    for now in range(1, 6):
        table.tick(float(now))
        table.take_outbox()
    lines, problems = verify(path)  # (the table holds the journal's lock)
    assert any("a table is still writing this journal" in line for line in lines)
    assert not any("crash" in problem for problem in problems), problems
    assert table.journal is not None
    table.journal.close(closed=False, why="over")  # let go unclosed, as a killed host does
    lines, problems = verify(path)
    assert any("a crash it was not resumed from" in problem for problem in problems)


def test_a_game_verify_stopped_checking_is_not_told(tmp_path: Path) -> None:
    """An action whose record lost its digest: verify stops checking that game there, so
    every action after it is unchecked, and the game is not told (though it plays)."""
    good = tmp_path / "good.journal"
    bots_journal(good, games=1)
    cut = tmp_path / "cut.journal"
    journal = Journal.create(cut)
    acts = 0
    for record in read(good).records:
        if record["t"] == "act":
            acts += 1
            if acts == 5:
                record = {key: value for key, value in record.items() if key != "h"}
        journal.append(record)
    journal.close()
    told, _ = stories(cut)
    assert told[0].story is None and "did not verify" in (told[0].why or "")
    assert stories(good)[0][0].story is not None
