import { ALL_PERMISSIONS, P } from '@accord/protocol';
import { request } from './api.js';
import { Person } from './person.js';

export interface AppSpec {
  /** How the app is installed in the guild: with its bot (default), commands only, or installed by each person. */
  install?: 'bot' | 'commands' | 'user' | 'none';
  /** Permission bits of the bot's role (default: everything but ADMINISTRATOR). */
  permissions?: bigint | string;
  /** The privileged intents it may use (default all three). */
  privilegedIntents?: boolean;
  /** Global commands, registered with the bot token as an app does at start. */
  commands?: unknown[];
  /** Where people's interactions go instead of the Gateway (HTTP interactions). */
  interactionsEndpointUrl?: string;
}

export interface WorldSpec {
  /** People by name; the first owns the guild and the apps. Default ['alice', 'bob']. */
  people?: string[];
  guild?: {
    name?: string;
    channels?: (string | { name: string; type?: number; topic?: string })[];
    roles?: { name: string; permissions?: string; color?: number }[];
  };
  apps?: Record<string, AppSpec>;
}

export interface WorldApp {
  id: string;
  name: string;
  /** The bot token (`Bot …` is added by libraries), null for install 'commands' without one. */
  token: string;
  botUserId: string;
  publicKey: string;
}

export interface World {
  people: Record<string, Person>;
  guild: { id: string; channels: Record<string, string>; roles: Record<string, string> };
  apps: Record<string, WorldApp>;
}

const ALL_BUT_ADMIN = ALL_PERMISSIONS & ~P.ADMINISTRATOR;
const PRIVILEGED_INTENT_FLAGS = (1 << 13) | (1 << 15) | (1 << 19);

/**
 * Builds a world in one call, through the public API as its people would: accounts, a guild, channels, roles, apps.
 * `n` numbers the server's worlds, so usernames stay unique on it and two runs of a script name people alike.
 */
export async function buildWorld(api: string, gatewayUrl: string, spec: WorldSpec = {}, n = 1): Promise<World> {
  const suffix = `w${n}`;
  const names = spec.people ?? ['alice', 'bob'];
  if (!names.length) throw new Error('a world needs at least one person (its owner)');
  const people: Record<string, Person> = {};
  for (const name of names) {
    const username = `${name
      .toLowerCase()
      .replace(/[^a-z0-9_.]/g, '_')
      .slice(0, 24)}_${suffix}`;
    const { token } = await request<{ token: string }>(api, '/auth/register', { body: { username, global_name: name, password: `pw-${suffix}-${name}` } });
    const me = await request<{ id: string }>(api, '/users/@me', { auth: token });
    people[name] = new Person(api, me.id, username, token, gatewayUrl);
  }
  const owner = people[names[0]];
  const guild = await owner.call<{ id: string; system_channel_id?: string }>('/guilds', 'POST', { name: spec.guild?.name ?? 'Test guild' });
  const existing = await owner.call<{ id: string; name: string; type: number }[]>(`/guilds/${guild.id}/channels`);
  const channels: Record<string, string> = Object.fromEntries(existing.filter((c) => c.type !== 4).map((c) => [c.name, c.id]));
  const text = existing.find((c) => c.type === 0);
  if (!text) throw new Error('the new guild has no text channel to invite people through');
  for (const c of spec.guild?.channels ?? []) {
    const body = typeof c === 'string' ? { name: c } : c;
    if (channels[body.name]) continue;
    channels[body.name] = (await owner.call<{ id: string }>(`/guilds/${guild.id}/channels`, 'POST', body)).id;
  }
  const roles: Record<string, string> = {};
  for (const r of spec.guild?.roles ?? []) roles[r.name] = (await owner.call<{ id: string }>(`/guilds/${guild.id}/roles`, 'POST', r)).id;
  const invite = await owner.call<{ code: string }>(`/channels/${text.id}/invites`, 'POST', { max_age: 0 });
  for (const name of names.slice(1)) await people[name].call(`/invites/${invite.code}`, 'POST');

  const apps: Record<string, WorldApp> = {};
  for (const [name, a] of Object.entries(spec.apps ?? {})) apps[name] = await buildApp(api, owner, Object.values(people), guild.id, name, a);
  await Promise.all(Object.values(people).map((p) => p.gateway.open()));
  return { people, guild: { id: guild.id, channels, roles }, apps };
}

async function buildApp(api: string, owner: Person, people: Person[], guildId: string, name: string, a: AppSpec): Promise<WorldApp> {
  const app = await owner.call<{ id: string; verify_key: string }>('/applications', 'POST', { name });
  const { token } = await owner.call<{ token: string }>(`/applications/${app.id}/bot/reset`, 'POST');
  const bot = await request<{ id: string }>(api, '/users/@me', { auth: `Bot ${token}` });
  const patch: Record<string, unknown> = {};
  if (a.privilegedIntents !== false) patch.flags = PRIVILEGED_INTENT_FLAGS;
  if (a.interactionsEndpointUrl) patch.interactions_endpoint_url = a.interactionsEndpointUrl;
  if (Object.keys(patch).length) await owner.call(`/applications/${app.id}`, 'PATCH', patch);
  if (a.commands?.length) await request(api, `/applications/${app.id}/commands`, { method: 'PUT', body: a.commands, auth: `Bot ${token}` });
  const permissions = String(a.permissions ?? ALL_BUT_ADMIN);
  const install = a.install ?? 'bot';
  if (install === 'bot')
    await owner.call(`/oauth2/authorize?client_id=${app.id}&scope=bot%20applications.commands&permissions=${permissions}`, 'POST', {
      guild_id: guildId,
      permissions,
      authorize: true,
    });
  if (install === 'commands')
    await owner.call(`/oauth2/authorize?client_id=${app.id}&scope=applications.commands`, 'POST', { guild_id: guildId, authorize: true });
  if (install === 'user') {
    for (const p of people)
      await p.call(`/oauth2/authorize?client_id=${app.id}&scope=applications.commands&integration_type=1`, 'POST', { authorize: true, integration_type: 1 });
  }
  return { id: app.id, name, token, botUserId: bot.id, publicKey: app.verify_key };
}
