"""How browser seats' apps are started (net/web/starter.py, doubtlan/cli_seats.py): every
seat's app on a thread of one seats' process, each with its browser's own data folder; the
installed doubtlan whatever folder the host was started from; and an app that cannot start
is told to the host and to the page in a sentence. Loopback only."""

from __future__ import annotations

import asyncio
import json
import ssl
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from webtabs import STEP, Tab, alive, children, client, served, tab

from doubtlan.net.last_name import FILE_NAME
from doubtlan.net.web.starter import SeatsStarter, Starter

#: A folder named as the package, in the folder the host is started from: imported in place
#: of the installed doubtlan, it would stop every seat's app.
SHADOW = "raise SystemExit('the folder named doubtlan was imported, not the installed one')\n"


async def test_every_seats_app_is_a_thread_of_one_process_with_its_browsers_folder(
        tmp_path: Path) -> None:
    # (browsers' folders of this test's own: other tests' hosts keep theirs in the data
    # folder of the test session)
    async with served("Threads table", folder=tmp_path / "browsers") as (_, web), \
            tab(web) as ann, \
            tab(web, "127.0.0.2") as bob:
        assert isinstance(web.starter, SeatsStarter)
        for page, name in ((ann, "Ann"), (bob, "Bob")):
            await page.read_until("Your name")
            await page.socket.send_str(json.dumps(["stdin", name + "\r"]))
            await page.read_until("seated")
        seats = web.starter.pid
        assert seats is not None and alive(seats)
        assert children(seats) == []  # (no process of its own for either)
        # Each app kept its player's name in its own browser's folder, not the other's.
        names = {path.read_text().strip() for path in web.folder.glob(f"*/{FILE_NAME}")}
        assert names == {"Ann", "Bob"}
        assert len(list(web.folder.glob(f"*/{FILE_NAME}"))) == 2


@pytest.mark.parametrize("way", ["seats", "process"])
async def test_a_folder_named_doubtlan_where_the_host_started_changes_nothing(
    way: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "doubtlan").mkdir()
    (tmp_path / "doubtlan" / "__init__.py").write_text(SHADOW)
    (tmp_path / "doubtlan" / "__main__.py").write_text(SHADOW)
    monkeypatch.chdir(tmp_path)
    async with served("Shadowed table") as (_, web):
        if way == "process":
            await web.starter.close()
            web.starter = Starter()
        async with tab(web) as page:
            await page.read_until("Your name")


async def test_a_host_started_in_a_folder_holding_a_doubtlan_folder_seats_a_browser(
    tmp_path: Path,
) -> None:
    """The host as a player starts it (the installed command), from the folder a clone's
    parent is after the README's commands: the page's app is the installed one."""
    (tmp_path / "doubtlan").mkdir()
    (tmp_path / "doubtlan" / "__init__.py").write_text(SHADOW)
    (tmp_path / "doubtlan" / "__main__.py").write_text(SHADOW)
    command = Path(sys.executable).parent / "doubtlan"
    host = subprocess.Popen(
        [str(command), "host", "--headless", "--players", "3", "--bots", "1", "--table",
         "Shadowed host", "--bind", "127.0.0.1", "--port", "0", "--web", "0",
         "--no-advertise", "--no-journal"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, cwd=tmp_path)
    try:
        assert host.stdout is not None
        url = None
        while url is None:
            line = await asyncio.wait_for(asyncio.to_thread(host.stdout.readline), STEP)
            assert line, host.stderr.read() if host.stderr else "the host ended"
            if "a seat from a browser:" in line:
                url = line.split()[-1]
        port = int(url.rsplit(":", 1)[1].strip("/"))
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=context)) as session:
            async with session.get(url + "?fresh=1") as response:
                browser = response.cookies["doubtlan-browser"].value
            socket = await session.ws_connect(
                f"wss://127.0.0.1:{port}/ws?width=80&height=24",
                origin=f"https://127.0.0.1:{port}",
                headers={"Cookie": f"doubtlan-browser={browser}"})
            page = Tab(socket)
            await page.read_until("Your name")
            await socket.send_str(json.dumps(["stdin", "Zoe\r"]))
            await page.read_until("seated")
            assert b"Zoe" in page.screen
            await socket.close()
    finally:
        host.terminate()
        await asyncio.to_thread(host.wait, STEP)
        for stream in (host.stdout, host.stderr):
            if stream is not None:
                stream.close()


async def test_a_seats_app_that_cannot_start_is_told_to_the_host_and_the_page() -> None:
    told: list[str] = []
    async with served("Broken table") as (hosted, web):
        hosted.report = told.append  # (the host's screen, or its error output)
        web._args = lambda **_: ["join", "--no-such-option"]  # type: ignore[method-assign,misc]
        async with tab(web) as page:
            reason = await page.closed()
        assert "could not start on the host's machine" in reason, reason
        assert len(told) == 1 and "could not start" in told[0], told
        assert "not a seat's command line" in told[0], told


async def test_a_process_of_its_own_that_cannot_start_says_why() -> None:
    told: list[str] = []
    async with served("Broken process table") as (_, web):
        await web.starter.close()
        web.starter = Starter([sys.executable, "-c", "raise SystemExit('no such module')"])
        web.report = told.append
        async with tab(web) as page:
            reason = await page.closed(timeout=STEP)
        assert "could not start on the host's machine (no such module)" in reason, reason
        assert told == ["A browser seat's app could not start: no such module"], told


async def test_the_seats_process_refuses_a_connection_without_its_secret() -> None:
    async with served("Secret table") as (_, web), client(web) as _:
        starter = web.starter
        assert isinstance(starter, SeatsStarter)
        async with tab(web) as page:  # (the process is ready once a page has its app)
            await page.read_until("Your name")
        assert starter.port is not None
        reader, writer = await asyncio.open_connection("127.0.0.1", starter.port)
        writer.write(json.dumps({"secret": "0" * 64, "args": ["join", "127.0.0.1:1"],
                                 "home": "/tmp", "width": 80, "height": 24}).encode() + b"\n")
        await writer.drain()
        async with asyncio.timeout(STEP):
            assert await reader.read() == b""  # dropped, unanswered: no app
        writer.close()
        await writer.wait_closed()


async def test_the_page_opens_the_phones_keyboard_for_the_name_and_not_in_the_lobby() -> None:
    """The app says where a text field has the focus: the page's keyboard opens there and
    nowhere else (page.js sets the typing field's inputmode), so a tap on a card or a button
    brings up no keyboard over the table."""
    async with served("Keyboard table") as (_, web), tab(web) as page:
        await page.read_until("Your name")
        await told(page, '["keyboard", true]')
        await page.socket.send_str(json.dumps(["stdin", "Ann\r"]))
        await page.read_until("seated")
        await told(page, '["keyboard", false]')


async def told(page: Tab, said: str) -> None:
    """Read the page's frames until the last thing the page was told is ``said``."""
    try:
        async with asyncio.timeout(STEP):
            while not page.said or page.said[-1] != said:
                message = await page.socket.receive()
                if message.type == aiohttp.WSMsgType.TEXT:
                    page.said.append(message.data)
    except TimeoutError:
        raise AssertionError(f"never told {said}: {page.said}") from None
