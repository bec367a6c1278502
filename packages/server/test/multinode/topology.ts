import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * The multi-node test's network: one Linux network namespace per node, each joined by a veth pair to a bridge in the
 * root namespace. Nodes reach each other and the root namespace (the harness, and the forwarders to PostgreSQL and
 * Redis) over the bridge's subnet. Every name starts with `mn-`, so leftovers of a killed run are found and removed.
 */
export const SUBNET = '10.231.0';
export const BRIDGE = 'mn-br0';
export const BRIDGE_IP = `${SUBNET}.1`;
const PREFIX = 'mn-';

export interface NetNode {
  /** Namespace name, also the node's name in reports. */
  ns: string;
  ip: string;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** Why the topology cannot be built here (not root, no `ip`, no netns support), or null when it can. */
export function unsupported(): string | null {
  if (process.platform !== 'linux') return 'needs Linux network namespaces';
  if (process.getuid?.() !== 0) return 'needs root (ip netns)';
  const probe = spawnSync('ip', ['netns', 'list'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) return 'needs iproute2 (`ip netns`)';
  return null;
}

/** Creates the bridge and one namespace per name, addressed .11, .12, … in order; removes leftovers first. */
export function createTopology(names: string[]): NetNode[] {
  destroyTopology();
  ip('link', 'add', BRIDGE, 'type', 'bridge');
  ip('addr', 'add', `${BRIDGE_IP}/24`, 'dev', BRIDGE);
  ip('link', 'set', BRIDGE, 'up');
  return names.map((name, i) => {
    const ns = `${PREFIX}${name}`;
    const addr = `${SUBNET}.${11 + i}`;
    const host = `${PREFIX}v${i}h`;
    const peer = `${PREFIX}v${i}n`;
    ip('netns', 'add', ns);
    ip('link', 'add', host, 'type', 'veth', 'peer', 'name', peer);
    ip('link', 'set', host, 'master', BRIDGE, 'up');
    ip('link', 'set', peer, 'netns', ns);
    ip('-n', ns, 'addr', 'add', `${addr}/24`, 'dev', peer);
    ip('-n', ns, 'link', 'set', peer, 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
    return { ns, ip: addr };
  });
}

/**
 * Removes every `mn-` namespace (killing what still runs in it) and link. Safe to call at any time, and twice; a
 * namespace's veth end goes with it, and the host ends and the bridge are deleted by name.
 */
export function destroyTopology(): void {
  const list = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '';
  for (const line of list.split('\n')) {
    const ns = line.split(' ')[0];
    if (!ns.startsWith(PREFIX)) continue;
    const pids = (spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' }).stdout ?? '').split('\n').filter(Boolean);
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    spawnSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
  }
  const links = spawnSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' }).stdout ?? '';
  for (const line of links.split('\n')) {
    const name = line.split(':')[1]?.trim().split('@')[0];
    if (name?.startsWith(PREFIX)) spawnSync('ip', ['link', 'del', name], { stdio: 'ignore' });
  }
}

const LOCK = '/run/accord-multinode.lock';

/**
 * One run per machine: the names and addresses are fixed, and a run removes the leftovers of another at its start.
 * Waits (bounded) while a live process holds the lock; a lock whose process is gone is taken over. Returns the release.
 */
export async function lockMachine(timeoutMs = 15 * 60_000): Promise<() => void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(LOCK, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(fs.readFileSync(LOCK, 'utf8').trim());
    if (!holder || !alive(holder)) {
      fs.rmSync(LOCK, { force: true });
      continue;
    }
    if (Date.now() > end) throw new Error(`another multi-node run (pid ${holder}) holds ${LOCK}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
