"""The garbage collector, kept out of play: its full passes stop the screen for tens of ms,
so the app leaves them for between games (docs/app.md, "Speed")."""

from __future__ import annotations

import gc
import sys

#: Seconds after a game ends to run the collector's full pass: the frame of the last move
#: is out by then, and nobody plays while the results are read.
COLLECT_AFTER_GAME = 0.1
#: The collector's third threshold while its full passes are left to the app.
FULL_PASSES_OFF = 1_000_000


class QuietCollector:
    """Keeps the garbage collector's full passes, which stop the screen for tens of ms, out
    of play while the app runs: what was built before play is frozen (never looked at
    again), and the passes over everything else wait for the end of a game
    (``collect_between_games``). The young generations are still collected as usual, so
    only cycles that outlive them wait, for one game at most. ``stop`` puts it back.

    From Python 3.14 the collector works incrementally, its passes are short, and it has
    no third threshold: only the freezing is done there."""

    def __init__(self) -> None:
        self.threshold = gc.get_threshold()
        gc.freeze()
        young, middle, _ = self.threshold
        if sys.version_info < (3, 14):
            gc.set_threshold(young, middle, FULL_PASSES_OFF)

    def stop(self) -> None:
        gc.set_threshold(*self.threshold)
        gc.unfreeze()


def collect_between_games() -> None:
    """The collector's full pass over everything not frozen at start-up."""
    gc.collect()
