"""Text from outside as it may reach a terminal: a journal's names and talk, a record, an
advert, a command line. A character a terminal would act on or hide (C0 and C1 controls, ESC,
DEL, bidi overrides and marks, zero-width characters, line and paragraph separators: every
character Python does not call printable) is shown as its escape, such as ``\\x1b`` or
``\\u202e``, so that nothing read from a file or the network can set a terminal's title,
clear its screen, write to its clipboard or turn text round (docs/security.md)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, TextIO


def escape(character: str) -> str:
    """``character`` written as Python writes it in a string: ``\\x1b``, ``\\u202e``."""
    code = ord(character)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shown(text: str, keep: str = "") -> str:
    """``text`` with every character that is not printable (but those in ``keep``)
    escaped."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in keep else escape(c) for c in text)


class ShownStream:
    """A text stream whose writes reach ``stream`` shown (:func:`shown`), line breaks kept:
    what a command prints, whatever it prints from."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(shown(text, keep="\n"))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding...
        return getattr(self.stream, name)


@contextlib.contextmanager
def shown_output() -> Iterator[None]:
    """Within: whatever is printed on the standard output and error is shown
    (:class:`ShownStream`), whatever it prints from: a name, a line of talk, an advert, a
    journal, a record, a command line. (Textual draws on the streams it kept first.)"""
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = ShownStream(stdout), ShownStream(stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = stdout, stderr
