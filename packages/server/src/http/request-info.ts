import type { FastifyRequest } from 'fastify';
import type { Actor } from '../services/context.js';

/**
 * What the API layer learned about a request (its route template and who called), for observers that run after the
 * handler, such as the dev inspector's onResponse hook. Kept beside the request, never on the wire.
 */
export interface RequestInfo {
  /** The route as declared, e.g. `/channels/{channel_id}/messages`. */
  route: string;
  actor: Actor | null;
}

// A property under a symbol of its own rather than a WeakMap: a WeakMap entry a request is work for every garbage
// collection (its ephemeron table).
const INFO = Symbol('accord.requestInfo');
type Noted = FastifyRequest & { [INFO]?: RequestInfo };

export const noteRequest = (req: FastifyRequest, info: RequestInfo): void => void ((req as Noted)[INFO] = info);
export const requestInfo = (req: FastifyRequest): RequestInfo | undefined => (req as Noted)[INFO];
