"""The Textual app: the host's and the joiners' screens. It is a client of :mod:`doubtlan.net`
like any other, and adds no game rule of its own."""
