import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../services/context.js';
import { readAppIcon } from '../services/identity/app-icon.js';
import { isId } from '../core/ids.js';

/** `/app-icons/{application_id}/{icon}.{png|jpg|jpeg|gif|webp}`: an application's icon, as uploaded (`size` is ignored). */
export function registerAppIconCdn(app: FastifyInstance, ctx: Ctx): void {
  app.get('/app-icons/:id/:file', async (req, reply) => {
    const p = req.params as Record<string, string>;
    const m = /^([0-9a-f]{32})\.(png|jpe?g|gif|webp)$/i.exec(p.file ?? '');
    const icon = m && isId(p.id) ? await readAppIcon(ctx, p.id, m[1].toLowerCase()) : null;
    if (!icon)
      return reply
        .code(404)
        .type('application/json')
        .send(JSON.stringify({ message: '404: Not Found', code: 0 }));
    return reply
      .code(200)
      .header('content-type', icon.contentType)
      .header('content-length', String(icon.data.length))
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(icon.data);
  });
}
