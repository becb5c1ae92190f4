"""A private LAN of network namespaces, for tests that must send real packets.

``Lan(hosts=3, prefix="disc")`` makes a namespace holding a bridge and ``hosts`` namespaces,
each with a veth cable to the bridge, loopback up, an address ``10.231.X.i/24`` (``i`` from 1,
``X`` chosen by the prefix) and a route for multicast. Nothing is added to the machine's own
namespace, so no packet of the test can reach a real interface, and the bridge namespace is
not connected to anything else.

``lan.run(i, argv)`` starts a process in host ``i`` (with ``ip netns exec``) and returns a
:class:`Guest`, whose output a test reads line by line with a deadline. ``lan.capture(path)``
records every frame that crosses the bridge into a pcap file (:class:`Capture`; no tcpdump:
a raw packet socket in the bridge's namespace), and :func:`read_pcap` and :func:`tcp_streams`
read it back. Leaving the ``with`` block (also after a failure) kills every process the lan
started and removes every namespace it made. Names carry the pid and a counter, so parallel
and leftover runs do not clash.

Needs root and iproute2 (:func:`netns_available`).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import shutil
import struct
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
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
    """A process running in one host of a :class:`Lan` (host 0: the bridge's namespace)."""

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
        return self._start(i, self.namespace(i), argv, popen_kwargs)

    def capture(self, path: Path, limit: float = 600.0) -> Capture:
        """Record every frame that crosses the bridge into ``path`` (pcap), from now until
        :meth:`Capture.stop` (or ``limit`` seconds, or the lan closing)."""
        guest = self._start(0, self.bridge, [sys.executable, "-c", CAPTURE, "br0", str(path),
                                             str(limit)], {})
        guest.expect(lambda line: line == "capturing", IP_TIMEOUT, "the capture to start")
        return Capture(guest, path)

    def _start(self, i: int, namespace: str, argv: Sequence[str],
               popen_kwargs: dict[str, Any]) -> Guest:
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
        popen = subprocess.Popen(["ip", "netns", "exec", namespace, *argv], **options)
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


# -- capturing what crosses the bridge ----------------------------------------------------------

#: Run in the bridge's namespace as ``python -c CAPTURE INTERFACE PATH LIMIT``: every frame the
#: interface sees goes into PATH, a pcap file. It says "capturing" once the socket is bound,
#: and stops when its standard input closes (reading what the socket still holds first) or
#: after LIMIT seconds.
CAPTURE = r"""
import os, select, socket, struct, sys, time

ETH_P_ALL, SOL_PACKET, PACKET_ADD_MEMBERSHIP, PACKET_MR_PROMISC = 0x0003, 263, 1, 1
SNAPLEN = 1 << 18  # the kernel may hand over frames merged past the MTU (GRO)
interface, path, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 << 20)
sock.bind((interface, ETH_P_ALL))
# As libpcap does: a bridge in promiscuous mode passes up every frame it forwards between
# its ports, not only those addressed to itself. It ends with the socket.
request = struct.pack("iHH8s", socket.if_nametoindex(interface), PACKET_MR_PROMISC, 0, b"")
sock.setsockopt(SOL_PACKET, PACKET_ADD_MEMBERSHIP, request)
frames = 0
with open(path, "wb") as out:
    out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, SNAPLEN, 1))  # 1: Ethernet

    def keep(frame):
        global frames
        now = time.time()
        out.write(struct.pack("<IIII", int(now), int(now % 1 * 1e6), len(frame), len(frame)))
        out.write(frame)
        frames += 1

    print("capturing", flush=True)
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        ready, _, _ = select.select([sock, 0], [], [], max(deadline - time.monotonic(), 0))
        if sock in ready:
            keep(sock.recv(SNAPLEN))
        if 0 in ready and not os.read(0, 4096):
            break
    sock.setblocking(False)
    try:
        while True:
            keep(sock.recv(SNAPLEN))
    except BlockingIOError:
        pass
print(f"captured {frames} frames", flush=True)
"""


class Capture:
    """A capture running in the bridge's namespace (see :meth:`Lan.capture`)."""

    def __init__(self, guest: Guest, path: Path) -> None:
        self.guest = guest
        self.path = path

    def stop(self, timeout: float = IP_TIMEOUT) -> list[bytes]:
        """Stop capturing; every frame captured, in order."""
        status = self.guest.finish(timeout)
        if status != 0:
            raise RuntimeError(f"the capture failed ({status}): {self.guest.errors()}")
        return read_pcap(self.path)


def read_pcap(path: Path) -> list[bytes]:
    """The frames of a pcap file (the classic format, as :data:`CAPTURE` writes it)."""
    data = path.read_bytes()
    magic, _, _, _, _, _, link = struct.unpack_from("<IHHiIII", data)
    if magic != 0xA1B2C3D4 or link != 1:
        raise ValueError(f"{path} is not a pcap file of Ethernet frames")
    frames = []
    at = 24
    while at < len(data):
        _, _, size, _ = struct.unpack_from("<IIII", data, at)
        frames.append(data[at + 16:at + 16 + size])
        at += 16 + size
    return frames


@dataclass(frozen=True)
class Segment:
    """A TCP segment of an IPv4 frame."""

    source: tuple[str, int]
    destination: tuple[str, int]
    seq: int
    syn: bool
    payload: bytes


def tcp_segments(frames: Sequence[bytes]) -> Iterator[Segment]:
    """The TCP segments among ``frames`` (Ethernet; IPv4, unfragmented, as on this LAN)."""
    for frame in frames:
        if len(frame) < 34 or frame[12:14] != b"\x08\x00" or frame[23] != 6:
            continue  # not IPv4 carrying TCP
        ip = frame[14:]
        header = (ip[0] & 0x0F) * 4
        total = struct.unpack_from(">H", ip, 2)[0]
        tcp = ip[header:total]
        source_port, destination_port, seq = struct.unpack_from(">HHI", tcp)
        offset = (tcp[12] >> 4) * 4
        source = ".".join(str(b) for b in ip[12:16])
        destination = ".".join(str(b) for b in ip[16:20])
        yield Segment((source, source_port), (destination, destination_port), seq,
                      bool(tcp[13] & 0x02), bytes(tcp[offset:]))


def tcp_streams(frames: Sequence[bytes]) -> dict[tuple[tuple[str, int], tuple[str, int]], bytes]:
    """The bytes each TCP connection among ``frames`` carried, by (source, destination), put
    in order by sequence number (retransmissions once). Only connections whose SYN was
    captured; :class:`ValueError` if a stream has a hole (a segment the capture missed)."""
    starts: dict[tuple[tuple[str, int], tuple[str, int]], int] = {}
    pieces: dict[tuple[tuple[str, int], tuple[str, int]], dict[int, bytes]] = {}
    for segment in tcp_segments(frames):
        key = (segment.source, segment.destination)
        if segment.syn:
            starts[key] = (segment.seq + 1) % 2**32
        if segment.payload:
            found = pieces.setdefault(key, {})
            if len(segment.payload) > len(found.get(segment.seq, b"")):
                found[segment.seq] = segment.payload
    streams = {}
    for key, start in starts.items():
        stream = bytearray()
        for seq, payload in sorted(pieces.get(key, {}).items(),
                                   key=lambda item: (item[0] - start) % 2**32):
            at = (seq - start) % 2**32
            if at > len(stream):
                raise ValueError(f"{key}: {at - len(stream)} bytes missing at {len(stream)}")
            stream += payload[len(stream) - at:]
        streams[key] = bytes(stream)
    return streams
