"""Starts Accord in a child process on a free port, in dev mode, with SQLite in a temp dir, as the JS toolkit's
startAccord does: the server's TypeScript sources through tsx, so the platform always matches this checkout (inside
the repository's `npm test`, the server bundle it built from this checkout)."""
import atexit
import os
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any, Dict, List, Optional

from .api import request
from .clock import Clock
from .dev import AppWatch, DevApi, Faults

_LISTENING = re.compile(r'accord: listening on (\S+)')


def repo_root() -> Path:
    """The Accord checkout: $ACCORD_ROOT, else the one this package sits in (packages/testing/python/accord_testing)."""
    root = Path(os.environ['ACCORD_ROOT']) if os.environ.get('ACCORD_ROOT') else Path(__file__).resolve().parents[4]
    if not (root / 'packages' / 'server' / 'src' / 'main.ts').is_file():
        raise RuntimeError(f'{root} is not an Accord checkout (no packages/server/src/main.ts); set ACCORD_ROOT')
    return root


class Accord:
    """A running Accord: its URLs, a world builder, the clock and the inspector (dev mode)."""

    def __init__(self, url: str, dev_token: str, process: subprocess.Popen, data_dir: Optional[str], output: List[str]):
        self.url = url
        #: `http://127.0.0.1:<port>/api/v10`, what libraries take as their API base.
        self.api = f'{url}/api/v10'
        #: The Gateway URL clients connect to.
        self.gateway_url = re.sub(r'^http', 'ws', url)
        self.dev = DevApi(url, dev_token)
        self.clock = Clock(self.dev)
        self.faults = Faults(self.dev)
        self._process = process
        self._data_dir = data_dir
        self._output = output
        atexit.register(self.close)  # a script that forgets close() leaves no server behind

    async def request(self, path: str, method: Optional[str] = None, body=None, auth: Optional[str] = None):
        """Calls the API (`/api/v10` + path) with the given Authorization."""
        return await request(self.api, path, method, body, auth)

    async def world(self, people=None, guild=None, apps=None):
        """People, a guild with channels and roles, and apps installed in it, in one call (close it with
        `await world.close()`; the `world` fixture does)."""
        from .world import build_world
        return await build_world(self.api, self.gateway_url, people=people, guild=guild, apps=apps)

    async def snapshot(self) -> Dict[str, Any]:
        """The whole world as JSON, as `--export-on-exit` writes it (start from one with args=['--import', file])."""
        return await self.dev.call('/snapshot')

    def watch(self, app) -> AppWatch:
        """Watches one app from now on (and its recent past): its Gateway dispatches and API requests."""
        return AppWatch(self.dev, app if isinstance(app, str) else app.id)

    def point_discord_py(self) -> None:
        """Points discord.py at this Accord (its Route, Asset and Gateway URL; process-wide)."""
        from .discord_py import point_discord_py
        point_discord_py(self)

    def discord_py_bot(self, client, token: str, timeout: float = 30.0):
        """`async with accord.discord_py_bot(MyBot(), app.token):` a discord.py client pointed here, logged in and
        READY inside the block, closed after it."""
        from .discord_py import discord_py_bot
        return discord_py_bot(self, client, token, timeout)

    def output(self) -> str:
        """What the server printed lately (its log level is silent unless ACCORD_LOG_LEVEL says otherwise)."""
        return ''.join(self._output)

    def close(self) -> None:
        """Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its temp data dir."""
        atexit.unregister(self.close)
        _stop(self._process)
        if self._data_dir:
            shutil.rmtree(self._data_dir, ignore_errors=True)
            self._data_dir = None


def start_accord(args: Optional[List[str]] = None, env: Optional[Dict[str, str]] = None, data_dir: Optional[str] = None,
                 start_timeout: float = 30.0, verbose: bool = False) -> Accord:
    """Starts Accord and returns when it listens. `args` adds `accord start` flags (['--rate-limits', 'off']), `env`
    adds to the server's environment, `data_dir` keeps its data somewhere of yours instead of a temp dir."""
    root = repo_root()
    own_dir = data_dir is None
    data = data_dir or tempfile.mkdtemp(prefix='accord-testing-')
    dev_token = secrets.token_urlsafe(24)
    node = os.environ.get('ACCORD_NODE', 'node')
    # Inside the repository's `npm test`, the server bundle it built from this checkout (as startAccord does).
    bundle = os.environ.get('ACCORD_TEST_MAIN')
    entry = ['--enable-source-maps', bundle] if bundle and os.path.isfile(bundle) else \
        ['--import', 'tsx', str(root / 'packages' / 'server' / 'src' / 'main.ts')]
    cmd = [node, *entry, 'start', '--port', '0', '--host', '127.0.0.1', '--data', data, '--dev', *(args or [])]
    full_env = {**os.environ, 'ACCORD_DEV_TOKEN': dev_token, 'ACCORD_LOG_LEVEL': 'silent', **(env or {})}
    # cwd is the checkout so that `--import tsx` resolves from its node_modules.
    process = subprocess.Popen(cmd, cwd=root, env=full_env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, bufsize=1)
    output: List[str] = []
    found = threading.Event()
    url: List[str] = []

    def drain() -> None:  # reads until the server exits, so a full pipe never blocks it
        for line in process.stdout:  # type: ignore[union-attr]
            output.append(line)
            del output[:-200]
            if verbose:
                print(line, end='')
            m = _LISTENING.search(line)
            if m and not url:
                url.append(m.group(1))
                found.set()
        found.set()

    threading.Thread(target=drain, name='accord-output', daemon=True).start()
    found.wait(start_timeout)
    if not url:
        why = f'Accord exited ({process.returncode}) before listening' if process.poll() is not None \
            else f'Accord did not start within {start_timeout:g} s'
        _stop(process)
        if own_dir:
            shutil.rmtree(data, ignore_errors=True)
        raise RuntimeError(f"{why}; its output:\n{''.join(output).strip() or '(none)'}")
    return Accord(url[0], dev_token, process, data if own_dir else None, output)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
