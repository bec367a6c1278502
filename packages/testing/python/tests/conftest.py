import asyncio

import pytest_asyncio

from remind_bot import RemindBot

pytest_plugins = ['accord_testing.plugin']


@pytest_asyncio.fixture
async def remind(accord, world):
    """A world with the remind app, and its discord.py bot running against Accord (it syncs its own commands)."""
    w = await world(apps={'remind': {}})
    accord.point_discord_py()
    bot = RemindBot(application_id=int(w.apps.remind.id))
    task = asyncio.get_running_loop().create_task(bot.start(w.apps.remind.token))
    await asyncio.wait_for(bot.ready.wait(), 30)
    yield w
    await bot.close()
    await task
