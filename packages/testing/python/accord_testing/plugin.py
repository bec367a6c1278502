"""pytest fixtures for testing an app against Accord. Load with `pytest_plugins = ["accord_testing.plugin"]` in a
conftest.py, with packages/testing/python on PYTHONPATH; async tests and fixtures run on pytest-asyncio.

- `accord`: one Accord for the test session (child process, dev mode, SQLite in a temp dir, stopped at the end).
  Override `accord_options` (session scope) to pass `start_accord` arguments, e.g. {'args': ['--rate-limits', 'off']}.
- `world`: an async factory, `w = await world(people=[...], guild={...}, apps={...})`; its people's Gateway sessions
  are closed after the test.
"""
from typing import Any, Dict

import pytest

try:
    import pytest_asyncio
except ImportError as e:  # pragma: no cover - said plainly rather than as a missing fixture later
    raise ImportError('accord_testing.plugin needs pytest-asyncio (Debian: apt-get install python3-pytest-asyncio)') from e

from .server import Accord, start_accord


@pytest.fixture(scope='session')
def accord_options() -> Dict[str, Any]:
    """Keyword arguments of `start_accord` for the session's Accord (override it in your conftest.py)."""
    return {}


@pytest.fixture(scope='session')
def accord(accord_options: Dict[str, Any]):
    server: Accord = start_accord(**accord_options)
    try:
        yield server
    finally:
        server.close()


@pytest_asyncio.fixture
async def world(accord: Accord):
    built = []

    async def make(people=None, guild=None, apps=None):
        w = await accord.world(people=people, guild=guild, apps=apps)
        built.append(w)
        return w

    yield make
    for w in built:
        await w.close()
