"""Each seat signs what it does and says (net/signing.py, docs/security.md): the host takes
a seat only with a key, refuses an action or a line its seat's key did not sign, and every
client refuses to hear, or to verify, what the host says a player did or said without that
player's signature. Through the real codec (tests/wire.py)."""

from __future__ import annotations

import dataclasses

from test_talk import config, error_code, heard
from wire import Harness

from doubtlan.net import signing
from doubtlan.net.messages import PROTOCOL_VERSION, Act, Bye, Error, Hello, Said, Say, TableInfo
from doubtlan.net.mirror import Mirror
from doubtlan.net.signing import SeatKey


def test_a_signature_holds_only_for_its_own_key_and_text() -> None:
    key, other = SeatKey(), SeatKey()
    text = signing.act_text("ab" * 32, 1, 4, "doubt")
    sig = key.sign(text)
    assert signing.signed(key.public, text, sig)
    assert not signing.signed(other.public, text, sig)
    for changed in (signing.act_text("ab" * 32, 1, 5, "doubt"),
                    signing.act_text("ab" * 32, 2, 4, "doubt"),
                    signing.act_text("cd" * 32, 1, 4, "doubt"),
                    signing.act_text("ab" * 32, 1, 4, "stand")):
        assert not signing.signed(key.public, changed, sig)
    assert not signing.signed(key.public, text, None)
    assert not signing.signed(key.public, text, "00" * 64)
    assert not signing.signed(None, text, sig)
    again = SeatKey.from_hex(key.secret.hex())
    assert again is not None and again.public == key.public
    assert SeatKey.from_hex("zz") is None and SeatKey.from_hex("ab") is None


def test_a_seat_is_taken_only_with_a_key_and_taken_back_only_with_the_same() -> None:
    h = Harness(config())
    conn = h.connect()
    h.table.receive(conn, Hello(PROTOCOL_VERSION, "Amy", None, None, False), h.now)  # unsigned
    h.flush()
    assert error_code(h, conn) == "bad_message" and h.table.taken == 0
    amy = h.hello("Amy")
    token = h.mirrors[amy].token
    assert h.table.seats[0].key == h.mirrors[amy].key.public  # type: ignore[union-attr]
    h.drop(amy)
    thief = h.connect()
    h.send(thief, Hello(PROTOCOL_VERSION, "Amy", None, token, False))  # the token, another key
    assert error_code(h, thief) == "bad_token" and h.mirrors[thief].seat is None
    back = h.hello("Amy", token=token)  # (the harness gives the seat's own key)
    assert h.mirrors[back].seat == 0


def test_an_older_client_is_refused_by_name() -> None:
    h = Harness(config())
    conn = h.connect()
    h.send(conn, Hello(PROTOCOL_VERSION - 1, "Old", None, None, False))
    error = h.last(conn, (Error, Bye))
    assert isinstance(error, Error | Bye) and error.code == "version_mismatch"
    assert "needs a newer doubtlan" in error.message and str(PROTOCOL_VERSION - 1) in error.message


def started() -> tuple[Harness, int, int]:
    h = Harness(config(autostart=True), bots=1)
    amy, ben = h.hello("Amy"), h.hello("Ben")
    assert h.table.state == "playing"
    return h, amy, ben


def test_an_action_not_signed_with_the_seats_key_is_refused() -> None:
    h, amy, ben = started()
    game = h.table.game
    assert game is not None
    seat = next(s for s in (game.turn_seat(), *game.awaiting())  # a person's move is due
                if s is not None and h.table.seats[s].strategy is None)
    conn = amy if h.mirrors[amy].seat == seat else ben
    other = ben if conn == amy else amy
    action = game.legal_actions(seat)[0].text
    played = len(h.table.played)
    forged = SeatKey().sign(signing.act_text(h.table.signed_for, 1, game.decision, action))
    for sig in (forged, "00" * 64):
        h.send(conn, Act(game.decision, action, sig))
        assert error_code(h, conn) == "bad_signature" and len(h.table.played) == played
    # The other seat's own signature, over this seat's move, is not this seat's either.
    h.send(conn, Act(game.decision, action, h.mirrors[other].key.sign(  # type: ignore[union-attr]
        signing.act_text(h.table.signed_for, 1, game.decision, action))))
    assert error_code(h, conn) == "bad_signature" and len(h.table.played) == played
    h.send(conn, Act(game.decision, action))  # signed by the mirror, as a client signs
    assert len(h.table.played) == played + 1
    assert h.table.played[-1].sig and h.table.played[-1].by == "player"


def test_a_line_is_signed_numbered_and_relayed_with_its_signature() -> None:
    h, amy, ben = started()
    h.send(amy, Say("Sure you do."))
    said = heard(h, ben)[-1]
    assert said.line == "Sure you do." and said.sig and said.number >= 1
    assert signing.signed(h.table.seats[said.seat].key, signing.say_text(
        h.table.signed_for, said.number, said.line), said.sig)
    # The same signed line sent again is not said twice; one signed by another key is refused.
    h.send(amy, Say("Sure you do.", said.number, said.sig))
    assert error_code(h, amy) == "bad_message"
    forged = SeatKey().sign(signing.say_text(h.table.signed_for, said.number + 5, "Hi"))
    h.send(amy, Say("Hi", said.number + 5, forged))
    assert error_code(h, amy) == "bad_signature"
    assert [s.line for s in heard(h, ben)] == ["Sure you do."]
    assert h.mirrors[ben].talk[-1].line == "Sure you do."


def test_a_client_hears_no_line_its_speaker_did_not_sign_and_finds_it_a_problem() -> None:
    h, amy, ben = started()
    h.send(amy, Say("Honest!"))
    real = heard(h, ben)[-1]
    mirror = h.mirrors[ben]
    heard_before = len(mirror.talk)
    for forged in (
        dataclasses.replace(real, line="I fold"),  # the signature of another line
        dataclasses.replace(real, sig=None),  # none
        real,  # the same line again, as news
        dataclasses.replace(real, bot=True, sig=None),  # a person's seat's "bot remark"
    ):
        mirror.receive(forged)
    assert len(mirror.talk) == heard_before
    mirror.receive(dataclasses.replace(real, fresh=False))  # (the talk sent again on a welcome)
    assert len(mirror.talk) == heard_before + 1
    problems = mirror._forged[1]
    assert len(problems) == 4
    assert "'I fold' as Amy's, who did not sign it" in problems[0]
    assert "again" in problems[2] and "bot's remark" in problems[3]


def test_a_client_shown_its_seat_with_another_key_finds_every_deal_broken() -> None:
    h, amy, _ = started()
    mirror: Mirror = h.mirrors[amy]
    table = mirror.table
    assert isinstance(table, TableInfo) and mirror.seat is not None
    seats = list(table.seats)
    seats[mirror.seat] = dataclasses.replace(seats[mirror.seat], key=SeatKey().public)
    mirror.receive(dataclasses.replace(table, seats=tuple(seats)))
    assert mirror._broken == "the table shows your seat with a key that is not yours"


def test_a_line_heard_is_in_the_said_the_host_keeps() -> None:
    h, amy, ben = started()
    h.send(amy, Say("  one   two "))
    kept = h.table.talk[-1]
    assert isinstance(kept, Said) and kept.line == "one two" and kept.sig
