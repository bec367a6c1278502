"""The parts that need no server: durations and a command's options typed from its definition."""
import pytest

from accord_testing import to_ms
from accord_testing.command_options import command_options

TAG = {'name': 'tag', 'options': [{'type': 2, 'name': 'admin', 'options': [
    {'type': 1, 'name': 'set', 'options': [{'type': 10, 'name': 'weight', 'required': True},
                                           {'type': 5, 'name': 'on'}, {'type': 6, 'name': 'user'}]}]}]}


def test_durations():
    assert [to_ms(250), to_ms('250ms'), to_ms('30s'), to_ms('30m'), to_ms('1h30m')] == [250, 250, 30_000, 1_800_000, 5_400_000]
    for bad in ['soon', '30x', -1, True]:
        with pytest.raises(ValueError):
            to_ms(bad)


def test_options_nest_under_group_and_subcommand_typed():
    class User:
        id = '42'
    assert command_options(TAG, ['admin', 'set'], {'weight': '2.5', 'on': 1, 'user': User()}) == [
        {'name': 'admin', 'type': 2, 'options': [{'name': 'set', 'type': 1, 'options': [
            {'name': 'weight', 'type': 10, 'value': 2.5}, {'name': 'on', 'type': 5, 'value': True},
            {'name': 'user', 'type': 6, 'value': '42'}]}]}]
    with pytest.raises(ValueError, match='/tag has no subcommand "nope"; it has: admin'):
        command_options(TAG, ['nope'], {})
    with pytest.raises(ValueError, match='/tag admin set needs weight'):
        command_options(TAG, ['admin', 'set'], {'on': True})
