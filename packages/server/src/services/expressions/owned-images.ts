import type { Ctx } from '../context.js';
import type { OwnedImages, StoredImage } from '../../store/repos/owned-images.js';
import { assetHash, imageFromDataUri } from './assets.js';

/** The platform takes profile and guild images up to 10 MB. */
const MAX_BYTES = 10 * 1024 * 1024;

/**
 * Stores the image of a data URI as the owner's current one of its kind and returns its hash (`a_…` when animated, as
 * on the platform); 50035 IMAGE_INVALID or BINARY_TYPE_MAX_SIZE on `field` for bad data.
 */
export async function storeOwnedImage(ctx: Ctx, images: OwnedImages, ownerId: string, kind: string, dataUri: string, field = kind): Promise<string> {
  const asset = imageFromDataUri(dataUri, { field, allowed: ['png', 'jpeg', 'gif', 'webp'], maxBytes: MAX_BYTES });
  const hash = (asset.animated ? 'a_' : '') + assetHash(asset.data);
  await images.put(ownerId, kind, { hash, contentType: asset.contentType, data: asset.data, createdAt: ctx.clock.now() });
  return hash;
}

/** The stored image when `hash` is the current one (an old hash is a 404, as on the CDN). */
export async function readOwnedImage(images: OwnedImages, ownerId: string, kind: string, hash: string): Promise<StoredImage | null> {
  const img = await images.read(ownerId, kind);
  return img && img.hash === hash ? img : null;
}
