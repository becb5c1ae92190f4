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
