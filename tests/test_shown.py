"""Nothing from outside reaches a terminal raw (net/shown.py, docs/security.md): a journal
whose names and talk carry escape sequences fails `verify` and is told by `replay` with
every control character shown as its escape; whatever a command prints goes out so; an
advert whose name holds a C1 control, a bidi override or a zero-width character is
refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from games import SPECS
from test_journal import rewritten
from test_record import bots_journal

from doubtlan.cli import main
from doubtlan.net.shown import shown
from doubtlan.net.stories import stories

#: What a hostile name or line carries: an OSC title, a screen clear, an OSC 52 clipboard
#: write, a C1 CSI, a bidi override, a zero-width space, DEL and a line separator.
HOSTILE = ("\x1b]0;owned\x07", "\x1b[2J", "\x1b]52;c;ZWNobyBvd25lZA==\x07", "\x9b31m",
           "\u202e", "\u200b", "\x7f", "\u2028")


def raw(text: str) -> set[str]:
    """The characters in ``text`` a terminal would act on or hide (line breaks aside)."""
    return {c for c in text if not c.isprintable() and c != "\n"}


def test_shown_escapes_what_is_not_printable_and_keeps_the_rest() -> None:
    assert shown("Amy 🂡 Ünï ☺") == "Amy 🂡 Ünï ☺"
    for hostile in HOSTILE:
        assert not raw(shown("Amy" + hostile))
    assert shown("a\x1b[2Jb\u202ec") == "a\\x1b[2Jb\\u202ec"
    assert shown("one\ntwo", keep="\n") == "one\ntwo" and shown("one\ntwo") == "one\\x0atwo"


def hostile_words(records: list[dict[str, Any]]) -> None:
    """Each seat named with a hostile sequence, and a hostile line said in the first game."""
    for record in records:
        if record["t"] == "seats":
            for number, row in enumerate(record["seats"]):
                row[1] = f"Bot{HOSTILE[number % len(HOSTILE)]}"
    deal = next(i for i, record in enumerate(records) if record["t"] == "deal")
    records.insert(deal + 1, {"t": "say", "seat": 0, "name": "Bot", "line": "".join(HOSTILE),
                              "bot": True, "game": 1, "claims": 0})


@pytest.mark.parametrize("game", sorted(SPECS))
def test_a_journal_with_escape_sequences_fails_verify_and_is_told_shown(
        game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.journal"
    bots_journal(path, game)
    hostile = rewritten(path, hostile_words)
    assert main(["verify", str(hostile)]) == 1
    out, err = capsys.readouterr()
    assert not raw(out + err), raw(out + err)
    assert "seat 1 is named 'Bot\\x1b]0;owned\\x07', which no table takes" in out, out
    assert "a line no table takes" in out, out
    # The story is told (its deals still verify), every name shown as its escapes.
    told, _ = stories(hostile)
    assert told and all(not raw(name) for t in told for name in t.names.values())
    main(["replay", str(hostile), "--text"])
    out, err = capsys.readouterr()
    assert not raw(out + err), raw(out + err)
    assert "Bot\\x1b]0;owned\\x07" in out + err, out + err


def test_a_command_line_with_escape_sequences_is_answered_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A path with escape sequences in it, said back in an error: shown."""
    missing = tmp_path / "x\x1b]0;owned\x07\u202e.journal"
    assert main(["replay", str(missing), "--text"]) == 1
    _, err = capsys.readouterr()
    assert "x\\x1b]0;owned\\x07\\u202e.journal" in err and not raw(err), err
