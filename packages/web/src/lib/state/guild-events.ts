import type { APIGuildMember, APIRole, APIUser, Channel, GuildCreate, Presence, Snowflake } from '../api/types.js';
import type { GuildState, Store } from './store.js';

/** READY, guilds, channels, threads, members, roles, presences and voice states. */

export function rememberUsers(store: Store, users: (APIUser | undefined | null)[]): void {
  let next: Map<Snowflake, APIUser> | null = null;
  for (const u of users) {
    if (!u?.id || !u.username) continue;
    const prev = (next ?? store.state.users).get(u.id);
    if (prev && prev.username === u.username && prev.global_name === u.global_name && prev.avatar === u.avatar) continue;
    next ??= new Map(store.state.users);
    next.set(u.id, { ...prev, ...u });
  }
  if (next) store.set({ users: next });
}

export function onReady(store: Store, d: any): void {
  const privateChannels = new Map<Snowflake, Channel>();
  for (const c of d.private_channels ?? []) privateChannels.set(c.id, c);
  const guilds = new Map(store.state.guilds);
  for (const g of d.guilds ?? []) if (!guilds.has(g.id)) guilds.set(g.id, emptyGuild(g.id));
  store.set({
    me: d.user,
    sessionId: d.session_id,
    privateChannels,
    guilds,
    guildOrder: (d.guilds ?? []).map((g: { id: string }) => g.id),
  });
  rememberUsers(store, [d.user, ...(d.private_channels ?? []).flatMap((c: Channel) => c.recipients ?? [])]);
}

function emptyGuild(id: Snowflake): GuildState {
  return {
    id,
    name: '',
    icon: null,
    ownerId: '',
    memberCount: 0,
    roles: new Map(),
    channels: new Map(),
    members: new Map(),
    voiceStates: new Map(),
    emojis: [],
    systemChannelId: null,
    unavailable: true,
  };
}

export function onGuildCreate(store: Store, g: GuildCreate): void {
  if (g.unavailable) return;
  const channels = new Map<Snowflake, Channel>();
  for (const c of [...(g.channels ?? []), ...(g.threads ?? [])]) channels.set(c.id, { ...c, guild_id: g.id });
  const members = new Map<Snowflake, APIGuildMember>();
  for (const m of g.members ?? []) if (m.user) members.set(m.user.id, m);
  const state: GuildState = {
    id: g.id,
    name: g.name,
    icon: g.icon,
    ownerId: g.owner_id,
    memberCount: g.member_count ?? members.size,
    roles: new Map((g.roles ?? []).map((r) => [r.id, r])),
    channels,
    members,
    voiceStates: new Map((g.voice_states ?? []).map((v) => [v.user_id, { ...v, guild_id: g.id }])),
    emojis: toEmojis(g.emojis ?? []),
    systemChannelId: g.system_channel_id ?? null,
    unavailable: false,
  };
  store.update('guilds', g.id, () => state);
  if (!store.state.guildOrder.includes(g.id)) store.set({ guildOrder: [...store.state.guildOrder, g.id] });
  rememberUsers(
    store,
    (g.members ?? []).map((m) => m.user),
  );
  setPresences(store, g.presences ?? []);
}

export function onGuildUpdate(store: Store, g: GuildCreate): void {
  store.update<'guilds', GuildState>(
    'guilds',
    g.id,
    (prev) =>
      prev && {
        ...prev,
        name: g.name,
        icon: g.icon,
        ownerId: g.owner_id,
        systemChannelId: g.system_channel_id ?? null,
        roles: g.roles ? new Map(g.roles.map((r) => [r.id, r])) : prev.roles,
      },
  );
}

export function onGuildDelete(store: Store, d: { id: Snowflake; unavailable?: boolean }): void {
  if (d.unavailable) return;
  store.update('guilds', d.id, () => undefined);
  store.set({ guildOrder: store.state.guildOrder.filter((id) => id !== d.id) });
}

/** A change to one guild, copy on write. */
export function patchGuild(store: Store, guildId: Snowflake | undefined, fn: (g: GuildState) => Partial<GuildState>): void {
  if (!guildId) return;
  store.update<'guilds', GuildState>('guilds', guildId, (prev) => prev && { ...prev, ...fn(prev) });
}

export function onChannel(store: Store, t: string, c: Channel): void {
  if (!c.guild_id) {
    store.update('privateChannels', c.id, () => (t.endsWith('DELETE') ? undefined : c));
    rememberUsers(store, c.recipients ?? []);
    return;
  }
  patchGuild(store, c.guild_id, (g) => {
    const channels = new Map(g.channels);
    if (t.endsWith('DELETE')) channels.delete(c.id);
    else channels.set(c.id, { ...channels.get(c.id), ...c });
    return { channels };
  });
}

export function onThreadListSync(store: Store, d: { guild_id: Snowflake; threads: Channel[] }): void {
  patchGuild(store, d.guild_id, (g) => {
    const channels = new Map(g.channels);
    for (const t of d.threads ?? []) channels.set(t.id, { ...t, guild_id: d.guild_id });
    return { channels };
  });
}

export function onMember(store: Store, t: string, d: APIGuildMember & { guild_id: Snowflake }): void {
  if (!d.user) return;
  rememberUsers(store, [d.user]);
  patchGuild(store, d.guild_id, (g) => {
    const members = new Map(g.members);
    let memberCount = g.memberCount;
    if (t === 'GUILD_MEMBER_REMOVE') {
      members.delete(d.user!.id);
      memberCount = Math.max(0, memberCount - 1);
    } else {
      if (t === 'GUILD_MEMBER_ADD' && !members.has(d.user!.id)) memberCount++;
      members.set(d.user!.id, { ...members.get(d.user!.id), ...d });
    }
    return { members, memberCount };
  });
}

export function onMembersChunk(store: Store, d: { guild_id: Snowflake; members: APIGuildMember[]; presences?: Presence[] }): void {
  rememberUsers(
    store,
    d.members.map((m) => m.user),
  );
  patchGuild(store, d.guild_id, (g) => {
    const members = new Map(g.members);
    for (const m of d.members) if (m.user) members.set(m.user.id, m);
    return { members };
  });
  setPresences(store, d.presences ?? []);
}

export function onRole(store: Store, t: string, d: { guild_id: Snowflake; role?: APIRole; role_id?: Snowflake }): void {
  patchGuild(store, d.guild_id, (g) => {
    const roles = new Map(g.roles);
    if (t === 'GUILD_ROLE_DELETE' && d.role_id) roles.delete(d.role_id);
    else if (d.role) roles.set(d.role.id, d.role);
    return { roles };
  });
}

/** GUILD_EMOJIS_UPDATE carries the whole list: the picker and the composer's `:` completion follow it live. */
export function onEmojis(store: Store, d: { guild_id: Snowflake; emojis: { id: Snowflake | null; name: string | null; animated?: boolean }[] }): void {
  patchGuild(store, d.guild_id, () => ({ emojis: toEmojis(d.emojis) }));
}

const toEmojis = (list: { id: Snowflake | null; name: string | null; animated?: boolean }[]) =>
  list.filter((e) => e.id).map((e) => ({ id: e.id!, name: e.name ?? '', animated: e.animated }));

export function setPresences(store: Store, list: Presence[]): void {
  if (!list.length) return;
  const presences = new Map(store.state.presences);
  for (const p of list) {
    if (!p?.user?.id) continue;
    presences.set(p.user.id, p);
  }
  store.set({ presences });
  rememberUsers(
    store,
    list.map((p) => (p.user.username ? (p.user as APIUser) : undefined)),
  );
}

export function onVoiceState(store: Store, d: { guild_id?: Snowflake; user_id: Snowflake; channel_id: Snowflake | null; member?: APIGuildMember }): void {
  if (d.member?.user) rememberUsers(store, [d.member.user]);
  patchGuild(store, d.guild_id, (g) => {
    const voiceStates = new Map(g.voiceStates);
    if (!d.channel_id) voiceStates.delete(d.user_id);
    else voiceStates.set(d.user_id, d as any);
    return { voiceStates };
  });
}
