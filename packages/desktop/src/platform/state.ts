/** What the local client remembers from its Gateway session: guilds, channels and voice states. */

export interface GuildInfo {
  id: string;
  name: string;
  icon: string | null;
}

export interface ChannelInfo {
  id: string;
  guild_id: string | null;
  name: string | null;
  type: number;
}

export interface VoiceState {
  user_id: string;
  guild_id: string | null;
  channel_id: string | null;
  session_id?: string;
  mute: boolean;
  deaf: boolean;
  self_mute: boolean;
  self_deaf: boolean;
  suppress: boolean;
  member?: { nick?: string | null; user?: any } | null;
  user?: any;
}

export type StateChange =
  | { t: 'guild-joined'; guild: GuildInfo }
  | { t: 'guild-updated'; guild: GuildInfo }
  | { t: 'channel-created'; channel: ChannelInfo }
  /** A user's voice state changed: `before`/`after` null when they were not / are no longer in voice. */
  | { t: 'voice'; before: VoiceState | null; after: VoiceState | null };

export class ClientState {
  user: any = null;
  readonly guilds = new Map<string, GuildInfo>();
  readonly channels = new Map<string, ChannelInfo>();
  /** guild id (or "dm") → user id → state */
  readonly voice = new Map<string, Map<string, VoiceState>>();
  /** user id → the activities of their presence (what others show: parties, for Ask to Join). */
  readonly activities = new Map<string, any[]>();
  /** Whether the first READY has been seen (GUILD_CREATE of guilds in READY are not "joins"). */
  private readyGuilds = new Set<string>();

  /** Applies a Gateway dispatch and reports what changed, for RPC subscriptions. */
  apply(t: string, d: any): StateChange[] {
    switch (t) {
      case 'READY':
        this.user = d.user;
        for (const g of d.guilds ?? []) this.readyGuilds.add(String(g.id));
        for (const c of d.private_channels ?? []) this.putChannel(c);
        for (const p of d.presences ?? []) this.putPresence(p);
        return [];
      case 'GUILD_CREATE': {
        const guild = toGuild(d);
        const known = this.guilds.has(guild.id) || this.readyGuilds.delete(guild.id);
        this.guilds.set(guild.id, guild);
        for (const c of d.channels ?? []) this.putChannel({ ...c, guild_id: guild.id });
        const states = new Map<string, VoiceState>();
        for (const v of d.voice_states ?? []) states.set(String(v.user_id), { ...v, guild_id: guild.id });
        this.voice.set(guild.id, states);
        for (const p of d.presences ?? []) this.putPresence(p);
        return known ? [] : [{ t: 'guild-joined', guild }];
      }
      case 'GUILD_UPDATE': {
        const guild = toGuild(d);
        this.guilds.set(guild.id, guild);
        return [{ t: 'guild-updated', guild }];
      }
      case 'GUILD_DELETE':
        this.guilds.delete(String(d.id));
        this.voice.delete(String(d.id));
        return [];
      case 'CHANNEL_CREATE':
        return [{ t: 'channel-created', channel: this.putChannel(d) }];
      case 'CHANNEL_UPDATE':
        this.putChannel(d);
        return [];
      case 'CHANNEL_DELETE':
        this.channels.delete(String(d.id));
        return [];
      case 'VOICE_STATE_UPDATE': {
        const key = d.guild_id ? String(d.guild_id) : 'dm';
        let states = this.voice.get(key);
        if (!states) this.voice.set(key, (states = new Map()));
        const userId = String(d.user_id);
        const before = states.get(userId) ?? null;
        const after: VoiceState | null = d.channel_id ? { ...d, user_id: userId, guild_id: d.guild_id ?? null, channel_id: String(d.channel_id) } : null;
        if (after) states.set(userId, after);
        else states.delete(userId);
        return [{ t: 'voice', before, after }];
      }
      case 'PRESENCE_UPDATE':
        this.putPresence(d);
        return [];
      default:
        return [];
    }
  }

  /** The activity a user shows for an app, if any. */
  activityOf(userId: string, applicationId: string): any | null {
    return (this.activities.get(userId) ?? []).find((a) => String(a?.application_id) === applicationId) ?? null;
  }

  private putPresence(p: any): void {
    const id = p?.user?.id ?? p?.user_id;
    if (!id) return;
    if (p.status === 'offline' || !Array.isArray(p.activities)) this.activities.delete(String(id));
    else this.activities.set(String(id), p.activities);
  }

  voiceStatesIn(channelId: string): VoiceState[] {
    const out: VoiceState[] = [];
    for (const states of this.voice.values()) for (const v of states.values()) if (v.channel_id === channelId) out.push(v);
    return out;
  }

  /** The voice channel the person is in, if any. */
  ownVoiceChannel(): string | null {
    const me = this.user?.id;
    if (!me) return null;
    for (const states of this.voice.values()) {
      const v = states.get(me);
      if (v?.channel_id) return v.channel_id;
    }
    return null;
  }

  private putChannel(c: any): ChannelInfo {
    const info: ChannelInfo = { id: String(c.id), guild_id: c.guild_id ? String(c.guild_id) : null, name: c.name ?? null, type: Number(c.type) };
    this.channels.set(info.id, info);
    return info;
  }
}

const toGuild = (d: any): GuildInfo => ({ id: String(d.id), name: d.name ?? '', icon: d.icon ?? null });
