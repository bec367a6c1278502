"""The server's clock, which dev mode lets a test move (timers, expiries, reminders due "in 30 minutes")."""
from datetime import datetime, timezone
from typing import Union

from .duration import Duration, to_ms


def _parse(iso: str) -> datetime:
    return datetime.fromisoformat(iso.replace('Z', '+00:00'))


class Clock:
    def __init__(self, dev):
        self._dev = dev

    async def now(self) -> datetime:
        return _parse((await self._dev.call('/clock'))['now'])

    async def advance(self, by: Duration) -> datetime:
        """Moves the clock forward: `await accord.clock.advance('30m')`."""
        return _parse((await self._dev.call('/clock', 'POST', {'advance_ms': to_ms(by)}))['now'])

    async def set(self, to: Union[datetime, str, int, float]) -> datetime:
        """Sets the clock to a datetime (naive means UTC), an ISO text or epoch milliseconds."""
        at = to
        if isinstance(to, datetime):  # the route takes ISO with a Z, not an offset
            utc = to.astimezone(timezone.utc) if to.tzinfo else to
            at = utc.strftime('%Y-%m-%dT%H:%M:%S.') + f'{utc.microsecond // 1000:03d}Z'
        return _parse((await self._dev.call('/clock', 'POST', {'set': at}))['now'])
