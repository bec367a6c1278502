"""The dev routes (`/__dev/…`) with the server's dev token, and the inspector's view of one application."""
import asyncio
import json
from typing import Any, Dict, List, Optional

import aiohttp

from .api import request
from .arrivals import Arrivals
from .duration import Duration


class DevApi:
    def __init__(self, url: str, token: str):
        self.url = url
        self._token = token

    async def call(self, path: str, method: str = 'GET', body: Any = None) -> Any:
        return await request(self.url, f'/__dev{path}', method, body, headers={'x-accord-dev-token': self._token})

    async def stream(self, application_id: str, on_entry, ready: asyncio.Event) -> None:
        """The inspector's entries of one application: its backlog, then live ones, as server-sent events."""
        url = f'{self.url}/__dev/inspector/stream?application_id={application_id}&backlog=1000'
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as session:
            async with session.get(url, headers={'x-accord-dev-token': self._token}) as res:
                if res.status != 200:
                    ready.set()
                    raise RuntimeError(f'the inspector stream answered {res.status}')
                event = None
                async for raw in res.content:
                    line = raw.decode().rstrip('\r\n')
                    if line.startswith('event: '):
                        event = line[7:]
                    elif line.startswith('data: ') and event == 'entry':
                        on_entry(json.loads(line[6:]))
                    elif line == '':
                        if event == 'ready':
                            ready.set()
                        event = None


def _describe(e: Dict[str, Any]) -> str:
    return f"{e.get('method')} {e.get('path')} → {e.get('status')}" if e.get('kind') == 'http' else str(e.get('t'))


class AppWatch:
    """What one application did (its API requests) and received (its Gateway dispatches), from the dev inspector.
    Made by `accord.watch(app)` inside a test's event loop; `close()` it (or use `async with`)."""

    def __init__(self, dev: DevApi, application_id: str):
        self.application_id = application_id
        self.events: Arrivals[Dict[str, Any]] = Arrivals(_describe)
        self._ready = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(dev.stream(application_id, self.events.push, self._ready))
        self._task.add_done_callback(lambda _t: self._ready.set())

    async def next(self, t: str, match=None, timeout: Duration = '5s') -> Any:
        """The next Gateway dispatch of this type to the app (one that came earlier and was not taken counts)."""
        await self._ready.wait()
        hit = await self.events.next(f'{t} to the app', lambda e: e.get('kind') == 'gateway' and e.get('t') == t
                                     and (match is None or match(e.get('d'))), timeout)
        return hit.get('d')

    async def next_request(self, method: Optional[str] = None, route: Optional[str] = None,
                           timeout: Duration = '5s') -> Dict[str, Any]:
        """The app's next API request that matches (one made earlier and not taken counts)."""
        await self._ready.wait()
        what = f"{method or 'a'} request{f' to {route}' if route else ''} by the app"
        return await self.events.next(what, lambda e: _is_request(e, method, route), timeout)

    async def requests(self, method: Optional[str] = None, route: Optional[str] = None) -> List[Dict[str, Any]]:
        """The app's API requests so far."""
        await self._ready.wait()
        return [e for e in self.events.all() if _is_request(e, method, route)]

    async def close(self) -> None:
        self._task.cancel()
        try:
            await self._task
        except (asyncio.CancelledError, Exception):  # noqa: BLE001 - the stream ends however it ends
            pass

    async def __aenter__(self) -> 'AppWatch':
        return self

    async def __aexit__(self, *_exc) -> None:
        await self.close()


def _is_request(e: Dict[str, Any], method: Optional[str], route: Optional[str]) -> bool:
    return e.get('kind') == 'http' and (not method or e.get('method') == method) and (not route or e.get('route') == route)


class Faults:
    """Faults scoped to one application (dev mode): `await accord.faults.add(app.id, 'http', status=429, retry_after=2)`.
    The kinds and their parameters are the server's (README: Faults)."""

    def __init__(self, dev: DevApi):
        self._dev = dev

    async def add(self, application_id: str, kind: str, **params: Any) -> Dict[str, Any]:
        return await self._dev.call('/faults', 'POST', {'application_id': application_id, 'kind': kind, **params})

    async def list(self, application_id: Optional[str] = None) -> List[Dict[str, Any]]:
        return await self._dev.call(f'/faults?application_id={application_id}' if application_id else '/faults')

    async def remove(self, fault_id: str) -> None:
        await self._dev.call(f'/faults/{fault_id}', 'DELETE')

    async def clear(self, application_id: str) -> None:
        await self._dev.call(f'/faults?application_id={application_id}', 'DELETE')
