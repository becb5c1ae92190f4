import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# Let tests import tests/helpers.py as `helpers` (and games.py, wire.py...).
sys.path.insert(0, os.path.dirname(__file__))

from games import WINDOWED, GameSpec, spec_of  # noqa: E402  (found through the path above)

from doubtlan.rules import GAMES  # noqa: E402

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")


@pytest.fixture(autouse=True, scope="session")
def _own_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """`doubtlan host` keeps a journal in the user's data folder: the tests' hosts (and the
    processes they start) keep theirs in a folder of the test session's own."""
    before = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data"))
    yield
    if before is None:
        del os.environ["XDG_DATA_HOME"]
    else:
        os.environ["XDG_DATA_HOME"] = before


@pytest.fixture(params=list(GAMES))
def spec(request: pytest.FixtureRequest) -> GameSpec:
    """Each game's specifics (tests/games.py): a test that takes ``spec`` is a contract,
    run once for every game."""
    return spec_of(request.param)


@pytest.fixture(params=WINDOWED)
def windowed(request: pytest.FixtureRequest) -> GameSpec:
    """The specifics of each game whose claims wait for answers on a window clock (Liar's
    Deck's wait for the next player's turn alone): a contract of the window, run once for
    every such game."""
    return spec_of(request.param)


#: The test files that take longest, run first, taken in turn (a test of each, then the
#: next of each), so that the four processes run different kinds at once (no two browsers
#: together, as far as the order goes), share out the quick ones at the end, and no long
#: test starts when the others are nearly done. The order alone; no test depends on it.
LONG_FIRST = ("test_phones", "test_fuzz", "test_leaks", "test_lint", "test_properties",
              "test_lan", "test_tmux", "test_tmux_skull", "test_cheating_host", "test_fairness",
              "test_journal", "test_phones_skull")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: place for place, name in enumerate(LONG_FIRST)}
    seen: dict[str, int] = {}
    turn = {}
    for item in items:
        stem = item.path.stem
        turn[item.nodeid] = seen[stem] = seen.get(stem, -1) + 1
    last = (len(items), 0)  # (taken before the sort: a list being sorted is empty)
    items.sort(key=lambda item: (turn[item.nodeid], rank[item.path.stem])
               if item.path.stem in rank else last)
