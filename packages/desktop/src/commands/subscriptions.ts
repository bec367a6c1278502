import type { Command, CommandContext } from '../rpc/core.js';
import { RpcError, RpcErrorCode } from '../rpc/codes.js';
import { AUTHENTICATED_SCOPE, LOCAL_SCOPE, S, allowed, type ScopeRule } from '../rpc/scopes.js';
import { obj, required, nullable, str, validateArgs, type Schema } from '../rpc/schema.js';
import { subscriptionKey } from '../rpc/socket.js';
import { guildIconUrl } from '../rpc/views.js';
import { channelOf } from './channels.js';
import { guildOf } from './guilds.js';

interface EventDef {
  scope: ScopeRule;
  validation?: Schema;
  /** Which argument names the guild or channel the subscription is about. */
  target?: 'guild_id' | 'channel_id';
  /** Checks the target exists (and may be watched); throws the platform's RPC error otherwise. */
  check?(ctx: CommandContext, target: string): Promise<void>;
  /** Sent once right after SUBSCRIBE answered. */
  initial?(ctx: CommandContext, target: string): Promise<void>;
}

const guildArg = obj({ guild_id: required(str({ max: 32 })) });
const channelArg = obj({ channel_id: required(str({ max: 32 })) });
const voiceRead: ScopeRule = { any: [S.RPC, S.RPC_VOICE_READ] };

async function existingChannel(ctx: CommandContext, id: string) {
  await channelOf(ctx, id);
}

/** Message events need `messages.read` (or the app owning the guild), and a channel the person can read. */
async function readableChannel(ctx: CommandContext, id: string) {
  const channel = await channelOf(ctx, id);
  const guild = channel.guild_id ? await ctx.core.api.request(`/guilds/${channel.guild_id}`).catch(() => null) : null;
  const owner = guild?.application_id != null && String(guild.application_id) === ctx.socket.app.id;
  if (!ctx.socket.scopes.has(S.MESSAGES_READ) && !owner) throw new RpcError(RpcErrorCode.INVALID_CHANNEL, `Invalid channel id: ${id}`);
}

const message: EventDef = { scope: S.RPC, validation: channelArg, target: 'channel_id', check: readableChannel };
const voiceState: EventDef = { scope: voiceRead, validation: channelArg, target: 'channel_id', check: existingChannel };
const speaking: EventDef = {
  scope: { any: [S.RPC, S.RPC_VOICE_READ, LOCAL_SCOPE] },
  validation: obj({ channel_id: nullable(str({ max: 32 })) }),
  target: 'channel_id',
  check: existingChannel,
};

/** The events apps may subscribe to, with the scopes the platform's client asks for each. */
export const EVENTS: Record<string, EventDef> = {
  GUILD_STATUS: {
    scope: S.RPC,
    validation: guildArg,
    target: 'guild_id',
    async check(ctx, id) {
      await guildOf(ctx, id);
    },
    async initial(ctx, id) {
      const g = await guildOf(ctx, id);
      ctx.socket.dispatch('GUILD_STATUS', {
        guild: { id: String(g.id), name: g.name, icon_url: guildIconUrl(ctx.core.cdnBase, { id: String(g.id), icon: g.icon ?? null }) },
        online: 0,
      });
    },
  },
  GUILD_CREATE: { scope: S.RPC },
  CHANNEL_CREATE: { scope: S.RPC },
  VOICE_CHANNEL_SELECT: { scope: voiceRead },
  VOICE_STATE_CREATE: voiceState,
  VOICE_STATE_UPDATE: voiceState,
  VOICE_STATE_DELETE: voiceState,
  MESSAGE_CREATE: message,
  MESSAGE_UPDATE: message,
  MESSAGE_DELETE: message,
  // Speaking comes from voice media, which the local client does not carry: subscriptions are accepted, not fed.
  SPEAKING_START: speaking,
  SPEAKING_STOP: speaking,
  ACTIVITY_JOIN: { scope: { any: [S.RPC, AUTHENTICATED_SCOPE, LOCAL_SCOPE] } },
  ACTIVITY_SPECTATE: { scope: { any: [S.RPC, AUTHENTICATED_SCOPE, LOCAL_SCOPE] } },
  ACTIVITY_JOIN_REQUEST: { scope: { any: [S.RPC, LOCAL_SCOPE] } },
  ACTIVITY_INVITE: { scope: { any: [S.RPC, LOCAL_SCOPE] } },
};

/** Resolves and checks `evt` + args into the subscription's event, definition and target. */
async function resolve(ctx: CommandContext): Promise<{ evt: string; def: EventDef; target: string | null }> {
  const evt = ctx.evt;
  const def = evt ? EVENTS[evt] : undefined;
  if (!evt || !def) throw new RpcError(RpcErrorCode.INVALID_EVENT, `Invalid event: ${evt}`);
  if (!allowed(ctx.socket.scopes, def.scope)) throw new RpcError(RpcErrorCode.INVALID_PERMISSIONS, 'Not authenticated or invalid scope');
  let args = ctx.args ?? {};
  if (def.validation) {
    const r = validateArgs<Record<string, unknown>>(def.validation, args);
    if (!r.ok) throw new RpcError(RpcErrorCode.INVALID_PAYLOAD, r.message);
    args = r.value;
  }
  const target = def.target && args[def.target] != null ? String(args[def.target]) : null;
  return { evt, def, target };
}

export const subscribe: Command = {
  scope: null,
  async run(ctx) {
    const { evt, def, target } = await resolve(ctx);
    if (target && def.check) await def.check(ctx, target);
    ctx.socket.subscriptions.set(subscriptionKey(evt, target), { evt, target });
    return { evt };
  },
  async after(ctx) {
    const def = EVENTS[ctx.evt!];
    const target = def.target ? String(ctx.args?.[def.target]) : '';
    await def.initial?.(ctx, target).catch(() => {});
  },
};

export const unsubscribe: Command = {
  scope: null,
  async run(ctx) {
    const { evt, target } = await resolve(ctx);
    ctx.socket.subscriptions.delete(subscriptionKey(evt, target));
    return { evt };
  },
};
