"""Browser seats' server (net/web): HTTPS with the table's own certificate and nothing else,
a page with nothing from outside the host, another site's page refused, sessions capped and
ended, and no app process left behind. Loopback only; tests/test_phones.py plays in
a real browser, in the tests' own network namespaces."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import ssl
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from webtabs import STEP, Tab, alive, browser_id, children, client, ended, gone, served, tab
from yarl import URL

from doubtlan.net.web import server
from doubtlan.net.web.session import IDLE_ENDED


async def test_the_page_is_the_tables_own_over_https_with_nothing_from_outside() -> None:
    async with served("Web page table") as (hosted, web), client(web) as session:
        assert web.fingerprint == hosted.table.fingerprint  # (the client holds it to that)
        # A request without the cookie (a link followed from another site, whose requests
        # a SameSite=Strict cookie never goes with) is sent back to load the page again
        # from this site, so that a browser's id is never replaced by a new one.
        async with session.get(web.url("127.0.0.1") + "?watch") as response:
            assert "Set-Cookie" not in response.headers
            assert 'content="0; url=/?watch=&amp;fresh=1"' in await response.text()
        async with session.get(web.url("127.0.0.1") + "?watch",
                               headers={"Sec-Fetch-Site": "cross-site"}) as response:
            assert "Set-Cookie" not in response.headers  # (a link from another site)
        # An address typed, scanned or bookmarked ("none") carries the cookie if the browser
        # has one: one without is new, and is given its id at once.
        async with session.get(web.url("127.0.0.1"),
                               headers={"Sec-Fetch-Site": "none"}) as response:
            assert response.status == 200 and "doubtlan-browser=" in \
                response.headers["Set-Cookie"]
            assert "data-session-websocket-url" in await response.text()
        async with session.get(web.url("127.0.0.1") + "?fresh=1") as response:
            assert response.status == 200
            html = await response.text()
            cookie = response.headers["Set-Cookie"]
            policy = response.headers["Content-Security-Policy"]
        browser = re.search(r"doubtlan-browser=([0-9a-f]{32});", cookie)
        assert browser is not None
        async with session.get(web.url("127.0.0.1"),  # the id comes back: it is kept
                               headers={"Cookie": f"doubtlan-browser={browser[1]}"}) as again:
            assert f"doubtlan-browser={browser[1]};" in again.headers["Set-Cookie"]
        assert re.search(r"doubtlan-browser=[0-9a-f]{32};", cookie), cookie
        for attribute in ("Secure", "HttpOnly", "SameSite=Strict"):
            assert attribute in cookie, cookie
        assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
        # Every file the page names is the host's (no address of any other machine).
        links = re.findall(r'(?:href|src)="([^"]*)"', html)
        assert links and all(link.startswith("/") or link == "data:," for link in links), links
        assert "googleapis" not in html and "http://" not in html
        assert f'data-session-websocket-url="wss://127.0.0.1:{web.port}/ws"' in html
        for link in links:
            if link.startswith("/"):
                async with session.get(web.url("127.0.0.1") + link[1:]) as response:
                    assert response.status == 200, link
                    body = await response.read()
                    assert b"fonts.googleapis" not in body and b"fonts.gstatic" not in body
                    if link.endswith("textual.js"):
                        assert b"screenReaderMode:!0" in body  # the screen, readable
                        assert b"_renderRows.bind(this),250)" in body
        for path in ("static/%2e%2e/%2e%2e/host.pem", "static/..%2f..%2fhost.pem",
                     "static/js/../../page.py", "host.pem"):
            async with session.get(URL(web.url("127.0.0.1") + path, encoded=True)) as got:
                assert got.status == 404, path
        async with session.get(web.url("127.0.0.1") + "?fontsize=<script>",
                               headers={"Cookie": f"doubtlan-browser={browser[1]}"}) as response:
            assert 'data-font-size="16"' in await response.text()


async def test_plain_http_on_the_web_port_gets_nothing_of_the_table() -> None:
    async with served("Plain table") as (_, web):
        reader, writer = await asyncio.open_connection("127.0.0.1", web.port)
        writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{web.port}\r\n\r\n".encode())
        await writer.drain()
        async with asyncio.timeout(STEP):
            answer = await reader.read()  # until the server closes the connection
        writer.close()
        assert b"HTTP/" not in answer and b"Plain table" not in answer, answer
        # Nor does the server take anything but TLS 1.3.
        older = ssl.create_default_context()
        older.check_hostname, older.verify_mode = False, ssl.CERT_NONE
        older.maximum_version = ssl.TLSVersion.TLSv1_2
        with pytest.raises((ssl.SSLError, ConnectionError)):
            await asyncio.open_connection("127.0.0.1", web.port, ssl=older)
        async with client(web) as session:  # and it still serves the page
            await browser_id(session, web)


async def test_another_sites_page_and_another_name_are_refused() -> None:
    async with served("Origin table") as (_, web), client(web) as session:
        browser = await browser_id(session, web)
        url = f"wss://127.0.0.1:{web.port}/ws"
        for origin in ("https://evil.example", f"http://127.0.0.1:{web.port}", None):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(url, origin=origin,
                                         headers={"Cookie": f"doubtlan-browser={browser}"})
            assert refused.value.status == 403, origin
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:  # no page opened first
            await session.ws_connect(url, origin=f"https://127.0.0.1:{web.port}")
        assert refused.value.status == 403
        # A stranger's name for this machine (DNS rebinding) gets no page and no seat, even
        # with an Origin of that same name.
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(url, origin=f"https://evil.example:{web.port}",
                                     headers={"Cookie": f"doubtlan-browser={browser}",
                                              "Host": f"evil.example:{web.port}"})
        assert refused.value.status == 421
        for host in ("127.0.0.1:1@evil.example", "1.2.3.4:evil.example"):
            async with session.get(web.url("127.0.0.1"), headers={"Host": host}) as got:
                assert got.status == 421, host
        async with session.get(web.url("127.0.0.1"), headers={"Host": "evil.example"}) as got:
            assert got.status == 421
            assert "doubtlan-browser" not in got.headers.get("Set-Cookie", "")
        assert not web.sessions


async def test_sessions_are_capped_in_all_and_from_one_address() -> None:
    async with served("Capped table", most=2, per_address=1) as (_, web):
        async with tab(web, "127.0.0.1") as first:
            await first.read_until("Your name")
            async with tab(web, "127.0.0.1") as second:  # the same device again
                assert "1 table pages open" in await second.closed()
            async with tab(web, "127.0.0.2") as third:
                await third.read_until("Your name")
                async with tab(web, "127.0.0.3") as fourth:  # a third device: none left
                    assert "Every browser seat is taken (2 at once)" in await fourth.closed()
                sessions = list(web.sessions)
                assert len(sessions) == 2 and not any(ended(session) for session in sessions)
            await third.closed()
        # Tabs closed: their apps were asked to quit, and have ended; so have their sessions.
        await asyncio.wait_for(web.none_open.wait(), STEP)
        assert all(ended(session) for session in sessions)


async def test_only_a_session_that_starts_makes_a_folder_and_there_are_at_most_so_many(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tabs turned away (the seats taken) make no folder in the host's data folder, each
    with a cookie of its own; beyond the folders the host may keep, a new browser is turned
    away with a sentence while one it knows still sits down."""
    monkeypatch.setattr(server, "FOLDERS_MOST", 2)
    async with served("Kept folders", most=1, per_address=1,
                      folder=tmp_path / "browsers") as (_, web):
        async with client(web, "127.0.0.1") as session:
            known = await browser_id(session, web)
        async with tab(web, "127.0.0.1", browser=known) as first:
            await first.read_until("Your name")
            for _ in range(6):  # (within one address's burst of starts)
                async with tab(web, "127.0.0.2") as refused:
                    assert "Every browser seat is taken" in await refused.closed()
            assert len([p for p in web.folder.iterdir() if p.is_dir()]) == 1
        await asyncio.wait_for(web.none_open.wait(), STEP)
        async with tab(web, "127.0.0.3") as second:
            await second.read_until("Your name")
        await asyncio.wait_for(web.none_open.wait(), STEP)
        async with tab(web, "127.0.0.4") as third:  # a third browser: two folders kept
            assert "cannot keep this browser's seat" in await third.closed()
        async with tab(web, "127.0.0.4", browser=known) as again:
            await again.read_until("Your name")
        assert len([p for p in web.folder.iterdir() if p.is_dir()]) == 2


async def test_a_connection_that_trickles_its_headers_is_closed() -> None:
    """Slowloris: a request's headers sent a byte at a time, never ending, keep the
    connection for HEADERS_TIME from its handshake at most, however steadily they come."""
    async with served("Slow table") as (_, web):
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        reader, writer = await asyncio.open_connection("127.0.0.1", web.port, ssl=context)
        clock = asyncio.get_running_loop().time
        opened = clock()
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        closed = False
        while not closed and clock() - opened < 4 * server.HEADERS_TIME:
            try:  # (the server's close awaited for half a second, then one more byte)
                closed = await asyncio.wait_for(reader.read(1024), 0.5) == b""
            except TimeoutError:
                writer.write(b"X")
                await writer.drain()
            except ConnectionError:
                closed = True
        assert closed, "the trickling connection is still open"
        assert clock() - opened >= server.HEADERS_TIME - 1
        writer.close()


async def test_a_tab_idle_in_the_lobby_ends_and_its_process_is_gone() -> None:
    async with served("Idle table", idle_end=1.0) as (_, web), tab(web) as idle:
        await idle.read_until("Your name")
        [session] = web.sessions
        # Nobody types: the app ends itself, says why, and its process is gone.
        reason = await idle.closed(timeout=STEP)
        assert "left in the lobby for too long" in reason, reason
        assert session.code == IDLE_ENDED and ended(session)
        assert not web.sessions


async def test_what_no_page_sends_is_dropped_and_the_app_goes_on() -> None:
    async with served("Garbled table") as (_, web), tab(web) as garbled:
        await garbled.read_until("Your name")
        [session] = web.sessions
        for bad in ("not json", '["stdin", 5]', '["resize", {"width": 1e9}]', "[]", '{"a": 1}',
                    '["stdin"]', json.dumps(["resize", {"width": 3, "height": 2}]),
                    '["ping", 7]', '["quit"]'):
            await garbled.socket.send_str(bad)
        await garbled.socket.send_bytes(b"\x00\xff")
        garbled.screen.clear()  # it redraws at a size a page may ask for
        await garbled.socket.send_str(json.dumps(["resize", {"width": 100, "height": 30}]))
        await garbled.read_until("Your name")
        await garbled.socket.send_str('["ping", "7"]')
        async with asyncio.timeout(STEP):
            pong = await garbled.socket.receive()
            while pong.type == aiohttp.WSMsgType.BINARY or pong.data.startswith('["keyboard"'):
                pong = await garbled.socket.receive()
        assert pong.json() == ["pong", "7"]
        # Typed keys reach it (the name field shows them).
        await garbled.socket.send_str(json.dumps(["stdin", "Zoë"]))
        await garbled.read_until("Zoë")
        # A message past the largest a page sends ends that tab alone.
        await garbled.socket.send_str(json.dumps(["stdin", "x" * 70_000]))
        await garbled.closed()
        await asyncio.wait_for(web.none_open.wait(), STEP)
        assert ended(session)
        async with tab(web) as next_one:  # and the next page is served as ever
            await next_one.read_until("Your name")


async def test_no_app_is_left_after_the_host_stops() -> None:
    async with served("Stopping table") as (hosted, web), tab(web, "127.0.0.1") as one, \
            tab(web, "127.0.0.2") as two:
        await one.read_until("Your name")
        await two.read_until("Your name")
        sessions, seats = list(web.sessions), web.starter.pid
        assert len(sessions) == 2 and seats is not None and alive(seats)
        await hosted.close()
        # Each app was asked to end and did; the seats' process was waited for.
        assert all(ended(session) for session in sessions) and not alive(seats)
        await one.closed()
        await two.closed()


async def test_no_app_is_left_after_the_host_is_killed() -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "doubtlan", "host", "--headless", "--players", "3", "--bots",
         "1", "--table", "Killed web table", "--bind", "127.0.0.1", "--port", "0", "--web",
         "0", "--no-advertise", "--no-journal"], stdout=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None
        url = None
        while url is None:
            line = await asyncio.wait_for(asyncio.to_thread(host.stdout.readline), STEP)
            assert line, "the host ended before it served browser seats"
            if "a seat from a browser:" in line:
                url = line.split()[-1]
        port = int(url.rsplit(":", 1)[1].strip("/"))
        fingerprint = await asyncio.wait_for(asyncio.to_thread(host.stdout.readline), STEP)
        assert "SHA-256" in fingerprint
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        connector = aiohttp.TCPConnector(ssl=context)
        async with aiohttp.ClientSession(connector=connector) as session:
            async with session.get(url + "?fresh=1") as response:
                browser = response.cookies["doubtlan-browser"].value
            socket_ = await session.ws_connect(
                f"wss://127.0.0.1:{port}/ws", origin=f"https://127.0.0.1:{port}",
                headers={"Cookie": f"doubtlan-browser={browser}"})
            async with asyncio.timeout(STEP):
                message = await socket_.receive()  # the app is up: its first screen
            assert message.type == aiohttp.WSMsgType.BINARY
            apps = children(host.pid)
            assert len(apps) == 1, apps
            host.send_signal(signal.SIGKILL)  # no goodbye: the pipes to the app just end
            host.wait(STEP)
            await gone(apps)
            await socket_.close()
    finally:
        host.kill()
        host.wait(STEP)
        if host.stdout is not None:
            host.stdout.close()


async def test_a_page_opened_to_watch_watches() -> None:
    async with served("Watched table") as (_, web), client(web) as session:
        browser = await browser_id(session, web)
        async with session.get(web.url("127.0.0.1") + "?watch",
                               headers={"Cookie": f"doubtlan-browser={browser}"}) as response:
            assert f"wss://127.0.0.1:{web.port}/ws?watch=1" in await response.text()
        socket = await session.ws_connect(
            f"wss://127.0.0.1:{web.port}/ws?watch=1&width=100&height=30",
            origin=f"https://127.0.0.1:{web.port}",
            headers={"Cookie": f"doubtlan-browser={browser}"})
        watcher = Tab(socket)
        await watcher.read_until("Watching")  # (no name asked: a watcher has no seat)
        await socket.close()
