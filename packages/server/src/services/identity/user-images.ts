import type { Ctx } from '../context.js';
import { readOwnedImage, storeOwnedImage } from '../expressions/owned-images.js';

/**
 * People's avatars and banners: PATCH /users/@me sends a data URI; the bytes are recognised by their content, kept
 * per user and kind, and served by the CDN at `/avatars/{user_id}/{hash}.{ext}` (`/banners/…`).
 */

export type UserImageKind = 'avatar' | 'banner';

/** Stores the image of a data URI and returns its hash; 50035 IMAGE_INVALID or BINARY_TYPE_MAX_SIZE on bad data. */
export function storeUserImage(ctx: Ctx, userId: string, kind: UserImageKind, dataUri: string): Promise<string> {
  return storeOwnedImage(ctx, ctx.repos.users.images, userId, kind, dataUri);
}

export async function dropUserImage(ctx: Ctx, userId: string, kind: UserImageKind): Promise<void> {
  await ctx.repos.users.images.delete(userId, kind);
}

/** The stored image when `hash` is the current one (an old hash is a 404, as on the CDN). */
export function readUserImage(ctx: Ctx, userId: string, kind: UserImageKind, hash: string) {
  return readOwnedImage(ctx.repos.users.images, userId, kind, hash);
}
