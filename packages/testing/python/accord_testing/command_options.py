"""A command's options as an interaction carries them, from `{name: value}` and the command's definition: each value
typed as its option is (strings, integers, numbers, booleans, ids for users, channels, roles and mentionables),
nested under the subcommand group and subcommand the path names."""
import math
from typing import Any, Dict, List

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
NUMBER = 10


def command_options(command: Dict[str, Any], path: List[str], values: Dict[str, Any]) -> List[Dict[str, Any]]:
    defs = command.get('options') or []
    chain = []
    for part in path:
        sub = next((o for o in defs if o['name'] == part and o['type'] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None)
        if sub is None:
            has = ', '.join(o['name'] for o in defs if o['type'] <= 2) or 'none'
            raise ValueError(f'/{command["name"]} has no subcommand "{part}"; it has: {has}')
        chain.append(sub)
        defs = sub.get('options') or []
    full = ' '.join([command['name'], *path])
    leaf = []
    for name, value in values.items():
        d = next((o for o in defs if o['name'] == name), None)
        if d is None:
            raise ValueError(f'/{full} has no option "{name}"; it has: {", ".join(o["name"] for o in defs) or "none"}')
        leaf.append({'name': name, 'type': d['type'], 'value': _typed(d['type'], value, name)})
    missing = [o['name'] for o in defs if o.get('required') and o['name'] not in values]
    if missing:
        raise ValueError(f'/{full} needs {", ".join(missing)}')
    options: List[Dict[str, Any]] = leaf
    for sub in reversed(chain):
        options = [{'name': sub['name'], 'type': sub['type'], 'options': options}]
    return options


def _typed(kind: int, value: Any, name: str) -> Any:
    if kind == STRING:
        return str(value)
    if kind in (INTEGER, NUMBER):
        try:
            n = float(value)
        except (TypeError, ValueError):
            n = math.nan
        if not math.isfinite(n) or (kind == INTEGER and not n.is_integer()):
            raise ValueError(f'option "{name}" wants {"an integer" if kind == INTEGER else "a number"}, not {value!r}')
        return int(n) if kind == INTEGER else n
    if kind == BOOLEAN:
        return bool(value)
    # users, channels, roles, mentionables, attachments: an id, or anything with an id
    if isinstance(value, dict) and 'id' in value:
        return str(value['id'])
    return str(getattr(value, 'id', value))
