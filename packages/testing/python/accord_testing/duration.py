"""Durations as tests write them: milliseconds, or '250ms', '30s', '30m', '2h', '7d', also combined ('1h30m')."""
import re
from typing import Union

Duration = Union[int, float, str]

_UNIT = {'ms': 1, 's': 1000, 'm': 60_000, 'h': 3_600_000, 'd': 86_400_000}
_PART = re.compile(r'(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)')


def to_ms(d: Duration) -> int:
    """Whole milliseconds (the server's routes take integers)."""
    if isinstance(d, (int, float)) and not isinstance(d, bool):
        if not 0 <= d < float('inf'):
            raise ValueError(f'a duration must be a non-negative number of ms, not {d}')
        return round(d)
    if not isinstance(d, str):
        raise ValueError(f'a duration is a number of ms or a text like "30s", not {d!r}')
    parts = list(_PART.finditer(d.strip()))
    if not parts or ''.join(p.group(0) for p in parts).replace(' ', '') != re.sub(r'\s+', '', d):
        raise ValueError(f'"{d}" is not a duration like "30s", "30m" or "1h30m"')
    return round(sum(float(p.group(1)) * _UNIT[p.group(2)] for p in parts))
