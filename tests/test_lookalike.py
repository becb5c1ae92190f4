"""Names that look alike (net/lookalike.py): what a name looks like is kept whatever
invisible characters, combining marks or look-alike letters of another script are put in
it, and names that look different stay apart."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from doubtlan.net.lookalike import looks_like, skeleton

NAMES = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7e), min_size=1,
                max_size=16).filter(lambda name: name.strip() == name and "  " not in name)
#: Put into a name, none of these changes what it looks like.
HIDDEN = ["\u3164", "\u115f", "\u200b", "\u200d", "\u2060", "\ufeff", "\u034f", "\u0301",
          "\u0336"]


@given(NAMES, st.sampled_from(HIDDEN), st.integers(min_value=0, max_value=16))
def test_an_invisible_character_or_a_mark_put_in_a_name_changes_nothing(
        name: str, hidden: str, at: int) -> None:
    at = min(at, len(name))
    assert skeleton(name[:at] + hidden + name[at:]) == skeleton(name)


def test_letters_of_other_scripts_and_styles_look_like_latin_ones() -> None:
    for alike in ("\u0410my", "\u0391my", "\U0001d400my", "\uff21my"):
        assert looks_like(alike, "Amy"), alike
    assert looks_like("c\u043eunter bot", "counter bot")  # (a Cyrillic o)


def test_names_that_look_different_stay_apart() -> None:
    for one, other in [("Amy", "Ann"), ("Amy", "Amy (2)"), ("Tom", "Tim"), ("Eve", "Eva"),
                       ("Amy", "Amy")]:
        assert not looks_like(one, other), (one, other)
