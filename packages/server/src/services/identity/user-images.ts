import type { Ctx } from '../context.js';
import { assetHash, imageFromDataUri } from '../expressions/assets.js';

/**
 * People's avatars and banners: PATCH /users/@me sends a data URI; the bytes are recognised by their content, kept
 * per user and kind, and served by the CDN at `/avatars/{user_id}/{hash}.{ext}` (`/banners/…`). An animated image's
 * hash starts with `a_`, as on the platform.
 */

export type UserImageKind = 'avatar' | 'banner';

/** The platform takes profile images up to 10 MB. */
const MAX_BYTES = 10 * 1024 * 1024;

/** Stores the image of a data URI and returns its hash; 50035 IMAGE_INVALID or BINARY_TYPE_MAX_SIZE on bad data. */
export async function storeUserImage(ctx: Ctx, userId: string, kind: UserImageKind, dataUri: string): Promise<string> {
  const asset = imageFromDataUri(dataUri, { field: kind, allowed: ['png', 'jpeg', 'gif', 'webp'], maxBytes: MAX_BYTES });
  const hash = (asset.animated ? 'a_' : '') + assetHash(asset.data);
  await ctx.repos.users.putImage(userId, kind, { hash, contentType: asset.contentType, data: asset.data, createdAt: ctx.clock.now() });
  return hash;
}

export async function dropUserImage(ctx: Ctx, userId: string, kind: UserImageKind): Promise<void> {
  await ctx.repos.users.deleteImage(userId, kind);
}

/** The stored image when `hash` is the current one (an old hash is a 404, as on the CDN). */
export async function readUserImage(ctx: Ctx, userId: string, kind: UserImageKind, hash: string) {
  const img = await ctx.repos.users.readImage(userId, kind);
  return img && img.hash === hash ? img : null;
}
