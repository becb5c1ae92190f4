"""What a Skull table asks of you now (:class:`~doubtlan.tui.widgets.prompt.TablePrompt`):
lay a disc or bid, raise or pass, turn a stack; or who is to move and how the last bid
went."""

from __future__ import annotations

from ...widgets.prompt import Answer, TablePrompt

#: The answers, as drawn, the key a click presses, and their look.
PASS: Answer = (" Pass (p) ", "p", "prompt--quiet")
LESS: Answer = (" − ", "minus", "prompt--quiet")
MORE: Answer = (" + ", "plus", "prompt--quiet")


class SkullPrompt(TablePrompt):
    pass
