"""What a Liar's Deck table asks of you now: your turn (put cards down, or call the last ones
a lie), the call you must make, or who is to move and how the last call went
(:class:`~doubtlan.tui.widgets.prompt.TablePrompt`)."""

from __future__ import annotations

from ...widgets.prompt import Answer, TablePrompt

#: The call, as drawn, the key a click presses, and its look.
LIAR: Answer = (" Liar! (l) ", "l", "prompt--loud")


class LiarPrompt(TablePrompt):
    pass
