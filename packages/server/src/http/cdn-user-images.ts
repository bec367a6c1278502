import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../services/context.js';
import { readUserImage } from '../services/identity/user-images.js';
import { isId } from '../core/ids.js';
import { cdnNotFound, sendCdnImage } from './cdn-reply.js';

/** `/avatars/{user_id}/{hash}.{png|jpg|jpeg|gif|webp}` and `/banners/…`: a person's current image, as uploaded (`size` is ignored). */
export function registerUserImageCdn(app: FastifyInstance, ctx: Ctx): void {
  for (const kind of ['avatar', 'banner'] as const)
    app.get(`/${kind}s/:id/:file`, async (req, reply) => {
      const p = req.params as Record<string, string>;
      const m = /^((?:a_)?[0-9a-f]{32})\.(png|jpe?g|gif|webp)$/i.exec(p.file ?? '');
      const img = m && isId(p.id) ? await readUserImage(ctx, p.id, kind, m[1].toLowerCase()) : null;
      return img ? sendCdnImage(reply, img) : cdnNotFound(reply);
    });
}
