"""What the table asks of you now: your turn, a claim to doubt or let stand (with a
countdown), or what a doubt turned over (:class:`~doubtlan.tui.widgets.prompt.TablePrompt`)."""

from __future__ import annotations

from ...widgets.prompt import Answer, TablePrompt

#: The answers to a claim, as drawn, the key each click presses, and their looks.
DOUBT: Answer = (" Doubt (d) ", "d", "prompt--loud")
STAND: Answer = (" Let it stand (p) ", "p", "prompt--quiet")


class Prompt(TablePrompt):
    FIT = False  # (a long line of I Doubt It's is cut by the box as it always was)
