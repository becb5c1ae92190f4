"""A host that rewrites its own journal, hash chain and all (docs/journal.md): what
`doubtlan verify` still finds. The journal records its clocks' times, the seats that were
bots', and why its match closed; a rewrite that does not change them to fit is caught."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from games import WINDOWED, GameSpec
from test_journal import played_match, rewritten

from doubtlan.cli import main
from doubtlan.net.journal import read
from doubtlan.rules import game_named
from doubtlan.rules.fairness import Played, deal_seed, host_played


def timed_match(spec: GameSpec, tmp_path: Path) -> Path:
    """A whole match of two games on clocks: a window of 5 s, a turn of 30 s."""
    return played_match(spec, tmp_path, turn_timeout=30.0)


def relabel(spec: GameSpec, by: tuple[str, ...], wanted: str) -> Any:
    """A change: the first action played by one of ``by`` that the rules would let the
    host play as ``wanted`` (``timer``, ``window``), relabelled so."""

    def change(records: list[dict[str, Any]]) -> None:
        kind, game = game_named(spec.name), None
        for record in records:
            if record["t"] == "deal":
                game = kind(4, spec.options, seed=deal_seed(
                    record["secret"], record["game"], tuple(record["seeds"])),
                    opener=record["opener"])
            elif record["t"] == "act" and game is not None:
                if record["by"] in by and host_played(game, Played(
                        record["seat"], record["action"], wanted)) is None:
                    record["by"] = wanted
                    return
                game.apply(record["seat"], game.parse_action(record["action"]))
        raise AssertionError(f"no action by {by} the host could have played as {wanted}")

    return change


def bots_action_as_players(records: list[dict[str, Any]]) -> None:
    record = next(r for r in records if r["t"] == "act" and r["by"] == "bot")
    record["by"] = "player"


def test_verify_judges_each_relabel_by_the_journals_clocks_and_seats(
        spec: GameSpec, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = timed_match(spec, tmp_path)
    assert main(["verify", str(path)]) == 0, capsys.readouterr().out
    capsys.readouterr()
    cases = [(bots_action_as_players, "is a bot's, but the journal says its player played it")]
    if spec.name in WINDOWED:
        cases.append((relabel(spec, ("player",), "window"),
                      "a window's time ran out 0.0 s into the window, of the table's 5 s"))
    if spec.name != "iknowyoudont":  # (its timer plays what no random move is)
        cases.append((relabel(spec, ("player",), "timer"),
                      "the turn timer played it 0.0 s into the turn, of the table's 30 s"))
    for change, said in cases:
        assert main(["verify", str(rewritten(path, change))]) == 1, change
        out = capsys.readouterr().out
        assert said in out, out


def test_a_match_closed_before_its_games_were_played_says_why(
        spec: GameSpec, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The last game taken out, the chain written again: verify says the host ended the
    match after game 1 of its 2, and when; a journal that says the match was played to
    its end then is caught."""
    path = timed_match(spec, tmp_path)
    records = read(path).records
    last = max(i for i, r in enumerate(records) if r["t"] == "deal")
    closed = records[-1]
    assert closed["t"] == "closed" and closed["why"] == "over" and closed["when"]

    def ended(changed: list[dict[str, Any]]) -> None:
        del changed[last:-1]
        changed[-1]["why"] = "ended"

    def over(changed: list[dict[str, Any]]) -> None:
        del changed[last:-1]

    assert main(["verify", str(rewritten(path, ended))]) == 0
    out = capsys.readouterr().out
    assert f"the host ended the match after game 1 of its 2, at {closed['when']}" in out, out
    assert main(["verify", str(rewritten(path, over))]) == 1
    out = capsys.readouterr().out
    assert "the journal says the match was played to its end, but it holds 1 of its 2" in out


def without_times(records: list[dict[str, Any]]) -> None:
    for record in records:
        record.pop("at", None)


def one_time_set_back(records: list[dict[str, Any]]) -> None:
    acts = [record for record in records if record["t"] == "act"]
    acts[len(acts) // 2]["at"] -= 1000.0


def closed_why(why: str) -> Any:
    def change(records: list[dict[str, Any]]) -> None:
        records[-1]["why"] = why

    return change


def test_verify_needs_the_times_and_holds_why_the_match_closed_to_the_journal(
        spec: GameSpec, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A host that takes the times out (so that no clock can be judged), sets one back,
    relabels an action with the times gone, or says the match it played through was ended
    (or closed for no reason it gives): each is a problem."""
    path = timed_match(spec, tmp_path)
    assert main(["verify", str(path)]) == 0, capsys.readouterr().out
    capsys.readouterr()
    cases = [
        (without_times, "action 1: it has no time on the host's clock (None)"),
        (one_time_set_back, "comes before the time of the deal or action before it"),
        (closed_why("ended"), "the journal says the host ended the match, but all of its 2 "
                              "games were played to their end"),
        (closed_why("because"), "the journal closed without saying why (it says 'because')"),
    ]
    if spec.name in WINDOWED:
        relabelled = relabel(spec, ("player",), "window")

        def relabelled_without_times(records: list[dict[str, Any]]) -> None:
            relabelled(records)
            without_times(records)

        cases.append((relabelled_without_times, "it has no time on the host's clock"))
    for change, said in cases:
        assert main(["verify", str(rewritten(path, change))]) == 1, change
        out = capsys.readouterr().out
        assert said in out, out
