import { ApiError } from '../platform/api.js';
import type { Command } from '../rpc/core.js';
import { RpcError, RpcErrorCode } from '../rpc/codes.js';
import { arr, obj, required, str } from '../rpc/schema.js';
import { AUTHENTICATED_SCOPE } from '../rpc/scopes.js';
import { rpcUser } from '../rpc/views.js';

/**
 * AUTHORIZE: the person is asked (ConsentPrompter); on yes, the local client authorizes the app on the platform as
 * the person (POST /oauth2/authorize with response_type=code and no redirect_uri) and hands the code to the app,
 * which exchanges it at /oauth2/token with its own secret.
 */
export const authorize: Command = {
  scope: null,
  validation: obj({
    client_id: str({ max: 32 }),
    scopes: required(arr(str({ min: 1, max: 64 }), { min: 1 })),
    rpc_token: str({ max: 512 }),
    username: str({ max: 32 }),
    prompt: str({ max: 32 }),
  }),
  async run({ core, socket, args }) {
    if (!args.client_id) throw new RpcError(RpcErrorCode.INVALID_CLIENTID, 'No client id provided');
    if (args.client_id !== socket.app.id) throw new RpcError(RpcErrorCode.INVALID_CLIENTID, `Invalid client id: ${args.client_id}`);
    const scopes: string[] = [...new Set<string>(args.scopes)];
    const granted = await core.deps.prompter.ask({
      application: { id: socket.app.id, name: socket.app.name, icon: socket.app.icon, description: socket.app.description },
      scopes,
      user: { id: String(core.user.id), username: core.user.username, global_name: core.user.global_name ?? null },
      transport: socket.transport.kind,
    });
    if (!granted) throw new RpcError(RpcErrorCode.OAUTH2_ERROR, 'OAuth2 Error: access_denied: The user denied the authorization request');
    let location: string;
    try {
      const r = await core.api.request<{ location: string }>('/oauth2/authorize', {
        method: 'POST',
        query: { client_id: socket.app.id, response_type: 'code', scope: scopes.join(' ') },
        body: { authorize: true },
      });
      location = r.location;
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) throw new RpcError(RpcErrorCode.OAUTH2_ERROR, `OAuth2 Error: ${oauthReason(err)}`);
      throw err;
    }
    const code = new URL(location, core.deps.baseUrl).searchParams.get('code');
    if (!code) throw new RpcError(RpcErrorCode.OAUTH2_ERROR, 'OAuth2 Error: no authorization code was issued');
    return { code };
  },
};

/** The first field error of a 50035 answer (e.g. `scope: Invalid scope: foo`), else its message. */
function oauthReason(err: ApiError): string {
  const errors = err.body?.errors;
  if (errors && typeof errors === 'object') {
    for (const [field, v] of Object.entries<any>(errors)) {
      const first = v?._errors?.[0];
      if (first?.message) return `${field}: ${first.message}`;
    }
  }
  return err.body?.message ?? `HTTP ${err.status}`;
}

/**
 * AUTHENTICATE: the access token must be a live token of this app for the logged-in person (checked with
 * GET /oauth2/@me); its scopes then open the commands and events that need them.
 */
export const authenticate: Command = {
  scope: null,
  validation: obj({ access_token: required(str({ max: 512 })) }),
  async run({ core, socket, args }) {
    let me: any;
    try {
      me = await core.api.request('/oauth2/@me', { auth: `Bearer ${args.access_token}` });
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) throw new RpcError(RpcErrorCode.INVALID_TOKEN, 'Invalid access token');
      throw err;
    }
    if (String(me?.application?.id) !== socket.app.id) throw new RpcError(RpcErrorCode.INVALID_TOKEN, 'Invalid access token: issued to another application');
    if (me.user && String(me.user.id) !== String(core.user.id)) throw new RpcError(RpcErrorCode.INVALID_TOKEN, 'Invalid access token: issued to another user');
    const scopes: string[] = Array.isArray(me.scopes) ? me.scopes : [];
    for (const s of scopes) socket.scopes.add(s);
    socket.scopes.add(AUTHENTICATED_SCOPE);
    socket.accessToken = args.access_token;
    return {
      user: rpcUser(me.user ?? core.user),
      scopes,
      expires: me.expires ?? null,
      application: {
        description: socket.app.description,
        icon: socket.app.icon,
        id: socket.app.id,
        rpc_origins: socket.app.rpc_origins,
        name: socket.app.name,
      },
    };
  },
};
