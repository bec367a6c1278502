import { RpcError, RpcErrorCode, invalidPayload } from '../protocol.js';
import { authUser } from '../shapes.js';
import { fromApi, str, type Handler } from '../session.js';

/**
 * AUTHORIZE: OAuth2 consent inside the client (skipped with `prompt: "none"` when already granted), then a code minted
 * without a redirect_uri, which the Activity's backend exchanges at /oauth2/token. AUTHENTICATE: the Activity hands
 * back an access token; it must be this app's and this person's, and its scopes gate the commands that need them.
 */

export const authorize: Handler = async (s, args) => {
  const clientId = str(args, 'client_id');
  if (clientId !== s.clientId) throw new RpcError(RpcErrorCode.INVALID_CLIENTID, "client_id is not this Activity's application");
  const scope = args.scope;
  const scopes = Array.isArray(scope) ? scope : typeof scope === 'string' ? scope.split(/\s+/) : null;
  if (!scopes || !scopes.length || !scopes.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 64))
    throw invalidPayload('scope must be a list of scopes');
  if (args.response_type !== undefined && args.response_type !== 'code') throw invalidPayload('response_type must be "code"');
  const query: Record<string, string | undefined> = {
    client_id: clientId,
    response_type: 'code',
    scope: scopes.join(' '),
    state: str(args, 'state', { optional: true, max: 1024 }),
    code_challenge: str(args, 'code_challenge', { optional: true, max: 128 }),
    code_challenge_method: str(args, 'code_challenge_method', { optional: true, max: 10 }),
  };
  let preview: { authorized: boolean; application: { id: string; name: string; icon?: string | null; description?: string } };
  try {
    preview = await s.host.api.request('GET', '/oauth2/authorize', { query });
  } catch (err) {
    throw fromApi(err, RpcErrorCode.OAUTH2_ERROR);
  }
  if (!(args.prompt === 'none' && preview.authorized)) {
    if (!(await s.host.ui.authorize({ application: preview.application, scopes })))
      throw new RpcError(RpcErrorCode.OAUTH2_ERROR, 'The user denied the authorization');
  }
  let location: string;
  try {
    location = (await s.host.api.request<{ location: string }>('POST', '/oauth2/authorize', { query, body: { authorize: true } })).location;
  } catch (err) {
    throw fromApi(err, RpcErrorCode.OAUTH2_ERROR);
  }
  const code = new URL(location, s.host.origin).searchParams.get('code');
  if (!code) throw new RpcError(RpcErrorCode.OAUTH2_ERROR, 'No authorization code was issued');
  return { code };
};

export const authenticate: Handler = async (s, args) => {
  const token = str(args, 'access_token', { max: 512, optional: true }) ?? s.auth?.accessToken;
  if (!token) throw new RpcError(RpcErrorCode.INVALID_TOKEN, 'An access_token is required');
  let info: {
    application: { id: string; name: string; description?: string; icon?: string | null; rpc_origins?: string[] };
    scopes: string[];
    expires: string | null;
    user?: any;
  };
  try {
    info = await s.host.api.request('GET', '/oauth2/@me', { bearer: token });
  } catch {
    throw new RpcError(RpcErrorCode.INVALID_TOKEN, 'Invalid access token');
  }
  // The token must be this app's and this person's (its user is only shown with the identify scope).
  if (info.application?.id !== s.clientId) throw new RpcError(RpcErrorCode.INVALID_TOKEN, 'The access token belongs to another application');
  if (!info.user || info.user.id !== s.host.me().id)
    throw new RpcError(RpcErrorCode.INVALID_TOKEN, "The access token must be the current user's and carry the identify scope");
  s.auth = { accessToken: token, scopes: info.scopes };
  const app = info.application;
  return {
    access_token: token,
    user: authUser(info.user),
    scopes: info.scopes,
    expires: info.expires ?? new Date(Date.now() + 7 * 86_400_000).toISOString(),
    application: {
      id: app.id,
      name: app.name,
      description: app.description ?? '',
      icon: app.icon ?? null,
      ...(app.rpc_origins ? { rpc_origins: app.rpc_origins } : {}),
    },
  };
};
