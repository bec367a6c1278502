import type { FastifyReply } from 'fastify';

/** The CDN's 404, a JSON body as the platform's CDN sends it. */
export const cdnNotFound = (reply: FastifyReply) =>
  reply
    .code(404)
    .type('application/json')
    .send(JSON.stringify({ message: '404: Not Found', code: 0 }));

/** Stored image bytes, cacheable for a day; never run as a page on the API's origin. */
export const sendCdnImage = (reply: FastifyReply, img: { data: Buffer; contentType: string }) =>
  reply
    .code(200)
    .header('content-type', img.contentType)
    .header('content-length', String(img.data.length))
    .header('cache-control', 'public, max-age=86400')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(img.data);
