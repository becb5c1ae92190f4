"""Who a host is on the network: its TLS key and certificate, their fingerprint, and the few
words people read aloud to compare it (docs/security.md).

A host makes its key and a self-signed certificate once (``cryptography``), and keeps them in
the user's data folder beside its journals, so a resumed table (and every later table of the
same host) shows the same fingerprint. Nobody checks the certificate against an authority:
clients check its fingerprint instead, against the table's advert, against the PIN (the key
exchange is bound to it: net/pin.py) and against the fingerprint they saw the last time
(net/known.py).
"""

from __future__ import annotations

import functools
import hashlib
import os
import ssl
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from .folder import FILE_MODE, folder_binary, private_folder

#: The file in the data folder (docs/journal.md) that holds the host's key and certificate.
FILE_NAME = "host.pem"
#: How many words say a fingerprint (its first six bytes: 48 bits).
WORDS = 6


@dataclass(frozen=True)
class Identity:
    """A host's key and self-signed certificate, in PEM."""

    key_pem: bytes
    cert_pem: bytes
    _context: list[ssl.SSLContext] = field(default_factory=list, compare=False, repr=False)

    @property
    def fingerprint(self) -> bytes:
        """The SHA-256 of the certificate (DER): what clients see and check."""
        return hashlib.sha256(ssl.PEM_cert_to_DER_cert(self.cert_pem.decode())).digest()

    def server_context(self) -> ssl.SSLContext:
        """A TLS 1.3 server context that presents this certificate (made once)."""
        if not self._context:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.minimum_version = ssl.TLSVersion.TLSv1_3
            context.num_tickets = 0  # clients never resume a session: no tickets to make
            # load_cert_chain reads files only: a private folder, removed at once.
            with tempfile.TemporaryDirectory(prefix="doubtlan-") as folder:
                path = Path(folder) / FILE_NAME
                path.write_bytes(self.key_pem + self.cert_pem)
                context.load_cert_chain(path)
            self._context.append(context)
        return self._context[0]


def make(name: str = "doubtlan table") -> Identity:
    """A new key (ECDSA P-256) and a certificate for it, signed by itself."""
    import datetime

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=3650))
        .sign(key, hashes.SHA256())
    )
    return Identity(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                          serialization.NoEncryption()),
        cert.public_bytes(serialization.Encoding.PEM),
    )


class IdentityError(Exception):
    """The host's key file cannot be read or written (the message says why)."""


def load_or_make(path: Path) -> Identity:
    """The identity kept at ``path``; a new one, written there (readable by its owner only),
    when there is none."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        identity = make()
        try:
            private_folder(path.parent)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | folder_binary(),
                                 FILE_MODE)
            with os.fdopen(descriptor, "wb") as out:
                out.write(identity.key_pem + identity.cert_pem)
        except FileExistsError:  # another host on this machine made it first: use theirs
            return load_or_make(path)
        except OSError as error:
            raise IdentityError(f"cannot keep the host's key in {path}: "
                                f"{error.strerror or error}") from None
        return identity
    except OSError as error:
        raise IdentityError(f"cannot read the host's key {path}: {error.strerror or error}") \
            from None
    key, cert = _split(data)
    if not key or not cert:
        raise IdentityError(f"{path} does not hold a key and a certificate; move it away and "
                            "a new one is made")
    identity = Identity(key, cert)
    try:
        identity.server_context()  # the key and the certificate read, and belong together
    except (ssl.SSLError, ValueError) as error:
        raise IdentityError(f"{path} does not hold a usable key and certificate ({error}); "
                            "move it away and a new one is made") from None
    return identity


def _split(data: bytes) -> tuple[bytes, bytes]:
    key = cert = b""
    for block in data.split(b"-----END ")[:-1]:
        start = block.find(b"-----BEGIN ")
        if start < 0:
            continue
        kind = block[start + 11:block.find(b"-----", start + 11)]
        text = block[start:] + b"-----END " + kind + b"-----\n"
        if kind == b"CERTIFICATE":
            cert = text
        elif kind.endswith(b"PRIVATE KEY"):
            key = text
    return key, cert


@functools.cache
def client_context() -> ssl.SSLContext:
    """The TLS 1.3 client context (made once: making one costs more than a handshake). It
    checks no authority (the host signs its own certificate): the caller checks the
    fingerprint it saw (:func:`seen_fingerprint`)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def seen_fingerprint(ssl_object: ssl.SSLObject | ssl.SSLSocket | None) -> bytes:
    """The fingerprint of the certificate the other end presented (b"" for none)."""
    der = ssl_object.getpeercert(binary_form=True) if ssl_object is not None else None
    return hashlib.sha256(der).digest() if der else b""


def colons(fingerprint: bytes) -> str:
    """A fingerprint as browsers show a certificate's: hexadecimal pairs, with colons."""
    return ":".join(f"{byte:02X}" for byte in fingerprint)


def words(fingerprint: bytes) -> str:
    """The fingerprint's first :data:`WORDS` bytes (48 bits) as six different words, for
    people to compare aloud ("" for no fingerprint). The bytes are one number, written in
    the mixed radix of the list and then of what is left of it once each word is taken:
    260 x 259 x ... x 255 ways is more than 2**48, so two prefixes never give the same
    words, and no word comes twice."""
    if not fingerprint:
        return ""
    number = int.from_bytes(fingerprint[:WORDS], "big")
    left, said = list(WORDLIST), []
    for _ in range(WORDS):
        number, index = divmod(number, len(left))
        said.append(left.pop(index))
    return " ".join(said)


#: 260 short words, no two alike in their first four letters: enough that six different
#: ones say any 48 bits (six different of 256 fall short of 2**48 by 5%).
WORDLIST = (
    "acid", "acorn", "actor", "adobe", "agent", "alarm", "album", "alley",
    "amber", "anchor", "angle", "ankle", "apple", "april", "apron", "arch",
    "arrow", "aspen", "atlas", "attic", "autumn", "avenue", "badge", "bagel",
    "baker", "bamboo", "banjo", "barn", "basket", "beach", "bead", "berry",
    "bicycle", "bird", "biscuit", "blanket", "blossom", "blue", "board", "bolt",
    "bone", "book", "bottle", "bowl", "brick", "bridge", "broom", "brush",
    "bucket", "buffalo", "bugle", "button", "cabin", "cactus", "cake", "camel",
    "candle", "canoe", "canyon", "captain", "carpet", "castle", "cedar", "cello",
    "chalk", "cherry", "chess", "chimney", "cider", "cinema", "circle", "clay",
    "clock", "cloud", "clover", "coast", "cobalt", "cocoa", "coffee", "comet",
    "copper", "coral", "corn", "cotton", "cousin", "crab", "crayon", "cricket",
    "crown", "cube", "cup", "curtain", "daisy", "dance", "dawn", "deer",
    "delta", "desert", "diamond", "dinner", "dolphin", "donkey", "door", "dragon",
    "drum", "duck", "dune", "eagle", "echo", "eel", "egg", "elbow",
    "elephant", "elm", "ember", "engine", "envelope", "falcon", "fan", "farm",
    "feather", "fence", "fern", "fiddle", "field", "fig", "finch", "fire",
    "flag", "flute", "fog", "forest", "fossil", "fox", "frog", "garden",
    "garlic", "gate", "gecko", "giant", "ginger", "glass", "globe", "glove",
    "goat", "gold", "goose", "grape", "gravel", "guitar", "hammer", "harbor",
    "harp", "hazel", "helmet", "heron", "hill", "honey", "horse", "hotel",
    "house", "husky", "ice", "igloo", "index", "ink", "iris", "iron",
    "island", "ivory", "ivy", "jacket", "jade", "jaguar", "jam", "jar",
    "jelly", "jewel", "jigsaw", "juice", "jungle", "kayak", "kettle", "key",
    "kitten", "kiwi", "knot", "koala", "ladder", "lake", "lamp", "lantern",
    "lava", "lemon", "lettuce", "library", "lily", "lime", "linen", "lion",
    "lizard", "lobster", "locket", "lotus", "lunch", "magnet", "mango", "maple",
    "marble", "meadow", "melon", "mint", "mirror", "mitten", "model", "monkey",
    "moon", "moss", "mountain", "mouse", "mug", "museum", "nail", "napkin",
    "needle", "nest", "nickel", "night", "noodle", "north", "nut", "oak",
    "oasis", "ocean", "olive", "onion", "opal", "orange", "orbit", "orchid",
    "otter", "owl", "oyster", "paddle", "palm", "panda", "paper", "parrot",
    "peach", "pebble", "pencil", "pepper", "piano", "pillow", "pine", "planet",
    "quilt", "raven", "tulip", "walnut",
)
