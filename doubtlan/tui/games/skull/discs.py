"""How Skull's discs are drawn: a Flower, the Skull, and a disc face down."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from ....rules.skull import FLOWER, Disc

#: A disc face down, as a stack shows it.
DOWN = Text("■", style="dim")


def face(disc: Disc, ascii: bool = False) -> Text:
    """A disc face up: ``✿`` (``F``) in green for a Flower, ``☠`` (``S``) in red for the
    Skull."""
    if disc is FLOWER:
        return Text("F" if ascii else "✿", style="bold green")
    return Text("S" if ascii else "☠", style="bold red")


def faces(discs: Iterable[Disc], ascii: bool = False) -> Text:
    """Discs side by side."""
    return Text(" ").join(face(disc, ascii) for disc in discs)


def stack(down: int, turned: Iterable[Disc], ascii: bool = False) -> Text:
    """A stack: its discs face down, then those turned."""
    text = Text("")
    for _ in range(down):
        text.append_text(DOWN)
    for disc in turned:
        text.append_text(face(disc, ascii))
    return text
