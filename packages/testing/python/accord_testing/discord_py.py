"""discord.py (2.x) against an Accord: pointed through its own class attributes (the API base of its Route, the CDN
base of Asset, the Gateway URL a plain Client connects to), and a bot run for the length of a test."""
import asyncio
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator


def point_discord_py(accord) -> None:
    """Process-wide, as those attributes are: every client of the process talks to this Accord."""
    import yarl
    import discord
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    Route.BASE = accord.api  # REST, interaction callbacks and webhooks alike
    discord.Asset.BASE = accord.url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(accord.gateway_url + '/')


@asynccontextmanager
async def discord_py_bot(accord, client: Any, token: str, timeout: float = 30.0) -> AsyncIterator[Any]:
    """Logs a discord.py client in (its `setup_hook` runs, e.g. `tree.sync()`), connects it and yields it once READY;
    closes it on the way out. A login or connection that fails raises here, not later."""
    point_discord_py(accord)
    await client.login(token)
    loop = asyncio.get_running_loop()
    session = loop.create_task(client.connect())
    ready = loop.create_task(client.wait_until_ready())
    try:
        await asyncio.wait({session, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            if session.done():
                session.result()  # raises the connection's error
            raise TimeoutError(f'the discord.py client was not READY within {timeout:g} s')
        yield client
    finally:
        ready.cancel()
        await client.close()
        try:
            await asyncio.wait_for(session, 10)
        except (asyncio.CancelledError, asyncio.TimeoutError):
            pass
