/**
 * The Social SDK's social surface added to match the real one, against a real Accord server: SearchFriendsByUsername
 * by Levenshtein distance, the relationship-groups callback, activity invites that follow their sender's party
 * (ActivityInviteUpdated) and never reach messageCreated, messages the platform keeps (CanOpenMessageInDiscord,
 * OpenMessageInDiscord, the disclosure message), MessageHandle Channel/Lobby/AdditionalContent, JoinLinkedLobbyGuild,
 * CallInfoHandle voice states, SetLogDir and the voice log callback, and the static *ToString helpers.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ActivityGamePlatforms,
  AdditionalContentType,
  AuthorizationTokenType,
  AvatarType,
  Call,
  CallError,
  CallStatus,
  ChannelType,
  Client,
  ClientResult,
  ClientThread,
  DisclosureTypes,
  ErrorType,
  ExternalAuthType,
  LoggingSeverity,
  RelationshipGroupType,
  Status,
  UserHandle,
  additionalContentTypeToString,
  enumToString,
  type ActivityInvite,
} from '../src/index.js';
import { Cache } from '../src/cache.js';
import { additionalContentOf } from '../src/handles.js';
import { nameDistance, substringDistance } from '../src/friend-search.js';
import { useSdkWorld } from './helpers/sdk-world.js';
import { until } from '../../server/test/helpers/wait.js';
import { issueToken } from '../../server/src/services/identity/tokens.js';
import { effectiveScopes } from '../../server/src/services/identity/oauth2/scopes.js';

const T = { timeout: 120_000 };

describe('@accord/social-sdk social surface', () => {
  const w = useSdkWorld('social-game');
  const { api, client, idToken, opened, owner, register } = w;
  const bot = (p: string, method = 'GET', body?: unknown) => w.t.api(p, { method, token: w.t.world.botToken, bot: true, body });
  const provisional = (sub: string, name: string) => w.provisional(sub, { preferred_username: name });

  /** A platform account playing the game: a Bearer token of the app with the communication scopes. */
  async function platform(userId: string): Promise<Client> {
    const c = client();
    const token = await issueToken(w.t.server.ctx, userId, 'bearer', {
      applicationId: w.appId,
      scopes: effectiveScopes(['openid', 'sdk.social_layer']),
      expiresAt: w.t.server.ctx.clock.now() + 3600_000,
    });
    await c.updateToken(AuthorizationTokenType.Bearer, token);
    await c.connect();
    return c;
  }

  /** Game friends: a asks, b accepts. */
  async function befriend(a: Client, b: Client) {
    const bId = b.getCurrentUserV2()!.id();
    const aId = a.getCurrentUserV2()!.id();
    await a.sendGameFriendRequestById(bId);
    await until(() => b.getRelationshipHandle(aId).gameRelationshipType() === 3, 10_000, 'the friend request arrives');
    await b.acceptGameFriendRequest(aId);
    await until(() => a.getRelationshipHandle(bId).gameRelationshipType() === 1, 10_000, 'friends');
  }

  const party = (id: string) => ({
    state: 'In a party',
    party: { id, currentSize: 1, maxSize: 4 },
    secrets: { join: `join-${id}` },
    supportedPlatforms: ActivityGamePlatforms.Desktop,
  });

  test('SearchFriendsByUsername: friends only, by Levenshtein distance to a part of the username or display name', T, async () => {
    assert.equal(substringDistance('nova', 'captain nova'), 0);
    assert.equal(substringDistance('novq', 'captain nova'), 1);
    assert.equal(substringDistance('zed', 'zxd'), 1);
    assert.equal(nameDistance('  ', ['anything']), Infinity);
    const me = await provisional('searcher', 'Searcher');
    const nova = await provisional('nova', 'Captain Nova');
    // Generated usernames end in random hex, so no search below may match hex digits: "zed" matched a suffix holding "ed".
    const zulu = await provisional('zulu', 'Zulu');
    await provisional('novak', 'Novak'); // no friend: never found
    await befriend(me, nova);
    await befriend(me, zulu);
    const names = (s: string) => me.searchFriendsByUsername(s).map((u) => u.displayName());
    assert.deepEqual(names('nova'), ['Captain Nova']);
    assert.deepEqual(names('NOVQ'), ['Captain Nova'], 'one typo in four letters');
    assert.deepEqual(names('zulu'), ['Zulu']);
    assert.deepEqual(names('zq'), [], 'no typo allowed in two letters');
    assert.deepEqual(names('captian nova'), ['Captain Nova'], 'two typos in a long search');
    assert.deepEqual(names(nova.getCurrentUserV2()!.username()), ['Captain Nova'], 'the generated username matches too');
    assert.deepEqual(names(''), []);
  });

  test('relationship groups: the callback fires when a friend starts playing; an invite follows its sender’s party', T, async () => {
    const host = await provisional('host', 'Host');
    const guest = await provisional('guest', 'Guest');
    await befriend(host, guest);
    const hostId = host.getCurrentUserV2()!.id();
    const groups: string[] = [];
    guest.setRelationshipGroupsUpdatedCallback((id) => groups.push(id));
    await host.updateRichPresence(party('raid-1'));
    await until(() => groups.includes(hostId), 10_000, 'the groups callback for the host');
    await until(() => guest.getRelationshipsByGroup(RelationshipGroupType.OnlinePlayingGame).some((r) => r.id() === hostId), 10_000, 'the host is playing');

    const created = new Promise<ActivityInvite>((resolve) => guest.setActivityInviteCreatedCallback(resolve));
    const updates: ActivityInvite[] = [];
    guest.setActivityInviteUpdatedCallback((i) => updates.push(i));
    const messages: string[] = [];
    guest.setMessageCreatedCallback((id) => messages.push(id));
    await host.sendActivityInvite(guest.getCurrentUserV2()!.id(), 'join the raid');
    const invite = await created;
    assert.equal(invite.isValid, true);
    assert.equal(invite.partyId, 'raid-1');
    // The host leaves the party: the invite is no longer joinable; back in it: joinable again.
    host.clearRichPresence();
    await until(() => updates.length === 1, 10_000, 'ActivityInviteUpdated: invalid');
    assert.deepEqual([updates[0].messageId, updates[0].isValid], [invite.messageId, false]);
    await host.updateRichPresence(party('raid-1'));
    await until(() => updates.length === 2, 10_000, 'ActivityInviteUpdated: valid again');
    assert.equal(updates[1].isValid, true);
    assert.ok(!messages.includes(invite.messageId), 'the invite never reached messageCreated');

    let joinedWith: [string, string] | null = null;
    guest.setActivityJoinWithApplicationCallback((app, secret) => (joinedWith = [app, secret]));
    assert.equal(await guest.acceptActivityInvite(updates[1]), 'join-raid-1');
    assert.deepEqual(joinedWith, [w.appId, 'join-raid-1']);
  });

  test('messages the platform keeps: open in the web client, one disclosure message; channel and extra content', T, async () => {
    const gus = await register('gus_player');
    const g = await platform(gus.id);
    const p = await provisional('pen-pal', 'Pen Pal');
    const q = await provisional('other-pal', 'Other Pal');
    await befriend(p, g);
    await befriend(p, q);
    const pId = p.getCurrentUserV2()!.id();

    // From a provisional account: kept too (a merge carries it over), but nothing to disclose, nobody on the platform sent it.
    const qSeen: string[] = [];
    q.setMessageCreatedCallback((id) => qSeen.push(id));
    const fromQ = await q.sendUserMessage(pId, 'psst');
    assert.equal(q.canOpenMessageInDiscord(fromQ), true);
    assert.equal(qSeen.filter((id) => q.getMessageHandle(id)?.disclosureType() !== undefined).length, 0);

    // A platform account's DMs are kept: the first one sent is followed by the disclosure message, once.
    const disclosures: string[] = [];
    g.setMessageCreatedCallback((id) => {
      if (g.getMessageHandle(id)?.disclosureType() === DisclosureTypes.MessageDataVisibleOnDiscord) disclosures.push(id);
    });
    const first = await g.sendUserMessage(pId, 'hello from Accord');
    await g.sendUserMessageWithMetadata(pId, 'again', { mood: 'happy' });
    assert.equal(disclosures.length, 1, 'one disclosure per channel');
    const note = g.getMessageHandle(disclosures[0])!;
    assert.equal(note.channelId(), g.getMessageHandle(first)!.channelId());
    assert.equal(g.canOpenMessageInDiscord(disclosures[0]), false, 'the disclosure is local');
    assert.ok(note.content().length > 0);
    const history = await g.getUserMessagesWithLimit(pId, 10);
    assert.ok(!history.some((m) => m.id() === disclosures[0]), 'nor is it DM history');
    assert.equal(g.canOpenMessageInDiscord(first), true);
    await g.openMessageInDiscord(first);
    const dm = g.getMessageHandle(first)!.channelId();
    assert.equal(opened.at(-1), `${w.t.server.url}/channels/@me/${dm}/${first}`);

    // Sent from the platform's client with an embed: the game learns there is more to see.
    const arrived = new Promise<string>((resolve) =>
      p.on('messageCreated', (e) => p.getMessageHandle(e.messageId)?.content() === 'look' && resolve(e.messageId)),
    );
    const r = await api(`/channels/${dm}/messages`, gus.token, 'POST', { content: 'look', embeds: [{ title: 'Treasure map', description: 'x marks it' }] });
    assert.equal(r.status, 200, r.text);
    const m = p.getMessageHandle(await arrived)!;
    assert.deepEqual(m.additionalContent(), { type: AdditionalContentType.Embed, title: 'Treasure map', count: 1 });
    assert.equal(m.sentFromGame(), false);
    assert.deepEqual(m.channel(), { id: dm, name: 'gus_player', type: ChannelType.Dm, recipients: [gus.id] });
    assert.equal(m.lobby(), undefined);
    assert.equal(p.getMessageHandle(first)!.additionalContent(), undefined, 'plain text has none');

    // The other kinds, from the message objects the platform sends.
    assert.deepEqual(additionalContentOf({ attachments: [{}, {}] }), { type: AdditionalContentType.Attachment, title: null, count: 2 });
    assert.deepEqual(additionalContentOf({ poll: { question: { text: 'Map?' } } }), { type: AdditionalContentType.Poll, title: 'Map?', count: 1 });
    assert.deepEqual(additionalContentOf({ flags: 1 << 13, attachments: [{}] }), { type: AdditionalContentType.VoiceMessage, title: null, count: 1 });
    assert.deepEqual(additionalContentOf({ sticker_items: [{ name: 'wave' }] }), { type: AdditionalContentType.Sticker, title: 'wave', count: 1 });
    assert.deepEqual(additionalContentOf({ thread: { name: 'Strategy' } }), { type: AdditionalContentType.Thread, title: 'Strategy', count: 1 });
  });

  test('a linked lobby: its messages open in the guild channel; JoinLinkedLobbyGuild invites to the guild', T, async () => {
    const hana = await register('hana_player');
    const created = await bot('/lobbies', 'POST', { members: [{ id: owner().id, flags: 1 }, { id: hana.id }] });
    assert.equal(created.status, 201, created.text);
    const lobbyId = created.body.id as string;
    const o = await platform(owner().id);
    const h = await platform(hana.id);
    const p = await provisional('lobby-pal', 'Lobby Pal');
    assert.equal((await bot(`/lobbies/${lobbyId}/members/${p.getCurrentUserV2()!.id()}`, 'PUT', {})).status, 200);
    await until(() => !!o.getLobbyHandle(lobbyId) && !!p.getLobbyHandle(lobbyId), 10_000, 'the lobby reaches its members');
    await assert.rejects(h.joinLinkedLobbyGuild(lobbyId), (e: ClientResult) => e.type === ErrorType.ValidationError, 'not linked yet');
    const text = w.t.world.textChannelId;
    await o.linkChannelToLobby(lobbyId, text);
    await until(() => !!h.getLobbyHandle(lobbyId)?.linkedChannel() && !!p.getLobbyHandle(lobbyId)?.linkedChannel(), 10_000, 'LOBBY_UPDATE with the link');

    // A lobby message is also the channel's: it opens there; the first one discloses it.
    const disclosed: string[] = [];
    o.setMessageCreatedCallback((id) => o.getMessageHandle(id)?.disclosureType() !== undefined && disclosed.push(id));
    const sent = await o.sendLobbyMessageWithMetadata(lobbyId, 'gg', { team: 'red' });
    assert.equal(disclosed.length, 1);
    assert.equal(o.getMessageHandle(sent)!.lobby()!.id(), lobbyId);
    assert.equal(o.getMessageHandle(sent)!.channel()!.type, ChannelType.Lobby);
    assert.equal(o.canOpenMessageInDiscord(sent), true);
    await o.openMessageInDiscord(sent);
    assert.equal(opened.at(-1), `${w.t.server.url}/channels/${w.t.world.guildId}/${text}/${sent}`);

    // Hana is not in the guild: an invite, opened in the web client, that she accepts there.
    const url = await h.joinLinkedLobbyGuild(lobbyId);
    assert.match(url, new RegExp(`^${w.t.server.url}/invite/[A-Za-z0-9]{10}$`));
    assert.equal(opened.at(-1), url);
    const accepted = await api(`/invites/${url.split('/').pop()}`, hana.token, 'POST', {});
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.body.guild.id, w.t.world.guildId);
    // A provisional member merges first.
    await assert.rejects(
      p.joinLinkedLobbyGuild(lobbyId, () => p.provisionalUserMergeCompleted(false)),
      (e: ClientResult) => e.type === ErrorType.AuthorizationFailed,
    );

    // Without a link, lobby chat stays in the game.
    const secretLobby = await p.createOrJoinLobby('quiet-corner');
    const quiet = await p.sendLobbyMessage(secretLobby, 'just us');
    assert.equal(p.canOpenMessageInDiscord(quiet), false);
  });

  test('CallInfoHandle: who is in a lobby call and their mute, seen by a member outside the call', T, async () => {
    const a = await provisional('caller', 'Caller');
    const b = await provisional('watcher', 'Watcher');
    const lobbyId = await a.createOrJoinLobby('call-room');
    await b.createOrJoinLobby('call-room');
    const voiceLogs: string[] = [];
    a.addVoiceLogCallback((m) => voiceLogs.push(m), LoggingSeverity.Verbose);
    const call = a.startCall(lobbyId) as Call;
    const aId = a.getCurrentUserV2()!.id();
    await until(() => !!b.getLobbyHandle(lobbyId)?.getCallInfoHandle()?.getVoiceStateHandle(aId), 20_000, 'the voice state reaches the watcher');
    const info = b.getLobbyHandle(lobbyId)!.getCallInfoHandle()!;
    assert.equal(info.channelId(), lobbyId);
    assert.equal(info.guildId(), null, 'a lobby call has no guild');
    assert.deepEqual(info.getParticipants(), [aId]);
    assert.equal(info.getVoiceStateHandle(aId)!.selfMute(), false);
    assert.equal(info.getVoiceStateHandle(b.getCurrentUserV2()!.id()), undefined);
    call.setSelfMute(true);
    await until(() => info.getVoiceStateHandle(aId)?.selfMute() === true, 20_000, 'the mute is seen');
    assert.ok(
      voiceLogs.some((m) => m.startsWith(`call ${lobbyId}: status`)),
      'call logs go to the voice log callback',
    );
    await a.endCall(lobbyId);
  });

  test('SetLogDir writes discord.log (Node); ToString helpers; avatar URLs by animated and static type', T, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-logs-'));
    const c = client();
    assert.equal(c.setLogDir(dir, LoggingSeverity.Verbose), true);
    assert.equal(c.setLogDir(path.join(dir, 'missing', 'dir'), LoggingSeverity.Info), false, 'a directory that does not exist');
    assert.equal(c.setLogDir(dir, LoggingSeverity.Verbose), true);
    const tok = await c.getProvisionalToken(w.appId, ExternalAuthType.OIDC, await idToken('logger'));
    await c.updateToken(AuthorizationTokenType.Bearer, tok.accessToken);
    await c.connect();
    assert.equal(c.getStatus(), Status.Ready);
    assert.match(fs.readFileSync(path.join(dir, 'discord.log'), 'utf8'), /\[Verbose\] status Ready/);
    assert.equal(c.setLogDir(dir, LoggingSeverity.None), true, 'None stops file logging');
    fs.rmSync(dir, { recursive: true, force: true });

    assert.equal(Client.threadToString(ClientThread.Voice), 'Voice');
    assert.equal(Client.statusToString(Status.HttpWait), 'HttpWait');
    assert.equal(Call.statusToString(CallStatus.SignalingConnected), 'SignalingConnected');
    assert.equal(Call.errorToString(CallError.Forbidden), 'Forbidden');
    assert.equal(UserHandle.avatarTypeToString(AvatarType.Webp), 'Webp');
    assert.equal(additionalContentTypeToString(AdditionalContentType.Poll), 'Poll');
    assert.equal(enumToString(ChannelType, 18), 'EphemeralDm');
    assert.equal(enumToString(ChannelType, 99), 'unknown');

    const cache = new Cache();
    cache.putUser({ id: '80351110224678912', username: 'anim', global_name: null, avatar: 'a_1234' });
    cache.putUser({ id: '80351110224678913', username: 'still', global_name: null, avatar: '5678' });
    const view = (id: string) => new UserHandle(cache, 'https://web', 'https://cdn', id);
    assert.equal(view('80351110224678912').avatarUrl(AvatarType.Gif, AvatarType.Png), 'https://cdn/avatars/80351110224678912/a_1234.gif');
    assert.equal(view('80351110224678913').avatarUrl(AvatarType.Gif, AvatarType.Jpeg), 'https://cdn/avatars/80351110224678913/5678.jpeg');
    assert.equal(view('80351110224678913').avatarUrl('webp'), 'https://cdn/avatars/80351110224678913/5678.webp', 'one format: for both');
    assert.equal(view('80351110224678913').avatarUrl(), 'https://cdn/avatars/80351110224678913/5678.png');
  });
});
