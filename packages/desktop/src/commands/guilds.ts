import { ApiError } from '../platform/api.js';
import type { Command, CommandContext } from '../rpc/core.js';
import { RpcError, RpcErrorCode } from '../rpc/codes.js';
import { num, obj, required, str } from '../rpc/schema.js';
import { S } from '../rpc/scopes.js';
import { guildIconUrl } from '../rpc/views.js';

/** Reads a platform object; a 403/404 becomes the RPC error the client would give for an unknown id. */
export async function readOr<T>(p: Promise<T>, code: number, message: string): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) throw new RpcError(code, message);
    throw err;
  }
}

export async function guildOf(ctx: CommandContext, guildId: string) {
  return readOr(ctx.core.api.request(`/guilds/${encodeURIComponent(guildId)}`), RpcErrorCode.INVALID_GUILD, `Invalid guild id: ${guildId}`);
}

/** GET_GUILDS (scope rpc): every guild the person is in. */
export const getGuilds: Command = {
  scope: S.RPC,
  async run({ core }) {
    const guilds: any[] = await core.api.request('/users/@me/guilds');
    return {
      guilds: guilds.map((g) => ({ id: String(g.id), name: g.name, icon_url: guildIconUrl(core.cdnBase, { id: String(g.id), icon: g.icon ?? null }) })),
    };
  },
};

/** GET_GUILD (scope rpc): `members` is always empty, as on the platform. */
export const getGuild: Command = {
  scope: S.RPC,
  validation: obj({ guild_id: required(str({ max: 32 })), timeout: num({ min: 0, max: 60 }) }),
  async run(ctx) {
    const g = await guildOf(ctx, ctx.args.guild_id);
    return {
      id: String(g.id),
      name: g.name,
      icon_url: guildIconUrl(ctx.core.cdnBase, { id: String(g.id), icon: g.icon ?? null }),
      members: [],
      vanity_url_code: g.vanity_url_code ?? null,
    };
  },
};
