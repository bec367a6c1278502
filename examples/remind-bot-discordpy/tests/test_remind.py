"""Remind, tested with nothing but the accord_testing pytest plugin."""
import pytest

from accord_testing import WaitTimeout


async def test_remind_button_modal_private_answer(remind):
    alice, bob, app, general = remind.people.alice, remind.people.bob, remind.apps.remind, remind.guild.channels.general
    await alice.run_command(app, 'remind', {'when': '30m'}, channel=general)
    await alice.click(await alice.next_message(from_=app, match='Add a note?'), 'note:30m')
    await alice.submit_modal(await alice.next_modal(), {'note': 'stretch'})
    assert (await alice.next_message(from_=app, ephemeral=True))['content'] == 'Saved: I will remind you in 30m: stretch'
    with pytest.raises(WaitTimeout):
        await bob.next_message(from_=app, ephemeral=True, timeout=300)
