import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { expectError, register } from './helpers/fixtures.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * Invites with target users and roles: Create Channel Invite with `target_users_file` (multipart CSV) and `role_ids`,
 * Get Target Users (CSV with the single header `user_id`), the target-user routes, acceptance rules, and Get Channel
 * Invites with partial roles.
 */
let t: TestServer;
const owner = () => t.world.users[0];
const asOwner = () => ({ token: owner().token });
const asBot = () => ({ token: t.world.botToken, bot: true });
const g = () => t.world.guildId;
const ch = () => t.world.textChannelId;
const show = (r: { body: unknown }) => JSON.stringify(r.body);

let granted: { id: string; name: string; position: number };
let users: { id: string; token: string }[];

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  const role = await t.api(`/guilds/${g()}/roles`, { method: 'POST', ...asOwner(), body: { name: 'Invited', color: 0x3366ff, permissions: '0' } });
  granted = role.body;
  users = [await register(t, 'target_one'), await register(t, 'target_two'), await register(t, 'not_listed')];
});
after(async () => {
  await t.close();
});

function csvForm(csv: string, payload: Record<string, unknown>): FormData {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  form.append('target_users_file', new Blob([csv], { type: 'text/csv' }), 'targets.csv');
  return form;
}

test('invites: Create Channel Invite with target_users_file (CSV) and role_ids; only listed users may accept; roles granted on accept', async () => {
  const [one, two, outsider] = users;
  const form = csvForm(`user_id\n${one.id}\n${two.id}\n`, { max_age: 0, role_ids: [granted.id] });
  const made = await t.api(`/channels/${ch()}/invites`, { method: 'POST', ...asBot(), body: form });
  assert.equal(made.status, 200, show(made));
  const code = made.body.code;
  assert.deepEqual(made.body.roles, [
    {
      id: granted.id,
      name: 'Invited',
      position: granted.position,
      color: 0x3366ff,
      colors: { primary_color: 0x3366ff, secondary_color: null, tertiary_color: null },
      icon: null,
      unicode_emoji: null,
    },
  ]);

  // Someone not in the file cannot accept.
  expectError(await t.api(`/invites/${code}`, { method: 'POST', token: outsider.token }), 403, 50001);
  const ok = await t.api(`/invites/${code}`, { method: 'POST', token: one.token });
  assert.equal(ok.status, 200, show(ok));
  assert.equal(ok.body.new_member, true);
  const member = await t.api(`/guilds/${g()}/members/${one.id}`, asBot());
  assert.deepEqual(member.body.roles, [granted.id], 'the invite role is granted on accept');

  // The same settings never reuse a targeted invite.
  const plain = await t.api(`/channels/${ch()}/invites`, { method: 'POST', ...asBot(), body: { max_age: 0 } });
  assert.notEqual(plain.body.code, code);
  assert.equal(plain.body.roles, undefined);
});

test('invites: Get Target Users returns a CSV with the single header user_id; target-user routes and job status', async () => {
  const [one, two, outsider] = users;
  const made = await t.api(`/channels/${ch()}/invites`, { method: 'POST', ...asBot(), body: csvForm(`${one.id}\r\n${two.id}`, { max_age: 0 }) });
  assert.equal(made.status, 200, show(made));
  const code = made.body.code;
  const csv = await fetch(`${t.server.url}/api/v10/invites/${code}/target-users`, { headers: { authorization: `Bot ${t.world.botToken}` } });
  assert.equal(csv.status, 200);
  assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
  const lines = (await csv.text()).trim().split('\n');
  assert.equal(lines[0], 'user_id');
  assert.deepEqual(lines.slice(1).sort(), [one.id, two.id].sort());

  const status = await t.api(`/invites/${code}/target-users/job-status`, asBot());
  assert.equal(status.body.status, 2);
  assert.equal(status.body.total_users, 2);
  assert.equal(status.body.processed_users, 2);
  assert.equal(status.body.error_message, null);

  assert.equal((await t.api(`/invites/${code}/target-users/${outsider.id}`, { method: 'PUT', ...asBot() })).status, 204);
  assert.equal((await t.api(`/invites/${code}/target-users/${one.id}`, { method: 'DELETE', ...asBot() })).status, 204);
  let body = (await t.api(`/invites/${code}/target-users`, asBot())).text;
  assert.deepEqual(body.trim().split('\n').slice(1).sort(), [two.id, outsider.id].sort());
  assert.equal(
    (await t.api(`/invites/${code}/target-users/bulk-delete`, { method: 'POST', ...asBot(), body: { user_ids: [two.id, outsider.id] } })).status,
    204,
  );
  assert.equal((await t.api(`/invites/${code}/target-users/bulk-add`, { method: 'POST', ...asBot(), body: { user_ids: [one.id] } })).status, 204);
  body = (await t.api(`/invites/${code}/target-users`, asBot())).text;
  assert.equal(body, `user_id\n${one.id}\n`);
  expectError(await t.api(`/invites/${code}/target-users/bulk-add`, { method: 'POST', ...asBot(), body: { user_ids: ['x'] } }), 400, 50035);

  // PUT with a new file replaces the list.
  const form = new FormData();
  form.append('target_users_file', new Blob([`user_id\n${outsider.id}\n`]), 'new.csv');
  assert.equal((await t.api(`/invites/${code}/target-users`, { method: 'PUT', ...asBot(), body: form })).status, 204);
  assert.equal((await t.api(`/invites/${code}/target-users`, asBot())).text, `user_id\n${outsider.id}\n`);
  const accepted = await t.api(`/invites/${code}`, { method: 'POST', token: outsider.token });
  assert.equal(accepted.status, 200, show(accepted));

  // A bad file, and someone who may not manage the invite.
  const bad = await t.api(`/channels/${ch()}/invites`, { method: 'POST', ...asBot(), body: csvForm('user_id\nnot-an-id\n', {}) });
  expectError(bad, 400, 50035);
  assert.equal(bad.body.errors.target_users_file._errors[0].code, 'TARGET_USERS_FILE_INVALID');
  expectError(await t.api(`/invites/${code}/target-users`, { token: outsider.token }), 403, 50013);
  expectError(await t.api('/invites/nope1234/target-users', asBot()), 404, 10006);
});

test('invites: role_ids need MANAGE_ROLES and a role below the caller; Get Channel Invites carries partial roles', async () => {
  const bad = await t.api(`/channels/${ch()}/invites`, { method: 'POST', ...asBot(), body: { role_ids: ['1'] } });
  expectError(bad, 400, 50035);
  expectError(await t.api(`/channels/${ch()}/invites`, { method: 'POST', ...asBot(), body: { role_ids: [g()] } }), 400, 50035);
  // A plain member may create invites but not grant roles.
  const member = users[2];
  expectError(await t.api(`/channels/${ch()}/invites`, { method: 'POST', token: member.token, body: { role_ids: [granted.id] } }), 403, 50013);
  // Multipart forms may send role_ids as a comma-separated field.
  const form = new FormData();
  form.append('role_ids', granted.id);
  form.append('max_age', '0');
  const viaForm = await t.api(`/channels/${ch()}/invites`, { method: 'POST', ...asBot(), body: form });
  assert.equal(viaForm.status, 200, show(viaForm));
  assert.equal(viaForm.body.roles[0].id, granted.id);

  const list = await t.api(`/channels/${ch()}/invites`, asBot());
  assert.equal(list.status, 200);
  const withRoles = list.body.find((i: any) => i.code === viaForm.body.code);
  assert.deepEqual(Object.keys(withRoles.roles[0]).sort(), ['color', 'colors', 'icon', 'id', 'name', 'position', 'unicode_emoji']);
  assert.ok(
    list.body.some((i: any) => i.roles === undefined),
    'invites without roles carry none',
  );
});
