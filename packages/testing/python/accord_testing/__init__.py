"""Test an app against a real Accord from pytest: a platform per session, a world in one call, people you script,
the server's clock and the inspector. The Python twin of the JS toolkit @accord/testing."""
from .api import AccordApiError
from .arrivals import WaitTimeout
from .clock import Clock
from .dev import AppWatch
from .discord_py import discord_py_bot, point_discord_py
from .duration import to_ms
from .person import Person
from .server import Accord, repo_root, start_accord
from .world import App, Guild, World

__all__ = ['Accord', 'AccordApiError', 'App', 'AppWatch', 'Clock', 'Guild', 'Person', 'WaitTimeout', 'World',
           'discord_py_bot', 'point_discord_py', 'repo_root', 'start_accord', 'to_ms']
