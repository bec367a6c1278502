import crypto from 'node:crypto';
import type { Ctx } from '../../context.js';
import { parseJson } from '../../../store/json.js';

/**
 * The server's ID-token signing key (RS256, the algorithm every OpenID Connect client supports). It lives in the
 * store so that every process signs with the same key and the JWKS survives restarts; the first process to need one
 * creates it, and all of them sign with the oldest key, so two racing creators still converge.
 */
interface SigningKey {
  kid: string;
  privateKey: crypto.KeyObject;
}

const keys = new WeakMap<Ctx, Promise<SigningKey>>();

async function loadOrCreate(ctx: Ctx): Promise<SigningKey> {
  const oldest = () => ctx.repos.oauth.oldestKey('RS256');
  let row = await oldest();
  if (!row) {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = publicKey.export({ format: 'jwk' });
    const kid = crypto
      .createHash('sha256')
      .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
      .digest('base64url')
      .slice(0, 16);
    await ctx.repos.oauth.insertKey({
      kid,
      alg: 'RS256',
      privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      publicJwk: JSON.stringify({ kty: jwk.kty, n: jwk.n, e: jwk.e }),
      createdAt: ctx.clock.now(),
    });
    row = await oldest();
  }
  return { kid: row!.kid, privateKey: crypto.createPrivateKey(row!.privateKey) };
}

function signingKey(ctx: Ctx): Promise<SigningKey> {
  let p = keys.get(ctx);
  if (!p) {
    p = loadOrCreate(ctx);
    p.catch(() => keys.delete(ctx));
    keys.set(ctx, p);
  }
  return p;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export async function signJwt(ctx: Ctx, claims: Record<string, unknown>): Promise<string> {
  const key = await signingKey(ctx);
  const head = `${b64({ alg: 'RS256', typ: 'JWT', kid: key.kid })}.${b64(claims)}`;
  const sig = crypto.sign('sha256', Buffer.from(head), key.privateKey).toString('base64url');
  return `${head}.${sig}`;
}

/** GET /oauth2/keys: every published key, as a JWK Set. */
export async function jwks(ctx: Ctx): Promise<{ keys: Record<string, unknown>[] }> {
  await signingKey(ctx);
  const rows = await ctx.repos.oauth.keys();
  return { keys: rows.map((r) => ({ ...parseJson<Record<string, unknown>>(r.publicJwk, {}), use: 'sig', alg: r.alg, kid: r.kid })) };
}

/** OIDC `at_hash`: the left half of the SHA-256 of the access token. */
export const atHash = (accessToken: string) => crypto.createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
