import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { register } from './helpers/fixtures.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t?.close();
});

test('join requests: applicants apply to a guild with member verification, moderators list, approve (joins) and reject', async () => {
  const g = t.world.guildId;
  const owner = { token: t.world.users[0].token };
  const bob = { token: t.world.users[1].token };
  const carol = await register(t, 'carol');
  const dan = await register(t, 'dan');
  assert.equal((await t.api(`/guilds/${g}/requests/@me`, { token: carol.token, method: 'PUT', body: {} })).status, 403, 'no verification gate: refused');
  const guild = (await t.api(`/guilds/${g}`, owner)).body;
  await t.api(`/guilds/${g}`, { ...owner, method: 'PATCH', body: { features: [...guild.features, 'MEMBER_VERIFICATION_GATE_ENABLED'] } });
  const a = await t.api(`/guilds/${g}/requests/@me`, { token: carol.token, method: 'PUT', body: { form_responses: [] } });
  assert.equal(a.status, 200, a.text);
  assert.equal(a.body.application_status, 'SUBMITTED');
  const b = await t.api(`/guilds/${g}/requests/@me`, { token: dan.token, method: 'PUT', body: {} });
  assert.equal((await t.api(`/guilds/${g}/requests/@me`, { ...bob, method: 'PUT', body: {} })).status, 400, 'members do not apply');
  assert.equal((await t.api(`/guilds/${g}/requests`, bob)).status, 403, 'bob may not review');
  const list = await t.api(`/guilds/${g}/requests`, owner);
  assert.equal(list.body.total, 2);
  assert.deepEqual(list.body.guild_join_requests.map((r: any) => r.user_id).sort(), [carol.id, dan.id].sort());

  const ok = await t.api(`/guilds/${g}/requests/${a.body.id}`, { ...owner, method: 'PATCH', body: { action: 'APPROVED' } });
  assert.equal(ok.body.application_status, 'APPROVED');
  assert.equal(ok.body.actioned_by_user.id, t.world.users[0].id);
  assert.equal((await t.api(`/guilds/${g}/members/${carol.id}`, owner)).status, 200, 'carol joined');
  const no = await t.api(`/guilds/${g}/requests/${b.body.id}`, { ...owner, method: 'PATCH', body: { action: 'REJECTED', rejection_reason: 'not now' } });
  assert.deepEqual([no.body.application_status, no.body.rejection_reason], ['REJECTED', 'not now']);
  assert.equal((await t.api(`/guilds/${g}/members/${dan.id}`, owner)).status, 404, 'dan did not join');
  assert.equal((await t.api(`/guilds/${g}/requests/${b.body.id}`, { ...owner, method: 'PATCH', body: { action: 'APPROVED' } })).status, 400, 'reviewed once');
  assert.equal((await t.api(`/guilds/${g}/requests?status=REJECTED`, owner)).body.total, 1);
});

test('new-member welcome: 204 until a Server Guide is set (MANAGE_GUILD), then the guide; incident actions pause up to 24 h', async () => {
  const g = t.world.guildId;
  const owner = { token: t.world.users[0].token };
  const bob = { token: t.world.users[1].token };
  assert.equal((await t.api(`/guilds/${g}/new-member-welcome`, bob)).status, 204);
  const guide = {
    enabled: true,
    welcome_message: { author_ids: [t.world.users[0].id], message: 'Welcome!' },
    new_member_actions: [{ channel_id: t.world.textChannelId, action_type: 0, title: 'Say hi', description: 'Post in general' }],
    resource_channels: [],
  };
  assert.equal((await t.api(`/guilds/${g}/new-member-welcome`, { ...bob, method: 'PUT', body: guide })).status, 403);
  assert.equal((await t.api(`/guilds/${g}/new-member-welcome`, { ...owner, method: 'PUT', body: guide })).status, 200);
  const got = await t.api(`/guilds/${g}/new-member-welcome`, bob);
  assert.deepEqual(got.body, { guild_id: g, ...guide });

  const until = new Date(Date.now() + 3600_000).toISOString();
  const r = await t.api(`/guilds/${g}/incident-actions`, { ...owner, method: 'PUT', body: { invites_disabled_until: until } });
  assert.deepEqual(r.body, { invites_disabled_until: until, dms_disabled_until: null });
  assert.deepEqual((await t.api(`/guilds/${g}`, owner)).body.incidents_data, { invites_disabled_until: until, dms_disabled_until: null });
  assert.equal(
    (
      await t.api(`/guilds/${g}/incident-actions`, {
        ...owner,
        method: 'PUT',
        body: { dms_disabled_until: new Date(Date.now() + 2 * 86400_000).toISOString() },
      })
    ).status,
    400,
  );
  await t.api(`/guilds/${g}/incident-actions`, { ...owner, method: 'PUT', body: { invites_disabled_until: null } });
  assert.equal((await t.api(`/guilds/${g}`, owner)).body.incidents_data, null);
});
