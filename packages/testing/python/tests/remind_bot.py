"""The app under test: a discord.py bot whose /remind asks for a note with a button and a modal, then confirms
privately, and whose /tag add echoes its typed options."""
import discord
from discord import app_commands


class NoteModal(discord.ui.Modal, title='Your note'):
    note = discord.ui.TextInput(label='Note', custom_id='note')

    def __init__(self, when: str):
        super().__init__(custom_id=f'note:{when}')
        self.when = when

    async def on_submit(self, interaction: discord.Interaction):
        await interaction.response.send_message(f'Saved: I will remind you in {self.when}: {self.note.value}',
                                                ephemeral=True)


class AddNote(discord.ui.View):
    def __init__(self, when: str):
        super().__init__(timeout=None)
        button = discord.ui.Button(label='Add a note', custom_id=f'note:{when}', style=discord.ButtonStyle.primary)
        button.callback = lambda i: i.response.send_modal(NoteModal(when))
        self.add_item(button)
        repeat = discord.ui.Select(custom_id='repeat', options=[discord.SelectOption(label=v) for v in ('daily', 'weekly')])
        repeat.callback = lambda i: i.response.send_message(f'Repeats {repeat.values[0]}')
        self.add_item(repeat)


tag = app_commands.Group(name='tag', description='Tags')


@tag.command(name='add', description='Add a tag')
async def tag_add(interaction: discord.Interaction, name: str, count: int):
    await interaction.response.send_message(f'tag {name} x{count} ({type(count).__name__})')


@app_commands.command(name='remind', description='Remind me later')
@app_commands.describe(when='e.g. 30m')
async def remind(interaction: discord.Interaction, when: str):
    await interaction.response.send_message(f'Reminder in {when}. Add a note?', view=AddNote(when))


class RemindBot(discord.Client):
    def __init__(self):
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(remind)
        self.tree.add_command(tag)

    async def setup_hook(self):
        await self.tree.sync()  # PUT /applications/{id}/commands with the bot token, as bots do at start
