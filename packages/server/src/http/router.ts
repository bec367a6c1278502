import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, Ctx } from '../services/context.js';
import type { UploadedFile } from '../core/uploads.js';

export type AuthMode = 'none' | 'optional' | 'any' | 'user' | 'bot';

export interface Call<A extends Actor | null = Actor> {
  ctx: Ctx;
  actor: A;
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: any;
  files: UploadedFile[];
  req: FastifyRequest;
  reply: FastifyReply;
  /** X-Audit-Log-Reason, decoded. */
  reason: string | null;
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  auth: AuthMode;
  /** Route-specific limit for the rate limiter, when the default does not fit. */
  limit?: { count: number; windowMs: number };
  handler: (call: Call<any>) => Promise<unknown>;
}

/** A response other than 200 + JSON. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly contentType?: string,
    readonly headers?: Record<string, string>,
  ) {}
}
export const noContent = () => new Reply(204);
export const created = (body: unknown) => new Reply(201, body);

type Handler<A extends Actor | null> = (call: Call<A>) => Promise<unknown>;

/** Collects route definitions; the app registers them under each API prefix. */
export class Routes {
  readonly defs: RouteDef[] = [];

  private add(method: RouteDef['method'], path: string, auth: AuthMode, handler: Handler<any>, limit?: RouteDef['limit']) {
    this.defs.push({ method, path, auth, handler, limit });
    return this;
  }

  get<A extends AuthMode>(path: string, auth: A, h: Handler<A extends 'none' | 'optional' ? Actor | null : Actor>, limit?: RouteDef['limit']) {
    return this.add('GET', path, auth, h, limit);
  }
  post<A extends AuthMode>(path: string, auth: A, h: Handler<A extends 'none' | 'optional' ? Actor | null : Actor>, limit?: RouteDef['limit']) {
    return this.add('POST', path, auth, h, limit);
  }
  put<A extends AuthMode>(path: string, auth: A, h: Handler<A extends 'none' | 'optional' ? Actor | null : Actor>, limit?: RouteDef['limit']) {
    return this.add('PUT', path, auth, h, limit);
  }
  patch<A extends AuthMode>(path: string, auth: A, h: Handler<A extends 'none' | 'optional' ? Actor | null : Actor>, limit?: RouteDef['limit']) {
    return this.add('PATCH', path, auth, h, limit);
  }
  delete<A extends AuthMode>(path: string, auth: A, h: Handler<A extends 'none' | 'optional' ? Actor | null : Actor>, limit?: RouteDef['limit']) {
    return this.add('DELETE', path, auth, h, limit);
  }
}
