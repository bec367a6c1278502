import { AuthorizationCodeChallenge, AuthorizationCodeVerifier } from './authorization-args.js';

/** Web Crypto, in Node 20 and browsers alike. */
const cryptoApi = (): Crypto => {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (!c?.subtle) throw new Error('Web Crypto is not available');
  return c;
};

const base64url = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

/** A URL-safe random string from `bytes` random bytes. */
export function randomToken(bytes = 32): string {
  const b = new Uint8Array(bytes);
  cryptoApi().getRandomValues(b);
  return base64url(b);
}

/** PKCE (RFC 7636, S256): a 43-character verifier and its SHA-256 challenge. */
export async function createCodeVerifier(): Promise<AuthorizationCodeVerifier> {
  const verifier = randomToken(32);
  const digest = new Uint8Array(await cryptoApi().subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return new AuthorizationCodeVerifier(new AuthorizationCodeChallenge(base64url(digest)), verifier);
}
