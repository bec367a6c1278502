import type { Actor, Ctx } from '../../context.js';
import { Errors, fieldError } from '../../../core/errors.js';
import type { ApplicationRecord } from '../../../store/records.js';
import { getApplication } from '../applications.js';
import { getUser } from '../users.js';
import { authenticateClient, type ClientCredentials } from './clients.js';
import { deleteCode, peekCode, putCode, randomSecret, setCodeData, takeCode } from './codes.js';
import { OAuthError, invalidGrant } from './errors.js';
import { getGrant, recordGrant } from './grants.js';
import { issueTokens, type TokenResponse } from './issue.js';
import { splitScopes, unknownScopes } from './scopes.js';
import { userCodeGuard } from './user-code-guard.js';
import { mergeProvisional } from '../provisional/merge.js';
import { randomBytes } from '../../../core/random.js';

/**
 * The device authorization grant (RFC 8628), as the Social SDK's GetTokenFromDevice uses it: the device asks for a
 * code pair, the user enters the user code on another screen (verify, then finish), and the device polls the token
 * endpoint. The device code row points at the user code row, which holds the state.
 */
export const DEVICE_TTL_S = 300;
export const DEVICE_INTERVAL_S = 5;
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ'; // no vowels: no words, no 0/O 1/I confusion

interface DeviceCodeData {
  user_code: string;
  last_poll: number | null;
}

interface UserCodeData {
  client_id: string;
  scopes: string[];
  state: 'pending' | 'granted' | 'denied';
}

const normalize = (code: string) => code.toUpperCase().replace(/[^A-Z]/g, '');
const display = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

function newUserCode(): string {
  let out = '';
  for (const b of randomBytes(8)) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** POST /oauth2/device/authorize: unauthenticated; a secret, when sent, must be right. */
export async function startDeviceAuthorization(ctx: Ctx, creds: ClientCredentials, rawScope: unknown) {
  const { app } = await authenticateClient(ctx, creds, true);
  const scopes = splitScopes(rawScope);
  if (!scopes.length) throw new OAuthError('invalid_scope', 'Missing "scope" in request.');
  const unknown = unknownScopes(scopes);
  if (unknown.length || scopes.includes('bot')) throw new OAuthError('invalid_scope', `Invalid scope: ${(unknown.length ? unknown : ['bot']).join(', ')}`);
  const deviceCode = randomSecret(32);
  let userCode = '';
  for (let attempt = 0; ; attempt++) {
    userCode = newUserCode();
    try {
      await putCode<UserCodeData>(ctx, 'device_user_code', userCode, {
        applicationId: app.id,
        userId: null,
        data: { client_id: app.id, scopes, state: 'pending' },
        ttlMs: DEVICE_TTL_S * 1000,
      });
      break;
    } catch (err) {
      if (attempt >= 3) throw err; // a user code collision, astronomically unlikely more than once
    }
  }
  await putCode<DeviceCodeData>(ctx, 'device_code', deviceCode, {
    applicationId: app.id,
    userId: null,
    data: { user_code: userCode, last_poll: null },
    ttlMs: DEVICE_TTL_S * 1000,
  });
  const verification = `${ctx.publicUrl}/activate`;
  return {
    device_code: deviceCode,
    user_code: display(userCode),
    verification_uri: verification,
    verification_uri_complete: `${verification}?user_code=${display(userCode)}`,
    expires_in: DEVICE_TTL_S,
    interval: DEVICE_INTERVAL_S,
  };
}

/** The live user code a person typed; wrong ones count toward the guessing limits (429 once past them). */
async function liveUserCode(ctx: Ctx, actor: Actor, raw: string, ip: string | undefined) {
  const guard = userCodeGuard(ctx);
  await guard.check(actor.user.id, ip);
  const code = normalize(raw);
  const row = code.length === 8 ? await peekCode<UserCodeData>(ctx, 'device_user_code', code) : null;
  if (!row || row.expired) {
    await guard.failed(actor.user.id, ip);
    throw fieldError('user_code', 'USER_CODE_INVALID', 'Invalid or expired user code.');
  }
  return { code, row };
}

/** POST /oauth2/device/verify: what the user code asks for, before the user answers. */
export async function verifyDeviceCode(ctx: Ctx, actor: Actor, userCode: string, ip?: string) {
  if (actor.kind !== 'user') throw Errors.botsCannotUse();
  const { row } = await liveUserCode(ctx, actor, userCode, ip);
  const app = await getApplication(ctx, row.data.client_id);
  if (!app) throw fieldError('user_code', 'USER_CODE_INVALID', 'Invalid or expired user code.');
  // The application too: the activation page names who asks (as the consent screen does).
  return { scopes: row.data.scopes, client_id: app.id, type: row.data.state, application: { id: app.id, name: app.name, icon: app.icon } };
}

/** POST /oauth2/device/finish: the user grants or denies; a grant is recorded like a consent. */
export async function finishDeviceCode(ctx: Ctx, actor: Actor, userCode: string, result: 'granted' | 'denied', ip?: string): Promise<void> {
  if (actor.kind !== 'user') throw Errors.botsCannotUse();
  const { code, row } = await liveUserCode(ctx, actor, userCode, ip);
  if (row.data.state !== 'pending') throw fieldError('user_code', 'USER_CODE_INVALID', 'This user code was already used.');
  const app = await getApplication(ctx, row.data.client_id);
  if (!app) throw fieldError('user_code', 'USER_CODE_INVALID', 'Invalid or expired user code.');
  if (result === 'granted') await recordGrant(ctx, app, actor.user, row.data.scopes, 0);
  await setCodeData<UserCodeData>(ctx, 'device_user_code', code, { ...row.data, state: result }, actor.user.id);
}

/** The device_code grant: pending, slow_down, denied, expired, or the tokens (once). */
export async function pollDeviceCode(ctx: Ctx, app: ApplicationRecord, deviceCode: string, body: Record<string, unknown> = {}): Promise<TokenResponse> {
  const device = await peekCode<DeviceCodeData>(ctx, 'device_code', deviceCode);
  if (!device || device.applicationId !== app.id) throw invalidGrant('device_code');
  const state = await peekCode<UserCodeData>(ctx, 'device_user_code', device.data.user_code);
  const finish = async () => {
    await deleteCode(ctx, 'device_code', deviceCode);
    await deleteCode(ctx, 'device_user_code', device.data.user_code);
  };
  if (device.expired || !state || state.expired) {
    await finish();
    throw new OAuthError('expired_token', 'The device code has expired.');
  }
  if (state.data.state === 'denied') {
    await finish();
    throw new OAuthError('access_denied', 'The user denied the request.');
  }
  if (state.data.state === 'pending') {
    const now = ctx.clock.now();
    const tooSoon = device.data.last_poll !== null && now - device.data.last_poll < DEVICE_INTERVAL_S * 1000;
    await setCodeData<DeviceCodeData>(ctx, 'device_code', deviceCode, { ...device.data, last_poll: now });
    if (tooSoon) throw new OAuthError('slow_down', 'Polling too fast; wait the interval between requests.');
    throw new OAuthError('authorization_pending', 'The user has not answered yet.');
  }
  // Spend the device code: of two concurrent polls only one gets the tokens.
  if (!(await takeCode(ctx, 'device_code', deviceCode))) throw invalidGrant('device_code');
  await deleteCode(ctx, 'device_user_code', device.data.user_code);
  const user = state.userId ? await getUser(ctx, state.userId) : null;
  if (!user || !(await getGrant(ctx, app.id, user.id))) throw invalidGrant('device_code');
  // Social SDK: GetTokenFromDeviceProvisionalMerge merges the game's provisional account, as the code grant does.
  if (body.external_auth_type !== undefined || body.external_auth_token !== undefined) {
    await mergeProvisional(ctx, app, user, body.external_auth_type, body.external_auth_token);
  }
  return issueTokens(ctx, { app, user, scopes: state.data.scopes, refresh: true });
}
