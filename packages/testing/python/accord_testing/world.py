"""A world in one call, through the public API as its people would: accounts, a guild, channels, roles, apps. The
same calls as the JS toolkit's buildWorld (packages/testing/src/world.ts)."""
import asyncio
import itertools
import os
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from .api import request
from .person import Person

# Every permission but ADMINISTRATOR (@accord/protocol's ALL_PERMISSIONS & ~P.ADMINISTRATOR).
ALL_BUT_ADMIN = 8866461766385655
PRIVILEGED_INTENT_FLAGS = (1 << 13) | (1 << 15) | (1 << 19)

_worlds = itertools.count(1)


def _base36(n: int) -> str:
    digits = '0123456789abcdefghijklmnopqrstuvwxyz'
    out = ''
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


class Names(dict):
    """A dict that also reads by attribute: `world.people.alice`, `world.guild.channels.general`."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f'no {name!r}; there are: {", ".join(self) or "none"}') from None


@dataclass
class App:
    id: str
    name: str
    #: The bot token (libraries add `Bot `).
    token: str
    bot_user_id: str
    public_key: str


@dataclass
class Guild:
    id: str
    channels: Names
    roles: Names


@dataclass
class World:
    people: Names
    guild: Guild
    apps: Names

    async def close(self) -> None:
        """Closes every person's Gateway session."""
        await asyncio.gather(*(p.gateway.close() for p in self.people.values()))


async def build_world(api: str, gateway_url: str, people: Optional[List[str]] = None,
                      guild: Optional[Dict[str, Any]] = None, apps: Optional[Dict[str, Dict[str, Any]]] = None) -> World:
    """`people`: names, the first owns the guild and the apps (default ['alice', 'bob']). `guild`: {name, channels:
    [name | {name, type, topic}], roles: [{name, permissions, color}]}. `apps`: {name: {install: 'bot' | 'commands' |
    'user' | 'none', commands, permissions, privileged_intents, interactions_endpoint_url}}."""
    suffix = _base36(os.getpid()) + _base36(next(_worlds))
    names = people if people is not None else ['alice', 'bob']
    if not names:
        raise ValueError('a world needs at least one person (its owner)')
    folks = Names()
    for name in names:
        username = f"{re.sub(r'[^a-z0-9_.]', '_', name.lower())[:24]}_{suffix}"
        body = {'username': username, 'global_name': name, 'password': f'pw-{suffix}-{name}'}
        token = (await request(api, '/auth/register', body=body))['token']
        me = await request(api, '/users/@me', auth=token)
        folks[name] = Person(api, me['id'], username, token, gateway_url)
    owner = folks[names[0]]
    spec = guild or {}
    created = await owner.call('/guilds', 'POST', {'name': spec.get('name', 'Test guild')})
    existing = await owner.call(f"/guilds/{created['id']}/channels")
    channels = Names((c['name'], c['id']) for c in existing if c['type'] != 4)
    text = next((c for c in existing if c['type'] == 0), None)
    if text is None:
        raise RuntimeError('the new guild has no text channel to invite people through')
    for c in spec.get('channels', []):
        body = {'name': c} if isinstance(c, str) else c
        if body['name'] not in channels:
            channels[body['name']] = (await owner.call(f"/guilds/{created['id']}/channels", 'POST', body))['id']
    roles = Names()
    for r in spec.get('roles', []):
        roles[r['name']] = (await owner.call(f"/guilds/{created['id']}/roles", 'POST', r))['id']
    invite = await owner.call(f"/channels/{text['id']}/invites", 'POST', {'max_age': 0})
    for name in names[1:]:
        await folks[name].call(f"/invites/{invite['code']}", 'POST')

    built = Names()
    for name, a in (apps or {}).items():
        built[name] = await _build_app(api, owner, list(folks.values()), created['id'], name, a)
    world = World(folks, Guild(created['id'], channels, roles), built)
    try:
        await asyncio.gather(*(p.gateway.open() for p in folks.values()))
    except BaseException:
        await world.close()
        raise
    return world


async def _build_app(api: str, owner: Person, people: List[Person], guild_id: str, name: str, a: Dict[str, Any]) -> App:
    app = await owner.call('/applications', 'POST', {'name': name})
    token = (await owner.call(f"/applications/{app['id']}/bot/reset", 'POST'))['token']
    bot = await request(api, '/users/@me', auth=f'Bot {token}')
    patch: Dict[str, Any] = {}
    if a.get('privileged_intents', True):
        patch['flags'] = PRIVILEGED_INTENT_FLAGS
    if a.get('interactions_endpoint_url'):
        patch['interactions_endpoint_url'] = a['interactions_endpoint_url']
    if patch:
        await owner.call(f"/applications/{app['id']}", 'PATCH', patch)
    if a.get('commands'):
        await request(api, f"/applications/{app['id']}/commands", 'PUT', a['commands'], f'Bot {token}')
    permissions = str(a.get('permissions', ALL_BUT_ADMIN))
    install = a.get('install', 'bot')
    authorize = f"/oauth2/authorize?client_id={app['id']}"
    if install == 'bot':
        await owner.call(f'{authorize}&scope=bot%20applications.commands&permissions={permissions}', 'POST',
                         {'guild_id': guild_id, 'permissions': permissions, 'authorize': True})
    elif install == 'commands':
        await owner.call(f'{authorize}&scope=applications.commands', 'POST', {'guild_id': guild_id, 'authorize': True})
    elif install == 'user':
        for p in people:
            await p.call(f'{authorize}&scope=applications.commands&integration_type=1', 'POST',
                         {'authorize': True, 'integration_type': 1})
    elif install != 'none':
        raise ValueError(f"install is 'bot', 'commands', 'user' or 'none', not {install!r}")
    return App(app['id'], name, token, bot['id'], app['verify_key'])
