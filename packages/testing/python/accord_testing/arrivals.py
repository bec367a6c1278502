"""What arrived, kept so a test can wait for something that came before it started waiting, and so a timeout can say
what did arrive instead. Each item is taken once: `next` returns the first match not yet taken."""
import asyncio
from collections import deque
from typing import Any, Callable, Deque, Generic, List, Set, TypeVar

from .duration import Duration, to_ms

T = TypeVar('T')


class WaitTimeout(TimeoutError):
    """Nothing that matched arrived in time; the message lists the latest arrivals."""


class _Entry(Generic[T]):
    __slots__ = ('item', 'taken')

    def __init__(self, item: T):
        self.item = item
        self.taken = False


class Arrivals(Generic[T]):
    def __init__(self, describe: Callable[[T], str], max_items: int = 1000):
        self._describe = describe
        self._max = max_items
        self._entries: Deque[_Entry[T]] = deque()
        self._waiters: Set[asyncio.Event] = set()

    def push(self, item: T) -> None:
        self._entries.append(_Entry(item))
        if len(self._entries) > self._max:
            self._entries.popleft()
        for w in list(self._waiters):
            w.set()

    def all(self) -> List[T]:
        """Every item so far, taken or not."""
        return [e.item for e in self._entries]

    def _take(self, match: Callable[[T], bool]) -> Any:
        for e in self._entries:
            if not e.taken and match(e.item):
                e.taken = True
                return e
        return None

    async def next(self, what: str, match: Callable[[T], bool], timeout: Duration = '5s') -> T:
        """The first item not yet taken that matches, waiting up to `timeout`; the error lists what arrived."""
        __tracebackhide__ = True
        ms = to_ms(timeout)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ms / 1000
        while True:
            hit = self._take(match)
            if hit is not None:
                return hit.item
            left = deadline - loop.time()
            if left <= 0:
                raise WaitTimeout(self._timeout_message(what, ms))
            changed = asyncio.Event()
            self._waiters.add(changed)
            try:
                await asyncio.wait_for(changed.wait(), left)
            except asyncio.TimeoutError:
                pass
            finally:
                self._waiters.discard(changed)

    def _timeout_message(self, what: str, ms: float) -> str:
        latest = list(self._entries)[-15:]
        seen = '\n'.join(f'  - {self._describe(e.item)}' for e in latest) or '  (nothing)'
        return f'no {what} within {ms:g} ms; what arrived (latest {len(latest)} of {len(self._entries)}):\n{seen}'
