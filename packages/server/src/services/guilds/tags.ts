import type { Actor, Ctx } from '../context.js';
import { Errors, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import type { UserRecord } from '../../store/records.js';
import { publicUser } from '../../wire/user.js';
import { requireGuildRecord } from './lookup.js';
import { checkId, isId } from '../../core/ids.js';
import { getSetting, putSetting } from './settings.js';
import { renderGuild } from './guild.js';
import { getUser } from '../identity/users.js';

/**
 * Guild tags and `primary_guild` (a minimal design of the official client's feature):
 *
 * - A guild sets its tag (1–4 characters) and badge with `PATCH /guilds/{id}/profile` (MANAGE_GUILD); a guild with a
 *   tag carries the GUILD_TAGS feature.
 * - A person adopts a guild's tag with `PUT /users/@me/clan {identity_guild_id, identity_enabled}` (they must be a
 *   member, and the guild must have a tag); `identity_guild_id: null` drops it.
 * - The user's `primary_guild` is `{identity_guild_id, identity_enabled, tag, badge}`, stored on the user and rewritten
 *   for every adopter when the guild changes or removes its tag (tag and badge become null).
 */

export const GUILD_TAGS_FEATURE = 'GUILD_TAGS';
const TAG_RE = /^[\p{L}\p{N}]+$/u;

/** A tag is 1 to 4 letters or digits (characters, not bytes). */
export function checkTag(tag: string): void {
  const n = [...tag].length;
  if (n < 1 || n > 4) throw fieldError('tag', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 4 in length.');
  if (!TAG_RE.test(tag)) throw fieldError('tag', 'GUILD_TAG_INVALID', 'A guild tag may only contain letters and numbers.');
}

/** GET /guilds/{id}/profile: the guild's tag and badge, for members. */
export async function getGuildProfile(ctx: Ctx, actor: Actor, guildId: string) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  const g = await requireGuildRecord(ctx, guildId);
  const t = await getSetting(ctx, guildId, 'tag');
  return { id: g.id, name: g.name, icon_hash: g.icon, tag: t?.tag ?? null, badge: t?.badge ?? null };
}

/** PATCH /guilds/{id}/profile `{tag?, badge?}`: MANAGE_GUILD. Adopters follow the change. */
export async function updateGuildProfile(ctx: Ctx, actor: Actor, guildId: string, input: { tag?: string | null; badge?: string | null }) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_GUILD);
  const g = await requireGuildRecord(ctx, guildId);
  const cur = (await getSetting(ctx, guildId, 'tag')) ?? { tag: null, badge: null };
  if (input.tag) checkTag(input.tag);
  const next = { tag: input.tag !== undefined ? input.tag || null : cur.tag, badge: input.badge !== undefined ? input.badge : cur.badge };
  if (next.tag && !next.badge) next.badge = 'default';
  if (!next.tag) next.badge = null;
  await putSetting(ctx, guildId, 'tag', next);
  const features = g.features.filter((f) => f !== GUILD_TAGS_FEATURE);
  if (next.tag) features.push(GUILD_TAGS_FEATURE);
  if (features.length !== g.features.length || !!next.tag !== g.features.includes(GUILD_TAGS_FEATURE)) {
    await ctx.repos.guilds.patch(guildId, { features: JSON.stringify(features) });
    ctx.bus.publish({ t: 'GUILD_UPDATE', d: await renderGuild(ctx, await requireGuildRecord(ctx, guildId)), guild_id: guildId });
  }
  await syncAdopters(ctx, guildId, next);
  return getGuildProfile(ctx, actor, guildId);
}

/** Rewrites the tag and badge of everyone who adopted this guild's tag. */
async function syncAdopters(ctx: Ctx, guildId: string, tag: { tag: string | null; badge: string | null }): Promise<void> {
  for (const u of await ctx.repos.users.wearingGuildTag(guildId)) {
    if (u.primary_guild?.identity_guild_id !== guildId) continue;
    await save(ctx, u, { ...u.primary_guild, tag: tag.tag, badge: tag.badge });
  }
}

async function save(ctx: Ctx, u: UserRecord, pg: UserRecord['primary_guild']): Promise<UserRecord> {
  await ctx.repos.users.savePrimaryGuild(u.id, pg);
  const updated = (await getUser(ctx, u.id))!;
  ctx.bus.publish({ t: 'USER_UPDATE', d: publicUser(updated), user_ids: [u.id] });
  ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: u.id } }); // cached actors carry the user record
  return updated;
}

/**
 * PUT /users/@me/clan `{identity_guild_id, identity_enabled?}`: people adopt the tag of a guild they belong to, or drop
 * theirs with null. Returns the user's new `primary_guild`.
 */
export async function adoptGuildTag(ctx: Ctx, actor: Actor, input: { identity_guild_id: string | null; identity_enabled?: boolean | null }) {
  if (actor.kind !== 'user' || actor.user.bot) throw Errors.botsCannotUse();
  const user = (await getUser(ctx, actor.user.id))!;
  if (input.identity_guild_id === null) {
    const updated = await save(ctx, user, null);
    return updated.primary_guild;
  }
  const guildId = input.identity_guild_id;
  if (!isId(guildId) || !(await ctx.access.isMember(guildId, actor.user.id))) throw Errors.unknownGuild();
  const t = await getSetting(ctx, guildId, 'tag');
  if (!t?.tag) throw fieldError('identity_guild_id', 'GUILD_TAG_UNAVAILABLE', 'This server has no tag.');
  const updated = await save(ctx, user, { identity_guild_id: guildId, identity_enabled: input.identity_enabled ?? true, tag: t.tag, badge: t.badge });
  return updated.primary_guild;
}
