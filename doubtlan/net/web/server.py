"""Browser seats: the table app served over HTTPS, one ``doubtlan join`` per tab.

Each tab's websocket runs ``doubtlan join`` on the host's machine against the table over
loopback (holding the table to its key, as every client does); textual-serve's page script
draws it in the tab. The server presents the table's own certificate (TLS 1.3 only, never
plain HTTP), gives each browser a random id in a cookie (Secure, HttpOnly, SameSite=Strict)
and each id its own data folder, so a seat is kept per browser. It refuses a websocket from
another site (its Origin), a name that is not this machine's (DNS rebinding), more than
``most`` sessions at once or ``per_address`` from one address; a bad request gets an HTTP
error, never a traceback, and the table plays on (docs/app.md, docs/security.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import ipaddress
import json
import logging
import os
import re
import socket
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from aiohttp import WSMsgType, web

from ..folder import HOME, doubtlan_folder, private_folder
from ..identity import Identity
from ..pin import via_mark
from . import page
from .session import Session
from .starter import SeatsStarter, Starter

log = logging.getLogger(__name__)

#: The cookie that names a browser, and what its value is (128 random bits, in hex).
COOKIE = "doubtlan-browser"
_BROWSER_ID = re.compile(r"[0-9a-f]{32}")
#: How long a browser keeps its id (and so its kept seats): 400 days, browsers' most.
COOKIE_AGE = 400 * 24 * 3600
#: Browser sessions beyond the seats, from one address, and seconds a session may sit
#: with nobody playing before it ends (the app ends it: ``join --idle-end``).
EXTRA_SESSIONS, PER_ADDRESS, IDLE_END = 8, 4, 600.0
#: Browsers' folders kept: beyond it, those unused for FOLDER_AGE seconds are removed (the
#: least recently used first), and never one used since.
FOLDERS_KEPT, FOLDER_AGE = 256, 30 * 24 * 3600.0
#: Seconds a connection has to send a whole request, from its handshake or its last one.
HEADERS_TIME = 5.0
#: Browsers' folders there may be at most: a new browser beyond it is turned away.
FOLDERS_MOST = 1024
#: Sessions one address may start: a burst, then one every 1 / START_RATE seconds.
START_BURST, START_RATE = 8.0, 0.5
#: The biggest message a tab may send (a paste of text is the biggest there is).
LARGEST_MESSAGE = 64 * 1024
#: What the app's process is told it runs on: textual's web driver (doubtlan's, which also
#: ends the app when this server goes), in full colour.
DRIVER = "doubtlan.tui.web_driver:ServedDriver"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class WebSeats:
    """Serve browser seats for the table at ``table`` (an address on this machine) whose
    certificate is ``identity``'s, on ``bind``:``port`` (0: a free port)."""

    def __init__(
        self,
        table: tuple[str, int],
        identity: Identity,
        *,
        title: str,
        through: str | None = None,
        bind: str = "0.0.0.0",
        port: int = 0,
        most: int = EXTRA_SESSIONS,
        per_address: int = PER_ADDRESS,
        idle_end: float = IDLE_END,
        folder: Path | None = None,
        command: Sequence[str] | None = None,
        via_key: bytes | None = None,
    ) -> None:
        self.table, self.identity = table, identity
        #: The table's secret this server marks each tab's knock with: the browser and real
        #: address it comes from (net/pin.py; None: not marked).
        self.via_key = via_key
        #: The page's title, and the host's player's name ("playing through Amy's machine").
        self.title, self.through = title, through
        self.bind, self.wanted_port = bind, port
        self.most, self.per_address, self.idle_end = most, per_address, idle_end
        #: The sessions one address may start at once (then one every 1 / START_RATE s).
        self.burst = START_BURST
        #: Where each browser's folder goes (by default in the host's own data folder).
        self.folder = folder or doubtlan_folder() / "browsers"
        #: How each tab's app is started: on a thread of the seats' process, started with
        #: the server (cli_seats.py); or, given a ``command``, as a process of its own.
        self.starter = Starter(command) if command is not None \
            else SeatsStarter(_environment())
        #: Told what went wrong with a tab's app, for the host's screen (a sentence).
        self.report: Callable[[str], None] = lambda text: log.warning("%s", text)
        #: The sessions open, by the address they came from; set while there are none.
        self.sessions: dict[Session, str] = {}
        self.none_open = asyncio.Event()
        self.none_open.set()
        self._assets = page.assets()
        self._runner: web.AppRunner | None = None
        self._closing = False
        #: Session starts each address may still make (a burst, then one every few seconds).
        self._starts: dict[str, tuple[float, float]] = {}
        self.port = 0

    @property
    def fingerprint(self) -> bytes:
        """The SHA-256 of the certificate the page is served with (the table's)."""
        return self.identity.fingerprint

    def url(self, address: str) -> str:
        shown = f"[{address}]" if ":" in address else address
        return f"https://{shown}:{self.port}/"

    async def start(self) -> int:
        """Listen (OSError when the port cannot be had); the port listened on."""
        app = web.Application(middlewares=[self._guard], client_max_size=LARGEST_MESSAGE)
        app.router.add_get("/", self._index)
        app.router.add_get("/ws", self._websocket)
        app.router.add_get("/static/{path:.+}", self._static)
        # A malformed request is answered with an error; aiohttp would also log it with its
        # traceback, onto the host's terminal: a peer could fill that with them.
        for name in ("aiohttp.server", "aiohttp.web", "aiohttp.websocket"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        # A connection must send a whole request within HEADERS_TIME of its TLS handshake
        # (and between two requests): one that trickles its headers (slowloris) is closed.
        self._runner = runner = web.AppRunner(app, access_log=None, handle_signals=False,
                                              shutdown_timeout=1.0,
                                              keepalive_timeout=HEADERS_TIME)
        await runner.setup()
        site = web.TCPSite(runner, self.bind, self.wanted_port,
                           ssl_context=self.identity.server_context())
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            self._runner = None
            raise
        self.port = runner.addresses[0][1]
        await self.starter.start()
        return self.port

    async def close(self) -> None:
        """End every session (their apps quit; none is left running) and stop serving."""
        self._closing = True  # (a session starting now is ended as soon as it has started)
        await asyncio.gather(*(session.stop() for session in list(self.sessions)),
                             return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await asyncio.gather(*(session.kill() for session in list(self.sessions)),
                             return_exceptions=True)
        await self.starter.close()

    # -- answers -------------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every answer carries the page's headers; a name that is not this machine's is
        refused; an error is an HTTP error with a sentence, never a traceback."""
        if not _our_name(request.host):
            response: web.StreamResponse = web.Response(
                status=421, text="This page is served by its address (such as "
                "https://192.168.1.20:47475/): open the address the host's lobby shows.\n")
        else:
            try:
                response = await handler(request)
            except web.HTTPException as error:
                response = web.Response(status=error.status, text=f"{error.reason}\n")
            except Exception:
                log.exception("a browser's request failed")
                response = web.Response(status=500, text="The host could not answer that; "
                                        "the table plays on.\n")
        if not response.prepared:
            response.headers.update(page.HEADERS)
        return response

    async def _index(self, request: web.Request) -> web.StreamResponse:
        browser = request.cookies.get(COOKIE, "")
        if not _BROWSER_ID.fullmatch(browser):
            opened = request.headers.get("Sec-Fetch-Site", "").casefold()
            if "fresh" not in request.query and opened not in ("none", "same-origin"):
                # A link followed from another site comes without the cookie (SameSite=
                # Strict): the page loads itself again from this site, which sends it, so
                # a browser's id (and its kept seat) is never replaced by a new one. An
                # address typed, scanned from the QR code or bookmarked ("none") carries
                # the cookie if the browser has one: a browser without is new.
                again = request.rel_url.update_query(fresh="1")
                return web.Response(text=page.reload(str(again)), content_type="text/html")
            browser = os.urandom(16).hex()
        websocket = f"wss://{request.host}/ws" + ("?watch=1" if "watch" in request.query else "")
        body = page.index(self.title, websocket, page.font_size(request.query.get("fontsize")))
        response = web.Response(body=body, content_type="text/html", charset="utf-8")
        response.set_cookie(COOKIE, browser, max_age=COOKIE_AGE, path="/", secure=True,
                            httponly=True, samesite="Strict")
        return response

    async def _static(self, request: web.Request) -> web.StreamResponse:
        asset = self._assets.get(request.match_info["path"])
        if asset is None:
            raise web.HTTPNotFound()
        return web.Response(body=asset.body, content_type=asset.content_type)

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin", "")
        if origin.casefold() != f"https://{request.host}".casefold():
            return web.Response(status=403, text="Another site's page cannot sit down here.\n")
        browser = request.cookies.get(COOKIE, "")
        if not _BROWSER_ID.fullmatch(browser):
            return web.Response(status=403, text="Open the page first.\n")
        address = request.remote or "?"
        websocket = web.WebSocketResponse(heartbeat=15.0, max_msg_size=LARGEST_MESSAGE)
        await websocket.prepare(request)
        refused = self._refusal(address)
        if refused is not None:
            await websocket.close(code=1013, message=refused.encode("utf-8"))
            return websocket
        try:  # (only a session that starts makes its browser's folder)
            home = self._folder(browser)
        except OSError as error:
            log.warning("could not make a browser's folder: %s", error)
            await websocket.close(code=1013, message=b"The host cannot keep this browser's "
                                  b"seat just now: try again later.")
            return websocket
        try:
            width = int(request.query.get("width", "80"))
            height = int(request.query.get("height", "24"))
        except ValueError:
            width, height = 80, 24
        via = None if self.via_key is None else via_mark(
            self.via_key, _digest(browser), address)
        session = Session(self._args(watch="watch" in request.query,
                                     touch="touch" in request.query, via=via),
                          home, _environment(), width, height, self.starter)
        self.sessions[session] = address
        self.none_open.clear()
        try:
            await session.start()
        except OSError as error:
            self._ended(session)
            self.report(f"A browser seat's app could not be started: {error}")
            await websocket.close(code=1011, message=b"The host could not start the table app. "
                                  b"The host's screen says why.")
            return websocket
        if self._closing:  # (the server began to close while the app started)
            await session.kill()
            self._ended(session)
            await websocket.close(code=1001, message=b"The table has ended.")
            return websocket
        try:
            await self._run(session, websocket)
        finally:
            self._ended(session)
            if session.failure is not None:
                self.report(session.failure)
        return websocket

    def _ended(self, session: Session) -> None:
        self.sessions.pop(session, None)
        if not self.sessions:
            self.none_open.set()

    def _refusal(self, address: str) -> str | None:
        """Why a new session from ``address`` is turned away (None: it is not)."""
        if self._closing:
            return "The table has ended."
        now = time.monotonic()
        allowance, then = self._starts.get(address, (self.burst, now))
        allowance = min(self.burst, allowance + (now - then) * START_RATE)
        if allowance < 1:
            return "Too many pages opened from this device: wait a few seconds."
        self._starts[address] = (allowance - 1, now)
        if len(self._starts) > 4096:  # (forget the addresses whose bursts are whole again)
            self._starts = {there: kept for there, kept in self._starts.items()
                            if kept[0] + (now - kept[1]) * START_RATE < self.burst}
        if len(self.sessions) >= self.most:
            return (f"Every browser seat is taken ({self.most} at once). Try again when "
                    "someone leaves.")
        if sum(1 for there in self.sessions.values() if there == address) >= self.per_address:
            return (f"This device has {self.per_address} table pages open already: close "
                    "one and try again.")
        return None

    async def _run(self, session: Session, websocket: web.WebSocketResponse) -> None:
        """Carry the tab's keys to the app and its screen back, until either ends."""
        screen = asyncio.create_task(_show(session, websocket, self._ended))
        try:
            async for message in websocket:
                if message.type != WSMsgType.TEXT:
                    continue
                if message.data.startswith('["ping"'):
                    await _pong(websocket, message.data)
                else:
                    await session.feed(message.data)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            if not screen.done():
                await session.stop()  # the tab went: its seat is kept ("away")
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await screen

    def _args(self, *, watch: bool, touch: bool = False, via: str | None = None) -> list[str]:
        """The command line of a tab's app (after ``doubtlan``)."""
        host, port = self.table
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        argv = ["join", where, "--fingerprint", self.fingerprint.hex(),
                "--ask-name", "--idle-end", f"{self.idle_end:g}"]
        if self.through:  # (one argument: a name may begin with "-")
            argv.append(f"--through={self.through}")
        if via is not None:
            argv.append(f"--via={via}")
        return argv + (["--watch"] if watch else []) + (["--touch"] if touch else [])

    def _folder(self, browser: str) -> Path:
        """This browser's own data folder (made, if it is new: OSError when the host keeps
        as many as it may, none of them unused for long)."""
        folder = self.folder / _digest(browser)
        if not folder.exists():
            _prune(self.folder, FOLDERS_KEPT)
            if _count(self.folder) >= FOLDERS_MOST:
                raise OSError(f"{FOLDERS_MOST} browsers' folders are kept already")
        private_folder(folder)
        with contextlib.suppress(OSError):
            os.utime(folder)
        return folder


def _environment() -> dict[str, str]:
    """What every tab's app runs with: textual's web driver, in full colour (each app is
    given its browser's data folder of its own)."""
    env = dict(os.environ)
    env.update({"TEXTUAL_DRIVER": DRIVER, "TEXTUAL_FPS": "60",
                "TEXTUAL_COLOR_SYSTEM": "truecolor", "TERM_PROGRAM": "textual",
                "PYTHONDONTWRITEBYTECODE": "1"})
    env.pop(HOME, None)
    return env


async def _show(session: Session, websocket: web.WebSocketResponse,
                ended: Callable[[Session], None]) -> None:
    """The app's screen to the tab while the app runs; then the session is over and the tab
    is closed, saying why."""
    try:
        await session.pump_out(websocket.send_bytes, websocket.send_str)
    finally:
        ended(session)
    with contextlib.suppress(ConnectionError, RuntimeError):
        await websocket.close(code=1000, message=session.ended_why.encode("utf-8")[:120])


async def _pong(websocket: web.WebSocketResponse, text: str) -> None:
    with contextlib.suppress(ValueError):
        envelope = json.loads(text)
        if isinstance(envelope, list) and len(envelope) == 2 and isinstance(envelope[1], str):
            await websocket.send_json(["pong", envelope[1][:64]])


def _our_name(host: str) -> bool:
    """Whether ``host`` (a Host header) names this machine: an address, or its own name.
    Any other name could be a stranger's that points at this machine (DNS rebinding)."""
    name, port = host, ""
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else rest
    elif host.count(":") == 1:
        name, port = host.split(":")
    if port and not port.isdigit():
        return False
    with contextlib.suppress(ValueError):
        ipaddress.ip_address(name)
        return True
    machine = socket.gethostname().casefold()
    return name.casefold() in {"localhost", machine, f"{machine}.local"}


def _count(folder: Path) -> int:
    """How many browsers' folders there are (none, if the folder cannot be read)."""
    try:
        return sum(entry.is_dir() for entry in folder.iterdir())
    except OSError:
        return 0


def _prune(folder: Path, kept: int) -> None:
    """Remove the least recently used browser folders beyond ``kept``."""
    with contextlib.suppress(OSError):
        folders = sorted((entry for entry in folder.iterdir() if entry.is_dir()),
                         key=lambda entry: entry.stat().st_mtime)
        import shutil

        for old in folders[:max(0, len(folders) - kept)]:
            if time.time() - old.stat().st_mtime > FOLDER_AGE:
                shutil.rmtree(old, ignore_errors=True)


def _digest(browser: str) -> str:
    """What names a browser (its folder; its knocks' mark): a digest of its cookie, never
    the cookie itself, which takes its seat."""
    return hashlib.sha256(browser.encode()).hexdigest()[:32]
