"""Seeds and the shuffle: the same everywhere, and fair."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from doubtlan.rules import IDoubtIt, deck, seeds
from doubtlan.rules.seeds import derive, seed_bytes, shuffle


def test_seeds_become_bytes_the_same_way_everywhere() -> None:
    assert seed_bytes(1) == b"1" == seed_bytes("1")
    assert seed_bytes(b"\x00\x01") == b"\x00\x01"
    assert len(seed_bytes(None)) == 32 and seed_bytes(None) != seed_bytes(None)
    for bad in (True, 1.5, [1]):
        with pytest.raises(TypeError):
            seed_bytes(bad)  # type: ignore[arg-type]


def test_the_shuffle_is_pinned() -> None:
    # A known answer: changing the procedure changes every seeded game ever played.
    cards = deck()
    shuffle(cards, b"doubtlan")
    assert [card.code for card in cards[:8]] == ["QC", "AS", "6H", "KS", "TH", "9S", "AC", "2S"]
    hand = [card.code for card in IDoubtIt(4, seed=1).state.hands[0]]
    assert hand == ["AD", "AH", "AS", "3H", "6D", "7S", "8H", "9D", "TC", "TD", "QD", "KC", "KH"]


def test_a_word_too_large_is_drawn_again_for_the_same_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Rejections almost never happen with real words (a chance in 80 million a card), so
    # the words are given: the shuffle must follow its documented procedure word by word.
    top = (1 << 32) - 1  # above every limit: always rejected
    given = [top, 7, top, top, 5, 2, top, 9, 4, 4, 1, 0, 3, top, 6]

    def documented(items: list[int], words: Iterator[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            choices = i + 1
            limit = (1 << 32) - (1 << 32) % choices
            word = next(words)
            while word >= limit:
                word = next(words)
            j = word % choices
            items[i], items[j] = items[j], items[i]

    for size in range(0, 9):
        expected = list(range(size))
        documented(expected, iter(given))
        monkeypatch.setattr(seeds, "_words", lambda key: iter(given))
        shuffled = list(range(size))
        shuffle(shuffled, b"any")
        assert shuffled == expected, size


def test_every_order_of_three_is_about_as_likely() -> None:
    orders: Counter[tuple[int, ...]] = Counter()
    for n in range(6000):
        items = [0, 1, 2]
        shuffle(items, n.to_bytes(4, "big"))
        orders[tuple(items)] += 1
    assert len(orders) == 6
    # Each of the six orders should come up about 1000 times; 850 to 1150 is over 4 sigma.
    assert all(850 < count < 1150 for count in orders.values()), orders


def test_derived_seeds_differ_by_purpose() -> None:
    assert derive(b"s", "game 1") != derive(b"s", "game 2") != derive(b"t", "game 1")
    assert derive(b"s", "game 1") == derive(b"s", "game 1")
