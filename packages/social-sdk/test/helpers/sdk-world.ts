import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { AuthorizationTokenType, Client, ExternalAuthType } from '../../src/index.js';
import { startTestServer, type TestServer } from '../../../server/test/helpers/server.js';
import { startOidcProvider, type OidcProvider } from '../../../server/test/helpers/oidc-provider.js';

/** The application flag that turns a game's Social SDK on (the portal's "Social SDK" switch). */
const SOCIAL_SDK_FLAG = 1 << 8;

/**
 * What the Social SDK suites share, set up by hooks registered in the calling `describe`: a dev-mode Accord, a local
 * OpenID provider registered as the app's external auth provider, the app with the Social SDK on, and SDK clients
 * (disconnected when the suite ends). `t`, `idp`, `appId` and `voiceCa` are set once the `before` hook has run.
 */
export function useSdkWorld(providerName: string) {
  const clients: Client[] = [];
  const w = {
    t: undefined as unknown as TestServer,
    idp: undefined as unknown as OidcProvider,
    appId: '',
    /** The voice server's CA, which the SDK's clients trust. */
    voiceCa: '',
    /** The URLs the SDK asked to open (the default `openUrl` of `client`). */
    opened: [] as string[],
    owner: () => w.t.world.users[0],
    api: (p: string, token: string, method = 'GET', body?: unknown) => w.t.api(p, { method, token, body }),
    idToken: (sub: string, claims: Record<string, unknown> = {}) => w.idp.idToken(sub, claims, { now: w.t.server.ctx.clock.now() }),

    client(openUrl?: (url: string) => Promise<void>): Client {
      const c = new Client({
        apiBase: w.t.server.url,
        webBase: w.t.server.url,
        voiceCa: w.voiceCa,
        openUrl: openUrl ?? (async (url) => void w.opened.push(url)),
      });
      c.setApplicationId(w.appId);
      clients.push(c);
      return c;
    },

    /** A connected client on a provisional account of the provider's subject `sub`. */
    async provisional(sub: string, claims: Record<string, unknown> = {}): Promise<Client> {
      const c = w.client();
      const tok = await c.getProvisionalToken(w.appId, ExternalAuthType.OIDC, await w.idToken(sub, claims));
      await c.updateToken(AuthorizationTokenType.Bearer, tok.accessToken);
      await c.connect();
      return c;
    },

    /** A platform account registered over HTTP. */
    async register(name: string): Promise<{ id: string; token: string }> {
      const r = await w.t.api('/auth/register', { method: 'POST', body: { username: name, email: `${name}@accord.local`, password: `password-${name}` } });
      assert.equal(r.status, 200, r.text);
      return { id: (await w.api('/users/@me', r.body.token)).body.id, token: r.body.token };
    },
  };

  before(async () => {
    w.t = await startTestServer({ overrides: { dev: true } });
    w.idp = await startOidcProvider(providerName);
    w.appId = w.t.world.applicationId;
    const caPath = w.t.server.voice.tls?.caPath;
    w.voiceCa = caPath ? fs.readFileSync(caPath, 'utf8') : '';
    const app = await w.api(`/applications/${w.appId}`, w.owner().token);
    await w.api(`/applications/${w.appId}`, w.owner().token, 'PATCH', { flags: Number(app.body.flags) | SOCIAL_SDK_FLAG });
    const p = await w.api(`/applications/${w.appId}/external-auth-providers`, w.owner().token, 'POST', {
      type: 'OIDC',
      issuer: w.idp.issuer,
      client_id: w.idp.clientId,
    });
    assert.equal(p.status, 201, p.text);
  });
  after(async () => {
    for (const c of clients) await c.disconnect().catch(() => {});
    await w.idp?.close();
    await w.t?.close();
  });
  return w;
}
