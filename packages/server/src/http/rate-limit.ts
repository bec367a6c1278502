import crypto from 'node:crypto';

// The store moved to bus/rate-limits.ts (services and the Gateway count deployment-wide limits in it too).
export { MemoryRateLimits, type Hit, type RateLimitStore, type Take, type TakeAll } from '../bus/rate-limits.js';

/** Bucket id (opaque, without the major resource id) and the key that also carries the major id. */
export function bucketFor(method: string, path: string, params: Record<string, string>, name = `${method} ${path}`): { bucket: string; key: string } {
  const major = MAJOR.find((m) => params[m]);
  let majorValue = major ? params[major] : '';
  if (major === 'webhook_id' && params.webhook_token) majorValue += ':' + params.webhook_token;
  const bucket = crypto.createHash('sha1').update(name).digest('hex').slice(0, 16);
  return { bucket, key: `${bucket}:${majorValue}` };
}

const MAJOR = ['channel_id', 'guild_id', 'webhook_id'] as const;
