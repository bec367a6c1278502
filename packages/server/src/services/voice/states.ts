import crypto from 'node:crypto';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { channelInfo } from './channel-info.js';
import { getChannelRecord, memberView } from '../guilds/lookup.js';
import { checkId } from '../../core/ids.js';
import { getMember } from '../guilds/lookup.js';

export type { VoiceGrant, VoiceStateRecord, VoiceStateStore } from './store.js';
import type { VoiceGrant, VoiceStateRecord, VoiceStateStore } from './store.js';

/** A background read of the store failed (in distributed mode, Redis may be gone while the server shuts down). */
export const storeFailed = (err: unknown) => console.error('[voice] voice state store:', (err as Error)?.message ?? err);

export class MemoryVoiceStateStore implements VoiceStateStore {
  private readonly guilds = new Map<string, Map<string, VoiceStateRecord>>();
  private readonly channels = new Map<string, Set<VoiceStateRecord>>();
  private readonly grants = new Map<string, VoiceGrant>();
  private readonly grantOf = new Map<string, string>();

  async get(guildId: string, userId: string) {
    return this.guilds.get(guildId)?.get(userId);
  }
  async set(state: VoiceStateRecord) {
    await this.delete(state.guild_id, state.user_id);
    let g = this.guilds.get(state.guild_id);
    if (!g) this.guilds.set(state.guild_id, (g = new Map()));
    g.set(state.user_id, state);
    let c = this.channels.get(state.channel_id);
    if (!c) this.channels.set(state.channel_id, (c = new Set()));
    c.add(state);
  }
  async delete(guildId: string, userId: string) {
    const g = this.guilds.get(guildId);
    const old = g?.get(userId);
    if (!g || !old) return;
    g.delete(userId);
    if (!g.size) this.guilds.delete(guildId);
    const c = this.channels.get(old.channel_id);
    c?.delete(old);
    if (c && !c.size) this.channels.delete(old.channel_id);
  }
  async inGuild(guildId: string) {
    return [...(this.guilds.get(guildId)?.values() ?? [])];
  }
  async inChannel(channelId: string) {
    return [...(this.channels.get(channelId) ?? [])];
  }
  async bySession(sessionId: string) {
    const out: VoiceStateRecord[] = [];
    for (const g of this.guilds.values()) for (const s of g.values()) if (s.session_id === sessionId) out.push(s);
    return out;
  }
  async putGrant(grant: VoiceGrant) {
    await this.revokeGrants(grant.guildId, grant.userId);
    this.grants.set(grant.token, grant);
    this.grantOf.set(`${grant.guildId}:${grant.userId}`, grant.token);
  }
  async grant(token: string) {
    return this.grants.get(token);
  }
  async revokeGrants(guildId: string, userId: string) {
    const key = `${guildId}:${userId}`;
    const token = this.grantOf.get(key);
    if (token) this.grants.delete(token);
    this.grantOf.delete(key);
  }
}

const VOICE_TYPES = new Set([2, 13]);

/** A user's voice state in a guild, or null (used by voice channel status to know who is connected). */
export async function voiceStateOf(ctx: Ctx, guildId: string, userId: string): Promise<VoiceStateRecord | null> {
  return (await voiceStates(ctx).store.get(guildId, userId)) ?? null;
}
const STAGE = 13;
const registry = new WeakMap<Ctx, VoiceStates>();

/** The voice states of one running server (one per Ctx). */
export function voiceStates(ctx: Ctx): VoiceStates {
  let v = registry.get(ctx);
  if (!v) registry.set(ctx, (v = new VoiceStates(ctx)));
  return v;
}

/**
 * Voice state rules: joining, moving and leaving from the main gateway (op 4) and the HTTP API, voice tokens for the
 * voice gateway, and the ephemeral voice start time of channels. Changes of one user are applied one at a time.
 */
export class VoiceStates {
  /** In memory, or in Redis in distributed mode (the Ctx carries that store then). */
  readonly store: VoiceStateStore;
  /** host:port of this process's voice gateway, set by the voice server when it listens. */
  endpoint: string | null = null;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly ctx: Ctx) {
    this.store = ctx.voiceStateStore ?? new MemoryVoiceStateStore();
    ctx.bus.subscribe((e) => {
      if (e.t === 'GUILD_MEMBER_REMOVE' && e.guild_id && e.d?.user?.id)
        void this.serial(e.guild_id, e.d.user.id, () => this.leave(e.guild_id!, e.d.user.id)).catch(storeFailed);
      else if (e.t === 'CHANNEL_DELETE' && e.guild_id && e.d?.id) {
        void this.store.inChannel(String(e.d.id)).then((list) => {
          for (const s of list) void this.serial(s.guild_id, s.user_id, () => this.leave(s.guild_id, s.user_id)).catch(storeFailed);
        }, storeFailed);
      } else if (e.t === 'GUILD_DELETE' && e.guild_id && !e.user_ids) {
        void this.store.inGuild(e.guild_id).then((list) => {
          for (const s of list) void this.serial(s.guild_id, s.user_id, () => this.dropState(s)).catch(storeFailed);
        }, storeFailed);
      }
    });
  }

  /** Runs changes of one (guild, user) in order. */
  private serial<T>(guildId: string, userId: string, fn: () => Promise<T>): Promise<T> {
    const key = `${guildId}:${userId}`;
    const prev = this.locks.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => {});
    this.locks.set(key, tail);
    void tail.then(() => {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    });
    return next;
  }

  /** The voice server a channel's (call's, lobby's) members connect to: this process's, or in distributed mode its owner. */
  endpointFor(key: string): Promise<string | null> {
    return this.ctx.voiceNodes ? this.ctx.voiceNodes.endpointFor(key) : Promise.resolve(this.endpoint);
  }

  grant(token: string): Promise<VoiceGrant | undefined> {
    return this.store.grant(token);
  }

  /** Voice states of a guild as GUILD_CREATE lists them (without guild_id). */
  async forGuildCreate(guildId: string) {
    return (await this.store.inGuild(guildId)).map(({ guild_id: _g, ...s }) => s);
  }

  /**
   * Main gateway op 4. Joining needs VIEW_CHANNEL and CONNECT and room under user_limit (MOVE_MEMBERS bypasses it);
   * like the platform, a refused join is silent: no VOICE_STATE_UPDATE and no VOICE_SERVER_UPDATE.
   */
  fromGateway(
    userId: string,
    sessionId: string,
    guildId: string,
    channelId: string | null,
    self: { mute: boolean; deaf: boolean; video: boolean },
  ): Promise<void> {
    return this.serial(guildId, userId, async () => {
      const current = await this.store.get(guildId, userId);
      if (channelId === null) {
        if (current) await this.leave(guildId, userId);
        return;
      }
      const channel = await getChannelRecord(this.ctx, channelId);
      if (!channel || channel.guild_id !== guildId || !VOICE_TYPES.has(channel.type)) return;
      const perms = await this.ctx.access.channelPerms(guildId, channelId, userId);
      if (perms === null || !this.ctx.access.hasPerm(perms, P.VIEW_CHANNEL | P.CONNECT)) return;
      if (current?.channel_id !== channelId && !(await this.hasRoom(channel.user_limit, channelId, perms))) return;
      const member = await getMember(this.ctx, guildId, userId);
      if (!member) return;
      const stayed = current?.channel_id === channelId;
      const state: VoiceStateRecord = {
        guild_id: guildId,
        channel_id: channelId,
        user_id: userId,
        session_id: sessionId,
        deaf: member.deaf,
        mute: member.mute,
        self_deaf: self.deaf,
        self_mute: self.mute,
        self_stream: stayed ? current!.self_stream : false,
        self_video: self.video,
        suppress: stayed ? current!.suppress : channel.type === STAGE,
        request_to_speak_timestamp: stayed ? current!.request_to_speak_timestamp : null,
      };
      await this.apply(current, state, undefined, () => this.sendServer(state));
    });
  }

  private async hasRoom(limit: number | null, channelId: string, perms: bigint): Promise<boolean> {
    if (!limit) return true;
    if (this.ctx.access.hasPerm(perms, P.MOVE_MEMBERS)) return true;
    return (await this.store.inChannel(channelId)).length < limit;
  }

  /** Writes a state (or its removal), then tells the guild: VOICE_STATE_UPDATE and the channels' start times. */
  private async apply(prev: VoiceStateRecord | undefined, next: VoiceStateRecord | null, leftUserId?: string, afterState?: () => Promise<void>): Promise<void> {
    const guildId = (next ?? prev)!.guild_id;
    const userId = (next ?? prev)?.user_id ?? leftUserId!;
    if (next) await this.store.set(next);
    else await this.store.delete(guildId, userId);
    const member = await getMember(this.ctx, guildId, userId);
    const d = next
      ? { ...next, member: member ? await memberView(this.ctx, member) : undefined }
      : {
          ...prev!,
          channel_id: null,
          self_stream: false,
          self_video: false,
          suppress: false,
          request_to_speak_timestamp: null,
          member: member ? await memberView(this.ctx, member) : undefined,
        };
    this.ctx.bus.publish({ t: 'VOICE_STATE_UPDATE', d, guild_id: guildId });
    await afterState?.();
    if (prev && prev.channel_id !== next?.channel_id) await this.startTime(guildId, prev.channel_id);
    if (next && prev?.channel_id !== next.channel_id) await this.startTime(guildId, next.channel_id);
  }

  /** A fresh token for the joining session, and VOICE_SERVER_UPDATE to that session only (after the state update). */
  private async sendServer(state: VoiceStateRecord): Promise<void> {
    const token = crypto.randomBytes(16).toString('hex');
    await this.store.putGrant({ token, userId: state.user_id, guildId: state.guild_id, channelId: state.channel_id, sessionId: state.session_id });
    this.ctx.bus.publish({
      t: 'VOICE_SERVER_UPDATE',
      d: { token, guild_id: state.guild_id, endpoint: await this.endpointFor(state.channel_id) },
      guild_id: state.guild_id,
      user_ids: [state.user_id],
      session_id: state.session_id,
    });
  }

  /** Voice start time: set when a channel goes from empty to occupied, cleared when it empties. */
  private async startTime(guildId: string, channelId: string): Promise<void> {
    const occupied = (await this.store.inChannel(channelId)).length > 0;
    const info = channelInfo.get(channelId) ?? { status: null, voice_start_time: null };
    const next = occupied ? (info.voice_start_time ?? Math.floor(this.ctx.clock.now() / 1000)) : null;
    if (next === info.voice_start_time) return;
    // The call ends when the channel empties: its status goes with it.
    const status = occupied ? info.status : null;
    channelInfo.set(channelId, { ...info, status, voice_start_time: next });
    this.ctx.bus.publish({ t: 'VOICE_CHANNEL_START_TIME_UPDATE', d: { id: channelId, guild_id: guildId, voice_start_time: next }, guild_id: guildId });
    if (status !== info.status)
      this.ctx.bus.publish({
        t: 'VOICE_CHANNEL_STATUS_UPDATE',
        d: { id: channelId, guild_id: guildId, status: null },
        guild_id: guildId,
        channel_id: channelId,
      });
  }

  private async leave(guildId: string, userId: string): Promise<void> {
    const current = await this.store.get(guildId, userId);
    if (!current) return;
    await this.store.revokeGrants(guildId, userId);
    await this.apply(current, null, userId);
  }

  /** Without events (the guild is gone). */
  private async dropState(s: VoiceStateRecord): Promise<void> {
    await this.store.delete(s.guild_id, s.user_id);
    await this.store.revokeGrants(s.guild_id, s.user_id);
  }

  /** A gateway session ended for good: its users leave voice. */
  sessionEnded(sessionId: string): void {
    void this.store.bySession(sessionId).then((list) => {
      for (const s of list) if (!s.call) void this.serial(s.guild_id, s.user_id, () => this.leave(s.guild_id, s.user_id)).catch(storeFailed);
    }, storeFailed);
  }

  /** A user session joins voice elsewhere (people hold one voice connection): it leaves its guild voice but `keep`. */
  async leaveOthers(sessionId: string, keepGuildId: string | null): Promise<void> {
    for (const s of await this.store.bySession(sessionId)) {
      if (!s.call && s.guild_id !== keepGuildId) await this.serial(s.guild_id, s.user_id, () => this.leave(s.guild_id, s.user_id));
    }
  }

  // ---- HTTP ------------------------------------------------------------------------------------------------------

  /** GET /guilds/{id}/voice-states/{user_id|@me}: 10065 when not connected. */
  async view(actor: Actor, guildId: string, userId: string) {
    checkId(guildId, Errors.unknownGuild);
    await this.ctx.access.requireGuild(guildId, actor.user.id);
    const target = userId === '@me' ? actor.user.id : userId;
    const s = await this.store.get(guildId, target);
    if (!s) throw new ApiError(404, 10065, 'Unknown Voice State');
    const member = await getMember(this.ctx, guildId, target);
    return { ...s, member: member ? await memberView(this.ctx, member) : undefined };
  }

  /**
   * PATCH /guilds/{id}/voice-states/{user_id|@me} (stage channels): `suppress` needs MUTE_MEMBERS,
   * a request to speak needs REQUEST_TO_SPEAK and may only be made for oneself.
   */
  async modify(
    actor: Actor,
    guildId: string,
    userId: string,
    patch: { channel_id?: string; suppress?: boolean; request_to_speak_timestamp?: string | null },
  ): Promise<void> {
    checkId(guildId, Errors.unknownGuild);
    await this.ctx.access.requireGuild(guildId, actor.user.id);
    const self = userId === '@me' || userId === actor.user.id;
    const target = self ? actor.user.id : userId;
    return this.serial(guildId, target, async () => {
      const s = await this.store.get(guildId, target);
      if (!s) throw new ApiError(404, 10065, 'Unknown Voice State');
      if (patch.channel_id !== undefined && patch.channel_id !== s.channel_id)
        throw fieldError('channel_id', 'BASE_TYPE_INVALID', 'The user is not in this channel.');
      const channel = await getChannelRecord(this.ctx, s.channel_id);
      if (!channel || channel.type !== STAGE) throw Errors.wrongChannelType();
      const perms = await this.ctx.access.requireChannel(guildId, s.channel_id, actor.user.id);
      const next = { ...s };
      if (patch.suppress !== undefined) {
        if (!this.ctx.access.hasPerm(perms, P.MUTE_MEMBERS)) throw Errors.missingPermissions();
        next.suppress = patch.suppress;
        if (!patch.suppress) next.request_to_speak_timestamp = null;
      }
      if (patch.request_to_speak_timestamp !== undefined) {
        if (!self) throw Errors.missingPermissions();
        if (patch.request_to_speak_timestamp !== null && !this.ctx.access.hasPerm(perms, P.REQUEST_TO_SPEAK)) throw Errors.missingPermissions();
        next.request_to_speak_timestamp = patch.request_to_speak_timestamp;
      }
      await this.apply(s, next);
    });
  }

  /** Member PATCH `mute` / `deaf` (already stored on the member): the voice state follows. */
  async serverMuteDeaf(guildId: string, userId: string, values: { mute?: boolean; deaf?: boolean }): Promise<void> {
    return this.serial(guildId, userId, async () => {
      const s = await this.store.get(guildId, userId);
      if (!s) return;
      await this.apply(s, { ...s, mute: values.mute ?? s.mute, deaf: values.deaf ?? s.deaf });
    });
  }

  /**
   * Member PATCH `channel_id`, checked before anything is written: moving needs the target connected (40032), a voice
   * channel of the guild, MOVE_MEMBERS there for the caller and CONNECT for the target. Disconnecting (null) someone
   * who is not connected does nothing.
   */
  async checkMove(actor: Actor, guildId: string, userId: string, channelId: string | null): Promise<void> {
    if (channelId === null) return;
    if (!(await this.store.get(guildId, userId))) throw new ApiError(400, 40032, 'Target user is not connected to voice');
    const channel = await getChannelRecord(this.ctx, channelId);
    if (!channel || channel.guild_id !== guildId) throw Errors.unknownChannel();
    if (!VOICE_TYPES.has(channel.type)) throw Errors.wrongChannelType();
    await this.ctx.access.requireChannel(guildId, channelId, actor.user.id, P.MOVE_MEMBERS);
    const targetPerms = await this.ctx.access.channelPerms(guildId, channelId, userId);
    if (targetPerms === null || !this.ctx.access.hasPerm(targetPerms, P.VIEW_CHANNEL | P.CONNECT)) throw Errors.missingPermissions();
  }

  /** After a member PATCH passed its checks: server mute/deaf follow into the voice state; moves and disconnects. */
  async memberPatched(
    actor: Actor,
    guildId: string,
    userId: string,
    patch: { mute?: boolean | null; deaf?: boolean | null; channel_id?: string | null },
  ): Promise<void> {
    if (patch.mute != null || patch.deaf != null) await this.serverMuteDeaf(guildId, userId, { mute: patch.mute ?? undefined, deaf: patch.deaf ?? undefined });
    if (patch.channel_id !== undefined) await this.move(actor, guildId, userId, patch.channel_id);
  }

  /** Moves a connected member (new VOICE_SERVER_UPDATE with a new token) or disconnects it with null. */
  async move(actor: Actor, guildId: string, userId: string, channelId: string | null): Promise<void> {
    await this.checkMove(actor, guildId, userId, channelId);
    return this.serial(guildId, userId, async () => {
      const s = await this.store.get(guildId, userId);
      if (!s) return;
      if (channelId === null) return this.leave(guildId, userId);
      const channel = (await getChannelRecord(this.ctx, channelId))!;
      if (s.channel_id === channelId) return;
      const next = { ...s, channel_id: channelId, suppress: channel.type === STAGE, request_to_speak_timestamp: null, self_stream: false };
      await this.apply(s, next, undefined, () => this.sendServer(next));
    });
  }

  /** Whether a user is connected to a channel (soundboard, voice status). */
  async connectedTo(guildId: string, userId: string, channelId: string): Promise<VoiceStateRecord | undefined> {
    const s = await this.store.get(guildId, userId);
    return s?.channel_id === channelId ? s : undefined;
  }
}
