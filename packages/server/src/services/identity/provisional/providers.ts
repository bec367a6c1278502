import { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import { Errors, fieldError } from '../../../core/errors.js';
import { isId } from '../../../core/ids.js';
import { parseJson } from '../../../store/json.js';
import { requireOwnedApplication } from '../applications.js';
import { checkProviderUrl, discoveryUrl } from './issuer.js';
import { fetchProviderJson, getProvider, OutgoingError } from './outgoing.js';

/**
 * External auth providers of an app (the portal's "External Auth"): OIDC issuers whose ID tokens prove who a
 * player is, and Accord's opt-in DEVICE_ID (a device id as the identity: no proof, for guest play). Creating or
 * editing an OIDC provider runs discovery under the strict rules (issuer.ts; no redirects, outgoing.ts) and records
 * the provider as `strict`; a provider from before those rules (`strict` 0) keeps working unchanged until edited.
 */

export const CONFIGURABLE_TYPES = ['OIDC', 'DEVICE_ID'] as const;
/** Asymmetric algorithms only: HMAC would need a shared secret the provider never gives us. */
export const SUPPORTED_ALGS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'];

export interface ExternalAuthProvider {
  id: string;
  application_id: string;
  type: string;
  issuer: string | null;
  audience: string | null;
  jwks_uri: string | null;
  algorithms: string[];
  strict: boolean;
  created_at: number;
  updated_at: number;
}

const toProvider = (r: any): ExternalAuthProvider => ({
  id: String(r.id),
  application_id: String(r.application_id),
  type: String(r.type),
  issuer: r.issuer ?? null,
  audience: r.audience ?? null,
  jwks_uri: r.jwks_uri ?? null,
  algorithms: parseJson<string[]>(r.algorithms, []),
  strict: Number(r.strict) === 1,
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
});

export function providerWire(p: ExternalAuthProvider) {
  return {
    id: p.id,
    application_id: p.application_id,
    type: p.type,
    issuer: p.issuer,
    client_id: p.audience,
    jwks_uri: p.jwks_uri,
    algorithms: p.algorithms,
    strict_validation: p.strict,
    created_at: new Date(p.created_at).toISOString(),
    updated_at: new Date(p.updated_at).toISOString(),
  };
}

export const ProviderInput = z.object({
  type: z.enum(CONFIGURABLE_TYPES),
  issuer: z.string().min(1).max(2048).nullable().optional(),
  client_id: z.string().min(1).max(1024).nullable().optional(),
});
export const ProviderPatch = z.object({
  issuer: z.string().min(1).max(2048).optional(),
  client_id: z.string().min(1).max(1024).optional(),
});

export async function providersOf(ctx: Ctx, applicationId: string, type?: string): Promise<ExternalAuthProvider[]> {
  return (await ctx.repos.provisional.providersOf(applicationId, type)).map(toProvider);
}

const unknownProvider = () => Errors.notFound();

/** Discovery under the strict rules: the document's issuer must be the configured one, its JWKS reachable. */
async function discover(ctx: Ctx, issuer: string): Promise<{ jwks_uri: string; algorithms: string[] }> {
  const allowLoopback = ctx.config.dev;
  const bad = checkProviderUrl(issuer, { allowLoopback });
  if (bad) throw fieldError('issuer', 'URL_TYPE_INVALID_URL', bad);
  let doc: any;
  try {
    doc = await fetchProviderJson(ctx, discoveryUrl(issuer));
  } catch (err) {
    throw fieldError('issuer', 'OIDC_DISCOVERY_FAILED', `OpenID configuration could not be read: ${(err as OutgoingError).message}`);
  }
  if (!doc || typeof doc !== 'object' || doc.issuer !== issuer)
    throw fieldError('issuer', 'OIDC_DISCOVERY_FAILED', 'The OpenID configuration names a different issuer.');
  const jwksUri = typeof doc.jwks_uri === 'string' ? doc.jwks_uri : '';
  const jwksBad = jwksUri ? checkProviderUrl(jwksUri, { allowLoopback }) : 'The OpenID configuration has no jwks_uri.';
  if (jwksBad) throw fieldError('issuer', 'OIDC_DISCOVERY_FAILED', `jwks_uri: ${jwksBad}`);
  const listed: unknown[] = Array.isArray(doc.id_token_signing_alg_values_supported) ? doc.id_token_signing_alg_values_supported : [];
  const algorithms = listed.filter((a): a is string => typeof a === 'string' && SUPPORTED_ALGS.includes(a));
  if (!algorithms.length) throw fieldError('issuer', 'OIDC_DISCOVERY_FAILED', `The provider signs ID tokens with none of ${SUPPORTED_ALGS.join(', ')}.`);
  try {
    const jwks = (await fetchProviderJson(ctx, jwksUri)) as { keys?: unknown };
    if (!Array.isArray(jwks?.keys)) throw new OutgoingError('no keys', 'json');
  } catch (err) {
    throw fieldError('issuer', 'OIDC_DISCOVERY_FAILED', `The JWKS could not be read: ${(err as Error).message}`);
  }
  return { jwks_uri: jwksUri, algorithms };
}

/** GET /applications/{id}/external-auth-providers (owner). */
export async function listProviders(ctx: Ctx, actor: Actor, applicationId: string) {
  const app = await requireOwnedApplication(ctx, actor, applicationId);
  return (await providersOf(ctx, app.id)).map(providerWire);
}

/** POST /applications/{id}/external-auth-providers (owner): OIDC needs an issuer and a client id. */
export async function createProvider(ctx: Ctx, actor: Actor, applicationId: string, input: z.infer<typeof ProviderInput>) {
  const app = await requireOwnedApplication(ctx, actor, applicationId);
  const now = ctx.clock.now();
  const row = {
    id: ctx.ids.next(),
    application_id: app.id,
    type: input.type,
    issuer: null as string | null,
    audience: null as string | null,
    jwks_uri: null as string | null,
    algorithms: null as string | null,
    strict: 1,
    created_at: now,
    updated_at: now,
  };
  if (input.type === 'OIDC') {
    if (!input.issuer) throw fieldError('issuer', 'BASE_TYPE_REQUIRED', 'This field is required');
    if (!input.client_id) throw fieldError('client_id', 'BASE_TYPE_REQUIRED', 'This field is required');
    const existing = await providersOf(ctx, app.id, 'OIDC');
    if (existing.some((p) => p.issuer === input.issuer)) throw fieldError('issuer', 'ALREADY_EXISTS', 'This issuer is already configured.');
    const found = await discover(ctx, input.issuer);
    Object.assign(row, { issuer: input.issuer, audience: input.client_id, jwks_uri: found.jwks_uri, algorithms: JSON.stringify(found.algorithms) });
  } else if ((await providersOf(ctx, app.id, input.type)).length) {
    throw fieldError('type', 'ALREADY_EXISTS', 'This provider type is already configured.');
  }
  await ctx.repos.provisional.insertProvider(row);
  return providerWire(toProvider(row));
}

async function ownedProvider(ctx: Ctx, actor: Actor, applicationId: string, providerId: string) {
  const app = await requireOwnedApplication(ctx, actor, applicationId);
  if (!isId(providerId)) throw unknownProvider();
  const row = await ctx.repos.provisional.provider(app.id, providerId);
  if (!row) throw unknownProvider();
  return toProvider(row);
}

/** PATCH …/{provider_id}: an edit re-runs discovery under the strict rules, whatever the provider was before. */
export async function editProvider(ctx: Ctx, actor: Actor, applicationId: string, providerId: string, patch: z.infer<typeof ProviderPatch>) {
  const p = await ownedProvider(ctx, actor, applicationId, providerId);
  const values: Record<string, unknown> = { updated_at: ctx.clock.now(), strict: 1 };
  if (p.type === 'OIDC') {
    const issuer = patch.issuer ?? p.issuer!;
    const found = await discover(ctx, issuer);
    Object.assign(values, { issuer, audience: patch.client_id ?? p.audience, jwks_uri: found.jwks_uri, algorithms: JSON.stringify(found.algorithms) });
  }
  await ctx.repos.provisional.updateProvider(p.id, values);
  forgetJwks(p.id);
  return providerWire(toProvider({ ...p, ...values, algorithms: values.algorithms ?? JSON.stringify(p.algorithms), strict: 1 }));
}

export async function deleteProvider(ctx: Ctx, actor: Actor, applicationId: string, providerId: string): Promise<void> {
  const p = await ownedProvider(ctx, actor, applicationId, providerId);
  await ctx.repos.provisional.deleteProvider(p.id);
  forgetJwks(p.id);
}

// ---------------------------------------------------------------------------------------------------- JWKS cache

const JWKS_TTL_MS = 10 * 60_000;
const jwksCache = new Map<string, { keys: { keys: unknown[] }; fetchedAt: number }>();
export const forgetJwks = (providerId: string) => jwksCache.delete(providerId);

/**
 * The provider's key set, cached for ten minutes (`refresh` forces a fetch: a token signed with a key we have not
 * seen may follow a rotation). A provider from before the strict rules is fetched as it always was: its jwks_uri, or
 * discovery when none was recorded, following at most three https redirects.
 */
export async function jwksOf(ctx: Ctx, p: ExternalAuthProvider, refresh = false): Promise<{ keys: unknown[] }> {
  const hit = jwksCache.get(p.id);
  const now = ctx.clock.now();
  if (hit && !refresh && now - hit.fetchedAt < JWKS_TTL_MS) return hit.keys;
  const get = p.strict ? (url: string) => fetchProviderJson(ctx, url) : (url: string) => legacyFetch(ctx, url);
  let uri = p.jwks_uri;
  if (!uri) {
    const doc = (await get(discoveryUrl(p.issuer!)).catch(() => null)) as { jwks_uri?: unknown } | null;
    if (!doc || typeof doc.jwks_uri !== 'string') throw new OutgoingError('no OpenID configuration', 'status');
    uri = doc.jwks_uri;
  }
  const keys = (await get(uri)) as { keys?: unknown };
  if (!keys || !Array.isArray(keys.keys)) throw new OutgoingError('no JWKS', 'json');
  const out = { keys: keys.keys };
  jwksCache.set(p.id, { keys: out, fetchedAt: now });
  return out;
}

/** The pre-strict behaviour for old integrations: up to three https redirects, each fetched through the same door. */
async function legacyFetch(ctx: Ctx, url: string): Promise<unknown> {
  let next = url;
  for (let hop = 0; hop < 4; hop++) {
    const res = await getProvider(ctx, next).catch(() => null);
    const location = res && res.status >= 300 && res.status < 400 ? res.headers.location : null;
    if (!location) return fetchProviderJson(ctx, next);
    const target = new URL(location, next);
    if (target.protocol !== 'https:' && target.protocol !== new URL(url).protocol) break;
    next = target.toString();
  }
  throw new OutgoingError(`${url}: too many redirects`, 'redirect');
}
