import type { Ctx } from '../context.js';
import { assetHash, imageFromDataUri, readAsset, storeAsset } from '../expressions/assets.js';

/**
 * An application's icon: the portal uploads a data URI; the bytes are checked by their content, kept beside the
 * other image assets under the application's id, and served at `/app-icons/{application_id}/{hash}.{ext}`.
 */

const KIND = 'app-icon';
/** The portal accepts icons up to 10 MB (the platform's limit for app images). */
const MAX_ICON_BYTES = 10 * 1024 * 1024;

/** Stores the icon of a data URI and returns its hash (the `icon` of the application object). */
export async function storeAppIcon(ctx: Ctx, applicationId: string, dataUri: string): Promise<string> {
  const asset = imageFromDataUri(dataUri, { field: 'icon', allowed: ['png', 'jpeg', 'gif', 'webp'], maxBytes: MAX_ICON_BYTES });
  const hash = assetHash(asset.data);
  await storeAsset(ctx.repos, ctx, applicationId, KIND, asset, hash);
  return hash;
}

/** The stored icon when `hash` is the current one (an old hash is a 404, as on the CDN). */
export async function readAppIcon(ctx: Ctx, applicationId: string, hash: string) {
  const asset = await readAsset(ctx, applicationId, KIND);
  return asset && asset.hash === hash ? asset : null;
}
