import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../services/context.js';
import { readUserImage } from '../services/identity/user-images.js';
import { readGuildImage } from '../services/guilds/guild-images.js';
import { isId } from '../core/ids.js';
import { cdnNotFound, sendCdnImage } from './cdn-reply.js';

/**
 * People's and guilds' current images, as uploaded (`size` is ignored): `/avatars/{user_id}/{hash}.{ext}`,
 * `/icons/{guild_id}/…`, `/splashes/{guild_id}/…`, and `/banners/{user_id or guild_id}/…` (one path for both, as on
 * the platform's CDN). An old hash is a 404.
 */
export function registerImageCdn(app: FastifyInstance, ctx: Ctx): void {
  const route = (path: string, read: (id: string, hash: string) => Promise<Awaited<ReturnType<typeof readUserImage>>>) =>
    app.get(`/${path}/:id/:file`, async (req, reply) => {
      const p = req.params as Record<string, string>;
      const m = /^((?:a_)?[0-9a-f]{32})\.(png|jpe?g|gif|webp)$/i.exec(p.file ?? '');
      const img = m && isId(p.id) ? await read(p.id, m[1].toLowerCase()) : null;
      return img ? sendCdnImage(reply, img) : cdnNotFound(reply);
    });
  route('avatars', (id, hash) => readUserImage(ctx, id, 'avatar', hash));
  route('icons', (id, hash) => readGuildImage(ctx, id, 'icon', hash));
  route('splashes', (id, hash) => readGuildImage(ctx, id, 'splash', hash));
  route('banners', async (id, hash) => (await readUserImage(ctx, id, 'banner', hash)) ?? readGuildImage(ctx, id, 'banner', hash));
}
