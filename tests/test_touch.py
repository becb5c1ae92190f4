"""Touch first (the compact layout, a phone's): a tap on a card picks it (or marks it), and
never makes a move that cannot be taken back; the labelled button makes it. Run for every
game of the registry, with its driver (tests/apps.py), at 40x30, the smallest compact
screen."""

from __future__ import annotations

import pytest
from apps import DRIVERS, acts_of, click_text, start_match, wait_for

from doubtlan.tui.widgets.hand import CardHand

#: A phone held upright, in cells.
PHONE = (40, 30)


@pytest.mark.parametrize("game", list(DRIVERS))
async def test_a_tap_on_a_card_makes_no_move_and_its_button_does(game: str) -> None:
    driver = DRIVERS[game]
    app = driver.host_app(seed=driver.seed)
    async with app.run_test(size=PHONE) as pilot:
        await start_match(pilot, app)
        await wait_for(pilot, lambda: app.client is not None and app.client.mirror.view
                       is not None and app.client.mirror.view.my_turn, "my turn")
        assert app.play is not None
        hand = app.play.query_one(CardHand)
        sent = acts_of(app)
        width = hand._big_width()  # (a card's frame: three lines tall, its cells all its own)
        columns = hand.content_size.width // width
        assert columns >= 6 and hand.cards
        for index in reversed(range(len(hand.cards))):
            row, column = divmod(index, columns)
            for line in range(3):  # (the frame's top, its face, its foot: each picks it)
                await pilot.click(hand, offset=(column * width + width // 2,
                                                1 + row * 3 + line))
                await wait_for(pilot, lambda i=index: hand.cursor == i, "the card picked")
        await pilot.pause()
        assert sent == [], sent  # (taps pick, and move nothing)
        await click_text(pilot, hand, driver.move_button)
        await wait_for(pilot, lambda: len(sent) == 1, "the move, by its button")
