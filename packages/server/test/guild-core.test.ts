import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import type { BusEvent } from '../src/bus/bus.js';
import { expectError, register } from './helpers/fixtures.js';
import { P } from '@accord/protocol';

/** The guild side of the HTTP core: guilds, channels, roles, members, bans and invites, against a real server. */
let t: TestServer;
let events: BusEvent[] = [];
const owner = () => t.world.users[0];
const bob = () => t.world.users[1];
const asOwner = () => ({ token: owner().token });
const asBob = () => ({ token: bob().token });
const asBot = () => ({ token: t.world.botToken, bot: true });
const g = () => t.world.guildId;
const show = (r: { body: unknown }) => JSON.stringify(r.body);
const seen = (name: string) => events.filter((e) => e.t === name);

before(async () => {
  t = await startTestServer();
  t.server.ctx.bus.subscribe((e) => events.push(e));
});
after(async () => {
  await t.close();
});

// ---------------------------------------------------------------------------------------------------------------- guilds

test('guilds: create (users only), read with counts, edit, delete', async () => {
  expectError(await t.api('/guilds', { method: 'POST', ...asBot(), body: { name: 'Bot Guild' } }), 403, 20001);
  const bad = await t.api('/guilds', { method: 'POST', ...asOwner(), body: { name: 'x', verification_level: 9 } });
  expectError(bad, 400, 50035);
  assert.equal(bad.body.errors.name._errors[0].code, 'BASE_TYPE_MIN_LENGTH');
  assert.equal(bad.body.errors.verification_level._errors[0].code, 'NUMBER_TYPE_MAX');

  const made = await t.api('/guilds', { method: 'POST', ...asOwner(), body: { name: 'Second Home' } });
  assert.equal(made.status, 201, show(made));
  assert.equal(made.body.owner_id, owner().id);
  assert.equal(made.body.roles.length, 1);
  assert.equal(made.body.roles[0].id, made.body.id);
  const gid = made.body.id as string;

  const read = await t.api(`/guilds/${gid}?with_counts=true`, asOwner());
  assert.equal(read.status, 200);
  assert.equal(read.body.approximate_member_count, 1);
  assert.equal((await t.api(`/guilds/${gid}`, asOwner())).body.approximate_member_count, undefined);
  expectError(await t.api(`/guilds/${gid}`, asBob()), 404, 10004); // not a member
  expectError(await t.api('/guilds/123', asOwner()), 404, 10004);
  expectError(await t.api('/guilds/not-a-snowflake', asOwner()), 404, 10004);
  expectError(await t.api('/guilds/99999999999999999999', asOwner()), 404, 10004);

  expectError(await t.api(`/guilds/${g()}`, { method: 'PATCH', ...asBob(), body: { name: 'Mine now' } }), 403, 50013);
  expectError(await t.api(`/guilds/${gid}`, { method: 'PATCH', ...asOwner(), body: { name: 'y' } }), 400, 50035);
  events = [];
  const renamed = await t.api(`/guilds/${gid}`, { method: 'PATCH', ...asOwner(), body: { name: 'Renamed', description: 'hello' } });
  assert.equal(renamed.status, 200, show(renamed));
  assert.equal(renamed.body.name, 'Renamed');
  assert.equal(seen('GUILD_UPDATE')[0]?.d.name, 'Renamed');
  const badRef = await t.api(`/guilds/${gid}`, { method: 'PATCH', ...asOwner(), body: { system_channel_id: t.world.textChannelId } });
  expectError(badRef, 400, 50035);
  assert.ok(badRef.body.errors.system_channel_id);

  // Only the owner deletes; every member hears about it.
  expectError(await t.api(`/guilds/${g()}`, { method: 'DELETE', ...asBot() }), 403, 50013);
  events = [];
  assert.equal((await t.api(`/guilds/${gid}`, { method: 'DELETE', ...asOwner() })).status, 204);
  assert.deepEqual(seen('GUILD_DELETE')[0]?.user_ids, [owner().id]);
  expectError(await t.api(`/guilds/${gid}`, asOwner()), 404, 10004);
});

// -------------------------------------------------------------------------------------------------------------- channels

test('channels: create, validate, edit, overwrites hide channels, reorder, delete', async () => {
  const before = (await t.api(`/guilds/${g()}/channels`, asOwner())).body.length;
  const bad = await t.api(`/guilds/${g()}/channels`, {
    method: 'POST',
    ...asBot(),
    body: { name: '', type: 3, rate_limit_per_user: 99999, permission_overwrites: [{ id: '1', type: 7 }] },
  });
  expectError(bad, 400, 50035);
  assert.ok(bad.body.errors.name && bad.body.errors.type && bad.body.errors.rate_limit_per_user);
  assert.equal(bad.body.errors.permission_overwrites['0'].type._errors[0].code, 'BASE_TYPE_CHOICES');
  const badParent = await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...asBot(), body: { name: 'x', parent_id: t.world.textChannelId } });
  expectError(badParent, 400, 50035);
  assert.ok(badParent.body.errors.parent_id);
  const badRole = await t.api(`/guilds/${g()}/channels`, {
    method: 'POST',
    ...asBot(),
    body: { name: 'x', permission_overwrites: [{ id: '12345', type: 0 }] },
  });
  expectError(badRole, 400, 50035);
  assert.ok(badRole.body.errors.permission_overwrites['0'].id);
  expectError(await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...asOwner(), body: { name: 'x', type: 0, topic: 'y'.repeat(1025) } }), 400, 50035);
  expectError(await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...asOwner(), body: { name: 'v', type: 2, bitrate: 500000 } }), 400, 50035);
  expectError(await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...asBob(), body: { name: 'nope' } }), 403, 50013);
  expectError(await t.api('/guilds/1/channels', { method: 'POST', ...asBot(), body: { name: 'nope' } }), 404, 10004);
  assert.equal((await t.api(`/guilds/${g()}/channels`, asOwner())).body.length, before, 'refused requests wrote nothing');

  events = [];
  const cat = await t.api(`/guilds/${g()}/channels`, {
    // An @everyone deny also hides it from the bot (role grants do not beat channel overwrites), hence its own allow.
    method: 'POST',
    ...asBot(),
    body: {
      name: 'Staff',
      type: 4,
      permission_overwrites: [
        { id: g(), type: 0, deny: String(P.VIEW_CHANNEL) },
        { id: t.world.botUserId, type: 1, allow: String(P.VIEW_CHANNEL) },
      ],
    },
  });
  assert.equal(cat.status, 201, show(cat));
  const created = seen('CHANNEL_CREATE')[0];
  assert.equal(created.d.id, cat.body.id);
  assert.equal(created.channel_id, cat.body.id);
  assert.equal(created.guild_id, g());

  // A channel made in a category without overwrites takes the category's.
  const staff = await t.api(`/guilds/${g()}/channels`, { method: 'POST', ...asBot(), body: { name: 'staff-chat', topic: 'secret', parent_id: cat.body.id } });
  assert.equal(staff.status, 201, show(staff));
  assert.equal(staff.body.parent_id, cat.body.id);
  assert.equal(staff.body.topic, 'secret');
  assert.deepEqual(
    staff.body.permission_overwrites.map((o: any) => [o.id, o.allow, o.deny]),
    [
      [g(), '0', String(P.VIEW_CHANNEL)],
      [t.world.botUserId, String(P.VIEW_CHANNEL), '0'],
    ],
  );

  // Bob cannot view them: they are left out of the list (2026-11-16 rule) and refused one by one.
  const bobList = (await t.api(`/guilds/${g()}/channels`, asBob())).body.map((c: any) => c.id);
  assert.ok(!bobList.includes(staff.body.id) && !bobList.includes(cat.body.id));
  assert.ok(bobList.includes(t.world.textChannelId));
  expectError(await t.api(`/channels/${staff.body.id}`, asBob()), 403, 50001);
  const ownerList = (await t.api(`/guilds/${g()}/channels`, asOwner())).body.map((c: any) => c.id);
  assert.ok(ownerList.includes(staff.body.id) && ownerList.includes(cat.body.id));

  // A member overwrite lets Bob in (and his view brings the category back).
  assert.equal(
    (await t.api(`/channels/${staff.body.id}/permissions/${bob().id}`, { method: 'PUT', ...asBot(), body: { type: 1, allow: String(P.VIEW_CHANNEL) } })).status,
    204,
  );
  assert.equal((await t.api(`/channels/${staff.body.id}`, asBob())).status, 200);
  const bobList2 = (await t.api(`/guilds/${g()}/channels`, asBob())).body.map((c: any) => c.id);
  assert.ok(bobList2.includes(staff.body.id) && bobList2.includes(cat.body.id));
  assert.equal((await t.api(`/channels/${staff.body.id}/permissions/${bob().id}`, { method: 'DELETE', ...asBot() })).status, 204);
  expectError(await t.api(`/channels/${staff.body.id}`, asBob()), 403, 50001);
  expectError(await t.api(`/channels/${staff.body.id}/permissions/${bob().id}`, { method: 'PUT', ...asBob(), body: { type: 1, allow: '1024' } }), 403, 50001);
  expectError(
    await t.api(`/channels/${t.world.textChannelId}/permissions/${bob().id}`, { method: 'PUT', ...asBob(), body: { type: 1, allow: '1024' } }),
    403,
    50013,
  );
  expectError(await t.api(`/channels/${t.world.textChannelId}/permissions/424242`, { method: 'PUT', ...asBot(), body: { type: 0 } }), 404, 10011);
  // The bot lacks ADMINISTRATOR, so it cannot hand it out through an overwrite.
  expectError(
    await t.api(`/channels/${t.world.textChannelId}/permissions/${bob().id}`, { method: 'PUT', ...asBot(), body: { type: 1, allow: String(P.ADMINISTRATOR) } }),
    403,
    50013,
  );

  // Edit.
  events = [];
  const edited = await t.api(`/channels/${staff.body.id}`, {
    method: 'PATCH',
    ...asBot(),
    body: { name: 'staff-room', topic: null, rate_limit_per_user: 30, nsfw: true },
  });
  assert.equal(edited.status, 200, show(edited));
  assert.equal(edited.body.name, 'staff-room');
  assert.equal(edited.body.topic, null);
  assert.equal(edited.body.rate_limit_per_user, 30);
  assert.equal(edited.body.nsfw, true);
  assert.equal(seen('CHANNEL_UPDATE')[0]?.d.name, 'staff-room');
  expectError(await t.api(`/channels/${staff.body.id}`, { method: 'PATCH', ...asBot(), body: { type: 2 } }), 400, 50035);
  expectError(await t.api(`/channels/${t.world.textChannelId}`, { method: 'PATCH', ...asBob(), body: { name: 'mine' } }), 403, 50013);
  expectError(await t.api('/channels/424242', { method: 'PATCH', ...asBot(), body: { name: 'x' } }), 404, 10003);
  expectError(await t.api('/channels/abc', asBot()), 404, 10003);

  // Positions and parents in one request.
  assert.equal(
    (await t.api(`/guilds/${g()}/channels`, { method: 'PATCH', ...asBot(), body: [{ id: staff.body.id, position: 7, parent_id: null }] })).status,
    204,
  );
  const moved = (await t.api(`/channels/${staff.body.id}`, asBot())).body;
  assert.equal(moved.position, 7);
  assert.equal(moved.parent_id, null);
  expectError(
    await t.api(`/guilds/${g()}/channels`, { method: 'PATCH', ...asBot(), body: [{ id: staff.body.id, parent_id: t.world.textChannelId }] }),
    400,
    50035,
  );
  assert.equal(
    (await t.api(`/guilds/${g()}/channels`, { method: 'PATCH', ...asBot(), body: [{ id: staff.body.id, parent_id: cat.body.id, lock_permissions: true }] }))
      .status,
    204,
  );

  // Deleting a category frees its children.
  events = [];
  const del = await t.api(`/channels/${cat.body.id}`, { method: 'DELETE', ...asBot() });
  assert.equal(del.status, 200, show(del));
  assert.equal(del.body.id, cat.body.id);
  assert.equal(seen('CHANNEL_DELETE')[0]?.d.id, cat.body.id);
  assert.equal((await t.api(`/channels/${staff.body.id}`, asBot())).body.parent_id, null);
  expectError(await t.api(`/channels/${cat.body.id}`, asBot()), 404, 10003);
  assert.equal((await t.api(`/channels/${staff.body.id}`, { method: 'DELETE', ...asOwner() })).status, 200);
});

test('channels: DMs are readable by their recipients only', async () => {
  const dm = await t.api('/users/@me/channels', { method: 'POST', ...asBob(), body: { recipient_id: owner().id } });
  assert.equal(dm.status, 200, show(dm));
  const read = await t.api(`/channels/${dm.body.id}`, asOwner());
  assert.equal(read.status, 200);
  assert.equal(read.body.type, 1);
  assert.deepEqual(
    read.body.recipients.map((u: any) => u.id),
    [bob().id],
  );
  expectError(await t.api(`/channels/${dm.body.id}`, asBot()), 403, 50001);
});

// ----------------------------------------------------------------------------------------------------------------- roles

test('roles: create, colors, hierarchy, managed roles, positions, counts, delete', async () => {
  expectError(await t.api(`/guilds/${g()}/roles`, { method: 'POST', ...asBob(), body: { name: 'Bob' } }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/roles`, { method: 'POST', ...asBot(), body: { name: 'x'.repeat(101), color: -1 } }), 400, 50035);
  // The bot cannot grant what it does not have.
  expectError(await t.api(`/guilds/${g()}/roles`, { method: 'POST', ...asBot(), body: { permissions: String(P.ADMINISTRATOR) } }), 403, 50013);

  events = [];
  const mod = await t.api(`/guilds/${g()}/roles`, {
    method: 'POST',
    ...asBot(),
    body: { name: 'Mod', permissions: String(P.KICK_MEMBERS | P.MANAGE_NICKNAMES), color: 0x3498db, hoist: true },
  });
  assert.equal(mod.status, 200, show(mod));
  assert.equal(mod.body.position, 1);
  assert.equal(mod.body.permissions, String(P.KICK_MEMBERS | P.MANAGE_NICKNAMES));
  assert.deepEqual(mod.body.colors, { primary_color: 0x3498db, secondary_color: null, tertiary_color: null });
  assert.deepEqual(seen('GUILD_ROLE_CREATE')[0]?.d, { guild_id: g(), role: mod.body });
  const defaults = await t.api(`/guilds/${g()}/roles`, { method: 'POST', ...asBot(), body: {} });
  assert.equal(defaults.body.name, 'new role');

  // Gradient colours need ENHANCED_ROLE_COLORS; `color` and `colors.primary_color` stay in sync.
  const gradient = await t.api(`/guilds/${g()}/roles/${mod.body.id}`, {
    method: 'PATCH',
    ...asBot(),
    body: { colors: { primary_color: 1, secondary_color: 2 } },
  });
  expectError(gradient, 400, 50035);
  assert.ok(gradient.body.errors.colors.secondary_color);
  await t.server.ctx.repos.store.db
    .updateTable('guilds')
    .set({ features: JSON.stringify(['ENHANCED_ROLE_COLORS']) })
    .where('id', '=', g())
    .execute();
  const withGradient = await t.api(`/guilds/${g()}/roles/${mod.body.id}`, {
    method: 'PATCH',
    ...asBot(),
    body: { colors: { primary_color: 1, secondary_color: 2 } },
  });
  assert.equal(withGradient.status, 200, show(withGradient));
  assert.equal(withGradient.body.color, 1);
  assert.deepEqual(withGradient.body.colors, { primary_color: 1, secondary_color: 2, tertiary_color: null });
  const holo = await t.api(`/guilds/${g()}/roles/${mod.body.id}`, {
    method: 'PATCH',
    ...asBot(),
    body: { colors: { primary_color: 5, secondary_color: 6, tertiary_color: 7 } },
  });
  assert.deepEqual(holo.body.colors, { primary_color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 });
  const legacy = await t.api(`/guilds/${g()}/roles/${mod.body.id}`, { method: 'PATCH', ...asBot(), body: { color: 0xff0000, colors: null } });
  assert.equal(legacy.body.colors.primary_color, 0xff0000);
  const flat = await t.api(`/guilds/${g()}/roles/${mod.body.id}`, { method: 'PATCH', ...asBot(), body: { colors: { primary_color: 9 } } });
  assert.deepEqual(flat.body.colors, { primary_color: 9, secondary_color: null, tertiary_color: null });
  assert.equal(flat.body.color, 9);

  expectError(await t.api(`/guilds/${g()}/roles/424242`, asBot()), 404, 10011);
  expectError(await t.api(`/guilds/${g()}/roles/nope`, asBot()), 404, 10011);
  assert.equal((await t.api(`/guilds/${g()}/roles/${mod.body.id}`, asBob())).body.name, 'Mod');

  // The bot's own role is managed: not editable, not assignable.
  const roles = (await t.api(`/guilds/${g()}/roles`, asBot())).body as any[];
  const botRole = roles.find((r) => r.managed);
  assert.equal(botRole.tags.bot_id, t.world.botUserId);
  expectError(await t.api(`/guilds/${g()}/roles/${botRole.id}`, { method: 'PATCH', ...asOwner(), body: { name: 'Renamed' } }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/members/${bob().id}/roles/${botRole.id}`, { method: 'PUT', ...asOwner() }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/roles/${g()}`, { method: 'DELETE', ...asOwner() }), 400, 50028);

  // The owner puts a role above the bot's; the bot can no longer touch it.
  const top = await t.api(`/guilds/${g()}/roles`, { method: 'POST', ...asOwner(), body: { name: 'Top' } });
  const botPos = (await t.api(`/guilds/${g()}/roles/${botRole.id}`, asOwner())).body.position;
  const reordered = await t.api(`/guilds/${g()}/roles`, { method: 'PATCH', ...asOwner(), body: [{ id: top.body.id, position: botPos }] });
  assert.equal(reordered.status, 200, show(reordered));
  const after = new Map((reordered.body as any[]).map((r) => [r.id, r.position]));
  assert.ok(after.get(top.body.id) > after.get(botRole.id), show(reordered));
  assert.equal(new Set(after.values()).size, after.size, 'positions stay unique');
  expectError(await t.api(`/guilds/${g()}/roles/${top.body.id}`, { method: 'PATCH', ...asBot(), body: { name: 'Not top' } }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/roles/${top.body.id}`, { method: 'DELETE', ...asBot() }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/members/${bob().id}/roles/${top.body.id}`, { method: 'PUT', ...asBot() }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/roles`, { method: 'PATCH', ...asBot(), body: [{ id: mod.body.id, position: after.get(top.body.id) }] }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/roles`, { method: 'PATCH', ...asBot(), body: [{ id: '424242', position: 1 }] }), 404, 10011);

  // Member counts leave @everyone out.
  assert.equal((await t.api(`/guilds/${g()}/members/${bob().id}/roles/${mod.body.id}`, { method: 'PUT', ...asBot() })).status, 204);
  const counts = (await t.api(`/guilds/${g()}/roles/member-counts`, asBot())).body;
  assert.equal(counts[mod.body.id], 1);
  assert.equal(counts[botRole.id], 1);
  assert.equal(counts[top.body.id], 0);
  assert.equal(counts[g()], undefined);

  events = [];
  assert.equal((await t.api(`/guilds/${g()}/roles/${defaults.body.id}`, { method: 'DELETE', ...asBot() })).status, 204);
  assert.deepEqual(seen('GUILD_ROLE_DELETE')[0]?.d, { guild_id: g(), role_id: defaults.body.id });
  expectError(await t.api(`/guilds/${g()}/roles/${defaults.body.id}`, asBot()), 404, 10011);
});

test('roles: a guild holds at most 250 roles', async () => {
  const made = await t.api('/guilds', { method: 'POST', ...asOwner(), body: { name: 'Role Farm' } });
  const gid = made.body.id as string;
  const rows = Array.from({ length: 249 }, (_, i) => ({
    id: t.server.ctx.ids.next(),
    guild_id: gid,
    name: `r${i}`,
    permissions: '0',
    position: i + 1,
    color: 0,
    secondary_color: null,
    tertiary_color: null,
    hoist: 0,
    mentionable: 0,
    managed: 0,
    icon: null,
    unicode_emoji: null,
    flags: 0,
    bot_id: null,
  }));
  await t.server.ctx.repos.store.db.insertInto('roles').values(rows).execute();
  t.server.ctx.access.invalidate(gid);
  expectError(await t.api(`/guilds/${gid}/roles`, { method: 'POST', ...asOwner(), body: { name: 'one too many' } }), 400, 30005);
});

// --------------------------------------------------------------------------------------------------------------- members

test('members: read, list, search, edit with per-field permissions and hierarchy', async () => {
  const one = await t.api(`/guilds/${g()}/members/${bob().id}`, asBot());
  assert.equal(one.status, 200);
  assert.equal(one.body.user.id, bob().id);
  expectError(await t.api(`/guilds/${g()}/members/424242`, asBot()), 404, 10007);
  expectError(await t.api(`/guilds/${g()}/members/xyz`, asBot()), 404, 10007);

  const all = (await t.api(`/guilds/${g()}/members?limit=1000`, asBot())).body as any[];
  const ids = all.map((m) => m.user.id);
  assert.equal(ids.length, 3);
  assert.deepEqual(
    ids,
    [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)),
  );
  assert.equal((await t.api(`/guilds/${g()}/members`, asBot())).body.length, 1, 'limit defaults to 1');
  assert.deepEqual(
    (await t.api(`/guilds/${g()}/members?limit=10&after=${ids[0]}`, asBot())).body.map((m: any) => m.user.id),
    ids.slice(1),
  );
  expectError(await t.api(`/guilds/${g()}/members?limit=1001`, asBot()), 400, 50035);

  const found = await t.api(`/guilds/${g()}/members/search?query=${bob().username.slice(0, 4).toUpperCase()}&limit=10`, asBot());
  assert.equal(found.status, 200, show(found));
  assert.deepEqual(
    found.body.map((m: any) => m.user.id),
    [bob().id],
  );
  assert.equal((await t.api(`/guilds/${g()}/members/search?query=%25`, asBot())).body.length, 0, 'LIKE wildcards are literal');
  const noQuery = await t.api(`/guilds/${g()}/members/search`, asBot());
  expectError(noQuery, 400, 50035);
  assert.equal(noQuery.body.errors.query._errors[0].code, 'BASE_TYPE_REQUIRED');

  // Nicknames: others' need MANAGE_NICKNAMES and a higher rank; one's own needs CHANGE_NICKNAME.
  events = [];
  const nicked = await t.api(`/guilds/${g()}/members/${bob().id}`, { method: 'PATCH', ...asBot(), body: { nick: 'Bobby' } });
  assert.equal(nicked.status, 200, show(nicked));
  assert.equal(nicked.body.nick, 'Bobby');
  const upd = seen('GUILD_MEMBER_UPDATE')[0];
  assert.equal(upd.d.guild_id, g());
  assert.equal(upd.d.user.id, bob().id);
  assert.equal(upd.d.nick, 'Bobby');
  assert.equal((await t.api(`/guilds/${g()}/members/search?query=bobb`, asBot())).body.length, 1, 'search matches nicks');
  expectError(await t.api(`/guilds/${g()}/members/${owner().id}`, { method: 'PATCH', ...asBot(), body: { nick: 'Boss' } }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/members/${owner().id}`, { method: 'PATCH', ...asBob(), body: { nick: 'Boss' } }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/members/${bob().id}`, { method: 'PATCH', ...asBot(), body: { nick: 'x'.repeat(33) } }), 400, 50035);
  const mine = await t.api(`/guilds/${g()}/members/@me`, { method: 'PATCH', ...asBob(), body: { nick: 'Me' } });
  assert.equal(mine.body.nick, 'Me');
  const legacy = await t.api(`/guilds/${g()}/members/@me/nick`, { method: 'PATCH', ...asBob(), body: { nick: 'Legacy' } });
  assert.deepEqual(legacy.body, { nick: 'Legacy' });

  // Roles: all-or-nothing, unknown roles refused, nothing written on refusal.
  const rolesNow = (await t.api(`/guilds/${g()}/members/${bob().id}`, asBot())).body.roles;
  expectError(await t.api(`/guilds/${g()}/members/${bob().id}`, { method: 'PATCH', ...asBot(), body: { nick: 'Changed', roles: ['424242'] } }), 404, 10011);
  const unchanged = (await t.api(`/guilds/${g()}/members/${bob().id}`, asBot())).body;
  assert.equal(unchanged.nick, 'Legacy');
  assert.deepEqual(unchanged.roles, rolesNow);
  const cleared = await t.api(`/guilds/${g()}/members/${bob().id}`, { method: 'PATCH', ...asBot(), body: { roles: [] } });
  assert.deepEqual(cleared.body.roles, []);
  expectError(await t.api(`/guilds/${g()}/members/${bob().id}`, { method: 'PATCH', ...asBob(), body: { roles: [] } }), 403, 50013);

  // Timeouts: at most 28 days ahead, never on the owner.
  const until = new Date(t.server.ctx.clock.now() + 3600_000).toISOString();
  const timedOut = await t.api(`/guilds/${g()}/members/${bob().id}`, { method: 'PATCH', ...asBot(), body: { communication_disabled_until: until } });
  assert.equal(timedOut.status, 200, show(timedOut));
  assert.equal(timedOut.body.communication_disabled_until, until);
  // A timed-out member keeps only view and history: Bob can no longer change his nick.
  expectError(await t.api(`/guilds/${g()}/members/@me`, { method: 'PATCH', ...asBob(), body: { nick: 'Quiet' } }), 403, 50013);
  const tooFar = new Date(t.server.ctx.clock.now() + 29 * 86400_000).toISOString();
  const far = await t.api(`/guilds/${g()}/members/${bob().id}`, { method: 'PATCH', ...asBot(), body: { communication_disabled_until: tooFar } });
  expectError(far, 400, 50035);
  assert.ok(far.body.errors.communication_disabled_until);
  expectError(await t.api(`/guilds/${g()}/members/${owner().id}`, { method: 'PATCH', ...asBot(), body: { communication_disabled_until: until } }), 403, 50013);
  const lifted = await t.api(`/guilds/${g()}/members/${bob().id}`, { method: 'PATCH', ...asBot(), body: { communication_disabled_until: null } });
  assert.equal(lifted.body.communication_disabled_until, null);

  // Voice moves need a voice connection, which nobody has yet.
  expectError(await t.api(`/guilds/${g()}/members/${bob().id}`, { method: 'PATCH', ...asBot(), body: { channel_id: t.world.voiceChannelId } }), 400, 40032);
  const muted = await t.api(`/guilds/${g()}/members/${bob().id}`, { method: 'PATCH', ...asBot(), body: { mute: true, deaf: true } });
  assert.equal(muted.body.mute, true);
  assert.equal(muted.body.deaf, true);

  // Kicks: never the owner.
  expectError(await t.api(`/guilds/${g()}/members/${owner().id}`, { method: 'DELETE', ...asBot() }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/members/${t.world.botUserId}`, { method: 'DELETE', ...asBob() }), 403, 50013);
});

// ------------------------------------------------------------------------------------------------------------------ bans

test('bans: ban removes the member and recent messages, list, unban, bulk-ban', async () => {
  const ctx = t.server.ctx;
  const now = ctx.clock.now();
  const msg = (createdAt: number) => ({
    id: ctx.ids.next(),
    channel_id: t.world.textChannelId,
    guild_id: g(),
    author_id: bob().id,
    webhook_id: null,
    application_id: null,
    type: 0,
    content: 'hi',
    tts: 0,
    mention_everyone: 0,
    mentions: '[]',
    mention_roles: '[]',
    attachments: '[]',
    embeds: '[]',
    components: '[]',
    sticker_items: null,
    flags: 0,
    nonce: null,
    pinned_at: null,
    edited_at: null,
    message_reference: null,
    extra: '{}',
    created_at: createdAt,
  });
  const recent = [msg(now - 60_000), msg(now - 120_000)];
  const old = msg(now - 2 * 86400_000);
  await ctx.repos.store.db
    .insertInto('messages')
    .values([...recent, old])
    .execute();

  expectError(await t.api(`/guilds/${g()}/bans/${bob().id}`, { method: 'PUT', ...asBot(), body: { delete_message_seconds: 604801 } }), 400, 50035);
  expectError(await t.api(`/guilds/${g()}/bans/${owner().id}`, { method: 'PUT', ...asBot(), body: {} }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/bans/${owner().id}`, { method: 'PUT', ...asBob(), body: {} }), 403, 50013);
  expectError(await t.api(`/guilds/${g()}/bans/424242`, { method: 'PUT', ...asBot(), body: {} }), 404, 10013);

  events = [];
  assert.equal((await t.api(`/guilds/${g()}/bans/${bob().id}`, { method: 'PUT', ...asBot(), body: { delete_message_seconds: 3600 } })).status, 204);
  const bulk = seen('MESSAGE_DELETE_BULK')[0];
  assert.deepEqual(bulk?.d, { ids: recent.map((m) => m.id).sort(), channel_id: t.world.textChannelId, guild_id: g() });
  assert.equal(bulk.channel_id, t.world.textChannelId);
  assert.equal(seen('GUILD_BAN_ADD')[0]?.d.user.id, bob().id);
  assert.equal(seen('GUILD_MEMBER_REMOVE').length, 1);
  const left = await ctx.repos.store.db.selectFrom('messages').select('id').where('author_id', '=', bob().id).execute();
  assert.deepEqual(
    left.map((r) => String(r.id)),
    [old.id],
  );
  expectError(await t.api(`/guilds/${g()}/members/${bob().id}`, asBot()), 404, 10007);

  const ban = await t.api(`/guilds/${g()}/bans/${bob().id}`, asBot());
  assert.equal(ban.status, 200);
  assert.equal(ban.body.user.id, bob().id);
  assert.equal((await t.api(`/guilds/${g()}/bans`, asBot())).body.length, 1);
  expectError(await t.api(`/guilds/${g()}/bans`, asBob()), 404, 10004); // Bob is no longer a member
  expectError(await t.api(`/guilds/${g()}/bans/${owner().id}`, asBot()), 404, 10026);

  // A banned user cannot come back through an invite.
  const inv = await t.api(`/channels/${t.world.textChannelId}/invites`, { method: 'POST', ...asBot(), body: {} });
  expectError(await t.api(`/invites/${inv.body.code}`, { method: 'POST', ...asBob() }), 403, 40007);

  events = [];
  assert.equal((await t.api(`/guilds/${g()}/bans/${bob().id}`, { method: 'DELETE', ...asBot() })).status, 204);
  assert.equal(seen('GUILD_BAN_REMOVE')[0]?.d.user.id, bob().id);
  expectError(await t.api(`/guilds/${g()}/bans/${bob().id}`, { method: 'DELETE', ...asBot() }), 404, 10026);

  const carol = await register(t, `carol_${Date.now() % 100000}`);
  const res = await t.api(`/guilds/${g()}/bulk-ban`, { method: 'POST', ...asBot(), body: { user_ids: [carol.id, '424242', owner().id] } });
  assert.equal(res.status, 200, show(res));
  assert.deepEqual(res.body, { banned_users: [carol.id], failed_users: ['424242', owner().id] });
  expectError(await t.api(`/guilds/${g()}/bulk-ban`, { method: 'POST', ...asBot(), body: { user_ids: ['424242'] } }), 400, 500000);
  expectError(
    await t.api(`/guilds/${g()}/bulk-ban`, { method: 'POST', ...asBot(), body: { user_ids: Array.from({ length: 201 }, (_, i) => String(i + 1)) } }),
    400,
    50035,
  );
  assert.equal((await t.api(`/guilds/${g()}/bans/${carol.id}`, { method: 'DELETE', ...asBot() })).status, 204);
  // Paging by user id.
  const lists = await t.api(`/guilds/${g()}/bans?limit=5`, asBot());
  assert.deepEqual(lists.body, []);
});

// --------------------------------------------------------------------------------------------------------------- invites

test('invites: create, reuse, resolve, accept by a new user, use up, expire, revoke', async () => {
  const ch = t.world.textChannelId;
  expectError(await t.api(`/channels/${ch}/invites`, { method: 'POST', ...asBot(), body: { max_age: 604801, max_uses: 101 } }), 400, 50035);
  expectError(await t.api('/channels/424242/invites', { method: 'POST', ...asBot(), body: {} }), 404, 10003);

  events = [];
  const inv = await t.api(`/channels/${ch}/invites`, { method: 'POST', ...asBot(), body: { max_age: 0, max_uses: 0 } });
  assert.equal(inv.status, 200, show(inv));
  assert.match(inv.body.code, /^[A-Za-z0-9]{8}$/);
  assert.equal(inv.body.uses, 0);
  assert.equal(inv.body.expires_at, null);
  assert.equal(inv.body.inviter.id, t.world.botUserId);
  const ev = seen('INVITE_CREATE')[0];
  assert.equal(ev.d.code, inv.body.code);
  assert.equal(ev.d.channel_id, ch);
  assert.equal(ev.d.guild_id, g());
  // Without `unique`, the same settings give the same invite back.
  assert.equal((await t.api(`/channels/${ch}/invites`, { method: 'POST', ...asBot(), body: { max_age: 0, max_uses: 0 } })).body.code, inv.body.code);
  assert.notEqual(
    (await t.api(`/channels/${ch}/invites`, { method: 'POST', ...asBot(), body: { max_age: 0, max_uses: 0, unique: true } })).body.code,
    inv.body.code,
  );

  const resolved = await t.api(`/invites/${inv.body.code}?with_counts=true&with_expiration=true`);
  assert.equal(resolved.status, 200, show(resolved));
  assert.equal(resolved.body.guild.id, g());
  assert.equal(resolved.body.channel.id, ch);
  assert.equal(typeof resolved.body.approximate_member_count, 'number');
  assert.equal(resolved.body.uses, undefined, 'no metadata on resolve');
  expectError(await t.api('/invites/nope-nope'), 404, 10006);

  // A brand-new user joins through the invite; Bob (unbanned earlier) comes back too.
  const dave = await register(t, `dave_${Date.now() % 100000}`);
  expectError(await t.api(`/invites/${inv.body.code}`, { method: 'POST', ...asBot() }), 403, 20001);
  events = [];
  const joined = await t.api(`/invites/${inv.body.code}`, { method: 'POST', token: dave.token });
  assert.equal(joined.status, 200, show(joined));
  assert.equal(joined.body.new_member, true);
  assert.equal(joined.body.guild.id, g());
  assert.equal(seen('GUILD_MEMBER_ADD')[0]?.d.user.id, dave.id);
  assert.equal((await t.api(`/invites/${inv.body.code}`, { method: 'POST', token: dave.token })).body.new_member, false);
  assert.equal((await t.api(`/guilds/${g()}/members/${dave.id}`, asBot())).status, 200);
  assert.equal((await t.api(`/invites/${inv.body.code}`, { method: 'POST', ...asBob() })).body.new_member, true);

  const listed = await t.api(`/channels/${ch}/invites`, asBot());
  assert.equal(listed.status, 200);
  assert.equal(listed.body.find((i: any) => i.code === inv.body.code)?.uses, 2);
  expectError(await t.api(`/channels/${ch}/invites`, asBob()), 403, 50013);
  assert.ok((await t.api(`/guilds/${g()}/invites`, asBot())).body.some((i: any) => i.code === inv.body.code));
  expectError(await t.api(`/guilds/${g()}/invites`, asBob()), 403, 50013);

  // One use only: the second newcomer finds it gone.
  const once = await t.api(`/channels/${ch}/invites`, { method: 'POST', ...asBot(), body: { max_uses: 1, unique: true } });
  const erin = await register(t, `erin_${Date.now() % 100000}`);
  const frank = await register(t, `frank_${Date.now() % 100000}`);
  assert.equal((await t.api(`/invites/${once.body.code}`, { method: 'POST', token: erin.token })).body.new_member, true);
  expectError(await t.api(`/invites/${once.body.code}`, { method: 'POST', token: frank.token }), 404, 10006);
  expectError(await t.api(`/invites/${once.body.code}`), 404, 10006);

  // Revoking: the inviter or a channel manager, not a bystander.
  expectError(await t.api(`/invites/${inv.body.code}`, { method: 'DELETE', ...asBob() }), 403, 50013);
  events = [];
  const revoked = await t.api(`/invites/${inv.body.code}`, { method: 'DELETE', ...asOwner() });
  assert.equal(revoked.status, 200, show(revoked));
  assert.equal(revoked.body.code, inv.body.code);
  assert.deepEqual(seen('INVITE_DELETE')[0]?.d, { channel_id: ch, guild_id: g(), code: inv.body.code });
  expectError(await t.api(`/invites/${inv.body.code}`), 404, 10006);

  // Age runs on the server clock.
  const short = await t.api(`/channels/${ch}/invites`, { method: 'POST', ...asBot(), body: { max_age: 60, unique: true } });
  assert.equal((await t.api(`/invites/${short.body.code}`)).status, 200);
  t.server.ctx.clock.advance(61_000);
  expectError(await t.api(`/invites/${short.body.code}`), 404, 10006);
  expectError(await t.api(`/invites/${short.body.code}`, { method: 'POST', token: frank.token }), 404, 10006);

  // Kicking a newcomer: KICK_MEMBERS and a higher rank.
  events = [];
  assert.equal((await t.api(`/guilds/${g()}/members/${dave.id}`, { method: 'DELETE', ...asBot() })).status, 204);
  assert.equal(seen('GUILD_MEMBER_REMOVE')[0]?.d.user.id, dave.id);
  expectError(await t.api(`/guilds/${g()}/members/${dave.id}`, asBot()), 404, 10007);
});
