import type { Command, CommandContext } from '../rpc/core.js';
import { RpcError, RpcErrorCode } from '../rpc/codes.js';
import { bool, nullable, num, obj, str } from '../rpc/schema.js';
import { S } from '../rpc/scopes.js';
import { rpcChannel } from '../rpc/views.js';
import { guildOf, readOr } from './guilds.js';

const PRIVATE = new Set([1, 3]);
const VOICE = new Set([2, 13]);
/** Channel types without messages of their own. */
const NO_MESSAGES = new Set([2, 4, 13]);
/** How many recent messages GET_CHANNEL includes (the client's MAX_MESSAGES_PER_CHANNEL). */
const MESSAGES_PER_CHANNEL = 50;

export async function channelOf(ctx: CommandContext, channelId: string): Promise<any> {
  return readOr(ctx.core.api.request(`/channels/${encodeURIComponent(channelId)}`), RpcErrorCode.INVALID_CHANNEL, `Invalid channel id: ${channelId}`);
}

/** Messages are readable with `messages.read`, or by the app that owns the guild (the platform's rule). */
function mayReadMessages(ctx: CommandContext, channel: any, guild: any | null): boolean {
  return ctx.socket.scopes.has(S.MESSAGES_READ) || (guild?.application_id != null && String(guild.application_id) === ctx.socket.app.id);
}

/** The GET_CHANNEL view of a channel: recent messages (when allowed, oldest first) and its voice states. */
export async function channelView(ctx: CommandContext, channel: any): Promise<unknown> {
  const guild = channel.guild_id ? await ctx.core.api.request(`/guilds/${channel.guild_id}`).catch(() => null) : null;
  let messages: any[] = [];
  if (!NO_MESSAGES.has(channel.type) && mayReadMessages(ctx, channel, guild)) {
    messages = await ctx.core.api.request<any[]>(`/channels/${channel.id}/messages`, { query: { limit: String(MESSAGES_PER_CHANNEL) } }).catch(() => []);
    messages.reverse();
  }
  return rpcChannel(channel, messages, ctx.core.state.voiceStatesIn(String(channel.id)));
}

/** GET_CHANNEL (rpc or guilds): DMs also need rpc or dm_channels.read. */
export const getChannel: Command = {
  scope: { any: [S.RPC, S.GUILDS] },
  validation: obj({ channel_id: str({ max: 32 }) }),
  async run(ctx) {
    const id = ctx.args.channel_id;
    if (!id) throw new RpcError(RpcErrorCode.INVALID_CHANNEL, `Invalid channel id: ${id}`);
    const channel = await channelOf(ctx, id);
    if (PRIVATE.has(channel.type) && !ctx.socket.scopes.has(S.RPC) && !ctx.socket.scopes.has(S.DM_CHANNELS_READ)) {
      throw new RpcError(RpcErrorCode.INVALID_PERMISSIONS, 'Invalid scope');
    }
    return channelView(ctx, channel);
  },
};

/** GET_CHANNELS (rpc): the channels of one guild the person can see, or of every guild and DM without guild_id. */
export const getChannels: Command = {
  scope: S.RPC,
  validation: obj({ guild_id: str({ max: 32 }) }),
  async run(ctx) {
    const api = ctx.core.api;
    let channels: any[];
    if (ctx.args.guild_id) {
      await guildOf(ctx, ctx.args.guild_id);
      channels = await api.request(`/guilds/${ctx.args.guild_id}/channels`);
    } else {
      const guilds: any[] = await api.request('/users/@me/guilds');
      channels = [...(await api.request<any[]>('/users/@me/channels'))];
      for (const g of guilds) channels.push(...(await api.request<any[]>(`/guilds/${g.id}/channels`)));
    }
    return { channels: channels.map((c) => ({ id: String(c.id), name: c.name ?? '', type: c.type })) };
  },
};

/**
 * SELECT_VOICE_CHANNEL (rpc): joins (or leaves with null) through the person's Gateway session (op 4). Being in
 * another channel needs `force` (5003); a refused join (full, no CONNECT) is 4006 once the platform stays silent.
 */
export const selectVoiceChannel: Command = {
  scope: S.RPC,
  validation: obj({ channel_id: nullable(str({ max: 32 })), timeout: num({ min: 0, max: 60 }), force: bool(), navigate: bool() }),
  async run(ctx) {
    const { core } = ctx;
    const target: string | null = ctx.args.channel_id ?? null;
    const current = core.state.ownVoiceChannel();
    if (!target) {
      if (current)
        core.deps.gateway.send(4, { guild_id: core.state.channels.get(current)?.guild_id ?? null, channel_id: null, self_mute: false, self_deaf: false });
      return null;
    }
    if (current && current !== target && !ctx.args.force)
      throw new RpcError(RpcErrorCode.SELECT_VOICE_FORCE_REQUIRED, 'User is already joined to a voice channel.');
    const channel = await channelOf(ctx, target);
    if (!VOICE.has(channel.type)) throw new RpcError(RpcErrorCode.INVALID_CHANNEL, 'Channel is not a voice channel');
    if (!channel.guild_id) throw new RpcError(RpcErrorCode.INVALID_CHANNEL, 'Only guild voice channels can be joined from here');
    if (current !== target) {
      const joined = waitForOwnVoice(ctx, target, 5000);
      core.deps.gateway.send(4, { guild_id: channel.guild_id, channel_id: target, self_mute: false, self_deaf: false });
      if (!(await joined)) throw new RpcError(RpcErrorCode.INVALID_PERMISSIONS, 'Connect permission required to join channel');
    }
    return channelView(ctx, channel);
  },
};

/** GET_SELECTED_VOICE_CHANNEL (rpc or rpc.voice.read). */
export const getSelectedVoiceChannel: Command = {
  scope: { any: [S.RPC, S.RPC_VOICE_READ] },
  async run(ctx) {
    const id = ctx.core.state.ownVoiceChannel();
    return id ? channelView(ctx, await channelOf(ctx, id)) : null;
  },
};

/** Resolves true when the person's own voice state reaches the channel, false after `ms` (a silent refusal). */
function waitForOwnVoice(ctx: CommandContext, channelId: string, ms: number): Promise<boolean> {
  const gw = ctx.core.deps.gateway;
  const me = String(ctx.core.user.id);
  return new Promise((resolve) => {
    const onDispatch = (t: string, d: any) => {
      if (t === 'VOICE_STATE_UPDATE' && String(d.user_id) === me && String(d.channel_id) === channelId) done(true);
    };
    const timer = setTimeout(() => done(false), ms);
    const done = (v: boolean) => {
      clearTimeout(timer);
      gw.off('dispatch', onDispatch);
      resolve(v);
    };
    gw.on('dispatch', onDispatch);
  });
}
