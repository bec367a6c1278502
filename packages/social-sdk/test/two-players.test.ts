/**
 * Two players, end to end, driving only @accord/social-sdk against a real Accord server and a local OpenID provider
 * with its own JWKS: player 1 plays on a provisional account (OIDC ID token), player 2 links a platform account with
 * Authorize + GetToken (PKCE; the consent is approved as the user over the public API). They become friends, meet in a
 * lobby by secret, talk in the lobby and by DM, see each other's rich presence, send and accept an activity invite,
 * and hold a push-to-talk call whose audio arrives bit-exact and which survives a forced network drop. Then player 1
 * merges into a platform account and keeps friends and lobby, and once that account is banned its identity gets 530017.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import OpusScript from 'opusscript';
import {
  AudioModeType,
  AuthorizationArgs,
  AuthorizationTokenType,
  CallStatus,
  Client,
  ClientError,
  ClientResult,
  ExternalAuthType,
  RelationshipType,
  Status,
  ActivityPartyPrivacy,
  ActivityGamePlatforms,
  type ActivityInvite,
  type Call,
} from '../src/index.js';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.js';
import { startOidcProvider, type OidcProvider } from '../../server/test/helpers/oidc-provider.js';
import { until } from '../../server/test/helpers/wait.js';

const T = { timeout: 120_000 };
const FRAME = 960 * 2;

/** `n` frames of 48 kHz stereo PCM: a chord that changes per frame, so every frame differs. */
function speech(n: number, seed: number): Int16Array[] {
  return Array.from({ length: n }, (_, f) => {
    const pcm = new Int16Array(FRAME);
    for (let i = 0; i < 960; i++) {
      const t = (f * 960 + i) / 48000;
      const v = Math.round(9000 * Math.sin(2 * Math.PI * (220 + 40 * seed) * t) + 5000 * Math.sin(2 * Math.PI * (330 + 7 * f) * t));
      pcm[2 * i] = v;
      pcm[2 * i + 1] = -v;
    }
    return pcm;
  });
}

/** What the listener must hear: the same frames through a fresh Opus encoder and decoder, with the silence frames. */
function expectedPcm(spurts: Int16Array[][]): Buffer[] {
  const enc = new OpusScript(48000, 2, OpusScript.Application.VOIP);
  const dec = new OpusScript(48000, 2, OpusScript.Application.VOIP);
  const silence = Buffer.from([0xf8, 0xff, 0xfe]);
  const packets: Buffer[] = [];
  for (const frames of spurts) {
    for (const f of frames) packets.push(enc.encode(Buffer.from(f.buffer, f.byteOffset, f.byteLength), 960));
    for (let i = 0; i < 5; i++) packets.push(silence);
  }
  return packets.map((p) => Buffer.from(dec.decode(p)));
}

describe('two players (@accord/social-sdk end to end)', () => {
  let t: TestServer;
  let idp: OidcProvider;
  let appId = '';
  let voiceCa = '';
  const clients: Client[] = [];
  const api = async (path: string, token: string, method = 'GET', body?: unknown) => t.api(path, { method, token, body });

  /** A client whose Authorize is approved, over the public API, by the user whose token `approver` gives. */
  function client(approver: () => string | null): Client {
    const c = new Client({
      apiBase: t.server.url,
      webBase: t.server.url,
      voiceCa,
      openUrl: async (url) => {
        const userToken = approver();
        assert.ok(userToken, 'this player does not authorize');
        const query = new URL(url).search;
        const consent = await api(`/oauth2/authorize${query}`, userToken, 'POST', { authorize: true });
        assert.equal(consent.status, 200, consent.text);
        await fetch(consent.body.location); // the browser follows the redirect to the SDK's loopback server
      },
    });
    c.setApplicationId(appId);
    clients.push(c);
    return c;
  }

  async function register(name: string): Promise<{ id: string; token: string }> {
    const r = await t.api('/auth/register', { method: 'POST', body: { username: name, email: `${name}@accord.local`, password: `password-${name}` } });
    assert.equal(r.status, 200, r.text);
    return { id: (await api('/users/@me', r.body.token)).body.id, token: r.body.token };
  }

  /** Authorize with PKCE (and a merge when `external` is given), then GetToken / GetTokenFromProvisionalMerge. */
  async function link(c: Client, external?: { type: ExternalAuthType; token: string }) {
    const verifier = await c.createAuthorizationCodeVerifier();
    const args = new AuthorizationArgs();
    args.SetScopes(Client.getDefaultCommunicationScopes());
    args.SetCodeChallenge(verifier.Challenge());
    const { code, redirectUri } = await c.authorize(args);
    assert.match(redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    return external
      ? c.getTokenFromProvisionalMerge(appId, code, verifier.Verifier(), redirectUri, external.type, external.token)
      : c.getToken(appId, code, verifier.Verifier(), redirectUri);
  }

  /** Cuts a player's sockets (main Gateway and voice) without a close frame, as a network loss would. */
  function dropNetwork(userId: string) {
    for (const conn of t.server.gateway.connections) if (conn.session?.userId === userId) (conn as any).ws.terminate();
    t.server.voice.dropSocket(userId);
  }

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    idp = await startOidcProvider('two-players-game');
    appId = t.world.applicationId;
    voiceCa = fs.readFileSync(t.server.voice.tls!.caPath!, 'utf8');
    const owner = t.world.users[0].token;
    const app = await api(`/applications/${appId}`, owner);
    const patched = await api(`/applications/${appId}`, owner, 'PATCH', {
      flags: Number(app.body.flags) | (1 << 8),
      redirect_uris: ['http://127.0.0.1/callback'],
    });
    assert.equal(patched.status, 200, patched.text);
    const provider = await api(`/applications/${appId}/external-auth-providers`, owner, 'POST', { type: 'OIDC', issuer: idp.issuer, client_id: idp.clientId });
    assert.equal(provider.status, 201, provider.text);
  });
  after(async () => {
    for (const c of clients) await c.disconnect().catch(() => {});
    await idp?.close();
    await t?.close();
  });

  test('provisional and linked players: friends, lobby, messages, presence, invite, a push-to-talk call, merge, ban', T, async () => {
    const idToken = () => idp.idToken('player-one', { preferred_username: 'PlayerOne' }, { now: t.server.ctx.clock.now() });

    // ---- player 1: a provisional account from the game's identity provider
    let p1Approver: string | null = null;
    const p1 = client(() => p1Approver);
    assert.equal(p1.getCurrentUserV2(), undefined, 'no current user before Ready');
    const statuses: Status[] = [];
    p1.setStatusChangedCallback((s) => statuses.push(s));
    const prov = await p1.getProvisionalToken(appId, ExternalAuthType.OIDC, await idToken());
    assert.equal(prov.refreshToken, '', 'public clients get no refresh token for provisional accounts');
    await p1.updateToken(AuthorizationTokenType.Bearer, prov.accessToken);
    await p1.connect();
    assert.deepEqual(statuses.slice(0, 4), [Status.HttpWait, Status.Connecting, Status.Connected, Status.Ready]);
    const me1 = p1.getCurrentUserV2()!;
    assert.equal(me1.isProvisional(), true);
    assert.equal(me1.displayName(), 'PlayerOne');
    const p1Id = me1.id();

    // ---- player 2: a platform account linked through Authorize + GetToken with PKCE
    const bob = t.world.users[1];
    const p2 = client(() => bob.token);
    const tok2 = await link(p2);
    assert.equal(tok2.scopes, 'openid sdk.social_layer');
    assert.ok(tok2.refreshToken);
    await p2.updateToken(AuthorizationTokenType.Bearer, tok2.accessToken);
    await p2.connect();
    assert.equal(p2.getCurrentUserV2()!.id(), bob.id);
    assert.equal(p2.getCurrentUserV2()!.isProvisional(), false);

    // ---- friends (game friends: a provisional account has no platform friends)
    const requested = new Promise<void>((resolve) =>
      p2.on('relationshipCreated', (e) => {
        if (e.userId === p1Id && !e.isDiscordRelationshipUpdate) resolve();
      }),
    );
    await p1.sendGameFriendRequestById(bob.id);
    await requested;
    assert.equal(p2.getRelationshipHandle(p1Id).gameRelationshipType(), RelationshipType.PendingIncoming);
    await p2.acceptGameFriendRequest(p1Id);
    await until(() => p1.getRelationshipHandle(bob.id).gameRelationshipType() === RelationshipType.Friend, 10_000, 'p1 sees p2 as a friend');
    assert.equal(p1.getRelationshipHandle(bob.id).user().displayName(), 'Bob');

    // ---- a lobby by secret, lobby messages
    const lobbyId = await p1.createOrJoinLobby('our-secret', { map: 'harbor' }, { team: 'red' });
    const memberAdded = new Promise((resolve) =>
      p1.on('lobbyMemberAdded', (e) => {
        if (e.memberId === bob.id) resolve(e);
      }),
    );
    assert.equal(await p2.createOrJoinLobby('our-secret', undefined, { team: 'blue' }), lobbyId);
    await memberAdded;
    assert.deepEqual(p1.getLobbyHandle(lobbyId)!.lobbyMemberIds().sort(), [p1Id, bob.id].sort());
    assert.deepEqual(p2.getLobbyHandle(lobbyId)!.metadata(), { map: 'harbor' });
    const lobbyMsg = new Promise<string>((resolve) =>
      p2.on('messageCreated', (e) => {
        if (p2.getMessageHandle(e.messageId)?.lobbyId() === lobbyId) resolve(e.messageId);
      }),
    );
    const sentId = await p1.sendLobbyMessage(lobbyId, 'meet at the harbor', { ping: 'harbor' });
    assert.equal(await lobbyMsg, sentId);
    const history = await p2.getLobbyMessagesWithLimit(lobbyId, 50);
    assert.deepEqual(
      history.map((m) => [m.content(), m.authorId()]),
      [['meet at the harbor', p1Id]],
    );
    assert.deepEqual(history[0].metadata(), { ping: 'harbor' });

    // ---- DMs, and the local history cache
    const dmArrived = new Promise<string>((resolve) =>
      p1.on('messageCreated', (e) => {
        if (p1.getMessageHandle(e.messageId)?.recipientId() === p1Id) resolve(e.messageId);
      }),
    );
    const dmId = await p2.sendUserMessage(p1Id, 'ready when you are');
    assert.equal(await dmArrived, dmId);
    const dms = await p1.getUserMessagesWithLimit(bob.id, 20);
    assert.deepEqual(
      dms.map((m) => m.content()),
      ['ready when you are'],
    );
    assert.equal(dms[0].sentFromGame(), true);
    await p1.sendUserMessage(bob.id, 'on my way');
    const before = p1.stats.httpRequests;
    assert.deepEqual(
      (await p1.getUserMessagesWithLimit(bob.id, 20)).map((m) => m.content()),
      ['on my way', 'ready when you are'],
    );
    assert.equal(p1.stats.httpRequests, before, 'served from the local cache');

    // ---- rich presence, both ways
    await p1.updateRichPresence({
      state: 'In the harbor',
      details: 'Ranked',
      stateUrl: 'https://game.example/harbor',
      statusDisplayType: 1,
      party: { id: 'party-7', currentSize: 2, maxSize: 4, privacy: ActivityPartyPrivacy.Public },
      secrets: { join: 'join-party-7' },
      supportedPlatforms: ActivityGamePlatforms.Desktop,
      assets: { largeImage: 'harbor', largeUrl: 'https://game.example/map', inviteCoverImage: 'https://game.example/cover.png' },
    });
    await p2.updateRichPresence({ state: 'In the menu', details: 'Casual' });
    await until(() => p2.getUser(p1Id)?.gameActivity()?.state === 'In the harbor', 10_000, "p2 sees p1's presence");
    await until(() => p1.getUser(bob.id)?.gameActivity()?.state === 'In the menu', 10_000, "p1 sees p2's presence");
    const seen = p2.getUser(p1Id)!.gameActivity()!;
    assert.equal(seen.applicationId, appId);
    assert.deepEqual(seen.party, { id: 'party-7', currentSize: 2, maxSize: 4, privacy: 1 });
    assert.equal(seen.assets?.inviteCoverImage, 'https://game.example/cover.png');
    await assert.rejects(p1.updateRichPresence({ state: 'x', stateUrl: 'ftp://nope' }), (e: ClientResult) => e.type === 6);

    // ---- an activity invite, sent and accepted
    const invited = new Promise<ActivityInvite>((resolve) => p2.on('activityInviteCreated', resolve));
    const created: string[] = [];
    p2.on('messageCreated', (e) => created.push(e.messageId));
    await p1.sendActivityInvite(bob.id, 'come sail');
    const invite = await invited;
    assert.equal(invite.senderId, p1Id);
    assert.equal(invite.partyId, 'party-7');
    // The invite goes to the invite callback only, as the real SDK documents: a later DM arrives, the invite never did.
    const later = await p1.sendUserMessage(bob.id, 'after the invite');
    await until(() => created.includes(later), 10_000, 'p2 gets the DM sent after the invite');
    assert.ok(!created.includes(invite.messageId), 'an activity invite does not fire messageCreated');
    assert.equal(p2.getMessageHandle(invite.messageId), undefined, 'nor is it a message handle');
    const joined = new Promise((resolve) => p2.on('activityJoin', resolve));
    assert.equal(await p2.acceptActivityInvite(invite), 'join-party-7');
    assert.deepEqual(await joined, { applicationId: appId, joinSecret: 'join-party-7' });

    // ---- a push-to-talk call: bit-exact audio, and it survives a network drop
    const heard: Buffer[] = [];
    const call1 = p1.startCallWithAudioCallbacks(
      lobbyId,
      () => {},
      () => {},
    ) as Call;
    const call2 = p2.startCallWithAudioCallbacks(lobbyId, (userId, data) => {
      if (userId === p1Id) heard.push(Buffer.from(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)));
    }) as Call;
    assert.equal(p1.startCall(lobbyId), null, 'already in this call');
    await until(() => call1.getStatus() === CallStatus.Connected && call2.getStatus() === CallStatus.Connected, 20_000, 'both calls connected');
    await until(
      () => {
        const [a, b] = [call1.getEncryptionState(), call2.getEncryptionState()];
        return (
          a.protocolVersion === 1 &&
          a.privacyCode !== '' &&
          a.privacyCode === b.privacyCode &&
          call1.getParticipants().includes(bob.id) &&
          call2.getParticipants().includes(p1Id)
        );
      },
      20_000,
      'one DAVE group with both players',
    );
    call1.setAudioMode(AudioModeType.MODE_PTT);
    assert.equal(call1.getPTTReleaseDelay(), 20);
    call1.pushAudio(Int16Array.from(speech(10, 9).flatMap((f) => [...f])));
    await until(() => call1.pendingAudioFrames() === 0, 10_000, 'frames captured with PTT released');
    assert.equal(heard.length, 0, 'nothing is sent while push-to-talk is released');

    const talk1 = speech(50, 1);
    call1.setPTTActive(true);
    for (const f of talk1) call1.pushAudio(f);
    await until(() => heard.length >= 55, 20_000, 'the first talk spurt and its silence');
    call1.setPTTActive(false);

    const callStatuses: CallStatus[] = [];
    call1.on('statusChanged', (e) => callStatuses.push(e.status));
    const clientStatuses: Status[] = [];
    p1.on('statusChanged', (e) => clientStatuses.push(e.status));
    dropNetwork(p1Id);
    await until(() => callStatuses.includes(CallStatus.Reconnecting) && call1.getStatus() === CallStatus.Connected, 20_000, 'the call reconnects by itself');
    await until(() => clientStatuses.includes(Status.Reconnecting) && p1.getStatus() === Status.Ready, 20_000, 'the client reconnects by itself');

    const talk2 = speech(50, 2);
    call1.setPTTActive(true);
    for (const f of talk2) call1.pushAudio(f);
    await until(() => heard.length >= 110, 20_000, 'the second talk spurt after the drop');
    call1.setPTTActive(false);
    const expected = expectedPcm([talk1, talk2]);
    assert.equal(heard.length, expected.length);
    assert.ok(
      heard.every((b, i) => b.equals(expected[i])),
      'every frame arrived bit-exact, in order',
    );
    await p1.endCall(lobbyId);
    await p2.endCall(lobbyId);

    // ---- player 1 merges into a platform account: friends and lobby stay
    const carol = await register('carol_two_players');
    const merged = new Promise((resolve) => p1.on('userMerged', resolve));
    p1Approver = carol.token;
    const mergeTok = await link(p1, { type: ExternalAuthType.OIDC, token: await idToken() });
    const done = (await merged) as { sourceUserId: string; destinationUserId: string };
    assert.equal(done.sourceUserId, p1Id);
    assert.equal(done.destinationUserId, carol.id);
    await until(() => p1.getStatus() === Status.Disconnected, 10_000, 'the provisional session ends');
    await p1.updateToken(AuthorizationTokenType.Bearer, mergeTok.accessToken);
    await p1.connect();
    const meMerged = p1.getCurrentUserV2()!;
    assert.equal(meMerged.id(), carol.id);
    assert.equal(meMerged.isProvisional(), false);
    assert.equal(p1.getRelationshipHandle(bob.id).gameRelationshipType(), RelationshipType.Friend, 'the friend stayed');
    assert.deepEqual(p1.getLobbyIds(), [lobbyId], 'the lobby stayed');
    await until(
      () => p2.getRelationshipHandle(carol.id).gameRelationshipType() === RelationshipType.Friend,
      10_000,
      'p2 sees the merged account as the friend',
    );
    assert.deepEqual(
      (await p1.getLobbyMessagesWithLimit(lobbyId, 10)).map((m) => m.content()),
      ['meet at the harbor'],
    );

    // ---- the merged account is banned: the session ends, and its identity cannot merge again (530017)
    const banned = new Promise<{ error: ClientError; errorDetail: number }>((resolve) =>
      p1.on('statusChanged', (e) => {
        if (e.status === Status.Disconnected) resolve(e);
      }),
    );
    const ban = await fetch(`${t.server.url}/__dev/users/${carol.id}/ban`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-accord-dev-token': t.server.ctx.config.devToken ?? '' },
      body: '{}',
    });
    assert.equal(ban.status, 204);
    assert.deepEqual(await banned, { status: Status.Disconnected, error: ClientError.ConnectionFailed, errorDetail: 4004 });
    const restricted = await p1.getProvisionalToken(appId, ExternalAuthType.OIDC, await idToken());
    assert.ok(restricted.accessToken, 'the identity plays on, restricted');
    const dave = await register('dave_two_players');
    p1Approver = dave.token;
    await assert.rejects(
      link(p1, { type: ExternalAuthType.OIDC, token: await idToken() }),
      (e: ClientResult) => e instanceof ClientResult && e.code === 530017 && e.status === 400,
    );
  });
});
