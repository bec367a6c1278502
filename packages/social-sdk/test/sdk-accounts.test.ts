/**
 * The Social SDK's account surface against a real Accord server and a local OpenID provider: the provisional token's
 * lifetime (an hour, no refresh token, TokenExpiration, then a fresh provider token and UpdateToken as the spec says),
 * IsAuthenticated, FetchCurrentUser, the deprecated GetCurrentUser, UpdateProvisionalAccountDisplayName, console
 * sign-in (GetTokenFromDevice, its abort, its provisional merge and the device screen callbacks), and the merge a
 * provisional account needs before an operation of platform accounts (ProvisionalUserMergeCompleted).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AuthorizationTokenType, Client, ClientResult, ErrorType, ExternalAuthType, Status } from '../src/index.js';
import { devHeaders } from '../../server/test/helpers/server.js';
import { useSdkWorld } from './helpers/sdk-world.js';
import { until } from '../../server/test/helpers/wait.js';

const T = { timeout: 90_000 };

describe('@accord/social-sdk accounts', () => {
  const w = useSdkWorld('accounts-game');
  const { api, client, idToken, opened, provisional, register } = w;

  /** Approves a device code from the verification URL as the user whose token is given. */
  const approveDevice = (userToken: string) => async (url: string) => {
    const userCode = new URL(url).searchParams.get('user_code')!;
    const r = await api('/oauth2/device/finish', userToken, 'POST', { user_code: userCode, result: 'granted' });
    assert.equal(r.status, 204, r.text);
  };

  test('a provisional token lives an hour without a refresh token; near its end a fresh provider token renews it', T, async () => {
    const c = client();
    const first = await c.getProvisionalToken(w.appId, ExternalAuthType.OIDC, await idToken('hourly'));
    assert.equal(first.expiresIn, 3600, 'an hour, as the real GetProvisionalToken gives');
    assert.equal(first.refreshToken, '', 'no refresh token: the game authenticates again');
    await c.updateToken(AuthorizationTokenType.Bearer, first.accessToken);
    await c.connect();
    const me = c.getCurrentUserV2()!.id();

    // The server's clock runs 59.5 minutes behind: a token minted now expires 30 s from real time, inside the
    // expiration callback's one-minute notice.
    const clock = (body: unknown) =>
      fetch(`${w.t.server.url}/__dev/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...devHeaders(w.t) },
        body: JSON.stringify(body),
      });
    assert.equal((await clock({ set: Date.now() - 3570_000 })).status, 200);
    try {
      let expiring = 0;
      c.setTokenExpirationCallback(() => expiring++);
      const short = await c.getProvisionalToken(w.appId, ExternalAuthType.OIDC, await idToken('hourly'));
      await c.updateToken(AuthorizationTokenType.Bearer, short.accessToken);
      await until(() => expiring === 1, 10_000, 'the expiration callback fires for the token');
    } finally {
      await clock({ set: Date.now() });
    }
    // As the spec says: a fresh provider token, GetProvisionalToken again, UpdateToken; the same account, Ready again.
    const renewed = await c.getProvisionalToken(w.appId, ExternalAuthType.OIDC, await idToken('hourly'));
    assert.equal(renewed.expiresIn, 3600);
    await c.updateToken(AuthorizationTokenType.Bearer, renewed.accessToken);
    await until(() => c.getStatus() === Status.Ready, 20_000, 'Ready with the renewed token');
    assert.equal(c.getCurrentUserV2()!.id(), me);
  });

  test('IsAuthenticated, FetchCurrentUser, and GetCurrentUser before Ready', T, async () => {
    const c = client();
    assert.equal(c.isAuthenticated(), false);
    assert.equal(c.getCurrentUser().id(), '0', 'the deprecated GetCurrentUser: a handle of nobody before Ready');
    assert.equal(c.getCurrentUser().username(), '');
    const tok = await c.getProvisionalToken(w.appId, ExternalAuthType.OIDC, await idToken('fetcher', { preferred_username: 'Fetcher' }));
    // FetchCurrentUser needs neither a connection nor a token of the client's own.
    const who = await c.fetchCurrentUser(AuthorizationTokenType.Bearer, tok.accessToken);
    assert.match(who.id, /^\d+$/);
    assert.ok(who.name, 'the generated username');
    assert.equal(c.isAuthenticated(), false);
    await assert.rejects(
      c.fetchCurrentUser(AuthorizationTokenType.Bearer, 'not-a-token'),
      (e: ClientResult) => e.type === ErrorType.HTTPError && e.status === 401,
    );
    await c.updateToken(AuthorizationTokenType.Bearer, tok.accessToken);
    assert.equal(c.isAuthenticated(), true, 'a token is set (valid or not)');
    await c.connect();
    assert.equal(c.getCurrentUser().id(), who.id);
  });

  test('UpdateProvisionalAccountDisplayName renames the provisional account; a platform account may not', T, async () => {
    const c = await provisional('renamed', { preferred_username: 'Xq7' });
    assert.equal(c.getCurrentUserV2()!.displayName(), 'Xq7');
    const updated: string[] = [];
    c.setUserUpdatedCallback((id) => updated.push(id));
    await c.updateProvisionalAccountDisplayName('Captain Nova');
    assert.equal(c.getCurrentUserV2()!.displayName(), 'Captain Nova');
    await until(() => updated.includes(c.getCurrentUserV2()!.id()), 10_000, 'USER_UPDATE reaches the game');
    assert.equal(c.getCurrentUserV2()!.displayName(), 'Captain Nova', 'and the refreshed profile keeps the name');
    await assert.rejects(c.updateProvisionalAccountDisplayName(' '), (e: ClientResult) => e.type === ErrorType.ValidationError);
    await assert.rejects(c.updateProvisionalAccountDisplayName('x'.repeat(33)), (e: ClientResult) => e.type === ErrorType.ValidationError);

    // A platform account signed in on a console keeps its platform name: 530010.
    const dana = await register('dana_console');
    const d = client(approveDevice(dana.token));
    const tok = await d.getTokenFromDevice({ scopes: Client.getDefaultCommunicationScopes() });
    await d.updateToken(AuthorizationTokenType.Bearer, tok.accessToken);
    await assert.rejects(d.updateProvisionalAccountDisplayName('Dana'), (e: ClientResult) => e.type === ErrorType.HTTPError && e.code === 530010);
  });

  test('GetTokenFromDevice: the verification page through openUrl, polling until the user answers; abort; device screen', T, async () => {
    const erin = await register('erin_console');
    const pages: string[] = [];
    let approving = true; // erin answers the codes this client shows, until the backend's code below
    const c = client(async (url) => {
      pages.push(url);
      if (approving) await approveDevice(erin.token)(url);
    });
    let closed = 0;
    c.setAuthorizeDeviceScreenClosedCallback(() => closed++);
    const tok = await c.getTokenFromDevice({ clientId: w.appId, scopes: Client.getDefaultCommunicationScopes() });
    assert.match(pages[0], new RegExp(`^${w.t.server.url}/activate\\?user_code=[A-Z]{4}-[A-Z]{4}$`));
    assert.equal(tok.tokenType, AuthorizationTokenType.Bearer);
    assert.ok(tok.refreshToken, 'a platform account gets a refresh token');
    assert.equal(tok.scopes, 'openid sdk.social_layer');
    assert.equal((await c.fetchCurrentUser(AuthorizationTokenType.Bearer, tok.accessToken)).id, erin.id);
    assert.equal(closed, 1, 'the device screen closes when the flow ends');

    // Nobody answers: AbortGetTokenFromDevice ends the wait.
    const waiting = client(async () => {});
    const pending = waiting.getTokenFromDevice({ scopes: Client.getDefaultPresenceScopes() });
    await new Promise((r) => setImmediate(r));
    waiting.abortGetTokenFromDevice();
    await assert.rejects(pending, (e: ClientResult) => e.type === ErrorType.Aborted);
    // The user denies: AuthorizationFailed.
    const denied = client(async (url) => {
      const r = await api('/oauth2/device/finish', erin.token, 'POST', { user_code: new URL(url).searchParams.get('user_code'), result: 'denied' });
      assert.equal(r.status, 204, r.text);
    });
    await assert.rejects(
      denied.getTokenFromDevice({ scopes: Client.getDefaultPresenceScopes() }),
      (e: ClientResult) => e.type === ErrorType.AuthorizationFailed,
    );
    await assert.rejects(denied.getTokenFromDevice({ scopes: '' }), (e: ClientResult) => e.type === ErrorType.ValidationError);

    // OpenAuthorizeDeviceScreen for a code the game's backend got; CloseAuthorizeDeviceScreen reports the close.
    approving = false;
    await c.openAuthorizeDeviceScreen(w.appId, 'BCDF-GHJK');
    assert.equal(pages.at(-1), `${w.t.server.url}/activate?user_code=BCDF-GHJK&client_id=${w.appId}`);
    c.closeAuthorizeDeviceScreen();
    assert.equal(closed, 2);
  });

  test('GetTokenFromDeviceProvisionalMerge: the provisional account merges into the account that signs in', T, async () => {
    const p = await provisional('couch-player');
    const provisionalId = p.getCurrentUserV2()!.id();
    const merged = new Promise<{ sourceUserId: string; destinationUserId: string }>((resolve) => p.on('userMerged', resolve));
    const fay = await register('fay_console');
    const c = client(approveDevice(fay.token));
    const tok = await c.getTokenFromDeviceProvisionalMerge(
      { scopes: Client.getDefaultCommunicationScopes() },
      ExternalAuthType.OIDC,
      await idToken('couch-player'),
    );
    assert.equal((await c.fetchCurrentUser(AuthorizationTokenType.Bearer, tok.accessToken)).id, fay.id);
    const done = await merged;
    assert.equal(done.sourceUserId, provisionalId);
    assert.equal(done.destinationUserId, fay.id);
  });

  test('an operation for platform accounts asks a provisional account to merge first (ProvisionalUserMergeCompleted)', T, async () => {
    const bob = w.t.world.users[1];
    const p = await provisional('merge-asker');
    const b = client(approveDevice(bob.token));
    await b.updateToken(AuthorizationTokenType.Bearer, (await b.getTokenFromDevice({ scopes: Client.getDefaultCommunicationScopes() })).accessToken);
    await b.connect();
    // Game friends, so that bob may write to the provisional player.
    await p.sendGameFriendRequestById(bob.id);
    await until(() => b.getRelationshipHandle(p.getCurrentUserV2()!.id()).gameRelationshipType() === 3, 10_000, 'the request arrives');
    await b.acceptGameFriendRequest(p.getCurrentUserV2()!.id());
    const got = new Promise<string>((resolve) => p.on('messageCreated', (e) => resolve(e.messageId)));
    await b.sendUserMessage(p.getCurrentUserV2()!.id(), 'see you on Accord');
    const messageId = await got;
    assert.equal(p.canOpenMessageInDiscord(messageId), true, 'a DM with a platform account is kept on the platform');

    await assert.rejects(p.openMessageInDiscord(messageId), (e: ClientResult) => e.type === ErrorType.ValidationError, 'without a merge callback');
    let asked = 0;
    const refused = p.openMessageInDiscord(messageId, () => {
      asked++;
      p.provisionalUserMergeCompleted(false);
    });
    await assert.rejects(refused, (e: ClientResult) => e.type === ErrorType.AuthorizationFailed);
    assert.equal(asked, 1);
    const before = opened.length;
    await p.openMessageInDiscord(messageId, () => p.provisionalUserMergeCompleted(true));
    assert.equal(opened.length, before + 1);
    assert.match(opened.at(-1)!, new RegExp(`^${w.t.server.url}/channels/@me/\\d+/${messageId}$`));
  });
});
