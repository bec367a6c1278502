import type { Actor, Ctx } from '../context.js';
import { ApiError, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { num } from '../../store/json.js';
import { requireGuildPerms } from './lookup.js';

/** The vanity URL: a guild's custom invite code. */

/** GET /guilds/{id}/vanity-url: MANAGE_GUILD. */
export async function getVanity(ctx: Ctx, actor: Actor, guildId: string) {
  await requireGuildPerms(ctx, actor, guildId, P.MANAGE_GUILD);
  const row = await ctx.db.selectFrom('guild_vanity').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
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
    const taken = await ctx.db.selectFrom('guild_vanity').select('guild_id').where('code', '=', code).executeTakeFirst();
    const invite = await ctx.db.selectFrom('invites').select('code').where('code', '=', code).executeTakeFirst();
    if ((taken && String(taken.guild_id) !== guildId) || invite) throw new ApiError(400, 50020, 'Invite code was either invalid or taken');
  }
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('guild_vanity').where('guild_id', '=', guildId).execute();
    if (code !== null) await trx.insertInto('guild_vanity').values({ code, guild_id: guildId, uses: 0 }).execute();
  });
  return { code, uses: 0 };
}

/** The guild behind a vanity code, for invite resolution. */
export async function vanityGuild(ctx: Ctx, code: string): Promise<string | null> {
  const row = await ctx.db.selectFrom('guild_vanity').select('guild_id').where('code', '=', code).executeTakeFirst();
  return row ? String(row.guild_id) : null;
}

export async function countVanityUse(ctx: Ctx, code: string): Promise<void> {
  await ctx.db.updateTable('guild_vanity').set((eb) => ({ uses: eb('uses', '+', 1) })).where('code', '=', code).execute();
}
