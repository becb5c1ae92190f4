"""The refusal only Liar's Deck's rules make (the others are every game's:
:mod:`doubtlan.rules.errors`)."""

from __future__ import annotations

from ..errors import IllegalAction


class CallRequired(IllegalAction):
    """Putting cards down when nobody else holds any: the last player with cards must call."""

    code = "call_required"
    default_message = "nobody else holds cards: call the last ones a lie"
