import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../services/context.js';
import { readAppIcon } from '../services/identity/app-icon.js';
import { isId } from '../core/ids.js';
import { cdnNotFound, sendCdnImage } from './cdn-reply.js';

/** `/app-icons/{application_id}/{icon}.{png|jpg|jpeg|gif|webp}`: an application's icon, as uploaded (`size` is ignored). */
export function registerAppIconCdn(app: FastifyInstance, ctx: Ctx): void {
  app.get('/app-icons/:id/:file', async (req, reply) => {
    const p = req.params as Record<string, string>;
    const m = /^([0-9a-f]{32})\.(png|jpe?g|gif|webp)$/i.exec(p.file ?? '');
    const icon = m && isId(p.id) ? await readAppIcon(ctx, p.id, m[1].toLowerCase()) : null;
    return icon ? sendCdnImage(reply, icon) : cdnNotFound(reply);
  });
}
