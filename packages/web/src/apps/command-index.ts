import { useEffect, useState } from 'react';
import type { Api } from '../lib/api/routes.js';
import type { APIApplicationCommand, APIApplicationCommandOption, Channel, CommandIndex } from '../lib/api/types.js';
import { useApi } from '../lib/session.js';

/**
 * The commands a person can run where they are, from the official client's index routes: in a guild, the guild's
 * (`GET /guilds/{id}/application-command-index`) and their own installed apps'
 * (`GET /users/@me/application-command-index`); in a DM, the channel's (`GET /channels/{id}/application-command-index`).
 * Each subcommand becomes its own entry, as in the picker.
 */

export interface AppInfo {
  id: string;
  name: string;
  icon: string | null;
}

export interface CommandEntry {
  key: string;
  app: AppInfo;
  command: APIApplicationCommand;
  /** [group?, sub?] below the command. */
  path: string[];
  /** "name sub" as typed after the slash. */
  fullName: string;
  description: string;
  options: APIApplicationCommandOption[];
}

export interface Commands {
  chat: CommandEntry[];
  user: { app: AppInfo; command: APIApplicationCommand }[];
  message: { app: AppInfo; command: APIApplicationCommand }[];
}

const EMPTY: Commands = { chat: [], user: [], message: [] };
const cache = new Map<string, { at: number; value: Promise<Commands> }>();
const TTL = 15_000;

function flatten(index: CommandIndex, into: Commands, seen: Set<string>): void {
  const apps = new Map(index.applications.map((a) => [a.id, { id: a.id, name: a.name, icon: a.icon }]));
  for (const c of index.application_commands) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    const app = apps.get(c.application_id) ?? { id: c.application_id, name: 'App', icon: null };
    const type = c.type ?? 1;
    if (type === 2) {
      into.user.push({ app, command: c });
      continue;
    }
    if (type === 3) {
      into.message.push({ app, command: c });
      continue;
    }
    if (type !== 1) continue;
    const subs = (c.options ?? []).filter((o) => o.type === 1 || o.type === 2);
    if (!subs.length) {
      into.chat.push({
        key: c.id,
        app,
        command: c,
        path: [],
        fullName: c.name,
        description: c.description,
        options: (c.options ?? []) as APIApplicationCommandOption[],
      });
      continue;
    }
    for (const s of subs) {
      const leaves = s.type === 2 ? ((s as any).options ?? []).map((x: any) => ({ group: s.name, sub: x })) : [{ group: null, sub: s }];
      for (const { group, sub } of leaves) {
        const path = group ? [group, sub.name] : [sub.name];
        into.chat.push({
          key: `${c.id}:${path.join(' ')}`,
          app,
          command: c,
          path,
          fullName: [c.name, ...path].join(' '),
          description: sub.description,
          options: sub.options ?? [],
        });
      }
    }
  }
}

/** In a guild: the guild's apps and the person's own; in a DM or group DM: the channel's index. */
async function load(api: Api, channel: Channel): Promise<Commands> {
  const out: Commands = { chat: [], user: [], message: [] };
  const seen = new Set<string>();
  const [guild, mine] = await Promise.all([
    channel.guild_id ? api.guilds.commandIndex(channel.guild_id).catch(() => null) : api.channels.commandIndex(channel.id).catch(() => null),
    channel.guild_id ? api.commands.userIndex().catch(() => null) : Promise.resolve(null),
  ]);
  if (guild) flatten(guild, out, seen);
  if (mine) flatten(mine, out, seen);
  out.chat.sort((a, b) => a.fullName.localeCompare(b.fullName));
  return out;
}

export function loadCommands(api: Api, channel: Channel, fresh = false): Promise<Commands> {
  const key = channel.guild_id ?? channel.id;
  const hit = cache.get(key);
  if (hit && !fresh && Date.now() - hit.at < TTL) return hit.value;
  const value = load(api, channel);
  cache.set(key, { at: Date.now(), value });
  return value;
}

/** The commands for a channel; refreshed when `version` changes (each time the picker opens). */
export function useCommands(channel: Channel, version = 0): { commands: Commands; loading: boolean } {
  const api = useApi();
  const [state, setState] = useState<{ commands: Commands; loading: boolean }>({ commands: EMPTY, loading: true });
  useEffect(() => {
    let live = true;
    loadCommands(api, channel).then((commands) => live && setState({ commands, loading: false }));
    return () => {
      live = false;
    };
  }, [channel.guild_id ?? channel.id, version]);
  return state;
}

/** The `options` tree of the interaction for a picked entry and its leaf values. */
export function optionTree(entry: CommandEntry, leaves: unknown[]): unknown[] {
  if (!entry.path.length) return leaves;
  if (entry.path.length === 1) return [{ type: 1, name: entry.path[0], options: leaves }];
  return [{ type: 2, name: entry.path[0], options: [{ type: 1, name: entry.path[1], options: leaves }] }];
}
