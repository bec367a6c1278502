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

const infos = new WeakMap<FastifyRequest, RequestInfo>();

export const noteRequest = (req: FastifyRequest, info: RequestInfo): void => void infos.set(req, info);
export const requestInfo = (req: FastifyRequest): RequestInfo | undefined => infos.get(req);
