import { z } from 'zod';
import { Reply, Routes, created, noContent, type Call } from '../router.js';
import { parseBody, permissionString, snowflake } from '../../core/validation.js';
import { authorizeConsent, authorizePreview } from '../../services/identity/oauth2/authorize.js';
import { tokenEndpoint } from '../../services/identity/oauth2/token.js';
import { startDeviceAuthorization, verifyDeviceCode, finishDeviceCode } from '../../services/identity/oauth2/device.js';
import { readClientCredentials } from '../../services/identity/oauth2/clients.js';
import { OAuthError } from '../../services/identity/oauth2/errors.js';
import { jwks } from '../../services/identity/oauth2/jwt.js';
import {
  currentApplication,
  currentAuthorization,
  currentUserinfo,
  deauthorizeApp,
  joinWithAccessToken,
  listAuthorizedApps,
  ownMember,
  revokeEndpoint,
  rpcApplication,
} from '../../services/identity/oauth2/access.js';

const AuthorizeBody = z.object({
  authorize: z.boolean(),
  guild_id: snowflake.optional(),
  permissions: permissionString.optional(),
  integration_type: z.number().int().min(0).max(1).optional(),
});
const UserCodeBody = z.object({ user_code: z.string().min(1).max(32) });
const FinishBody = z.object({ user_code: z.string().min(1).max(32), result: z.enum(['granted', 'denied']) });
const JoinBody = z.object({
  access_token: z.string().min(1).max(512),
  nick: z.string().max(32).nullable().optional(),
  roles: z.array(snowflake).max(250).optional(),
  mute: z.boolean().optional(),
  deaf: z.boolean().optional(),
});

/** Token responses must not be cached (RFC 6749 §5.1); a failed Basic authentication names its scheme (§5.2). */
async function tokenReply(call: Call<any>, run: () => Promise<unknown>): Promise<Reply> {
  try {
    return new Reply(200, await run(), undefined, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  } catch (err) {
    if (err instanceof OAuthError && err.status === 401 && /^basic\s/i.test(call.req.headers.authorization ?? ''))
      call.reply.header('WWW-Authenticate', 'Basic realm="oauth2"');
    throw err;
  }
}

const formBody = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/**
 * OAuth2: the consent screen's API (GET/POST /oauth2/authorize), the token endpoint with its grants, the device flow,
 * revocation, the token's own views (/oauth2/@me, /oauth2/applications/@me, OpenID userinfo and keys), the user's
 * authorized-apps list, and the routes whose access OAuth2 scopes grant: guilds.join (PUT guild member),
 * guilds.members.read and connections. Which bearer token may call which route is decided
 * centrally (http/scope-guard.ts).
 */
export default new Routes()
  .get('/oauth2/authorize', 'user', async ({ ctx, actor, query }) => authorizePreview(ctx, actor, query))
  .post('/oauth2/authorize', 'user', async ({ ctx, actor, body, query }) => {
    const b = parseBody(AuthorizeBody, body);
    const { location } = await authorizeConsent(ctx, actor, query, b);
    // userdoccers names the key `url`; Spacebar and discord.py-self read `location`. Both are sent.
    return { location, url: location };
  })
  .post('/oauth2/token', 'none', async (call) => tokenReply(call, () => tokenEndpoint(call.ctx, call.req.headers.authorization, formBody(call.body))))
  .post('/oauth2/token/revoke', 'none', async (call) => tokenReply(call, () => revokeEndpoint(call.ctx, call.req.headers.authorization, formBody(call.body))))
  .post('/oauth2/device/authorize', 'none', async (call) => {
    const body = formBody(call.body);
    return tokenReply(call, () => startDeviceAuthorization(call.ctx, readClientCredentials(call.req.headers.authorization, body), body.scope));
  })
  .post('/oauth2/device/verify', 'user', async ({ ctx, actor, body, req }) => verifyDeviceCode(ctx, actor, parseBody(UserCodeBody, body).user_code, req.ip))
  .post('/oauth2/device/finish', 'user', async ({ ctx, actor, body, req }) => {
    const b = parseBody(FinishBody, body);
    await finishDeviceCode(ctx, actor, b.user_code, b.result, req.ip);
    return noContent();
  })
  .get('/oauth2/@me', 'any', async ({ ctx, actor, req }) => currentAuthorization(ctx, actor, req.headers.authorization))
  .get('/oauth2/applications/@me', 'any', async ({ ctx, actor }) => currentApplication(ctx, actor))
  .get('/oauth2/applications/{application_id}/rpc', 'none', async ({ ctx, params }) => rpcApplication(ctx, params.application_id))
  .get('/oauth2/keys', 'none', async ({ ctx }) => jwks(ctx))
  .get('/oauth2/userinfo', 'any', async ({ ctx, actor }) => currentUserinfo(ctx, actor))
  .get('/oauth2/tokens', 'user', async ({ ctx, actor }) => listAuthorizedApps(ctx, actor))
  .delete('/oauth2/tokens/{application_id}', 'user', async ({ ctx, actor, params }) => {
    await deauthorizeApp(ctx, actor, params.application_id);
    return noContent();
  })
  .put('/guilds/{guild_id}/members/{user_id}', 'bot', async ({ ctx, actor, params, body }) => {
    const b = parseBody(JoinBody, body);
    const member = await joinWithAccessToken(ctx, actor, params.guild_id, params.user_id, b);
    return member ? created(member) : noContent();
  })
  .get('/users/@me/guilds/{guild_id}/member', 'any', async ({ ctx, actor, params }) => ownMember(ctx, actor, params.guild_id));
// Relationships (relationships.read): routes/relationships.ts. Connections: routes/user-extras.ts.
