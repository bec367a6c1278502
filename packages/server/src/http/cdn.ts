import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ctx } from '../services/context.js';
import { readAttachment } from '../services/messages/attachments.js';
import { registerExpressionCdn } from './cdn-expressions.js';
import { registerAppIconCdn } from './cdn-app-icons.js';
import { registerImageCdn } from './cdn-images.js';

const notFound = (reply: FastifyReply) =>
  reply
    .code(404)
    .type('application/json')
    .send(JSON.stringify({ message: '404: Not Found', code: 0 }));

/**
 * The CDN, at the root like cdn.discordapp.com: `/attachments/{channel_id}/{attachment_id}/{filename}` serves an
 * uploaded file's bytes. The file name is a wildcard so long names are not cut by the router's parameter limit.
 */
export function registerCdn(app: FastifyInstance, ctx: Ctx): void {
  registerExpressionCdn(app, ctx); // /emojis, /stickers, /soundboard-sounds, /guild-events
  registerAppIconCdn(app, ctx); // /app-icons/{application_id}/{icon}.png
  registerImageCdn(app, ctx); // /avatars, /icons, /splashes and /banners/{id}/{hash}.png
  // Application (Activity) uploads live under `/ephemeral-attachments/{application_id}/…`, stored the same way.
  for (const prefix of ['/attachments', '/ephemeral-attachments'])
    app.get(`${prefix}/:channel_id/:attachment_id/*`, async (req, reply) => {
      const p = req.params as Record<string, string>;
      const filename = p['*'] ?? '';
      const file = await readAttachment(ctx, p.channel_id, p.attachment_id, filename);
      if (!file) return notFound(reply);
      return (
        reply
          .code(200)
          .header('content-type', file.contentType)
          .header('content-length', String(file.size))
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          // Uploaded HTML or SVG must not run as a page on the API's origin.
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(file.data)
      );
    });
}
