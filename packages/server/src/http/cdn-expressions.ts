import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ctx } from '../services/context.js';
import { readAsset } from '../services/expressions/assets.js';
import { standardStickerFile } from '../services/expressions/stickers.js';
import { defaultSoundFile } from '../services/expressions/soundboard.js';
import { isId } from '../core/ids.js';

/**
 * CDN paths of expressions, next to the attachments CDN (cdn.discordapp.com layout):
 * `/emojis/{id}.{png|jpg|jpeg|gif|webp|avif}`, `/stickers/{id}.{png|gif|json}`, `/soundboard-sounds/{id}` and
 * `/guild-events/{id}/{hash}.{ext}`. The stored bytes are served as uploaded (no transcoding; `size` is ignored).
 */

const notFound = (reply: FastifyReply) =>
  reply
    .code(404)
    .type('application/json')
    .send(JSON.stringify({ message: '404: Not Found', code: 0 }));

function send(reply: FastifyReply, data: Buffer, contentType: string) {
  return reply
    .code(200)
    .header('content-type', contentType)
    .header('content-length', String(data.length))
    .header('cache-control', 'public, max-age=86400')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(data);
}

const IMAGE_EXT = /^(\d{1,20})\.(png|jpe?g|gif|webp|avif)$/i;

export function registerExpressionCdn(app: FastifyInstance, ctx: Ctx): void {
  app.get('/emojis/:file', async (req, reply) => {
    const m = IMAGE_EXT.exec((req.params as Record<string, string>).file ?? '');
    const asset = m && isId(m[1]) ? await readAsset(ctx, m[1], 'emoji') : null;
    return asset ? send(reply, asset.data, asset.contentType) : notFound(reply);
  });

  app.get('/stickers/:file', async (req, reply) => {
    const m = /^(\d{1,20})\.(png|gif|json|webp)$/i.exec((req.params as Record<string, string>).file ?? '');
    if (!m || !isId(m[1])) return notFound(reply);
    const standard = standardStickerFile(m[1]);
    if (standard) return send(reply, standard, 'application/json');
    const asset = await readAsset(ctx, m[1], 'sticker');
    return asset ? send(reply, asset.data, asset.contentType) : notFound(reply);
  });

  app.get('/soundboard-sounds/:id', async (req, reply) => {
    const soundId = (req.params as Record<string, string>).id ?? '';
    const builtIn = defaultSoundFile(soundId);
    if (builtIn) return send(reply, builtIn, 'audio/mpeg');
    const asset = isId(soundId) ? await readAsset(ctx, soundId, 'sound') : null;
    return asset ? send(reply, asset.data, asset.contentType) : notFound(reply);
  });

  app.get('/guild-events/:id/:file', async (req, reply) => {
    const p = req.params as Record<string, string>;
    const m = /^([0-9a-f]{32})\.(png|jpe?g|gif|webp)$/i.exec(p.file ?? '');
    const asset = m && isId(p.id) ? await readAsset(ctx, p.id, 'event-cover') : null;
    return asset && asset.hash === m![1] ? send(reply, asset.data, asset.contentType) : notFound(reply);
  });
}
