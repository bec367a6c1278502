import crypto from 'node:crypto';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import type { ApplicationRecord } from '../../store/records.js';
import { createUser } from './users.js';
import { issueToken, revokeTokens } from './tokens.js';
import { hashToken } from './tokens.js';
import { KNOWN_SCOPES } from './oauth2/scopes.js';
import { storeAppIcon } from './app-icon.js';
import { ed25519KeyPair, randomBytes } from '../../core/random.js';

const isKnownScope = (s: string) => KNOWN_SCOPES.has(s);

export const APP_FLAGS = {
  /** No client secret needed at the token endpoint (native apps, games; PKCE). */
  PUBLIC_OAUTH2_CLIENT: 1n << 8n,
  GATEWAY_PRESENCE: 1n << 12n,
  GATEWAY_PRESENCE_LIMITED: 1n << 13n,
  GATEWAY_GUILD_MEMBERS: 1n << 14n,
  GATEWAY_GUILD_MEMBERS_LIMITED: 1n << 15n,
  /** The app has an Activity (the portal's "Enable Activities"); services/activities owns what follows from it. */
  EMBEDDED: 1n << 17n,
  GATEWAY_MESSAGE_CONTENT: 1n << 18n,
  GATEWAY_MESSAGE_CONTENT_LIMITED: 1n << 19n,
} as const;

/** Flags an owner may set through PATCH (the portal's intent toggles and "Public Client"); the rest are the platform's. */
export const OWNER_SETTABLE_FLAGS =
  APP_FLAGS.GATEWAY_PRESENCE_LIMITED |
  APP_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED |
  APP_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED |
  APP_FLAGS.PUBLIC_OAUTH2_CLIENT |
  APP_FLAGS.EMBEDDED;

/** The app's team: its owner, and the members listed in `extra.team_member_ids` (Accord has no team routes yet). */
export function isTeamMember(app: ApplicationRecord, userId: string): boolean {
  const members: unknown = app.extra.team_member_ids;
  return app.owner_id === userId || (Array.isArray(members) && members.includes(userId));
}

export async function getApplication(ctx: Ctx, id: string): Promise<ApplicationRecord | null> {
  return ctx.repos.applications.byId(id);
}

export async function applicationOfBot(ctx: Ctx, botUserId: string): Promise<ApplicationRecord | null> {
  return ctx.repos.applications.ofBot(botUserId);
}

/** The app the caller owns, or 10002 / 20012. */
export async function requireOwnedApplication(ctx: Ctx, actor: Actor, id: string): Promise<ApplicationRecord> {
  const app = await getApplication(ctx, id);
  if (!app) throw Errors.unknownApplication();
  if (actor.kind === 'bot' ? app.bot_user_id !== actor.user.id : app.owner_id !== actor.user.id) throw Errors.notAppOwner();
  return app;
}

/** Creates an application and its bot user at once. */
export async function createApplication(ctx: Ctx, owner: Actor, input: { name: string; description?: string }): Promise<ApplicationRecord> {
  if (owner.kind !== 'user') throw Errors.botsCannotUse();
  if ((await ctx.repos.applications.countOwnedBy(owner.user.id)) >= 50) throw new ApiError(400, 50011, 'OAuth2 application limit reached');
  const bot = await createUser(ctx, { username: input.name.slice(0, 32), bot: true });
  const { publicKey, privateKey } = ed25519KeyPair();
  const rawPublic = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const id = bot.id; // the platform gives an app and its bot user the same id
  const app: ApplicationRecord = {
    id,
    owner_id: owner.user.id,
    bot_user_id: bot.id,
    name: input.name,
    description: input.description ?? '',
    icon: null,
    flags: 0n,
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: rawPublic.toString('hex'),
    redirect_uris: [],
    interactions_endpoint_url: null,
    extra: {},
    created_at: ctx.clock.now(),
  };
  await ctx.repos.applications.insert(app, {
    signing_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    client_secret_hash: hashToken(randomBytes(24).toString('base64url')),
  });
  return app;
}

/** Issues a new bot token and revokes every previous one. */
export async function resetBotToken(ctx: Ctx, app: ApplicationRecord): Promise<string> {
  if (!app.bot_user_id) throw Errors.noBot();
  await revokeTokens(ctx, app.bot_user_id, 'bot');
  const token = await issueToken(ctx, app.bot_user_id, 'bot', { applicationId: app.id });
  ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: app.bot_user_id } });
  return token;
}

/**
 * A new client secret, shown once: only its hash is kept, so the previous secret stops working at once. Tokens
 * already issued stay valid (the platform does the same).
 */
export async function resetClientSecret(ctx: Ctx, app: ApplicationRecord): Promise<string> {
  const secret = randomBytes(24).toString('base64url');
  await ctx.repos.applications.setClientSecretHash(app.id, hashToken(secret));
  return secret;
}

/** Checks a client secret against the stored hash, in constant time. */
export async function verifyClientSecret(ctx: Ctx, applicationId: string, secret: string): Promise<boolean> {
  const stored = await ctx.repos.applications.clientSecretHash(applicationId);
  if (stored === null || !secret || secret.length > 512) return false;
  const a = Buffer.from(stored);
  const b = Buffer.from(hashToken(secret));
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export interface InstallParams {
  scopes: string[];
  permissions: string;
}

export interface ApplicationPatch {
  name?: string;
  description?: string;
  /** A data URI (stored as its content hash, like avatars), or null to clear. */
  icon?: string | null;
  flags?: number;
  bot_public?: boolean;
  bot_require_code_grant?: boolean;
  redirect_uris?: string[];
  interactions_endpoint_url?: string | null;
  tags?: string[];
  install_params?: InstallParams | null;
  integration_types_config?: Partial<Record<'0' | '1', { oauth2_install_params?: InstallParams | null } | null>>;
  role_connections_verification_url?: string | null;
  custom_install_url?: string | null;
  event_webhooks_url?: string | null;
  event_webhooks_status?: 1 | 2;
  event_webhooks_types?: string[];
  private_channel_obfuscation?: boolean;
  extra?: Record<string, unknown>;
}

/** The rarely used fields, kept in `applications.extra`. */
const EXTRA_FIELDS = [
  'tags',
  'install_params',
  'integration_types_config',
  'role_connections_verification_url',
  'custom_install_url',
  'event_webhooks_url',
  'event_webhooks_status',
  'event_webhooks_types',
  'private_channel_obfuscation',
] as const;

/** Install parameters: known scopes; permissions only go with the bot scope; a user install has no bot. */
function checkInstallParams(path: (string | number)[], p: InstallParams | null | undefined, userInstall: boolean): void {
  if (!p) return;
  p.scopes.forEach((s, i) => {
    if (!isKnownScope(s)) throw fieldError([...path, 'scopes', i], 'SCOPE_INVALID', `Invalid scope: ${s}`);
  });
  if (userInstall && p.scopes.includes('bot')) throw fieldError([...path, 'scopes'], 'SCOPE_INVALID', 'The bot scope cannot be used for a user install.');
  if (BigInt(p.permissions) !== 0n && !p.scopes.includes('bot'))
    throw fieldError([...path, 'permissions'], 'PERMISSIONS_INVALID', 'Permissions need the bot scope.');
}

export async function updateApplication(ctx: Ctx, app: ApplicationRecord, patch: ApplicationPatch): Promise<ApplicationRecord> {
  const values: Record<string, unknown> = {};
  if (patch.name !== undefined) values.name = patch.name;
  if (patch.description !== undefined) values.description = patch.description;
  if (patch.icon !== undefined) values.icon = patch.icon;
  if (patch.bot_public !== undefined) values.bot_public = patch.bot_public ? 1 : 0;
  if (patch.bot_require_code_grant !== undefined) values.bot_require_code_grant = patch.bot_require_code_grant ? 1 : 0;
  if (patch.redirect_uris !== undefined) values.redirect_uris = JSON.stringify(patch.redirect_uris);
  if (patch.interactions_endpoint_url !== undefined) values.interactions_endpoint_url = patch.interactions_endpoint_url;
  if (patch.flags !== undefined) {
    // Only the portal's intent toggles change; platform-managed bits are kept.
    const requested = BigInt(patch.flags) & OWNER_SETTABLE_FLAGS;
    values.flags = ((app.flags & ~OWNER_SETTABLE_FLAGS) | requested).toString();
  }
  checkInstallParams(['install_params'], patch.install_params, false);
  for (const [k, v] of Object.entries(patch.integration_types_config ?? {})) {
    checkInstallParams(['integration_types_config', k, 'oauth2_install_params'], v?.oauth2_install_params, k === '1');
  }
  const extra: Record<string, unknown> = { ...patch.extra };
  for (const f of EXTRA_FIELDS) if (patch[f] !== undefined) extra[f] = patch[f];
  // A data URI is checked and stored for the CDN (services/identity/app-icon.ts); the icon is its hash.
  if (typeof patch.icon === 'string' && patch.icon.startsWith('data:')) values.icon = await storeAppIcon(ctx, app.id, patch.icon);
  if (Object.keys(extra).length) values.extra = JSON.stringify({ ...app.extra, ...extra });
  if (Object.keys(values).length) await ctx.repos.applications.update(app.id, values);
  return (await getApplication(ctx, app.id))!;
}
