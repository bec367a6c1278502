"""Calls to Accord's HTTP API, answering the parsed JSON or raising AccordApiError with the platform's envelope."""
import json
from typing import Any, Dict, Optional

import aiohttp


class AccordApiError(Exception):
    """An HTTP API error as the platform answers it: its status and JSON envelope, shown whole in the message."""

    def __init__(self, method: str, path: str, status: int, body: Any):
        shown = body if isinstance(body, str) else json.dumps(body)
        super().__init__(f'{method} {path} answered {status}: {shown}')
        self.method = method
        self.path = path
        self.status = status
        self.body = body

    @property
    def code(self) -> Optional[int]:
        """The platform's JSON error code (50035, 10003, …), when the body has one."""
        return self.body.get('code') if isinstance(self.body, dict) else None


async def request(base: str, path: str, method: Optional[str] = None, body: Any = None, auth: Optional[str] = None,
                  headers: Optional[Dict[str, str]] = None) -> Any:
    """Calls `base + path`; `body` goes as JSON, or as it is when it is aiohttp.FormData. `auth` is the Authorization
    header: a person's raw token, `Bot …` or `Bearer …`."""
    method = method or ('GET' if body is None else 'POST')
    sent = dict(headers or {})
    if auth:
        sent['authorization'] = auth
    data: Any = None
    if isinstance(body, aiohttp.FormData):
        data = body
    elif body is not None:
        data = json.dumps(body)
        sent['content-type'] = 'application/json'
    # A session per call: fixtures outlive a test's event loop, and a session belongs to the loop it was made in.
    async with aiohttp.ClientSession() as session:
        async with session.request(method, base + path, data=data, headers=sent) as res:
            text = await res.text()
            status = res.status
    try:
        parsed: Any = json.loads(text) if text else None
    except ValueError:
        parsed = text
    if status >= 400:
        raise AccordApiError(method, path, status, parsed)
    return parsed
