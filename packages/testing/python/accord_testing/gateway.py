"""A person's Gateway session, as the official client keeps one: what the platform sends them (their messages,
ephemeral answers, modals, interaction outcomes) lands in `events`, where tests wait for it."""
import asyncio
import json
from typing import Any, Dict, Optional

import aiohttp

from .arrivals import Arrivals

CAPABILITIES = 16381  # what the official client announces


def _summary(d: Any) -> str:
    if not isinstance(d, dict):
        return ''
    author = d.get('author') or {}
    content = d.get('content')
    parts = [d.get('id') and f"id={d['id']}", d.get('channel_id') and f"channel={d['channel_id']}",
             author.get('username') and f"from={author['username']}",
             isinstance(content, str) and json.dumps(content[:60]), d.get('nonce') and f"nonce={d['nonce']}"]
    return ' '.join(p for p in parts if p)


class PersonGateway:
    def __init__(self, url: str, token: str):
        self._url = url
        self._token = token
        self.events: Arrivals[Dict[str, Any]] = Arrivals(lambda e: f"{e['t']} {_summary(e['d'])}".rstrip())
        self.session_id = ''
        self._seq: Optional[int] = None
        self._session: Optional[aiohttp.ClientSession] = None
        self._ws: Optional[aiohttp.ClientWebSocketResponse] = None
        self._tasks: list = []

    async def open(self, timeout: float = 15.0) -> None:
        """Connects and returns at READY."""
        self._session = aiohttp.ClientSession()
        self._ws = await self._session.ws_connect(f'{self._url}/?v=10&encoding=json', max_msg_size=0)
        ready = asyncio.get_running_loop().create_future()
        self._tasks.append(asyncio.get_running_loop().create_task(self._read(ready)))
        await asyncio.wait_for(ready, timeout)

    async def _read(self, ready: asyncio.Future) -> None:
        try:
            await self._dispatch(ready)
        except (aiohttp.ClientError, ConnectionError) as e:  # a dropped session: its events so far stay readable
            if not ready.done():
                ready.set_exception(e)

    async def _dispatch(self, ready: asyncio.Future) -> None:
        ws = self._ws
        assert ws is not None
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            p = json.loads(msg.data)
            if p.get('s') is not None:
                self._seq = p['s']
            if p['op'] == 10:
                beat = asyncio.get_running_loop().create_task(self._beat(p['d']['heartbeat_interval'] / 1000))
                self._tasks.append(beat)
                identify = {'token': self._token, 'capabilities': CAPABILITIES,
                            'properties': {'os': 'linux', 'browser': 'Accord testing', 'device': ''}}
                await ws.send_json({'op': 2, 'd': identify})
            elif p['op'] == 0:
                if p['t'] == 'READY':
                    self.session_id = p['d']['session_id']
                    if not ready.done():
                        ready.set_result(None)
                self.events.push({'t': p['t'], 'd': p['d'], 's': p['s']})
        if not ready.done():
            ready.set_exception(RuntimeError(f"the Gateway closed the person's session before READY ({ws.close_code})"))

    async def _beat(self, every: float) -> None:
        while self._ws is not None and not self._ws.closed:
            await asyncio.sleep(every)
            try:
                await self._ws.send_json({'op': 1, 'd': self._seq})
            except (aiohttp.ClientError, ConnectionError):
                return

    async def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        if self._ws is not None:
            await self._ws.close()
        if self._session is not None:
            await self._session.close()
        self._tasks = []
