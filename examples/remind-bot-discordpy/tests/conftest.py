import pytest_asyncio

from bot import RemindBot

pytest_plugins = ['accord_testing.plugin']


@pytest_asyncio.fixture
async def remind(accord, world):
    """A world with the remind app, and this bot running against Accord."""
    w = await world(apps={'remind': {}})
    async with accord.discord_py_bot(RemindBot(), w.apps.remind.token):
        yield w
