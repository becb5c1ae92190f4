"""doubtlan: I Doubt It (Cheat, BS) for the people on your network, in a terminal."""

__version__ = "0.1.0"
