"""The plugin as a discord.py developer uses it: a person runs the bot's slash command, clicks its button, fills its
modal and sees the ephemeral answer only she sees; the clock; waits that say what arrived."""
import re
from datetime import timedelta

import pytest

from accord_testing import AccordApiError, WaitTimeout


async def test_slash_command_button_modal_ephemeral_answer(remind):
    alice, bob, app = remind.people.alice, remind.people.bob, remind.apps.remind
    await alice.run_command(app, 'remind', {'when': '30m'}, channel=remind.guild.channels.general)
    await alice.click(await alice.next_message(from_=app, match='Add a note?'), 'note:30m')
    await alice.submit_modal(await alice.next_modal(), {'note': 'stretch'})
    answer = await alice.next_message(from_=app, ephemeral=True)
    assert answer['content'] == 'Saved: I will remind you in 30m: stretch'

    # Only she saw it: Bob's session got the public prompt but not the ephemeral answer.
    await bob.next_message(from_=app, match='Add a note?')
    with pytest.raises(WaitTimeout, match=r'no MESSAGE_CREATE .* \(ephemeral\) within 300 ms; what arrived'):
        await bob.next_message(from_=app, ephemeral=True, timeout=300)


async def test_subcommand_with_typed_options_seen_by_the_inspector(accord, remind):
    alice, app = remind.people.alice, remind.apps.remind
    async with accord.watch(app) as watch:
        await alice.run_command(app, 'tag add', {'name': 'x', 'count': '3'}, channel=remind.guild.channels.general)
        assert (await alice.next_message(from_=app, match=re.compile(r'^tag ')))['content'] == 'tag x x3 (int)'
        interaction = await watch.next('INTERACTION_CREATE', lambda d: d['data']['name'] == 'tag')
        assert interaction['data']['options'] == [{'name': 'add', 'type': 1, 'options': [
            {'name': 'name', 'type': 3, 'value': 'x'}, {'name': 'count', 'type': 4, 'value': 3}]}]
        callback = await watch.next_request(method='POST', route='/interactions/{interaction_id}/{interaction_token}/callback')
        assert callback['status'] == 204


async def test_bad_commands_say_what_the_app_has(remind):
    alice, app, general = remind.people.alice, remind.apps.remind, remind.guild.channels.general
    with pytest.raises(LookupError, match=r'no /nope of app \d+ .* the app has: .*/remind'):
        await alice.run_command(app, 'nope', channel=general)
    with pytest.raises(ValueError, match='/remind needs when'):
        await alice.run_command(app, 'remind', {}, channel=general)
    with pytest.raises(ValueError, match='option "count" wants an integer'):
        await alice.run_command(app, 'tag add', {'name': 'x', 'count': 1.5}, channel=general)


async def test_the_clock_moves(accord):
    before = await accord.clock.now()
    after = await accord.clock.advance('30m')
    assert abs(after - before - timedelta(minutes=30)) < timedelta(seconds=5)


async def test_select_a_menu(remind):
    alice, app = remind.people.alice, remind.apps.remind
    await alice.run_command(app, 'remind', {'when': '2h'}, channel=remind.guild.channels.general)
    await alice.select(await alice.next_message(from_=app, match='Reminder in 2h'), 'repeat', ['weekly'])
    assert (await alice.next_message(from_=app, match='Repeats'))['content'] == 'Repeats weekly'


async def test_people_send_files_reply_and_open_dms(world):
    w = await world()
    alice, bob = w.people.alice, w.people.bob
    sent = await alice.send(w.guild.channels.general, {'content': 'a file', 'files': [{'name': 'a.txt', 'data': 'hi'}]})
    assert [a['filename'] for a in sent['attachments']] == ['a.txt']
    reply = await bob.reply(await bob.next_message(from_=alice, match='a file'), 'got it')
    assert reply['message_reference']['message_id'] == sent['id']
    dm = await bob.open_dm(alice)
    await bob.send(dm, 'psst')
    assert (await alice.next_message(channel=dm, from_=bob))['content'] == 'psst'


async def test_a_timeout_lists_what_arrived(world):
    w = await world(people=['alice'], guild={'channels': ['lobby'], 'roles': [{'name': 'mods'}]})
    alice = w.people.alice
    sent = await alice.send(w.guild.channels.lobby, 'hello there')
    await alice.react(sent, '👍')
    with pytest.raises(WaitTimeout, match=r'no MESSAGE_CREATE .*within 200 ms; what arrived[\s\S]*"hello there"'):
        await alice.next_message(match='never sent', timeout=200)
    assert w.guild.roles.mods.isdigit()
    assert (await alice.next_event('MESSAGE_REACTION_ADD'))['emoji']['name'] == '👍'


async def test_faults_and_a_snapshot(accord, remind):
    app = remind.apps.remind
    general = remind.guild.channels.general
    fault = await accord.faults.add(app.id, 'http', route='POST /channels/:channel_id/messages', status=500, count=1)
    assert [f['id'] for f in await accord.faults.list(app.id)] == [fault['id']]
    with pytest.raises(AccordApiError) as refused:
        await accord.request(f'/channels/{general}/messages', body={'content': 'hi'}, auth=f'Bot {app.token}')
    assert refused.value.status == 500 and refused.value.code == 0
    sent = await accord.request(f'/channels/{general}/messages', body={'content': 'hi'}, auth=f'Bot {app.token}')
    assert sent['content'] == 'hi'
    await accord.faults.clear(app.id)
    world = await accord.snapshot()
    assert any(m['id'] == sent['id'] for m in world['tables']['messages'])
