import type { Ctx } from '../context.js';
import { readOwnedImage, storeOwnedImage } from '../expressions/owned-images.js';

/**
 * Guilds' icons, splashes and banners: PATCH /guilds/{id} (and guild create) send a data URI; the bytes are kept per
 * guild and kind and served by the CDN at `/icons/{guild_id}/{hash}.{ext}`, `/splashes/…` and `/banners/…`.
 */

export type GuildImageKind = 'icon' | 'splash' | 'banner';
export const GUILD_IMAGE_KINDS: readonly GuildImageKind[] = ['icon', 'splash', 'banner'];

/** The hash to store for a patch's image field: the new image's, or null when it is removed. */
export async function setGuildImage(ctx: Ctx, guildId: string, kind: GuildImageKind, dataUri: string | null): Promise<string | null> {
  if (dataUri === null) {
    await ctx.repos.guilds.images.delete(guildId, kind);
    return null;
  }
  return storeOwnedImage(ctx, ctx.repos.guilds.images, guildId, kind, dataUri);
}

export function readGuildImage(ctx: Ctx, guildId: string, kind: GuildImageKind, hash: string) {
  return readOwnedImage(ctx.repos.guilds.images, guildId, kind, hash);
}
