"""A private LAN of network namespaces, for tests that must send real packets.

``Lan(hosts=3, prefix="disc")`` makes a namespace holding a bridge and ``hosts`` namespaces,
each with a veth cable to the bridge, loopback up, an address ``10.231.X.i/24`` (``i`` from 1,
``X`` chosen by the prefix) and a route for multicast. Nothing is added to the machine's own
namespace, so no packet of the test can reach a real interface, and the bridge namespace is
not connected to anything else.

``lan.run(i, argv)`` starts a process in host ``i`` (with ``ip netns exec``) and returns a
:class:`Guest`, whose output a test reads line by line with a deadline. Leaving the ``with``
block (also after a failure) kills every process the lan started and removes every namespace
it made. Names carry the pid and a counter, so parallel and leftover runs do not clash.

Needs root and iproute2 (:func:`netns_available`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import shutil
import subprocess
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import IO, Any, Self

#: How long one ``ip`` command may take.
IP_TIMEOUT = 10.0
_counter = itertools.count()


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        ["ip", *args], capture_output=True, text=True, timeout=IP_TIMEOUT, check=False
    )
    if check and result.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)} failed: {result.stderr.strip()}")
    return result


def netns_available() -> bool:
    """Whether this process can make network namespaces: root, iproute2, and ``ip netns`` works
    (tried by adding and removing one)."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        return False
    probe = f"lanprobe{os.getpid()}n{next(_counter)}"
    try:
        if _ip("netns", "add", probe, check=False).returncode != 0:
            return False
        return _ip("-n", probe, "link", "set", "lo", "up", check=False).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        _ip("netns", "delete", probe, check=False)


NETNS_MISSING = (
    "this test needs root and a working `ip netns` (iproute2) to build a private LAN of "
    "network namespaces; run it as root (CI does)"
)


class Lines:
    """Reads a text stream in a thread, so a test can wait for a line with a deadline."""

    def __init__(self, stream: IO[str]) -> None:
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        self._stream = stream
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for line in self._stream:
                self._lines.put(line.rstrip("\n"))
        except (OSError, ValueError):
            pass  # the stream was closed under us: the same as its end
        finally:
            self._lines.put(None)

    def next(self, timeout: float) -> str:
        """The next line; :class:`TimeoutError` after ``timeout`` seconds, :class:`EOFError`
        at the end of the stream."""
        try:
            line = self._lines.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            raise TimeoutError(f"no line within {timeout:.1f} s") from None
        if line is None:
            self._lines.put(None)  # stay at the end for later calls
            raise EOFError("the stream ended")
        self.seen.append(line)
        return line

    def expect(self, match: Callable[[str], bool], timeout: float, what: str = "") -> str:
        """The first line (from here on) for which ``match`` is true, within ``timeout`` seconds.

        Raises :class:`AssertionError` naming ``what`` and the lines seen if none comes.
        """
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.next(deadline - time.monotonic())
            except (TimeoutError, EOFError) as error:
                raise AssertionError(
                    f"waited for {what or 'a matching line'}: {error}; lines seen:\n"
                    + "\n".join(self.seen[-20:])
                ) from None
            if match(line):
                return line

    def drain(self) -> str:
        """Every line read so far (those already returned included), without waiting."""
        while True:
            try:
                self.next(0)
            except (TimeoutError, EOFError):
                return "\n".join(self.seen)

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)


class Guest:
    """A process running in one host of a :class:`Lan`."""

    def __init__(self, host: int, popen: subprocess.Popen[str]) -> None:
        self.host = host
        self.popen = popen
        self.stdout = Lines(popen.stdout) if popen.stdout is not None else None
        self.stderr = Lines(popen.stderr) if popen.stderr is not None else None

    def send(self, line: str) -> None:
        """Write one line to the process's standard input."""
        assert self.popen.stdin is not None, "started without stdin=PIPE"
        self.popen.stdin.write(line + "\n")
        self.popen.stdin.flush()

    def expect(self, match: Callable[[str], bool], timeout: float, what: str = "") -> str:
        """The next line of standard output that ``match`` accepts (see :meth:`Lines.expect`);
        on failure the message also holds what the process wrote to standard error."""
        assert self.stdout is not None, "started without stdout=PIPE"
        try:
            return self.stdout.expect(match, timeout, what)
        except AssertionError as error:
            message = f"{error}\n--- stderr of host {self.host}:\n{self.errors()}"
            raise AssertionError(message) from None

    def errors(self) -> str:
        """What the process has written to standard error so far (once it has ended, all)."""
        return "" if self.stderr is None else self.stderr.drain()

    def finish(self, timeout: float = 5.0) -> int:
        """Close standard input and wait for the process to exit, killing it after ``timeout``
        seconds; its exit status. Afterwards ``stdout.seen`` and ``stderr.seen`` hold every
        line it wrote."""
        if self.popen.stdin is not None and not self.popen.stdin.closed:
            with contextlib.suppress(OSError):  # a broken pipe: it is gone already
                self.popen.stdin.close()
        try:
            self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait(IP_TIMEOUT)
        for lines in (self.stdout, self.stderr):
            if lines is not None:
                lines.join(IP_TIMEOUT)
                lines.drain()
        for stream in (self.popen.stdout, self.popen.stderr):
            if stream is not None:
                stream.close()
        return self.popen.returncode


class Lan:
    """A bridge and ``hosts`` hosts, each its own network namespace (see the module's doc)."""

    def __init__(self, hosts: int, prefix: str = "lan") -> None:
        if not 1 <= hosts <= 250:
            raise ValueError("a Lan has 1 to 250 hosts")
        if not prefix.isascii() or not prefix.isalnum() or len(prefix) > 12:
            raise ValueError("the prefix must be 1 to 12 ASCII letters or digits")
        self.hosts = hosts
        self.subnet = f"10.231.{zlib.crc32(prefix.encode()) % 250 + 1}"
        tag = f"{prefix}{os.getpid()}n{next(_counter)}"
        self.bridge = f"{tag}br"
        self.namespaces = [f"{tag}h{i}" for i in range(1, hosts + 1)]
        self._made: list[str] = []
        self._guests: list[Guest] = []

    def namespace(self, i: int) -> str:
        """The name of host ``i``'s namespace (hosts count from 1)."""
        if not 1 <= i <= self.hosts:
            raise IndexError(f"this lan has hosts 1 to {self.hosts}, not {i}")
        return self.namespaces[i - 1]

    def address(self, i: int) -> str:
        """Host ``i``'s IPv4 address."""
        self.namespace(i)
        return f"{self.subnet}.{i}"

    def __enter__(self) -> Self:
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _add_namespace(self, name: str) -> None:
        _ip("netns", "add", name)
        self._made.append(name)
        _ip("-n", name, "link", "set", "lo", "up")

    def _build(self) -> None:
        self._add_namespace(self.bridge)
        # mDNS (224.0.0.251) is flooded either way; without snooping, so is any other group a
        # test may use, with no membership reports to wait for.
        _ip("-n", self.bridge, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
        _ip("-n", self.bridge, "link", "set", "br0", "up")
        for i, name in enumerate(self.namespaces, start=1):
            self._add_namespace(name)
            # Both ends are made straight in their namespaces: nothing appears, even for a
            # moment, in the machine's own namespace.
            port = f"port{i}"
            _ip("-n", self.bridge, "link", "add", port, "type", "veth",
                "peer", "name", "eth0", "netns", name)
            _ip("-n", self.bridge, "link", "set", port, "master", "br0", "up")
            _ip("-n", name, "addr", "add", f"{self.address(i)}/24", "dev", "eth0")
            _ip("-n", name, "link", "set", "eth0", "up")
            # zeroconf names the interface for each send and needs no route; a program that
            # sends to a group without naming one would find none, as there is no default.
            _ip("-n", name, "route", "add", "224.0.0.0/4", "dev", "eth0")

    def run(self, i: int, argv: Sequence[str], **popen_kwargs: Any) -> Guest:
        """Start ``argv`` in host ``i``. Standard input, output and error are text pipes unless
        ``popen_kwargs`` says otherwise; the process is killed when the lan closes."""
        if not self._made:
            raise RuntimeError("the lan is not built: use it in a `with` block")
        options: dict[str, Any] = {
            "stdin": subprocess.PIPE,
            "stdout": subprocess.PIPE,
            "stderr": subprocess.PIPE,
            "text": True,
            "bufsize": 1,
        }
        options.update(popen_kwargs)
        popen = subprocess.Popen(["ip", "netns", "exec", self.namespace(i), *argv], **options)
        guest = Guest(i, popen)
        self._guests.append(guest)
        return guest

    def close(self) -> None:
        """Kill every process started here and remove every namespace made here. Safe to call
        twice; raises only after trying all of it."""
        problems: list[str] = []
        for guest in self._guests:
            if guest.popen.poll() is None:
                guest.popen.kill()
            try:
                guest.finish(timeout=IP_TIMEOUT)
            except Exception as error:  # carry on removing the rest
                problems.append(f"host {guest.host}: {error!r}")
        self._guests.clear()
        # A namespace whose processes are gone disappears with its interfaces once deleted.
        for name in reversed(self._made):
            result = _ip("netns", "delete", name, check=False)
            if result.returncode != 0:
                problems.append(f"ip netns delete {name}: {result.stderr.strip()}")
        self._made.clear()
        if problems:
            raise RuntimeError("could not clean up the lan: " + "; ".join(problems))
