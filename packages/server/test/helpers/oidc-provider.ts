import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';

/**
 * A local OpenID Connect identity provider on 127.0.0.1 for Social SDK tests: a discovery document, its own JWKS (an
 * RS256 key made with jose), and ID tokens for any subject. `redirectJwks` makes the JWKS answer a redirect (to
 * show redirects are not followed); `rotate()` signs with a new key from then on.
 */
export interface OidcProvider {
  issuer: string;
  clientId: string;
  /** An ID token; `claims` override or add to the defaults (`iat` = `now`, `exp` = now + 1 h). */
  idToken(sub: string, claims?: Record<string, unknown>, opts?: { kid?: string | null; now?: number }): Promise<string>;
  redirectJwks: boolean;
  close(): Promise<void>;
}

export async function startOidcProvider(clientId = 'game-client'): Promise<OidcProvider> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const state = { redirectJwks: false };
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration') {
      return send(200, {
        issuer,
        jwks_uri: `${issuer}/jwks.json`,
        id_token_signing_alg_values_supported: ['RS256', 'HS256'],
        authorization_endpoint: `${issuer}/auth`,
      });
    }
    if (req.url === '/jwks.json') {
      if (state.redirectJwks) return send(302, undefined, { location: `${issuer}/jwks-moved.json` });
      return send(200, { keys: [jwk] });
    }
    if (req.url === '/jwks-moved.json') return send(200, { keys: [jwk] });
    send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    clientId,
    get redirectJwks() {
      return state.redirectJwks;
    },
    set redirectJwks(v: boolean) {
      state.redirectJwks = v;
    },
    async idToken(sub, claims = {}, opts = {}) {
      const now = Math.floor((opts.now ?? Date.now()) / 1000);
      const header: Record<string, unknown> = { alg: 'RS256' };
      if (opts.kid !== null) header.kid = opts.kid ?? 'k1';
      return new SignJWT({ iss: issuer, sub, aud: clientId, iat: now, exp: now + 3600, ...claims }).setProtectedHeader(header as any).sign(privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
