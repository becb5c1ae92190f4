"""Addresses as players type them (net/address.py): what is taken, and what is refused in a
sentence rather than guessed at."""

from __future__ import annotations

import pytest

from doubtlan.net.address import DEFAULT_PORT, parse_address


@pytest.mark.parametrize(("text", "address"), [
    ("192.168.1.20", ("192.168.1.20", DEFAULT_PORT)),
    (" amys-laptop.local:5000 ", ("amys-laptop.local", 5000)),
    ("[::1]", ("::1", DEFAULT_PORT)),
    ("[fe80::1%eth0]:47475", ("fe80::1%eth0", 47475)),
])
def test_an_address_as_typed(text: str, address: tuple[str, int]) -> None:
    assert parse_address(text) == address


@pytest.mark.parametrize("text", [
    "", "a b", "host:0", "host:65536", "host:x", "[::1", "[::1]x", "[/]x:99999", "[]:5",
    "[::1]:", "a:b:c d",
])
def test_what_is_not_an_address_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_address(text)
