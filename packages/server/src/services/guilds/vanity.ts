import type { Actor, Ctx } from '../context.js';
import { ApiError, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { num } from '../../store/json.js';
import { requireGuildPerms } from './lookup.js';

/** The vanity URL: a guild's custom invite code. */

/** GET /guilds/{id}/vanity-url: MANAGE_GUILD. */
export async function getVanity(ctx: Ctx, actor: Actor, guildId: string) {
  await requireGuildPerms(ctx, actor, guildId, P.MANAGE_GUILD);
  const row = await ctx.repos.guilds.vanityOf(guildId);
  return { code: row?.code ?? null, uses: num(row?.uses) };
}

/**
 * PATCH /guilds/{id}/vanity-url `{code}` (the official client's route): MANAGE_GUILD. Codes are 2–32 of a-z, 0-9 and
 * '-', unique across vanity codes and invites (50020 when taken); null removes the vanity URL.
 */
export async function setVanity(ctx: Ctx, actor: Actor, guildId: string, code: string | null) {
  await requireGuildPerms(ctx, actor, guildId, P.MANAGE_GUILD);
  if (code !== null) {
    if (!/^[a-z0-9-]{2,32}$/.test(code)) throw fieldError('code', 'INVITE_CODE_INVALID', 'Invite code was either invalid or taken.');
    const taken = await ctx.repos.guilds.guildOfVanity(code);
    const invite = await ctx.repos.invites.codeExists(code);
    if ((taken && taken !== guildId) || invite) throw new ApiError(400, 50020, 'Invite code was either invalid or taken');
  }
  await ctx.repos.guilds.setVanity(guildId, code);
  return { code, uses: 0 };
}

/** The guild behind a vanity code, for invite resolution. */
export async function vanityGuild(ctx: Ctx, code: string): Promise<string | null> {
  return ctx.repos.guilds.guildOfVanity(code);
}

export async function countVanityUse(ctx: Ctx, code: string): Promise<void> {
  await ctx.repos.guilds.countVanityUse(code);
}
