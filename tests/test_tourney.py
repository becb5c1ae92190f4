"""`doubtlan tourney`: in-process bot games, reported honestly."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from doubtlan import tourney
from doubtlan.bots import LEVELS
from doubtlan.cli import main
from doubtlan.rules import GAMES, Action, ChallengeMode, Options


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    assert main(["tourney", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_has_the_promised_keys(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_cli(capsys, "--players", "4", "--bots", "counter,random,random,random",
                     "--games", "40", "--seed", "1")
    for key in ("games", "seconds", "games_per_second", "turns_per_game", "win_rate", "wins"):
        assert key in report
    assert report["games"] == 40
    assert set(report["wins"]) == {"counter", "random"}
    assert sum(report["wins"].values()) + report["unfinished"] == 40
    for name, wins in report["wins"].items():
        assert report["win_rate"][name] == pytest.approx(wins / 40, abs=1e-4)
        low, high = report["win_rate_95"][name]
        assert low <= report["win_rate"][name] <= high
    assert report["games_per_second"] > 0 and report["turns_per_game"] > 0
    assert report["seats"] == {"counter": 1, "random": 3}


def test_every_strategy_opens_its_share(capsys: pytest.CaptureFixture[str]) -> None:
    bots = "counter,honest,random,random"
    report = run_cli(capsys, "--bots", bots, "--games", "40", "--seed", "2")
    assert report["opened"] == {"counter": 10, "honest": 10, "random": 20}


def test_a_seed_replays_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    first = run_cli(capsys, "--games", "30", "--seed", "5", "--bots", "counter,honest,random")
    second = run_cli(capsys, "--games", "30", "--seed", "5", "--bots", "counter,honest,random")
    assert (first["wins"], first["turns_per_game"]) == (second["wins"], second["turns_per_game"])


def test_unfinished_games_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_cli(capsys, "--games", "5", "--seed", "1", "--max-turns", "3")
    assert report["unfinished"] == 5
    assert sum(report["wins"].values()) == 0
    assert main(["tourney", "--games", "5", "--seed", "1", "--max-turns", "3"]) == 0
    assert "unfinished games (stopped at 3 turns): 5" in capsys.readouterr().out


def test_max_turns_counts_every_move_a_game_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    """In a game played one seat at a time a call is a move as much as a claim: the limit
    counts the game's decisions, not its claims."""
    report = run_cli(capsys, "--game", "liarsdeck", "--games", "20", "--seed", "1",
                     "--max-turns", "4")
    assert report["unfinished"] == 20 and report["turns_per_game"] == 4.0
    assert report["decisions"] == 20 * 4  # (the calls among them)


def test_the_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tourney", "--games", "20", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "counter" in out and "random" in out and "95% interval" in out
    assert "games per second" in out and "turns per game" in out


@pytest.mark.parametrize("players", [3, 4, 6])
def test_by_default_one_counter_plays_randoms(
    capsys: pytest.CaptureFixture[str], players: int
) -> None:
    report = run_cli(capsys, "--players", str(players), "--games", "3", "--seed", "1")
    assert report["seats"] == {"counter": 1, "random": players - 1}


def test_an_unseeded_run_reports_the_seed_that_replays_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = run_cli(capsys, "--games", "10", "--bots", "counter,honest,random")
    again = run_cli(capsys, "--games", "10", "--bots", "counter,honest,random",
                    "--seed", first["seed"])
    assert first["seed"] == again["seed"]
    assert (first["wins"], first["turns_per_game"]) == (again["wins"], again["turns_per_game"])


def test_players_repeat_a_short_list(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_cli(
        capsys, "--players", "6", "--bots", "counter,random", "--games", "6", "--seed", "1"
    )
    assert report["seats"] == {"counter": 3, "random": 3}


@pytest.mark.parametrize("args", [("--decks", "2", "--players", "9", "--bots", "random"),
                                  ("--challenge", "open",)])
def test_variants(capsys: pytest.CaptureFixture[str], args: tuple[str, ...]) -> None:
    report = run_cli(capsys, *args, "--games", "10", "--seed", "1")
    assert sum(report["wins"].values()) + report["unfinished"] == 10


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "counter,clever"], 'unknown bot strategy "clever"'),
        (["--players", "2", "--bots", "random"], "3 to 8 players"),
        (["--players", "9", "--bots", "random"], "3 to 8 players"),
        (["--bots", "random,random"], "3 to 8 players"),
        (["--games", "0"], "expected 1 or more"),
        (["--games", "many"], "expected a whole number"),
        (["--decks", "3"], "invalid choice"),
        (["--challenge", "loud"], "invalid choice"),
        (["--players", "3", "--bots", "random,random,random,random"], "names 4 strategies for 3"),
        (["--bots", ","], "name at least one bot strategy"),
        (["--game", "poker"], "invalid choice"),
        (["--game", "iknowyoudont", "--decks", "2"], "--decks is I Doubt It's"),
        (["--game", "iknowyoudont", "--challenge", "open"], "I Know You Don't takes --deck"),
        (["--deck", "standard"], "--deck is I Know You Don't's"),
        (["--game", "iknowyoudont", "--deck", "huge"], "invalid choice"),
        (["--game", "iknowyoudont", "--players", "7", "--bots", "random"], "3 to 6 players"),
        (["--game", "iknowyoudont", "--bots", "ace,random,random"],
         'unknown bot strategy "ace"'),
        (["--game", "iknowyoudont", "--rounds", "10"], "invalid choice"),
    ],
)
def test_bad_arguments_get_a_clear_error(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["tourney", *args])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("deck", ["own", "standard"])
def test_i_know_you_dont(capsys: pytest.CaptureFixture[str], deck: str) -> None:
    report = run_cli(capsys, "--game", "iknowyoudont", "--deck", deck, "--games", "30",
                     "--seed", "3", "--bots", "random", "--players", "5", "--rounds", "3")
    assert report["game"] == "iknowyoudont" and report["rules"] == f"deck={deck},rounds=3"
    assert report["players"] == 5 and report["games"] == 30
    assert sum(report["wins"].values()) + report["unfinished"] == 30
    again = run_cli(capsys, "--game", "iknowyoudont", "--deck", deck, "--games", "30",
                    "--seed", "3", "--bots", "random", "--players", "5", "--rounds", "3")
    assert again["turns_per_game"] == report["turns_per_game"]
    assert main(["tourney", "--game", "iknowyoudont", "--games", "5", "--seed", "1",
                 "--bots", "random", "--players", "3"]) == 0
    assert "5 games of I Know You Don't" in capsys.readouterr().out


def test_run_directly() -> None:
    options = Options(challenge=ChallengeMode.OPEN)
    result = tourney.run(["random", "random", "honest"], 12, options=options, seed=1)
    assert result.games == 12
    assert result.to_json()["rules"] == "decks=1,challenge=open"


def test_wilson_interval() -> None:
    low, high = tourney.wilson(60, 100)
    assert low == pytest.approx(0.502, abs=1e-3) and high == pytest.approx(0.691, abs=1e-3)
    assert tourney.wilson(0, 0) == (0.0, 1.0)


def test_calls_chosen_together_count_nearest_clockwise_first() -> None:
    """In the open mode the next player may call too, and is nearest: their doubt counts."""
    from doubtlan.bots.idoubtit import RandomBot
    from doubtlan.rules import Announce, IDoubtIt, Lay, deck

    class Doubter(RandomBot):
        def doubts(self, view: object) -> bool:
            return True

    cards = deck()
    game = IDoubtIt.from_hands([cards[i::4] for i in range(4)],
                               Options(challenge=ChallengeMode.OPEN))
    game.apply(0, Lay(game.view(0).hand[-1]))  # (a king, claimed as an ace: a bluff)
    game.apply(0, Announce())
    tourney.play(game, [Doubter(seat) for seat in range(4)])
    assert game.state.records[0].doubter == 1


def test_the_report_gives_each_seats_win_rate_and_each_ending(
        capsys: pytest.CaptureFixture[str]) -> None:
    report = run_cli(capsys, "--bots", "counter,counter,counter,counter", "--games", "60",
                     "--seed", "3")
    assert report["win_rate"] == {"counter": 1.0}  # by name, four of one strategy say nothing
    assert sum(report["seat_wins"]) == 60 - report["unfinished"]
    assert report["seat_win_rate"] == [round(w / 60, 4) for w in report["seat_wins"]]
    assert max(report["seat_win_rate"]) < 0.6  # ... by seat, they share the wins
    # ... and by place from each game's opener (who opens moves one seat a game).
    assert len(report["place_win_rate"]) == 4
    assert round(sum(report["place_win_rate"]), 3) == round(sum(report["seat_win_rate"]), 3)
    assert report["place_win_rate"] != report["seat_win_rate"]
    one = run_cli(capsys, "--bots", "counter,counter,counter,counter", "--games", "1",
                  "--seed", "3")
    assert one["place_win_rate"] == one["seat_win_rate"]  # (seat 0 opens the first game)
    assert report["endings"] == {"out": 60}
    know = run_cli(capsys, "--game", "iknowyoudont", "--games", "30", "--seed", "3")
    assert sum(know["endings"].values()) == 30
    assert set(know["endings"]) <= {"points", "tokens", "cards", "deck", "unfinished"}


def test_matches_are_independent_and_give_a_match_level_interval(
        capsys: pytest.CaptureFixture[str]) -> None:
    bots = "sharp,counter,counter,counter"
    report = run_cli(capsys, "--bots", bots, "--games", "20", "--matches", "4", "--seed", "3")
    assert report["games"] == 80 and report["matches"] == 4
    rates = report["match_win_rates"]["sharp"]
    assert len(rates) == 4 and sum(rates) / 4 == pytest.approx(report["win_rate"]["sharp"],
                                                                 abs=1e-4)
    # The interval is the matches' (Student's t with 3 degrees of freedom), not the games'.
    low, high = report["win_rate_95"]["sharp"]
    assert (low, high) == pytest.approx(tourney.mean_interval(rates), abs=1e-4)
    assert (low, high) != pytest.approx(tourney.wilson(report["wins"]["sharp"], 80), abs=1e-4)
    # Every strategy sits in every seat in turn (one step round the table a match), and the
    # first match is the single match the seed always played.
    assert report["seats"] == {"sharp": 1, "counter": 3}
    assert report["opened"] == {"sharp": 20, "counter": 60}
    single = run_cli(capsys, "--bots", bots, "--games", "20", "--seed", "3")
    assert single["wins"]["sharp"] == round(rates[0] * 20)
    assert main(["tourney", "--workers", "1", "--bots", bots, "--games", "20", "--matches",
                 "4", "--seed",
                 "3"]) == 0
    assert "80 games in 4 matches" in capsys.readouterr().out


def test_the_t_quantiles_match_the_table() -> None:
    for df, t in [(1, 12.706), (3, 3.182), (5, 2.571), (9, 2.262), (19, 2.093), (100, 1.984)]:
        assert tourney.t_quantile(df) == pytest.approx(t, abs=2e-3), df
    low, high = tourney.mean_interval([0.4, 0.5, 0.6])
    assert (low, high) == pytest.approx((0.5 - 4.3027 * 0.1 / 3**0.5, 0.5 + 4.3027 * 0.1 / 3**0.5))
    assert tourney.mean_interval([0.5]) == (0.0, 1.0)


def test_a_turn_stops_when_its_first_card_ends_the_game() -> None:
    """In the open mode the first card laid lets the claim waiting stand, and that can end
    the game by rule 8: the rest of the turn is not played (nor is it a bot's fault)."""
    from doubtlan.bots.idoubtit import HonestBot
    from doubtlan.rules import Announce, IDoubtIt, Lay

    game = IDoubtIt(4, Options(challenge=ChallengeMode.OPEN), seed=1)
    ace = next(card for card in game.state.hands[0] if card.rank.value == 1) \
        if any(card.rank.value == 1 for card in game.state.hands[0]) else game.state.hands[0][0]
    game.apply(0, Lay(ace))
    game.apply(0, Announce())
    game.state.stale, game.state.low = game._stale_claims - 1, 0  # one claim from rule 8
    assert tourney.play(game, [HonestBot(seat) for seat in range(4)])
    assert game.over and game.ending() == "stalemate"


def test_an_answer_a_seat_may_not_give_is_the_bots_fault() -> None:
    from doubtlan.bots.idoubtit import RandomBot
    from doubtlan.rules import Announce, IDoubtIt, LetStand

    class Stands(RandomBot):
        def act(self, view: object) -> tuple[LetStand, ...]:  # type: ignore[override]
            return (LetStand(),) if view.claim is not None and not view.my_turn \
                else tuple(super().act(view))  # type: ignore[attr-defined]

    game = IDoubtIt(4, Options(challenge=ChallengeMode.OPEN), seed=2)
    game.apply(0, game.legal_actions(0)[0])
    game.apply(0, Announce())
    with pytest.raises(tourney.BotError, match="may only call"):
        tourney.play(game, [Stands(seat) for seat in range(4)])


@pytest.mark.parametrize(("answer", "fault"), [
    ("a card not held", "is not in your hand"),
    ("a fifth card", "at most 4 cards"),
    ("nothing on its turn", "chose nothing: did not act on its turn"),
    ("a lay in the window", "chose lay"),
    ("two answers", "more than one action"),
    ("no answer", "chose nothing: did not answer the claim"),
])
def test_the_fast_path_blames_the_bot_that_chose_wrong(answer: str, fault: str) -> None:
    """``IDoubtIt.play_out`` (the tourney's fast path) refuses what ``apply`` refuses, and
    says which bot chose it and why."""
    from doubtlan.bots.idoubtit import RandomBot
    from doubtlan.rules import IDoubtIt
    from doubtlan.rules.cards import DECK
    from doubtlan.rules.idoubtit import ANNOUNCE, DOUBT, LET_STAND, lay

    class Wrong(RandomBot):
        def act(self, view: Any) -> Sequence[Action]:
            chosen: list[Action] | None = None
            if view.my_turn and view.seat == 0:
                held = [card for card in DECK if card not in view.hand]
                chosen = {"a card not held": [lay(view.hand[0]), lay(held[0]), ANNOUNCE],
                          "a fifth card": [lay(card) for card in view.hand[:5]],
                          "nothing on its turn": []}.get(answer)
            elif view.claim is not None and view.seat == 1:
                chosen = {"a lay in the window": [lay(view.hand[0])],
                          "two answers": [LET_STAND, DOUBT],
                          "no answer": []}.get(answer)
            return super().act(view) if chosen is None else chosen

    with pytest.raises(tourney.BotError, match=f"at seat [12] .*{fault}"):
        tourney.play(IDoubtIt(4, seed=5), [Wrong(seat) for seat in range(4)])


@pytest.mark.parametrize("fast", [True, False])
def test_a_window_is_answered_with_one_action_on_either_path(fast: bool) -> None:
    """A doubt followed by a turn of the doubter's own is refused by the fast path and by
    stepping through alike (stepping once applied it, the fast path refused it)."""
    from doubtlan.bots.idoubtit import RandomBot
    from doubtlan.rules import IDoubtIt
    from doubtlan.rules.idoubtit import ANNOUNCE, DOUBT, lay

    class Eager(RandomBot):
        def act(self, view: Any) -> Sequence[Action]:
            if view.claim is not None and view.seat == (view.claimer + 1) % view.players:
                return [DOUBT, lay(view.hand[0]), ANNOUNCE]
            return super().act(view)

    with pytest.raises(tourney.BotError, match="more than one action"):
        tourney.play(IDoubtIt(4, seed=5), [Eager(seat) for seat in range(4)], fast=fast)


def test_a_window_some_have_answered_is_stepped_through() -> None:
    """A game handed to the tourney in a window that a seat has answered already is played
    on step by step (the fast path asks whole windows), to the same end as stepping."""
    from doubtlan.bots.idoubtit import RandomBot
    from doubtlan.rules import IDoubtIt
    from doubtlan.rules.idoubtit import ANNOUNCE, LET_STAND

    games = []
    for fast in (True, False):
        game = IDoubtIt(4, seed=6)
        game.apply(0, game.legal_actions(0)[0])
        game.apply(0, ANNOUNCE)
        game.apply(1, LET_STAND)
        assert game.play_out([RandomBot(seat).act for seat in range(4)], 2000) is None
        assert tourney.play(game, [RandomBot(seat) for seat in range(4)], fast=fast)
        games.append(game)
    assert games[0].state.records == games[1].state.records
    assert games[0].winner == games[1].winner


TIMINGS = ("seconds", "games_per_second", "decisions_per_second")


def _without_timings(report: dict) -> dict:  # type: ignore[type-arg]
    return {key: value for key, value in report.items() if key not in TIMINGS}


@pytest.mark.parametrize(("game", "bot"), [(name, LEVELS[name]["hard"]) for name in GAMES])
def test_matches_in_two_processes_give_exactly_one_processs_results(
    capsys: pytest.CaptureFixture[str], game: str, bot: str,
) -> None:
    args = ["--game", game, "--bots", f"counter,{bot},random", "--games", "6", "--matches",
            "5", "--seed", "11"]
    one = run_cli(capsys, *args, "--workers", "1")
    two = run_cli(capsys, *args, "--workers", "2")
    assert one["games"] == 30 and len(one["match_win_rates"][bot]) == 5
    assert _without_timings(two) == _without_timings(one)
    assert json.dumps(_without_timings(two)) == json.dumps(_without_timings(one))  # (order)


def test_forked_workers_give_exactly_one_processs_results() -> None:
    """The tests run in processes with other threads, where workers start fresh ("spawn");
    a `doubtlan tourney` of its own runs no other thread, so on Linux its workers are
    forked: that path gives the same results too."""
    import subprocess
    import sys

    def run(workers: str) -> dict:  # type: ignore[type-arg]
        out = subprocess.run(
            [sys.executable, "-m", "doubtlan", "tourney", "--bots", "hard,counter,counter",
             "--games", "4", "--matches", "4", "--seed", "3", "--json", "--workers", workers],
            check=True, capture_output=True, text=True, timeout=120).stdout
        return _without_timings(json.loads(out))

    assert run("2") == run("1")


#: A tourney's own process (no other thread: workers forked on Linux, spawned elsewhere):
#: match 0 fails at once, the others note that they were played and take a while each.
FAILING_MATCH = """
import sys
from pathlib import Path
from doubtlan import tourney
played = Path(sys.argv[1])
play = tourney._play_match
def noting(task, each=None):
    if task.number == 0:
        raise RuntimeError("match 0 fails")
    with played.open("a") as out:
        out.write(f"{task.number}\\n")
    return play(task, each)
tourney._play_match = noting
try:
    tourney.run(["counter"] * 4, 150, seed=1, matches=16, workers=2)
except RuntimeError as error:
    print(error)
"""


def test_a_failing_match_cancels_the_matches_not_begun(tmp_path: Path) -> None:
    """An error in one match (a bot's, or Ctrl-C) ends the tourney with the matches being
    played, not after every match given to the workers."""
    import subprocess
    import sys

    played = tmp_path / "played"
    out = subprocess.run([sys.executable, "-c", FAILING_MATCH, str(played)], check=True,
                         capture_output=True, text=True, timeout=120).stdout
    assert out.strip() == "match 0 fails"
    if sys.platform == "linux":  # (spawned workers import tourney afresh: nothing noted)
        assert 1 <= len(played.read_text().split()) <= 6  # of the 15 others


class Terminal:
    """A stream that says it is a terminal, keeping what was written."""

    def __init__(self, terminal: bool = True) -> None:
        self.written: list[str] = []
        self.terminal = terminal

    def isatty(self) -> bool:
        return self.terminal

    def write(self, text: str) -> None:
        self.written.append(text)

    def flush(self) -> None:
        pass


def test_a_long_run_shows_its_progress_on_a_terminal_only() -> None:
    from doubtlan.cli_values import Progress

    shown = Terminal()
    tourney.run(["random"] * 4, 40, seed=1, matches=2, progress=Progress(shown, after=0.0))
    assert shown.written, "nothing shown"
    last = shown.written[-1]
    assert last.startswith("\r80/80 games, ") and "a second, about 0 s left" in last
    assert last.endswith("\n")  # the report starts on a line of its own
    counts = [int(text[1:].split("/")[0]) for text in shown.written]
    assert counts == sorted(counts)
    piped = Terminal(terminal=False)
    tourney.run(["random"] * 4, 40, seed=1, progress=Progress(piped, after=0.0))
    assert piped.written == []
    quick = Terminal()  # a run shorter than a second says nothing
    tourney.run(["random"] * 4, 5, seed=1, progress=Progress(quick))
    assert quick.written == []
