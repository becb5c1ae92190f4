"""The drivers a browser seat's app runs on (net/web starts it): textual's web driver, and
the app ends when the server that started it goes, even one killed without a word.

:class:`ServedDriver` is for an app that is a process of its own (its standard input and
output are the server's pipes); :class:`SeatDriver` for an app on a thread of the seats'
process (cli_seats.py), speaking the same stream over a socket of its own."""

from __future__ import annotations

import asyncio
import selectors
import socket
import threading
from collections.abc import Iterator
from typing import Any

from textual import events
from textual.app import App
from textual.driver import Driver
from textual.drivers.web_driver import WebDriver
from textual.geometry import Size
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


class SeatDriver(ServedDriver):
    """textual's web stream over ``connection`` (a socket), for one app among others on
    the threads of one process: what it writes goes to its socket alone, it reads its keys
    from its socket alone, and it leaves the process's signals and standard streams alone.
    Made by :func:`seat_driver`, which binds the socket and the screen's size."""

    connection: socket.socket
    cells: tuple[int, int]

    def __init__(self, app: App[Any], *, debug: bool = False, mouse: bool = True,
                 size: tuple[int, int] | None = None) -> None:
        Driver.__init__(self, app, debug=debug, mouse=mouse, size=self.cells)
        self.exit_event = threading.Event()
        self._key_thread = threading.Thread(target=self.run_input_thread, name="seat-input",
                                            daemon=True)
        self._input_reader = _SocketReader(self.connection)  # type: ignore[assignment]
        self._deliveries = {}
        self._write = self.connection.sendall  # type: ignore[assignment]

    def start_application_mode(self) -> None:
        """As textual's web driver starts, but for the signal handlers (the seats'
        process has one set, not one a seat) and the line that tells a pipe's reader the
        app has begun (the socket's first packet says so)."""
        loop = self._loop = asyncio.get_running_loop()
        self.write("\x1b[?1049h")  # the alternate screen
        self._enable_mouse_support()
        self.write("\x1b[?25l")  # no cursor
        size = Size(*(self._size or self.cells))
        asyncio.run_coroutine_threadsafe(self._app._post_message(events.Resize(size, size)),
                                         loop=loop)
        self._request_terminal_sync_mode_support()
        self._enable_bracketed_paste()
        self._key_thread.start()
        self._app.call_later(self._app.post_message, events.AppBlur())


def seat_driver(connection: socket.socket, width: int, height: int) -> type[SeatDriver]:
    """A :class:`SeatDriver` class for one app (textual makes its driver from a class)."""
    return type("BoundSeatDriver", (SeatDriver,), {"connection": connection,
                                                  "cells": (width, height)})


class _SocketReader:
    """Keys from a socket, as textual's input reader gives them from standard input."""

    def __init__(self, connection: socket.socket, timeout: float = 0.1) -> None:
        self.connection, self.timeout = connection, timeout
        self._selector = selectors.DefaultSelector()
        self._selector.register(connection, selectors.EVENT_READ)
        self._closed = threading.Event()

    def close(self) -> None:
        self._closed.set()

    def __iter__(self) -> Iterator[bytes]:
        try:
            while not self._closed.is_set():
                if self._selector.select(self.timeout):
                    try:
                        data = self.connection.recv(4096)
                    except OSError:
                        return
                    if not data:
                        return  # the server went: the app quits (ServedDriver)
                    yield data
                yield b""
        finally:
            self._selector.close()
