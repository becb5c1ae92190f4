"""What the host allows each connection, and all of them together (net/host.py): how
fast they may come, how long they may take to join, what they may send and make it hold."""

from __future__ import annotations

from dataclasses import dataclass

from . import protocol


@dataclass
class Limits:
    """How much the host takes from its connections."""

    #: Connections that have not joined yet (still saying hello), in all and from any one
    #: address. Past ``waiting`` the oldest of them is let go to make room for the new one;
    #: past ``waiting_per_address`` the new one is turned away. Joined connections are
    #: capped by the table (its seats, and ``TableConfig.watchers``): a seated player coming
    #: back always finds room.
    waiting: int = 16
    waiting_per_address: int = 4
    #: New connections from one address: a burst of ``connect_burst``, then
    #: ``connect_rate`` a second; and TLS handshakes in all for addresses that hold no
    #: seat: a burst of ``handshake_burst``, then ``handshake_rate`` a second. A connection
    #: past either is closed before any cryptography is done for it (a TLS handshake costs
    #: the host about a millisecond of CPU). An address a seat was played from is never held
    #: to the second: a seated player coming back always gets in.
    connect_burst: float = 16.0
    connect_rate: float = 4.0
    handshake_burst: float = 64.0
    handshake_rate: float = 64.0
    #: TLS handshakes under way at once, past which a new connection is closed before its
    #: own begins (unless a seat was played from its address): each holds the TLS layer's
    #: buffers (256 KiB) until it ends, so this bounds what connections that have not
    #: joined can make the host hold (bench/attack.py, memory).
    handshaking: int = 32
    #: Seconds a new connection has to say hello.
    handshake: float = 5.0
    #: Seconds between pings; a peer silent for ``silence`` seconds is dropped at the next
    #: ping, so a silent peer is noticed within ``silence + ping_every`` (15) seconds.
    ping_every: float = 5.0
    silence: float = 10.0
    #: Messages waiting to be written to one connection before it is dropped as stuck.
    queue: int = 512
    #: Bytes buffered for one connection before its writer waits for the peer to read.
    write_buffer: int = 64 * 1024
    #: The kernel's send buffer for each connection (None: the system's choice).
    send_buffer: int | None = None
    #: Messages a connection may send: a burst of ``burst``, then ``rate`` a second.
    burst: float = protocol.MESSAGE_BURST
    rate: float = protocol.MESSAGE_RATE
    #: Bytes a connection may send: a burst of ``burst_bytes``, then ``rate_bytes`` a second.
    burst_bytes: float = 1024 * 1024
    rate_bytes: float = 256 * 1024
    #: Bytes a connection may send before it has joined (a knock and a hello are well under
    #: 1 KiB): what costs the host work before it knows who is there is kept small.
    before_joining: int = 8 * 1024
