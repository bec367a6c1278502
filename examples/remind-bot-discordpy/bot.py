"""Remind, as a discord.py bot: /remind when:<30m> answers with an "Add a note" button, the button opens a modal, and
the note is confirmed in an answer only the person sees. Run it with `DISCORD_TOKEN=… python3 bot.py`."""
import os

import discord
from discord import app_commands


class NoteModal(discord.ui.Modal, title='Your note'):
    note = discord.ui.TextInput(label='Note', custom_id='note')

    def __init__(self, when: str):
        super().__init__(custom_id=f'note:{when}')
        self.when = when

    async def on_submit(self, interaction: discord.Interaction):
        await interaction.response.send_message(f'Saved: I will remind you in {self.when}: {self.note.value}', ephemeral=True)


class AddNote(discord.ui.View):
    def __init__(self, when: str):
        super().__init__(timeout=None)
        button = discord.ui.Button(label='Add a note', custom_id=f'note:{when}', style=discord.ButtonStyle.primary)
        button.callback = lambda i: i.response.send_modal(NoteModal(when))
        self.add_item(button)


@app_commands.command(name='remind', description='Remind me later')
@app_commands.describe(when='e.g. 30m')
async def remind(interaction: discord.Interaction, when: str):
    await interaction.response.send_message(f'Reminder in {when}. Add a note?', view=AddNote(when))


class RemindBot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(remind)

    async def setup_hook(self):
        await self.tree.sync()


if __name__ == '__main__':
    RemindBot().run(os.environ['DISCORD_TOKEN'])
