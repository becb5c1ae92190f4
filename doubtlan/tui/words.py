"""How messages are written on screen."""

from __future__ import annotations


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first, one full stop last."""
    text = text.strip()
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else text
