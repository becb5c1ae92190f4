import os
import sys

from hypothesis import HealthCheck, settings

# Let tests import tests/helpers.py as `helpers`.
sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile(
    "default",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("default")
