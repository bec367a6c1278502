import crypto from 'node:crypto';
import type { Ctx } from '../context.js';
import type { ChannelRecord } from '../../store/records.js';
import { getChannelRecord } from '../guilds/lookup.js';
import { getUser } from '../identity/users.js';
import { blockedBetween } from '../social/relationships/model.js';
import { createMessage } from '../messages/create.js';
import { endCallMessage } from '../messages/call.js';
import { VOICE_REGIONS } from './regions.js';
import { storeFailed, voiceStates, type VoiceStateRecord } from './states.js';
import { MemoryCallStore, type CallRecord, type CallStore } from './call-store.js';

/**
 * Calls in DMs and group DMs. A recipient joins with Gateway op 4 `{guild_id: null, channel_id: <DM>}`; the first one
 * in creates the call: a CALL message (type 3) by them, and CALL_CREATE `{channel_id, message_id, region, ringing,
 * voice_states}` to every recipient, ringing the others. Each join or leave is a VOICE_STATE_UPDATE (guild_id null) to
 * the recipients; the joining session alone gets VOICE_SERVER_UPDATE `{token, guild_id: null, channel_id, endpoint}`,
 * and the voice gateway takes the channel id as its server id. A rung user who joins stops ringing (CALL_UPDATE). When
 * the last one leaves, the call ends: CALL_DELETE, and the message gets its participants and `ended_timestamp`.
 *
 * Only users call: bots are never let in (nor is a DM with a bot called), and a block between the two users of a DM
 * refuses the join. Like guild voice, a refused join is silent. States and tokens live in the voice states store under
 * the channel id (a snowflake no guild shares), marked `call` so guild voice leaves them alone. Running calls live in a
 * CallStore: this process's memory, or Redis in distributed mode, where each change of a call holds it for the whole
 * deployment.
 */

type Call = CallRecord;

const DM = 1;
const GROUP_DM = 3;
const registry = new WeakMap<Ctx, Calls>();

/** The calls of one running server (one per Ctx). */
export function calls(ctx: Ctx): Calls {
  let c = registry.get(ctx);
  if (!c) registry.set(ctx, (c = new Calls(ctx)));
  return c;
}

/** A DM voice state as the wire shows it: no guild, no member. */
export function callStateWire(s: VoiceStateRecord, connected = true) {
  return {
    guild_id: null,
    channel_id: connected ? s.channel_id : null,
    user_id: s.user_id,
    session_id: s.session_id,
    deaf: false,
    mute: false,
    self_deaf: s.self_deaf,
    self_mute: s.self_mute,
    self_stream: connected ? s.self_stream : false,
    self_video: connected ? s.self_video : false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

export class Calls {
  private readonly calls: CallStore;

  constructor(private readonly ctx: Ctx) {
    this.calls = ctx.callStore ?? new MemoryCallStore();
    ctx.bus.subscribe((e) => {
      // A user who leaves a group DM (or is removed) gets CHANNEL_DELETE for it, and leaves its call.
      if (e.t === 'CHANNEL_DELETE' && !e.guild_id && e.d?.type === GROUP_DM && e.user_ids) {
        for (const userId of e.user_ids) void this.leave(String(e.d.id), userId).catch(storeFailed);
      }
    });
  }

  private get store() {
    return voiceStates(this.ctx).store;
  }

  /** Runs changes of one call in order (in the deployment, in distributed mode). */
  private serial<T>(channelId: string, fn: () => Promise<T>): Promise<T> {
    return this.calls.serial(channelId, fn);
  }

  /** The recipients of a DM or group DM the user may call in, or null when the join is refused. */
  private async callable(userId: string, ch: ChannelRecord | null): Promise<string[] | null> {
    if (!ch || (ch.type !== DM && ch.type !== GROUP_DM)) return null;
    const recipients = ch.recipients ?? [];
    if (!recipients.includes(userId)) return null;
    if (ch.type === DM) {
      const other = recipients.find((id) => id !== userId);
      if (!other) return null;
      if ((await getUser(this.ctx, other))?.bot) return null; // bots do not take calls
      if (await blockedBetween(this.ctx, userId, other)) return null;
    }
    return recipients;
  }

  /** Op 4 with `guild_id: null`: joins (or re-joins, or updates) a call; `channelId` null leaves any call of the session. */
  async fromGateway(
    user: { id: string; bot: boolean },
    sessionId: string,
    channelId: string | null,
    self: { mute: boolean; deaf: boolean; video: boolean },
  ): Promise<void> {
    if (user.bot) return; // calls are for users only
    const mine = (await this.store.bySession(sessionId)).filter((s) => s.call && s.user_id === user.id);
    for (const s of mine) if (s.channel_id !== channelId) await this.leave(s.channel_id, user.id);
    if (channelId === null) return;
    await this.serial(channelId, async () => {
      const ch = await getChannelRecord(this.ctx, channelId);
      const recipients = await this.callable(user.id, ch);
      if (!recipients) return;
      const current = await this.store.get(channelId, user.id);
      const state: VoiceStateRecord = {
        guild_id: channelId,
        channel_id: channelId,
        user_id: user.id,
        session_id: sessionId,
        call: true,
        deaf: false,
        mute: false,
        self_deaf: self.deaf,
        self_mute: self.mute,
        self_stream: current?.self_stream ?? false,
        self_video: self.video,
        suppress: false,
        request_to_speak_timestamp: null,
      };
      const call = (await this.calls.get(channelId)) ?? (await this.create(ch!, user.id, recipients));
      await this.store.set(state);
      if (!call.participants.includes(user.id)) call.participants.push(user.id);
      const wasRinging = call.ringing.includes(user.id);
      if (wasRinging) call.ringing = call.ringing.filter((id) => id !== user.id);
      await this.calls.put(call);
      this.ctx.bus.publish({ t: 'VOICE_STATE_UPDATE', d: callStateWire(state), channel_id: channelId, user_ids: recipients });
      const token = crypto.randomBytes(16).toString('hex');
      await this.store.putGrant({ token, userId: user.id, guildId: channelId, channelId, sessionId, call: true });
      this.ctx.bus.publish({
        t: 'VOICE_SERVER_UPDATE',
        d: { token, guild_id: null, channel_id: channelId, endpoint: await voiceStates(this.ctx).endpointFor(channelId) },
        user_ids: [user.id],
        session_id: sessionId,
      });
      if (wasRinging) this.publishUpdate(call, recipients);
    });
  }

  /** A new call: the CALL message by the caller, and CALL_CREATE ringing every other recipient. */
  private async create(ch: ChannelRecord, callerId: string, recipients: string[]): Promise<Call> {
    const author = (await getUser(this.ctx, callerId))!;
    const message = await createMessage(this.ctx, {
      channel: ch,
      author,
      body: { content: '' },
      files: [],
      type: 3,
      skipPermissionChecks: true,
      extra: { call: { participants: [callerId], ended_timestamp: null } },
    });
    const call: Call = {
      channelId: ch.id,
      messageId: message.id,
      region: VOICE_REGIONS[0].id,
      ringing: recipients.filter((id) => id !== callerId),
      participants: [],
    };
    await this.calls.put(call);
    this.ctx.bus.publish({ t: 'CALL_CREATE', d: await this.view(call), channel_id: ch.id, user_ids: recipients });
    return call;
  }

  private publishUpdate(call: Call, recipients: string[]): void {
    const d = { channel_id: call.channelId, message_id: call.messageId, region: call.region, ringing: call.ringing };
    this.ctx.bus.publish({ t: 'CALL_UPDATE', d, channel_id: call.channelId, user_ids: recipients });
  }

  /** CALL_CREATE's payload: the call and the voice states already in it. */
  private async view(call: Call) {
    const states = (await this.store.inChannel(call.channelId)).filter((s) => s.call);
    return {
      channel_id: call.channelId,
      message_id: call.messageId,
      region: call.region,
      ringing: call.ringing,
      voice_states: states.map((s) => callStateWire(s)),
    };
  }

  /** A user leaves a call (op 4 with channel_id null or another channel, removed from the group, session gone). */
  leave(channelId: string, userId: string): Promise<void> {
    return this.serial(channelId, async () => {
      const current = await this.store.get(channelId, userId);
      if (!current?.call) return;
      await this.store.delete(channelId, userId);
      await this.store.revokeGrants(channelId, userId);
      const ch = await getChannelRecord(this.ctx, channelId);
      const recipients = [...new Set([...(ch?.recipients ?? []), userId])];
      this.ctx.bus.publish({ t: 'VOICE_STATE_UPDATE', d: callStateWire(current, false), channel_id: channelId, user_ids: recipients });
      const left = (await this.store.inChannel(channelId)).filter((s) => s.call);
      if (!left.length) await this.end(channelId, recipients);
    });
  }

  /** The last one left: CALL_DELETE, and the CALL message records who took part and when it ended. */
  private async end(channelId: string, recipients: string[]): Promise<void> {
    const call = await this.calls.get(channelId);
    if (!call) return;
    await this.calls.delete(channelId);
    this.ctx.bus.publish({ t: 'CALL_DELETE', d: { channel_id: channelId }, channel_id: channelId, user_ids: recipients });
    await endCallMessage(this.ctx, call.messageId, call.participants).catch(() => {});
  }

  /** A gateway session ended for good: its user leaves its call. */
  sessionEnded(sessionId: string): void {
    void this.store.bySession(sessionId).then((list) => {
      for (const s of list) if (s.call) void this.leave(s.channel_id, s.user_id).catch(storeFailed);
    }, storeFailed);
  }

  /** Op 13 Request Call Connect: the CALL_CREATE of a call already running in a channel the user is a recipient of. */
  async existing(userId: string, channelId: string): Promise<Record<string, unknown> | null> {
    const call = await this.calls.get(channelId);
    if (!call) return null;
    const ch = await getChannelRecord(this.ctx, channelId);
    if (!ch?.recipients?.includes(userId)) return null;
    return this.view(call);
  }

  /**
   * Rings recipients of a running call, or stops ringing them; CALL_UPDATE when the list changed. Without a call it
   * does nothing (the platform's call routes need an active call to do anything).
   */
  ring(channelId: string, recipients: string[], userIds: string[], ringing: boolean): Promise<void> {
    return this.serial(channelId, async () => {
      const call = await this.calls.get(channelId);
      if (!call) return;
      const before = call.ringing.length;
      const inCall = new Set((await this.store.inChannel(channelId)).filter((s) => s.call).map((s) => s.user_id));
      const rung = new Set(call.ringing);
      for (const id of userIds) {
        if (!ringing) rung.delete(id);
        else if (recipients.includes(id) && !inCall.has(id)) rung.add(id);
      }
      call.ringing = [...rung];
      if (call.ringing.length !== before) await this.calls.put(call);
      if (call.ringing.length !== before || ringing) this.publishUpdate(call, recipients);
    });
  }

  /** PATCH …/call `region`: CALL_UPDATE with the new region. */
  setRegion(channelId: string, recipients: string[], region: string): Promise<void> {
    return this.serial(channelId, async () => {
      const call = await this.calls.get(channelId);
      if (!call || call.region === region) return;
      call.region = region;
      await this.calls.put(call);
      this.publishUpdate(call, recipients);
    });
  }

  /** CALL_CREATE payloads of every call running where the user is a recipient (the AUTO_CALL_CONNECT capability). */
  async runningFor(userId: string): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    for (const channelId of await this.calls.channels()) {
      const call = await this.existing(userId, channelId);
      if (call) out.push(call);
    }
    return out;
  }

  /** Whether a call is running in a channel (tests, the web client). */
  async active(channelId: string): Promise<boolean> {
    return !!(await this.calls.get(channelId));
  }
}
