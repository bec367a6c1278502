"""discord.py 2.x against Accord, configured only through Route.BASE, the gateway URL from GET /gateway/bot and
Asset.BASE. Prints one JSON line per check ({"check", "ok", "detail"}) and exits 1 if any check failed.
Run by test/e2e-discordpy.test.ts, which starts the server and passes the world in the environment."""
import asyncio
import base64
import io
import json
import logging
import os
import sys
import traceback

import aiohttp
import discord
from discord import app_commands
from discord.http import Route

URL = os.environ['ACCORD_URL']
TOKEN = os.environ['ACCORD_BOT_TOKEN']
GUILD_ID = int(os.environ['ACCORD_GUILD_ID'])
CHANNEL_ID = int(os.environ['ACCORD_CHANNEL_ID'])
BOB_ID = int(os.environ['ACCORD_BOB_ID'])
ONLY = set(filter(None, os.environ.get('ACCORD_ONLY', '').split(',')))

Route.BASE = URL + '/api/v10'
discord.Asset.BASE = URL

PNG = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==')


class RateLimitLog(logging.Handler):
    """Counts the 429s discord.py met and waited out (it logs a warning for each)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.seen = []

    def emit(self, record):
        if 'responded with 429' in record.getMessage():
            self.seen.append(record.getMessage())


limits = RateLimitLog()
logging.getLogger('discord.http').addHandler(limits)
logging.getLogger('discord.http').setLevel(logging.WARNING)

failures = 0


def report(check, ok, detail=''):
    global failures
    if not ok:
        failures += 1
    print(json.dumps({'check': check, 'ok': bool(ok), 'detail': str(detail)[:500]}), flush=True)


def expect(cond, what):
    if not cond:
        raise AssertionError(what)


class Bump(discord.ui.View):
    @discord.ui.button(label='Bump', custom_id='bump', style=discord.ButtonStyle.primary)
    async def bump(self, interaction, button):
        await interaction.response.edit_message(content='Counter: 1', view=None)


class Profile(discord.ui.Modal, title='Your profile'):
    nick = discord.ui.TextInput(label='Nickname', custom_id='nick', min_length=2)

    async def on_submit(self, interaction):
        await interaction.response.send_message(f'Nice to meet you, {self.nick.value}.')


def command_tree(client):
    """The compatibility suite's command set (test/helpers/compat.ts), answered the way that suite checks."""
    tree = app_commands.CommandTree(client)

    @tree.command(name='hello', description='Say hello')
    async def hello(interaction, name: str):
        await interaction.response.send_message(f'Hello, {name}!')

    @tree.command(name='slow', description='Defer, edit, follow up')
    async def slow(interaction):
        await interaction.response.defer()
        await interaction.edit_original_response(content='Done thinking.')
        await interaction.followup.send('And one more thing.')

    @tree.command(name='panel', description='A message with a button')
    async def panel(interaction):
        await interaction.response.send_message('Counter: 0', view=Bump())

    @tree.command(name='form', description='Open a modal')
    async def form(interaction):
        await interaction.response.send_modal(Profile(custom_id='profile'))

    return tree


class Suite(discord.AutoShardedClient):  # the auto-sharded client takes its gateway URL from GET /gateway/bot
    def __init__(self):
        super().__init__(intents=discord.Intents.all(), chunk_guilds_at_startup=False)
        self.ready_once = asyncio.Event()
        self.tree = command_tree(self)

    async def on_ready(self):
        if self.ready_once.is_set():
            return
        self.ready_once.set()
        try:
            await self.run_checks()
        finally:
            await self.close()

    async def run_checks(self):
        guild = self.get_guild(GUILD_ID)
        channel = self.get_channel(CHANNEL_ID)
        report('ready', guild is not None and channel is not None, f'guild={guild} channel={channel}')
        if guild is None or channel is None:
            return
        checks = [
            ('replies', self.check_replies), ('bulk_delete', self.check_bulk_delete), ('member_chunks', self.check_member_chunks),
            ('reactions', self.check_reactions), ('pins', self.check_pins), ('roles', self.check_roles),
            ('threads', self.check_threads), ('typing', self.check_typing), ('assets', self.check_assets),
            ('rate_limit_429', self.check_rate_limit), ('files_embeds', self.check_files_embeds), ('forum', self.check_forum),
            ('errors', self.check_errors), ('resume', self.check_resume), ('interactions', self.check_interactions),
        ]
        for name, fn in checks:
            if ONLY and name not in ONLY:
                continue
            try:
                detail = await asyncio.wait_for(fn(guild, channel), timeout=60)
                report(name, True, detail or '')
            except Exception as e:  # noqa: BLE001 - every failure is reported with its trace
                report(name, False, f'{type(e).__name__}: {e} {traceback.format_exc(limit=3)}')

    async def check_replies(self, guild, channel):
        root = await channel.send('root')
        expect(root.id > 2 ** 53, 'ids above 2^53')
        reply = await channel.send('reply', reference=root)  # message_reference ids go out as JSON integers
        expect(reply.type == discord.MessageType.reply, f'type {reply.type}')
        expect(reply.reference.message_id == root.id, 'reference keeps every digit')
        fetched = await channel.fetch_message(reply.id)
        expect(fetched.reference.resolved.id == root.id, 'referenced_message resolved')
        return f'reply {reply.id} -> {root.id}'

    async def check_bulk_delete(self, guild, channel):
        sent = [await channel.send(f'bulk {i}') for i in range(3)]
        await channel.delete_messages(sent)  # {"messages": [int, int, int]}
        for m in sent:
            try:
                await channel.fetch_message(m.id)
                raise AssertionError(f'{m.id} still there')
            except discord.NotFound:
                pass
        return f'{len(sent)} deleted'

    async def check_member_chunks(self, guild, channel):
        expect(guild.id > 2 ** 53, 'guild id above 2^53')
        members = await guild.chunk()  # op 8 with an integer guild_id
        expect(guild.chunked, 'guild chunked')
        expect(any(m.id == BOB_ID for m in members), 'bob in the chunk')
        found = await guild.query_members(user_ids=[BOB_ID])  # op 8 with integer user_ids
        expect([m.id for m in found] == [BOB_ID], f'query_members {found}')
        return f'{len(members)} members'

    async def check_reactions(self, guild, channel):
        m = await channel.send('react to me')
        await m.add_reaction('\N{THUMBS UP SIGN}')  # PUT without a body
        await m.add_reaction('\N{RED APPLE}')
        m = await channel.fetch_message(m.id)
        expect(sorted(str(r.emoji) for r in m.reactions) == sorted(['\N{THUMBS UP SIGN}', '\N{RED APPLE}']), f'{m.reactions}')
        users = [u async for u in m.reactions[0].users()]
        expect([u.id for u in users] == [self.user.id], f'users {users}')
        await m.remove_reaction('\N{RED APPLE}', self.user)
        await m.clear_reactions()
        m = await channel.fetch_message(m.id)
        expect(m.reactions == [], 'cleared')
        # A person's reaction: the test reacts as Alice when it reads REACT-ME.
        seen = asyncio.ensure_future(self.wait_for('raw_reaction_add', check=lambda p: p.message_id == m.id and p.user_id != self.user.id, timeout=10))
        print(f'REACT-ME {m.id}', flush=True)
        expect(str((await seen).emoji) == '\N{THUMBS UP SIGN}', "a person's reaction event")
        return 'add, list, remove, clear, a person reacting'

    async def check_pins(self, guild, channel):
        m = await channel.send('pin me')
        await m.pin()  # PUT without a body
        expect(any(p.id == m.id for p in await channel.pins()), 'pinned')
        await m.unpin()
        expect(not any(p.id == m.id for p in await channel.pins()), 'unpinned')
        return 'pin, list, unpin'

    async def check_roles(self, guild, channel):
        created = asyncio.ensure_future(self.wait_for('guild_role_create', check=lambda r: r.name == 'py-role', timeout=10))
        role = await guild.create_role(name='py-role', colour=discord.Colour(0x3366FF), hoist=True)
        expect((await created).id == role.id, 'GUILD_ROLE_CREATE')
        bob = await guild.fetch_member(BOB_ID)
        await bob.add_roles(role)  # PUT without a body
        bob = await guild.fetch_member(BOB_ID)
        expect(role in bob.roles, 'role added')
        await role.edit(name='py-role-2')
        await bob.remove_roles(role)
        bob = await guild.fetch_member(BOB_ID)
        expect(role not in bob.roles, 'role removed')
        await role.delete()
        expect(all(r.id != role.id for r in await guild.fetch_roles()), 'role deleted')
        return f'role {role.id}'

    async def check_threads(self, guild, channel):
        root = await channel.send('thread root')
        thread = await root.create_thread(name='py-thread')  # 201 parsed as JSON
        expect(isinstance(thread, discord.Thread) and thread.id == root.id, f'{thread!r}')
        inside = await thread.send('inside')
        expect(inside.channel.id == thread.id, 'sent in thread')
        private = await channel.create_thread(name='py-private', type=discord.ChannelType.private_thread)
        await private.add_user(discord.Object(BOB_ID))
        expect(any(m.id == BOB_ID for m in await private.fetch_members()), 'bob joined')
        await thread.edit(archived=True, locked=True)
        archived = [t async for t in channel.archived_threads()]
        expect(any(t.id == thread.id for t in archived), 'archived listed')
        return f'threads {thread.id} {private.id}'

    async def check_typing(self, guild, channel):
        seen = asyncio.ensure_future(self.wait_for('typing', check=lambda ch, user, when: ch.id == channel.id and user.id == self.user.id, timeout=10))
        await channel.typing()  # POST without a body
        async with channel.typing():
            await asyncio.sleep(0)
        await seen
        return 'TYPING_START received'

    async def check_assets(self, guild, channel):
        emoji = await guild.create_custom_emoji(name='py_emoji', image=PNG)
        data = await emoji.read()  # {Asset.BASE}/emojis/{id}.png
        expect(data == PNG, f'emoji bytes {len(data)}')
        await emoji.delete()
        return emoji.url

    async def check_rate_limit(self, guild, channel):
        """Exhausts the channel's message bucket with bare requests, so discord.py meets a 429 it did not foresee."""
        target = await guild.create_text_channel('py-rate-limit')
        headers = {'Authorization': f'Bot {TOKEN}', 'Content-Type': 'application/json'}
        async with aiohttp.ClientSession() as s:
            for i in range(60):
                async with s.post(f'{Route.BASE}/channels/{target.id}/messages', headers=headers, data=json.dumps({'content': f'x{i}'})) as r:
                    if r.headers.get('X-RateLimit-Remaining') == '0' or r.status == 429:
                        break
        before = len(limits.seen)
        sent = await channel.guild.get_channel(target.id).send('after the 429')
        expect(len(limits.seen) > before, 'a 429 was met')
        expect(sent.content == 'after the 429', 'sent once the limit reset')
        return limits.seen[-1]


    async def check_files_embeds(self, guild, channel):
        m = await channel.send('with a file', embed=discord.Embed(title='Card', description='an embed'), file=discord.File(io.BytesIO(PNG), filename='dot.png'))
        m = await channel.fetch_message(m.id)
        expect(m.embeds[0].title == 'Card', f'embeds {m.embeds}')
        expect(m.attachments[0].filename == 'dot.png', f'attachments {m.attachments}')
        expect(await m.attachments[0].read() == PNG, 'the file downloads byte for byte')
        return m.attachments[0].url

    async def check_forum(self, guild, channel):
        forum = await guild.create_forum('py-forum')
        post = await forum.create_thread(name='py-post', content='forum body')  # a thread with its starter message
        expect(post.message.id == post.thread.id, 'the starter message has the post id')
        starter = await post.thread.fetch_message(post.thread.id)
        expect(starter.content == 'forum body', f'starter {starter.content!r}')
        return f'post {post.thread.id}'

    async def check_errors(self, guild, channel):
        try:
            await self.fetch_channel(1)
            raise AssertionError('an unknown channel was found')
        except discord.NotFound as e:
            expect(e.status == 404 and e.code == 10003, f'{e.status} {e.code}')
        try:
            await channel.fetch_message(1)
            raise AssertionError('an unknown message was found')
        except discord.NotFound as e:
            expect(e.status == 404 and e.code == 10008, f'{e.status} {e.code}')
        return 'NotFound 10003, 10008'

    async def check_resume(self, guild, channel):
        """The test drops this session from the server side when it reads DROP-ME and posts as a person; discord.py
        must resume and get that message."""
        resumed = asyncio.ensure_future(self.wait_for('shard_resumed', timeout=20))
        missed = asyncio.ensure_future(self.wait_for('message', check=lambda m: m.content == 'while away', timeout=20))
        print('DROP-ME', flush=True)
        await resumed
        expect((await missed).author.id != self.user.id, "a person's message posted while the socket was down")
        sent = await channel.send('after resume')
        expect(sent.content == 'after resume', 'the resumed session still sends')
        return 'shard_resumed'


    async def check_interactions(self, guild, channel):
        """Syncs the command tree, then the test acts as a person (INTERACT ids) and answers DONE or FAIL on stdin."""
        commands = await self.tree.sync()
        print('INTERACT ' + json.dumps({c.name: str(c.id) for c in commands}), flush=True)
        line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        expect(line.strip() == 'DONE', line.strip())
        return f'{len(commands)} commands answered'


async def main():
    client = Suite()
    try:
        await asyncio.wait_for(client.start(TOKEN), timeout=240)
    except Exception as e:  # noqa: BLE001
        report('client', False, f'{type(e).__name__}: {e} {traceback.format_exc()}')
    if not client.ready_once.is_set():
        report('ready', False, 'never became ready')


asyncio.run(main())
sys.exit(1 if failures else 0)
