/**
 * Large guilds on the Gateway (issue 16): one serialized GUILD_CREATE body shared by the sessions that see the guild
 * the same way, and presences that reach people only when they follow them (gateway/presence-fanout.ts).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { createUser } from '../src/services/identity/users.js';
import { issueToken } from '../src/services/identity/tokens.js';
import { addMember } from '../src/services/guilds/membership.js';
import { guildCreateCache } from '../src/gateway/guild-create-cache.js';

const GUILDS = 1;
const GUILD_PRESENCES = 1 << 8;
/** More members than the lowest large_threshold (50), which the sessions below ask for. */
const MEMBERS = 60;

let t: TestServer;
const people: { id: string; token: string }[] = [];
const open: RawGateway[] = [];

before(async () => {
  t = await startTestServer();
  const ctx = t.server.ctx;
  for (let i = 0; i < MEMBERS; i++) {
    const u = await createUser(ctx, { username: `crowd_${i}_${Date.now() % 100000}`, globalName: `Crowd ${i}` });
    await addMember(ctx, t.world.guildId, u.id);
    people.push({ id: u.id, token: await issueToken(ctx, u.id, 'user') });
  }
  await t.server.gateway.dispatcher.idle();
});
after(async () => {
  for (const gw of open) gw.close();
  await t?.close();
});

/** A user session asking for large guilds above 50 members; resolves once its GUILD_CREATE arrived. */
async function connect(token: string, extra: Record<string, unknown> = { large_threshold: 50 }) {
  const gw = await RawGateway.connect(t.server.url);
  open.push(gw);
  await gw.identify(token, extra);
  const guild = await gw.dispatch('GUILD_CREATE', (d) => d.id === t.world.guildId, 15_000);
  return { gw, guild };
}

/** GUILD_CREATE without the fields that are the session's own. */
const shared = (d: any) => {
  const { joined_at: _j, members: _m, presences: _p, ...rest } = d;
  return rest;
};

test('sessions with the same view of a guild share one serialized GUILD_CREATE; an extra overwrite makes another view', async () => {
  const [a, b, c] = people;
  const owner = t.world.users[0].token;
  // A channel only c can see (a member overwrite allows what @everyone is denied).
  const secret = await t.api(`/guilds/${t.world.guildId}/channels`, {
    token: owner,
    method: 'POST',
    body: {
      name: 'secret',
      type: 0,
      permission_overwrites: [
        { id: t.world.guildId, type: 0, deny: '1024' },
        { id: c.id, type: 1, allow: '1024' },
      ],
    },
  });
  assert.equal(secret.status, 201);
  await t.server.gateway.dispatcher.idle();

  const cache = guildCreateCache(t.server.ctx);
  const builds = cache.builds;
  const [sa, sb] = await Promise.all([connect(a.token), connect(b.token)]);
  assert.equal(cache.builds - builds, 1, 'two users with the same view: the body is serialized once');
  assert.deepEqual(shared(sa.guild), shared(sb.guild));
  // What is their own: the member, its join time and presence.
  for (const [s, who] of [
    [sa, a],
    [sb, b],
  ] as const) {
    assert.equal(s.guild.large, true);
    assert.equal(s.guild.member_count, MEMBERS + 2 + 1); // the crowd, the seeded two and the seeded bot
    assert.deepEqual(
      s.guild.members.map((m: any) => m.user.id),
      [who.id],
    );
    assert.equal(s.guild.joined_at, s.guild.members[0].joined_at);
    assert.deepEqual(
      s.guild.presences.map((p: any) => [p.user.id, p.status]),
      [[who.id, 'online']],
    );
  }
  assert.ok(!sa.guild.channels.some((ch: any) => ch.id === secret.body.id));

  const sc = await connect(c.token);
  assert.equal(cache.builds - builds, 2, 'another view: another body');
  assert.ok(
    sc.guild.channels.some((ch: any) => ch.id === secret.body.id),
    'the overwrite shows the channel',
  );
  assert.deepEqual(
    sc.guild.channels.filter((ch: any) => ch.id !== secret.body.id),
    sa.guild.channels,
  );

  // A change to the guild is never served from an older body.
  assert.equal((await t.api(`/guilds/${t.world.guildId}`, { token: owner, method: 'PATCH', body: { name: 'Renamed' } })).status, 200);
  await t.server.gateway.dispatcher.idle();
  const sd = await connect(people[3].token);
  assert.equal(sd.guild.name, 'Renamed');
  assert.equal(cache.builds - builds, 3);
});

test('large guilds: people get the presences they follow; bots with GUILD_PRESENCES get all', async () => {
  const [, , , , watcher, friend, stranger, asked] = people;
  // watcher and friend are friends.
  assert.equal((await t.api(`/users/@me/relationships/${friend.id}`, { token: watcher.token, method: 'PUT', body: {} })).status, 204);
  assert.equal((await t.api(`/users/@me/relationships/${watcher.id}`, { token: friend.token, method: 'PUT', body: {} })).status, 204);

  const { gw: w } = await connect(watcher.token);
  const bot = await RawGateway.connect(t.server.url);
  open.push(bot);
  await bot.identify(t.world.botToken, { intents: GUILDS | GUILD_PRESENCES, large_threshold: 50 });
  await bot.dispatch('GUILD_CREATE', (d) => d.id === t.world.guildId, 15_000);

  const presenceOf = (_gw: RawGateway, userId: string, guildScoped: boolean) => (d: any) =>
    d.user?.id === userId && (guildScoped ? d.guild_id === t.world.guildId : !d.guild_id);

  // A stranger comes online: the bot is told, the watcher (who did not ask) is not.
  await connect(stranger.token);
  await bot.dispatch('PRESENCE_UPDATE', presenceOf(bot, stranger.id, true));
  // The friend comes online: the watcher is told (the friend's presence, and in the guild: friends are followed).
  await connect(friend.token);
  await w.dispatch('PRESENCE_UPDATE', presenceOf(w, friend.id, false));
  await w.dispatch('PRESENCE_UPDATE', presenceOf(w, friend.id, true));
  // Frames arrive in order: by now the stranger's presence would have come before the friend's.
  const seen = (id: string) => w.frames.filter((f) => f.t === 'PRESENCE_UPDATE' && f.d.user.id === id).length;
  assert.equal(seen(stranger.id), 0, 'no presence of a member the watcher did not ask for');

  // Asking for a member's presence (op 8, presences: true) follows it from then on.
  w.send(8, { guild_id: t.world.guildId, user_ids: [asked.id], presences: true });
  await w.dispatch('GUILD_MEMBERS_CHUNK', (d) => d.members[0]?.user.id === asked.id);
  await connect(asked.token);
  await w.dispatch('PRESENCE_UPDATE', presenceOf(w, asked.id, true));
  await bot.dispatch('PRESENCE_UPDATE', presenceOf(bot, asked.id, true));
  assert.equal(seen(stranger.id), 0);

  // The member list's request (everyone, with presences) follows every member.
  w.send(8, { guild_id: t.world.guildId, query: '', limit: 0, presences: true });
  const chunk = await w.dispatch('GUILD_MEMBERS_CHUNK', (d) => d.members.length > 2);
  assert.ok(
    chunk.presences.some((p: any) => p.user.id === stranger.id && p.status === 'online'),
    'online members come with the chunk',
  );
  const late = people[8];
  await connect(late.token);
  await w.dispatch('PRESENCE_UPDATE', presenceOf(w, late.id, true));

  // In a guild under its large_threshold (250 here), a person gets every member's presence, as before.
  const small = await RawGateway.connect(t.server.url);
  open.push(small);
  await small.identify(people[9].token, { large_threshold: 250 });
  await small.dispatch('GUILD_CREATE', (d) => d.id === t.world.guildId, 15_000);
  await connect(people[10].token);
  await small.dispatch('PRESENCE_UPDATE', presenceOf(small, people[10].id, true));
});
