import { redirectAllowed } from './redirects.js';
import { urlIssue } from '../../../core/url-policy.js';
import type { Actor, Ctx } from '../../context.js';
import { Errors, fieldError } from '../../../core/errors.js';
import { ALL_PERMISSIONS, P } from '@accord/protocol';
import type { ApplicationRecord } from '../../../store/records.js';
import { publicApplication, DEFAULT_INTEGRATION_TYPES_CONFIG } from '../../../wire/application.js';
import { publicUser } from '../../../wire/user.js';
import { getApplication } from '../applications.js';
import { installBot } from '../bot-install.js';
import { getGuildRecord } from '../../guilds/lookup.js';
import { renderGuild } from '../../guilds/guild.js';
import { getUser } from '../users.js';
import { putCode, randomSecret } from './codes.js';
import { getGrant, recordGrant, recordGuildInstall } from './grants.js';
import { issueTokens } from './issue.js';
import { effectiveScopes, splitScopes, unknownScopes } from './scopes.js';
import { isId } from '../../../core/ids.js';

/** Authorization codes are single-use and live ten minutes. */
export const CODE_TTL_MS = 10 * 60_000;
const PKCE = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface AuthorizationCodeData {
  scopes: string[];
  /** The redirect_uri the authorize request named; the token request must repeat it. Null when none was given. */
  redirect_uri: string | null;
  code_challenge: string | null;
  code_challenge_method: 'S256' | 'plain' | null;
  nonce: string | null;
  guild_id: string | null;
  permissions: string | null;
  integration_type: 0 | 1;
}

/** A validated authorize request (the query of GET and POST /oauth2/authorize). */
export interface AuthorizeRequest {
  app: ApplicationRecord;
  scopes: string[];
  responseType: 'code' | 'token' | null;
  /** The redirect_uri as given (one of the app's), or null. */
  redirectUri: string | null;
  /** Where the answer goes: the given redirect URI, else the app's first, else the platform's "authorized" page. */
  target: string;
  state: string | null;
  nonce: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: 'S256' | 'plain' | null;
  integrationType: 0 | 1;
  permissions: bigint | null;
  guildId: string | null;
}

type Query = Record<string, string | string[] | undefined>;

/** One string query value; a repeated parameter is refused. */
function q(query: Query, name: string, max = 2048): string | null {
  const v = query[name];
  if (v === undefined || v === '') return null;
  if (typeof v !== 'string') throw fieldError(name, 'BASE_TYPE_STRING', 'Could not interpret value as string.');
  if (v.length > max) throw fieldError(name, 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  return v;
}

const snowflakeParam = (query: Query, name: string) => {
  const v = q(query, name, 20);
  if (v !== null && !isId(v)) throw fieldError(name, 'NUMBER_TYPE_COERCE', `Value "${v}" is not snowflake.`);
  return v;
};

const installParamsFor = (app: ApplicationRecord, type: 0 | 1): { scopes: string[]; permissions: string } | null => {
  const config = app.extra.integration_types_config?.[type]?.oauth2_install_params;
  if (config?.scopes?.length) return config;
  return type === 0 && app.extra.install_params?.scopes?.length ? app.extra.install_params : null;
};

/**
 * Validates an authorize request. Errors use the platform's 50035 envelope (this is the client API behind the
 * consent screen), with the query parameter as the path: unknown scopes are `SCOPE_INVALID`, a redirect_uri the app
 * did not register is `REDIRECT_URI_INVALID`. An unknown client_id is 10002 Unknown Application.
 */
export async function resolveAuthorizeRequest(ctx: Ctx, query: Query, override: { integrationType?: number } = {}): Promise<AuthorizeRequest> {
  const clientId = snowflakeParam(query, 'client_id');
  if (!clientId) throw fieldError('client_id', 'BASE_TYPE_REQUIRED', 'This field is required');
  const app = await getApplication(ctx, clientId);
  if (!app) throw Errors.unknownApplication();

  const rawType = override.integrationType !== undefined ? String(override.integrationType) : q(query, 'integration_type', 1);
  if (rawType !== null && rawType !== '0' && rawType !== '1') throw fieldError('integration_type', 'BASE_TYPE_CHOICES', 'Value must be one of (0, 1).');
  const integrationType = rawType === '1' ? 1 : 0;
  const config = app.extra.integration_types_config ?? DEFAULT_INTEGRATION_TYPES_CONFIG;
  if (!(String(integrationType) in config))
    throw fieldError('integration_type', 'INTEGRATION_TYPE_NOT_SUPPORTED', 'This application does not support this installation type.');

  let scopes = splitScopes(q(query, 'scope'));
  let permissions: bigint | null = null;
  if (!scopes.length) {
    const defaults = installParamsFor(app, integrationType);
    if (!defaults) throw fieldError('scope', 'BASE_TYPE_REQUIRED', 'This field is required');
    scopes = [...defaults.scopes];
    permissions = BigInt(defaults.permissions || '0');
  }
  const unknown = unknownScopes(scopes);
  if (unknown.length) throw fieldError('scope', 'SCOPE_INVALID', `Invalid scope: ${unknown.join(', ')}`);
  if (scopes.includes('bot')) {
    if (!app.bot_user_id) throw Errors.noBot();
    if (integrationType === 1) throw fieldError('scope', 'SCOPE_INVALID', 'The bot scope cannot be used for a user install.');
  }

  const rt = q(query, 'response_type', 10);
  if (rt !== null && rt !== 'code' && rt !== 'token') throw fieldError('response_type', 'BASE_TYPE_CHOICES', 'Value must be one of (code, token).');
  const responseType = rt as AuthorizeRequest['responseType'];
  if (!responseType && scopes.some((s) => s !== 'bot' && s !== 'applications.commands')) {
    throw fieldError('response_type', 'BASE_TYPE_REQUIRED', 'This field is required');
  }
  if (app.bot_require_code_grant && scopes.includes('bot') && responseType !== 'code') {
    throw fieldError('response_type', 'BASE_TYPE_REQUIRED', 'This application requires the code grant to add its bot.');
  }

  const redirectUri = q(query, 'redirect_uri');
  if (redirectUri !== null && !redirectAllowed(app.redirect_uris, redirectUri))
    throw fieldError('redirect_uri', 'REDIRECT_URI_INVALID', 'Invalid "redirect_uri" in request.');
  if (responseType && redirectUri === null && !app.redirect_uris.length && responseType === 'token') {
    throw fieldError('redirect_uri', 'BASE_TYPE_REQUIRED', 'This field is required');
  }
  const target = redirectUri ?? (responseType ? app.redirect_uris[0] : undefined) ?? `${ctx.publicUrl}/oauth2/authorized`;
  if (urlIssue(target, 'redirect')) throw fieldError('redirect_uri', 'REDIRECT_URI_INVALID', 'Invalid "redirect_uri" in request.');

  const codeChallenge = q(query, 'code_challenge', 128);
  let codeChallengeMethod: AuthorizeRequest['codeChallengeMethod'] = null;
  if (codeChallenge !== null) {
    if (!PKCE.test(codeChallenge)) throw fieldError('code_challenge', 'BASE_TYPE_BAD_LENGTH', 'Must be between 43 and 128 in length, of A-Z a-z 0-9 - . _ ~.');
    const m = q(query, 'code_challenge_method', 10) ?? 'plain'; // RFC 7636 §4.3: plain when absent
    if (m !== 'S256' && m !== 'plain') throw fieldError('code_challenge_method', 'BASE_TYPE_CHOICES', 'Value must be one of (S256, plain).');
    codeChallengeMethod = m;
  }

  const rawPerms = q(query, 'permissions', 20);
  if (rawPerms !== null) {
    if (!/^\d{1,20}$/.test(rawPerms) || (BigInt(rawPerms) & ~ALL_PERMISSIONS) !== 0n)
      throw fieldError('permissions', 'PERMISSIONS_INVALID', 'Invalid permissions.');
    permissions = BigInt(rawPerms);
  }

  return {
    app,
    scopes,
    responseType,
    redirectUri,
    target,
    state: q(query, 'state'),
    nonce: q(query, 'nonce', 512),
    codeChallenge,
    codeChallengeMethod,
    integrationType,
    permissions,
    guildId: snowflakeParam(query, 'guild_id'),
  };
}

/** Whether the install picks a guild: a bot, or commands installed to a guild. */
const needsGuild = (r: AuthorizeRequest) => r.integrationType === 0 && (r.scopes.includes('bot') || r.scopes.includes('applications.commands'));

/** GET /oauth2/authorize: what the consent screen shows. */
export async function authorizePreview(ctx: Ctx, actor: Actor, query: Query) {
  const r = await resolveAuthorizeRequest(ctx, query);
  const grant = await getGrant(ctx, r.app.id, actor.user.id);
  const granted = new Set(effectiveScopes(grant?.scopes ?? []));
  const authorized =
    !!grant && effectiveScopes(r.scopes).every((s) => s === 'bot' || granted.has(s)) && (r.integrationType === 0 || grant.integrationType === 1);
  const bot = r.scopes.includes('bot') && r.app.bot_user_id ? await getUser(ctx, r.app.bot_user_id) : null;
  let guilds: { id: string; name: string; icon: string | null; mfa_level: number; permissions: string }[] | undefined;
  if (needsGuild(r)) {
    // The guilds the user may install into (MANAGE_GUILD).
    const rows = await ctx.repos.members.guildSummariesOf(actor.user.id);
    guilds = [];
    for (const g of rows) {
      const perms = await ctx.access.guildPerms(String(g.id), actor.user.id);
      if (perms !== null && ctx.access.hasPerm(perms, P.MANAGE_GUILD)) {
        guilds.push({ id: String(g.id), name: g.name, icon: g.icon, mfa_level: Number(g.mfa_level), permissions: perms.toString() });
      }
    }
  }
  return {
    application: publicApplication(r.app),
    user: publicUser(actor.user),
    authorized,
    integration_type: r.integrationType,
    redirect_uri: r.redirectUri,
    ...(bot ? { bot: publicUser(bot) } : {}),
    ...(guilds ? { guilds } : {}),
  };
}

export interface ConsentAnswer {
  authorize: boolean;
  guild_id?: string;
  permissions?: string;
  integration_type?: number;
}

function withParams(target: string, params: Record<string, string | null | undefined>, fragment = false): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) p.set(k, v);
  try {
    const url = new URL(target);
    if (fragment) url.hash = p.toString();
    else for (const [k, v] of p) url.searchParams.set(k, v);
    return url.toString();
  } catch {
    return `${target}${fragment ? '#' : target.includes('?') ? '&' : '?'}${p.toString()}`;
  }
}

/**
 * POST /oauth2/authorize: the user's answer. Installs the bot (scope bot) or the commands (applications.commands,
 * integration_type 0) into the chosen guild, records the grant (integration_type 1 is a user install), and answers
 * with where the browser goes next: the redirect URI with a code (code flow), a token in the fragment (implicit
 * flow), an access_denied error, or the platform's "authorized" page.
 */
export async function authorizeConsent(ctx: Ctx, actor: Actor, query: Query, answer: ConsentAnswer): Promise<{ location: string }> {
  if (actor.kind !== 'user') throw Errors.botsCannotUse();
  const r = await resolveAuthorizeRequest(ctx, query, { integrationType: answer.integration_type });
  const fragment = r.responseType === 'token';
  if (!answer.authorize) {
    return {
      location: withParams(
        r.target,
        { error: 'access_denied', error_description: 'The resource owner or authorization server denied the request', state: r.state },
        fragment,
      ),
    };
  }

  const guildId = answer.guild_id ?? r.guildId;
  let permissions = answer.permissions !== undefined ? BigInt(answer.permissions) : (r.permissions ?? 0n);
  let guild: Record<string, unknown> | null = null;
  if (needsGuild(r)) {
    if (!guildId) throw fieldError('guild_id', 'BASE_TYPE_REQUIRED', 'This field is required');
    if (r.scopes.includes('bot')) {
      await installBot(ctx, actor, { clientId: r.app.id, guildId, permissions });
    } else {
      const perms = await ctx.access.guildPerms(guildId, actor.user.id);
      if (perms === null) throw fieldError('guild_id', 'GUILD_INVALID', 'Unknown guild.');
      if (!ctx.access.hasPerm(perms, P.MANAGE_GUILD)) throw Errors.missingPermissions();
      permissions = 0n;
    }
    await recordGuildInstall(ctx, r.app.id, guildId, actor.user.id, r.scopes);
    const record = await getGuildRecord(ctx, guildId);
    guild = record ? await renderGuild(ctx, record) : null;
  }
  await recordGrant(ctx, r.app, actor.user, r.scopes, r.integrationType, guild);

  const botParams = r.scopes.includes('bot') && guildId ? { guild_id: guildId, permissions: permissions.toString() } : {};
  if (r.responseType === 'code') {
    const code = randomSecret();
    await putCode<AuthorizationCodeData>(ctx, 'authorization_code', code, {
      applicationId: r.app.id,
      userId: actor.user.id,
      ttlMs: CODE_TTL_MS,
      data: {
        scopes: r.scopes,
        redirect_uri: r.redirectUri,
        code_challenge: r.codeChallenge,
        code_challenge_method: r.codeChallengeMethod,
        nonce: r.nonce,
        guild_id: r.scopes.includes('bot') ? guildId : null,
        permissions: permissions.toString(),
        integration_type: r.integrationType,
      },
    });
    return { location: withParams(r.target, { code, state: r.state, ...botParams }) };
  }
  if (r.responseType === 'token') {
    const t = await issueTokens(ctx, { app: r.app, user: actor.user, scopes: r.scopes.filter((s) => s !== 'bot'), refresh: false, nonce: r.nonce });
    return {
      location: withParams(
        r.target,
        {
          access_token: t.access_token,
          token_type: t.token_type,
          expires_in: String(t.expires_in),
          scope: t.scope,
          id_token: t.id_token,
          state: r.state,
          ...botParams,
        },
        true,
      ),
    };
  }
  return { location: `${ctx.publicUrl}/oauth2/authorized` };
}
