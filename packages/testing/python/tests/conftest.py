import pytest_asyncio

from remind_bot import RemindBot

pytest_plugins = ['accord_testing.plugin']


@pytest_asyncio.fixture
async def remind(accord, world):
    """A world with the remind app, and its discord.py bot running against Accord (it syncs its own commands)."""
    w = await world(apps={'remind': {}})
    async with accord.discord_py_bot(RemindBot(), w.apps.remind.token):
        yield w
