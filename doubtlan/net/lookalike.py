"""Names that look alike (docs/security.md): "Amy" and a Cyrillic "Аmy", "Amy" with an
invisible Hangul filler or a zero-width space in it, "Amy" under combining marks.

:func:`skeleton` is what a name looks like, after Unicode's confusable skeleton (UTS #39):
the name decomposed (NFKD: a fullwidth or mathematical letter is its plain one), its
invisible characters and combining marks left out, and each character that Unicode's
confusables list says may be mistaken for another replaced by one character of all those it
may be mistaken for. Two names with one skeleton are told apart by nobody at a glance. The
confusables come from ``confusable-homoglyphs`` (Unicode's confusables.txt, kept as data);
the classes are made from it once, when a table first compares names. Sequences a character
may be mistaken for ("rn" for "m") are not followed: only one character for one.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources

#: Characters that draw nothing though Python calls them printable: the Hangul fillers, the
#: combining grapheme joiner, the Mongolian vowel separator, the braille blank.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u034f\u180e\u2800")
#: The general categories left out: format characters (zero-width, bidi), controls, marks.
LEFT_OUT = frozenset({"Cf", "Cc", "Mn", "Me", "Zl", "Zp"})
#: The bidi marks the confusables data wraps round right-to-left characters.
_MARKS = "\u200e\u200f"


@functools.cache
def _likeness() -> dict[str, str]:
    """Each character that may be mistaken for another: the one character that stands for
    all those it may be mistaken for (transitively)."""
    data = json.loads((resources.files("confusable_homoglyphs") / "confusables.json")
                      .read_text(encoding="utf-8"))
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    for character, alikes in data.items():
        for alike in alikes:
            other = alike["c"].strip(_MARKS)
            if len(character) == 1 and len(other) == 1:
                a, b = root(character), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {c: root(c) for c in parent}


def skeleton(name: str) -> str:
    """What ``name`` looks like: names with one skeleton cannot be told apart at a glance."""
    likeness = _likeness()
    seen = (c for c in unicodedata.normalize("NFKD", name)
            if c not in INVISIBLE and unicodedata.category(c) not in LEFT_OUT)
    return " ".join("".join(likeness.get(c, c) for c in seen).split())


def looks_like(name: str, other: str) -> bool:
    """Whether ``name`` is not ``other`` but looks like it."""
    return name != other and skeleton(name) == skeleton(other)
