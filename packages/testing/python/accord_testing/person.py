"""A person with an account and a live Gateway session, doing what people do in the official client, each action the
same HTTP call that client makes. What the platform sends back (messages, ephemeral answers, modals) is waited for
with `next_message`, `next_modal` and `next_event`."""
import itertools
import json
import re
import time
from typing import Any, Callable, Dict, List, Optional, Union
from urllib.parse import quote

import aiohttp

from .api import request
from .command_options import command_options
from .duration import Duration
from .gateway import PersonGateway

EPHEMERAL = 1 << 6
_counter = itertools.count(1)


def id_of(x: Any) -> str:
    """An id from a text, a dict with an id (a message, a channel) or an object with `.id` (a person, an app)."""
    if isinstance(x, dict):
        return str(x['id'])
    return str(getattr(x, 'id', x))


def _nonce() -> str:
    return f'{int(time.time() * 1000)}{next(_counter) % 1_000_000:06d}'[:19]


class Person:
    def __init__(self, api: str, id: str, username: str, token: str, gateway_url: str):
        self.api = api
        self.id = id
        self.username = username
        self.token = token
        self.gateway = PersonGateway(gateway_url, token)

    def __repr__(self) -> str:
        return f'<Person {self.username} {self.id}>'

    async def call(self, path: str, method: str = 'GET', body: Any = None) -> Any:
        """The API as this person (`await alice.call('/users/@me')`)."""
        return await request(self.api, path, method, body, self.token)

    async def send(self, channel: Any, message: Union[str, Dict[str, Any]]) -> Dict[str, Any]:
        """Sends a text, or a message dict (`content`, `embeds`, … and `files`: [{name, data, content_type}])."""
        body = {'content': message} if isinstance(message, str) else dict(message)
        files = body.pop('files', None)
        path = f'/channels/{id_of(channel)}/messages'
        if not files:
            return await self.call(path, 'POST', body)
        form = aiohttp.FormData()
        body['attachments'] = [{'id': i, 'filename': f['name']} for i, f in enumerate(files)]
        form.add_field('payload_json', json.dumps(body), content_type='application/json')
        for i, f in enumerate(files):
            data = f['data'].encode() if isinstance(f['data'], str) else f['data']
            form.add_field(f'files[{i}]', data, filename=f['name'],
                           content_type=f.get('content_type', 'application/octet-stream'))
        return await self.call(path, 'POST', form)

    async def reply(self, message: Dict[str, Any], text: Union[str, Dict[str, Any]]) -> Dict[str, Any]:
        body = {'content': text} if isinstance(text, str) else dict(text)
        body['message_reference'] = {'message_id': message['id'], 'channel_id': message['channel_id']}
        return await self.send(message['channel_id'], body)

    async def react(self, message: Dict[str, Any], emoji: str) -> None:
        await self.call(f"/channels/{message['channel_id']}/messages/{message['id']}/reactions/{quote(emoji, safe='')}/@me",
                        'PUT')

    async def open_dm(self, user: Any) -> Dict[str, Any]:
        """The DM channel with someone (created the first time)."""
        return await self.call('/users/@me/channels', 'POST', {'recipient_id': id_of(user)})

    async def run_command(self, app: Any, name: str, options: Optional[Dict[str, Any]] = None, *, channel: Any) -> str:
        """Runs a slash command in a channel: `await alice.run_command(app, 'remind', {'when': '30m'}, channel=…)`.
        The command is found in the channel's command index as the official client finds it (name, id, version); a
        name with spaces names a subcommand ('tag add'). Options are given by name and typed from the command's
        definition. Returns the interaction's nonce once the platform accepted it; the answer arrives on the Gateway."""
        channel_id = id_of(channel)
        app_id = id_of(app)
        root, *path = name.split()
        index = await self.call(f'/channels/{channel_id}/application-command-index')
        commands = [c for c in index['application_commands'] if c['application_id'] == app_id]
        command = next((c for c in commands if c['name'] == root and c.get('type', 1) == 1), None)
        if command is None:
            has = ', '.join(f"/{c['name']}" for c in commands) or 'none here'
            raise LookupError(f"no /{root} of app {app_id} in this channel's command index; the app has: {has}")
        data = {'id': command['id'], 'name': command['name'], 'type': 1, 'version': command['version'],
                'options': command_options(command, path, options or {})}
        return await self._interact(app_id, channel_id, 2, data)

    async def click(self, message: Dict[str, Any], custom_id: str) -> str:
        """Clicks a button of an app's message."""
        component = _find_component(message, custom_id)
        return await self._interact(_app_of(message), message['channel_id'], 3,
                                    {'component_type': component['type'], 'custom_id': custom_id}, _on(message))

    async def select(self, message: Dict[str, Any], custom_id: str, values: List[str]) -> str:
        """Chooses values in a select menu of an app's message."""
        component = _find_component(message, custom_id)
        return await self._interact(_app_of(message), message['channel_id'], 3,
                                    {'component_type': component['type'], 'custom_id': custom_id, 'values': values},
                                    _on(message))

    async def submit_modal(self, modal: Dict[str, Any], values: Dict[str, str]) -> str:
        """Submits a modal the app opened for this person (from `next_modal()`), with text by input custom_id."""
        def fill(c: Dict[str, Any]) -> Dict[str, Any]:
            if c['type'] == 4:
                return {'type': 4, 'custom_id': c['custom_id'], 'value': values.get(c['custom_id'], '')}
            if c['type'] == 18:
                return {'type': 18, 'component': fill(c['component'])}
            if c['type'] == 1:
                return {'type': 1, 'components': [fill(x) for x in c['components']]}
            return {'type': c['type'], 'custom_id': c.get('custom_id')}
        shown = json.dumps(modal['components'], separators=(',', ':'))
        unknown = [k for k in values if f'"custom_id":{json.dumps(k)}' not in shown]
        if unknown:
            raise KeyError(f'the modal "{modal.get("title")}" has no input {", ".join(unknown)}')
        data = {'id': modal['id'], 'custom_id': modal['custom_id'], 'components': [fill(c) for c in modal['components']]}
        return await self._interact(modal['application']['id'], modal['channel_id'], 5, data)

    async def next_message(self, channel: Any = None, from_: Any = None, ephemeral: Optional[bool] = None,
                           match: Union[None, str, re.Pattern, Callable[[Dict[str, Any]], bool]] = None,
                           timeout: Duration = '5s') -> Dict[str, Any]:
        """The next message this person sees that matches: in `channel`, from `from_` (a person, an app's bot or a
        user id), ephemeral or not, whose content contains a text, matches a pattern or passes a test. Something that
        arrived before the call counts. The timeout error lists what they saw instead."""
        __tracebackhide__ = True  # pytest shows the test's line, not ours
        author = None if from_ is None else str(getattr(from_, 'bot_user_id', None) or id_of(from_))
        chan = None if channel is None else id_of(channel)

        def test(d: Dict[str, Any]) -> bool:
            if chan is not None and d.get('channel_id') != chan:
                return False
            if author is not None and (d.get('author') or {}).get('id') != author and d.get('application_id') != author:
                return False
            if ephemeral is not None and bool((d.get('flags') or 0) & EPHEMERAL) != ephemeral:
                return False
            content = str(d.get('content', ''))
            if isinstance(match, str):
                return match in content
            if isinstance(match, re.Pattern):
                return match.search(content) is not None
            return match is None or bool(match(d))
        shown = match.pattern if isinstance(match, re.Pattern) else match
        what = ('MESSAGE_CREATE' + (f' in {chan}' if chan else '') + (f' from {author}' if author else '')
                + (' (ephemeral)' if ephemeral else '') + (f' matching {shown!r}' if match is not None else ''))
        hit = await self.gateway.events.next(what, lambda e: e['t'] == 'MESSAGE_CREATE' and test(e['d']), timeout)
        return hit['d']

    async def next_modal(self, timeout: Duration = '5s') -> Dict[str, Any]:
        """The next modal an app opens for this person."""
        __tracebackhide__ = True  # pytest shows the test's line, not ours
        hit = await self.gateway.events.next('INTERACTION_MODAL_CREATE', lambda e: e['t'] == 'INTERACTION_MODAL_CREATE',
                                             timeout)
        return hit['d']

    async def next_event(self, t: str, match: Optional[Callable[[Any], bool]] = None, timeout: Duration = '5s') -> Any:
        """The next dispatch of a type to this person's session."""
        __tracebackhide__ = True  # pytest shows the test's line, not ours
        hit = await self.gateway.events.next(t, lambda e: e['t'] == t and (match is None or bool(match(e['d']))), timeout)
        return hit['d']

    async def _interact(self, application_id: str, channel_id: str, kind: int, data: Dict[str, Any],
                        extra: Optional[Dict[str, Any]] = None) -> str:
        nonce = _nonce()
        channel = await self.call(f'/channels/{channel_id}')
        body = {'type': kind, 'application_id': application_id, 'channel_id': channel_id,
                'session_id': self.gateway.session_id, 'nonce': nonce, 'data': data, **(extra or {})}
        if channel.get('guild_id'):
            body['guild_id'] = channel['guild_id']
        await self.call('/interactions', 'POST', body)
        return nonce


def _app_of(message: Dict[str, Any]) -> str:
    return message.get('application_id') or message['author']['id']


def _on(message: Dict[str, Any]) -> Dict[str, Any]:
    return {'message_id': message['id'], 'message_flags': message.get('flags') or 0}


def _find_component(message: Dict[str, Any], custom_id: str) -> Dict[str, Any]:
    def walk(items: Any) -> Optional[Dict[str, Any]]:
        for c in items or []:
            if c.get('custom_id') == custom_id:
                return c
            found = walk(c.get('components')) or (c.get('component') and walk([c['component']])) \
                or (c.get('accessory') and walk([c['accessory']]))
            if found:
                return found
        return None
    found = walk(message.get('components'))
    if found is None:
        raise KeyError(f"message {message.get('id')} has no component \"{custom_id}\"")
    return found
