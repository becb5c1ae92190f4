"""The seats' process: every browser seat's app in one process that has imported doubtlan
and Textual once, each app on a thread of its own.

``python -P -m doubtlan.cli_seats``, started by the web server (net/web/starter.py):
it reads a secret from its standard input, imports what a seat's app runs on, listens on
loopback and writes its port as a line of JSON to its standard output. Each connection
that starts with a line of JSON holding that secret, the ``doubtlan join`` arguments of a
seat, its browser's data folder and the screen's size in cells gets an app on a thread,
which speaks textual's web stream over that connection (tui/web_driver.py: SeatDriver);
when the app ends, a last packet says how (``E``: its exit status, and the error if it
failed), and the connection closes. The process ends when its standard input does (the web
server stopped, or its process died).

A seat costs what its app allocates (a megabyte or two) rather than a process with its own
Python, Textual and doubtlan (about 40 MiB), and starts in a tenth of a second rather than
a second and more; the threads share one interpreter lock, so the apps of a table's browser
seats share one core (their work is drawing a frame now and then). Measured in
bench/web.py; docs/app.md, "Browser seats", says why this way.
"""

from __future__ import annotations

import contextlib
import gc
import hmac
import importlib
import json
import logging
import os
import pkgutil
import socket
import sys
import threading
import traceback
from pathlib import Path

#: The longest first line a seat's connection may send.
LARGEST_REQUEST = 64 * 1024
#: The sizes of screen a seat may ask for, in cells.
WIDTHS, HEIGHTS = range(10, 501), range(5, 201)

log = logging.getLogger(__name__)


def warm_up() -> None:
    """Import what a seat's app runs on: the command, the app, every screen and widget it
    may show, each game's table and bots, and textual's web driver."""
    import doubtlan.tui

    for found in pkgutil.walk_packages(doubtlan.tui.__path__, "doubtlan.tui."):
        importlib.import_module(found.name)
    for name in ("doubtlan.cli", "doubtlan.cli_table", "textual.drivers.web_driver"):
        importlib.import_module(name)
    from doubtlan.rules import GAMES

    for game in GAMES:
        importlib.import_module(f"doubtlan.bots.{game}")


def serve(secret: str, listener: socket.socket) -> None:
    """Take seats' connections on ``listener`` for as long as the process runs."""
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=seat, args=(connection, secret), daemon=True,
                         name="seat").start()


def seat(connection: socket.socket, secret: str) -> None:
    """One seat's app on this thread, for as long as it runs; then its last packet. A
    connection whose first line is not the web server's is dropped unanswered."""
    with connection:
        request = _request(connection, secret)
        if request is None:
            return
        code, error = 1, ""
        try:
            code, error = run(connection, *request)
        except Exception:  # (the seat's end is told, whatever went wrong)
            error = traceback.format_exc()
        with contextlib.suppress(OSError):
            ended = json.dumps({"code": code, "error": error[-4000:]}).encode()
            connection.sendall(b"E" + len(ended).to_bytes(4, "big") + ended)


def _request(connection: socket.socket,
             secret: str) -> tuple[list[str], Path, int, int] | None:
    """The seat asked for by the connection's first line, or None (the connection is then
    dropped unanswered) if the line is not the web server's."""
    line = connection.makefile("rb").readline(LARGEST_REQUEST)
    try:
        request = json.loads(line)
        args, home = request["args"], request["home"]
        width, height = request["width"], request["height"]
        if not hmac.compare_digest(str(request["secret"]), secret) \
                or not isinstance(args, list) or not all(isinstance(a, str) for a in args) \
                or not isinstance(home, str) or type(width) is not int \
                or type(height) is not int:
            return None
    except (ValueError, KeyError, TypeError):
        return None
    width = width if width in WIDTHS else 80
    height = height if height in HEIGHTS else 24
    return args, Path(home), width, height


def run(connection: socket.socket, args: list[str], home: Path, width: int,
        height: int) -> tuple[int, str]:
    """Run ``doubtlan ARGS`` (a join) as this seat's app: its exit status and its error."""
    from .cli import build_parser
    from .cli_table import join_app
    from .net.folder import HERE
    from .tui.web_driver import seat_driver

    HERE.set(home)  # (this thread's: the app's data is its browser's)
    parser = build_parser("join")
    try:
        parsed = parser.parse_args(args)
    except SystemExit:
        return 2, f"not a seat's command line: {args}"
    app = join_app(parsed)
    app.driver_class = seat_driver(connection, width, height)
    app.join_setup.collector = False
    code = int(app.run() or 0)
    failed = getattr(app, "_exception", None)
    error = "".join(traceback.format_exception(failed)) if failed is not None else ""
    return code, error


def main() -> int:
    secret = sys.stdin.readline().strip()
    if not secret:
        return 2
    # Logging goes to this process's own error output: an app on a thread swaps the
    # standard streams for its own while it runs.
    handler = logging.StreamHandler(sys.__stderr__)
    logging.basicConfig(handlers=[handler], level=logging.WARNING)
    logging.getLogger("asyncio").setLevel(logging.ERROR)
    warm_up()
    listener = socket.create_server(("127.0.0.1", 0))
    gc.collect()
    gc.freeze()  # (what every seat shares is never looked at by the collector again)
    threading.Thread(target=serve, args=(secret, listener), daemon=True).start()
    print(json.dumps({"port": listener.getsockname()[1]}), flush=True)
    with open(os.devnull, "wb") as nothing:  # (nobody reads more of it: it must not fill)
        os.dup2(nothing.fileno(), 1)
    sys.stdin.read()  # until the web server closes it, or its process dies
    os._exit(0)  # (the seats' threads end with the process)


if __name__ == "__main__":
    sys.exit(main())
