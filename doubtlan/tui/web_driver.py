"""The driver a browser seat's app runs on (net/web starts it): textual's web driver, and
the app ends when the server that started it goes, even one killed without a word."""

from __future__ import annotations

import asyncio

from textual.drivers.web_driver import WebDriver
from textual.messages import ExitApp


class ServedDriver(WebDriver):
    """:class:`WebDriver`, whose app quits once its input ends (the server's pipe closed):
    no browser seat's process outlives the host."""

    def start_application_mode(self) -> None:
        self._loop = asyncio.get_running_loop()
        super().start_application_mode()

    def run_input_thread(self) -> None:
        super().run_input_thread()
        if not self.exit_event.is_set():  # not asked to stop: the server is gone
            asyncio.run_coroutine_threadsafe(self._app._post_message(ExitApp()), self._loop)
