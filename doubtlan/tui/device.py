"""What the app does for the screen it is drawn on: the layout for its size (the wide one,
the compact one, or a notice that it is too small: widgets/small.py), and, drawn in a
browser's page, which keyboard the page offers: a phone's own keyboard opens only where a
text field (the name, a line of talk) has the focus, so that a tap on a card or a button
never brings it up over the table."""

from __future__ import annotations

from textual import events
from textual.drivers.web_driver import WebDriver
from textual.widgets import Input

from .plain import PlainNotices
from .widgets.small import (
    COMPACT_CLASS,
    TOO_SMALL_CLASS,
    TOUCH_CLASS,
    SmallNotice,
    layout_for,
)


class DeviceApp(PlainNotices):
    """The app's side of the device: its layout, and the page's keyboard."""

    #: Whether the page was last told that a text field has the focus (None: not yet told);
    #: whether the screen is touched (cards and buttons three lines tall).
    _typing: bool | None = None
    touch = False

    def on_resize(self, event: events.Resize) -> None:
        """The layout for the size; below both, say so (SmallNotice)."""
        layout = layout_for(*event.size)
        self.set_class(layout == "compact", COMPACT_CLASS)
        self.set_class(layout is None, TOO_SMALL_CLASS)
        for notice in self.screen.query(SmallNotice):
            notice.refresh()

    async def on_mount(self) -> None:
        # (Textual calls each class's handler: the app's own on_mount runs too.)
        self.set_class(self.touch, TOUCH_CLASS)
        self.screen_change_signal.subscribe(
            self, lambda screen: self.call_after_refresh(self.tell_keyboard))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.call_after_refresh(self.tell_keyboard)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.call_after_refresh(self.tell_keyboard)

    def tell_keyboard(self) -> None:
        """Tell the page whether a text field has the focus now, or will have it when the
        page has (its keyboard opens for one): ``{"type": "keyboard", "open": true}``,
        which net/web passes on to page.js."""
        # (A page not focused leaves the app blurred: the field it will focus again counts.)
        later = self._last_focused_on_app_blur
        focused = self.focused or (later if later is not None and later.screen is self.screen
                                   else None)
        typing = isinstance(focused, Input)
        driver = self._driver
        if typing != self._typing and isinstance(driver, WebDriver):
            self._typing = typing
            driver.write_meta({"type": "keyboard", "open": typing})
