"""What an I Know You Don't table asks of you now: your turn, your priority (pass, accept,
challenge) with a countdown, an interception you may make, or whether to play your
Wildcard; else who is to move and how the last claim went
(:class:`~doubtlan.tui.widgets.prompt.TablePrompt`)."""

from __future__ import annotations

from ...widgets.prompt import Answer, TablePrompt

#: Each answer as drawn, the key a click presses, and its look.
PASS: Answer = (" Pass (p) ", "p", "prompt--quiet")
ACCEPT: Answer = (" Accept (a) ", "a", "prompt--quiet")
CHALLENGE: Answer = (" Challenge (c) ", "c", "prompt--loud")
INTERCEPT: Answer = (" Intercept (i) ", "i", "prompt--loud")
WILD: Answer = (" Wildcard (w) ", "w", "prompt--loud")
KEEP: Answer = (" Keep (k) ", "k", "prompt--quiet")


class KnowPrompt(TablePrompt):
    pass
