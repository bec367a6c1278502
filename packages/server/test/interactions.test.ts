import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { until } from './helpers/wait.js';
import { sendTypedForm, typedForm } from './helpers/fixtures.js';
import type { BusEvent } from '../src/bus/bus.js';
import { P } from '@accord/protocol';

/**
 * Interactions end to end at the protocol level: a person triggers them with POST /interactions, the app's copy is
 * read off the bus (what the bot's gateway sessions get), and the app answers through the callback and webhook
 * routes. The users' own gateway sessions show what the official client sees.
 */

let t: TestServer;
const events: BusEvent[] = [];
let alice: string; // users[0], guild owner
let bob: string; // users[1], plain member
let botToken: string;
let appId: string;
let botId: string;
let guildId: string;
let channelId: string;
let aliceGw: RawGateway;
let bobGw: RawGateway;
let nonceSeq = 1000;
const cmd: Record<string, any> = {};

const api = (path: string, o: { method?: string; token?: string; bot?: boolean; body?: unknown } = {}) => t.api(path, o);

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  t.server.ctx.bus.subscribe((e) => events.push(e));
  alice = t.world.users[0].token;
  bob = t.world.users[1].token;
  botToken = t.world.botToken;
  appId = t.world.applicationId;
  botId = t.world.botUserId;
  guildId = t.world.guildId;
  channelId = t.world.textChannelId;
  aliceGw = await RawGateway.connect(t.server.url);
  await aliceGw.identify(alice);
  bobGw = await RawGateway.connect(t.server.url);
  await bobGw.identify(bob);

  const commands = [
    {
      name: 'ping',
      description: 'Ping with options',
      integration_types: [0, 1],
      contexts: [0, 1, 2],
      options: [
        { type: 6, name: 'who', description: 'a user' },
        { type: 7, name: 'where', description: 'a channel' },
        { type: 8, name: 'role', description: 'a role' },
        { type: 4, name: 'n', description: 'a number', min_value: 1, max_value: 10 },
        { type: 11, name: 'file', description: 'a file' },
        { type: 3, name: 'q', description: 'autocompleted', autocomplete: true },
      ],
    },
    { type: 2, name: 'Inspect' },
    { type: 3, name: 'Quote' },
    { name: 'admin', description: 'owners only', default_member_permissions: String(P.MANAGE_GUILD) },
  ];
  const put = await api(`/applications/${appId}/commands`, { method: 'PUT', token: botToken, bot: true, body: commands });
  assert.equal(put.status, 200, put.text);
  for (const c of put.body) cmd[c.name] = c;
});
after(async () => {
  aliceGw?.close();
  bobGw?.close();
  await t?.close();
});

/** The app's copy of the next interaction (what the bot's sessions receive). */
function appInteraction(from: number, app = botId, ms = 3000): Promise<any> {
  return until(
    () => events.slice(from).find((e) => e.t === 'INTERACTION_CREATE' && e.user_ids?.includes(app) && e.d.token)?.d,
    ms,
    "the app's INTERACTION_CREATE",
  );
}

interface Invoke {
  token?: string;
  channel?: string;
  guild?: string | null;
  app?: string;
  type?: number;
  data: any;
  message_id?: string;
  form?: FormData;
}
/** POST /interactions as a person; resolves with the payload the app received. */
async function invoke(o: Invoke): Promise<{ payload: any; nonce: string }> {
  const nonce = String(++nonceSeq);
  const body: any = {
    type: o.type ?? 2,
    application_id: o.app ?? appId,
    channel_id: o.channel ?? channelId,
    session_id: 'session-1',
    nonce,
    data: o.data,
    ...(o.guild === null ? {} : { guild_id: o.guild ?? guildId }),
    ...(o.message_id ? { message_id: o.message_id } : {}),
  };
  let sent: unknown = body;
  if (o.form) {
    o.form.set('payload_json', JSON.stringify(body));
    sent = o.form;
  }
  const from = events.length;
  const r = await api('/interactions', { method: 'POST', token: o.token ?? alice, body: sent });
  assert.equal(r.status, 204, r.text);
  return { payload: await appInteraction(from, o.app ?? botId), nonce };
}

const slash = (name: string, options: any[] = [], extra: any = {}) => ({
  id: cmd[name].id,
  name,
  type: cmd[name].type ?? 1,
  version: cmd[name].version,
  options,
  ...extra,
});

async function callback(i: any, body: unknown, withResponse = false) {
  return api(`/interactions/${i.id}/${i.token}/callback${withResponse ? '?with_response=true' : ''}`, { method: 'POST', body });
}

test('the app receives the full payload: permissions as strings, owners, context, resolved entities', async () => {
  const roles = await api(`/guilds/${guildId}/roles`, { token: alice });
  const everyone = roles.body.find((r: any) => r.id === guildId);
  const form = new FormData();
  form.set('files[0]', new Blob([Buffer.from('hello file')], { type: 'text/plain' }), 'hello.txt');
  const { payload: p } = await invoke({
    form,
    data: {
      ...slash('ping', [
        { type: 6, name: 'who', value: t.world.users[1].id },
        { type: 7, name: 'where', value: channelId },
        { type: 8, name: 'role', value: everyone.id },
        { type: 4, name: 'n', value: 3 },
        { type: 11, name: 'file', value: '0' },
      ]),
      attachments: [{ id: '0', filename: 'hello.txt' }],
    },
  });
  assert.equal(p.type, 2);
  assert.equal(p.version, 1);
  assert.equal(p.application_id, appId);
  assert.equal(typeof p.token, 'string');
  assert.equal(p.context, 0);
  assert.deepEqual(p.authorizing_integration_owners, { '0': guildId });
  assert.equal(typeof p.app_permissions, 'string');
  // Expected by hand, from the documented algorithm and the guild's data over REST (not the server's own computation):
  // base = @everyone | the bot's roles; no ADMINISTRATOR; the channel has no overwrites, so base is the answer. The bot
  // was installed with every permission bit but ADMINISTRATOR (bit 3); bit 47 is not a permission.
  let installed = 0n;
  for (let bit = 0; bit <= 52; bit++) if (bit !== 3 && bit !== 47) installed |= 1n << BigInt(bit);
  const member = await api(`/guilds/${guildId}/members/${botId}`, { token: alice });
  const botRoles = roles.body.filter((r: any) => member.body.roles.includes(r.id));
  assert.deepEqual(
    botRoles.map((r: any) => r.permissions),
    [installed.toString()],
  );
  assert.deepEqual((await api(`/channels/${channelId}`, { token: alice })).body.permission_overwrites, []);
  const expected = BigInt(everyone.permissions) | installed;
  assert.equal(p.app_permissions, expected.toString());
  assert.equal(p.attachment_size_limit, 10485760);
  assert.deepEqual(p.entitlements, []);
  assert.equal(p.guild_id, guildId);
  assert.deepEqual(Object.keys(p.guild).sort(), ['features', 'id', 'locale']);
  assert.equal(p.channel.id, channelId);
  assert.equal(typeof p.channel.permissions, 'string');
  assert.equal(p.member.user.id, t.world.users[0].id);
  assert.equal(typeof p.member.permissions, 'string');
  assert.equal(p.user, undefined);
  assert.equal(p.locale, 'en-US');

  const d = p.data;
  assert.equal(d.name, 'ping');
  assert.equal(d.type, 1);
  const opt = (n: string) => d.options.find((o: any) => o.name === n);
  assert.equal(opt('n').value, 3);
  const r = d.resolved;
  assert.equal(r.users[t.world.users[1].id].id, t.world.users[1].id);
  assert.equal(r.members[t.world.users[1].id].user, undefined, 'resolved members carry no user');
  assert.equal(typeof r.members[t.world.users[1].id].permissions, 'string');
  assert.equal(r.roles[everyone.id].id, everyone.id);
  assert.equal(typeof r.channels[channelId].permissions, 'string');
  assert.equal(typeof r.channels[channelId].app_permissions, 'string', 'the bot is in the guild');
  const att = r.attachments[opt('file').value];
  assert.equal(att.filename, 'hello.txt');
  assert.equal(att.size, 10);
});

test('DMs: app_permissions, context and owners in the bot DM and in a DM with another user (user install)', async () => {
  const dm = await api('/users/@me/channels', { method: 'POST', token: alice, body: { recipient_id: botId } });
  assert.equal(dm.status, 200, dm.text);
  const { payload: p } = await invoke({ channel: dm.body.id, guild: null, data: slash('ping') });
  assert.equal(p.context, 1);
  assert.equal(p.app_permissions, '442368');
  assert.deepEqual(p.authorizing_integration_owners, { '0': '0' });
  assert.equal(p.user.id, t.world.users[0].id);
  assert.equal(p.member, undefined);
  assert.equal(p.guild_id, undefined);

  // A DM with Bob: only a user installation reaches it.
  const other = await api('/users/@me/channels', { method: 'POST', token: alice, body: { recipient_id: t.world.users[1].id } });
  const body = { type: 2, application_id: appId, channel_id: other.body.id, session_id: 's', data: slash('ping') };
  const refused = await api('/interactions', { method: 'POST', token: alice, body });
  assert.equal(refused.status, 404, refused.text);
  assert.equal(refused.body.code, 10063);
  await t.server.ctx.repos.store.db
    .insertInto('oauth_grants')
    .values({ application_id: appId, user_id: t.world.users[0].id, scopes: 'applications.commands', integration_type: 1, created_at: Date.now() })
    .execute();
  try {
    const { payload: q } = await invoke({ channel: other.body.id, guild: null, data: slash('ping') });
    assert.equal(q.context, 2);
    assert.equal(q.app_permissions, '180224');
    assert.deepEqual(q.authorizing_integration_owners, { '1': t.world.users[0].id });
    const r = await callback(q, { type: 4, data: { content: 'in a private channel' } }, true);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.resource.message.interaction_metadata.authorizing_integration_owners, { '1': t.world.users[0].id });
  } finally {
    await t.server.ctx.repos.store.db.deleteFrom('oauth_grants').where('application_id', '=', appId).execute();
  }
});

test('a reply: with_response, message shape, interaction_metadata, deprecated interaction, user-side events', async () => {
  const { payload: i, nonce } = await invoke({ data: slash('ping') });
  const created = await aliceGw.dispatch('INTERACTION_CREATE', (d) => d.id === i.id);
  assert.deepEqual(created, { id: i.id, nonce });
  const r = await callback(i, { type: 4, data: { content: 'pong!' } }, true);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.interaction.id, i.id);
  assert.equal(r.body.interaction.type, 2);
  assert.equal(r.body.interaction.response_message_loading, false);
  assert.equal(r.body.interaction.response_message_ephemeral, false);
  assert.equal(r.body.resource.type, 4);
  const m = r.body.resource.message;
  assert.equal(r.body.interaction.response_message_id, m.id);
  assert.equal(m.content, 'pong!');
  assert.equal(m.type, 20);
  assert.equal(m.author.id, botId);
  assert.equal(m.webhook_id, appId);
  assert.equal(m.application_id, appId);
  assert.equal(m.interaction_metadata.id, i.id);
  assert.equal(m.interaction_metadata.type, 2);
  assert.equal(m.interaction_metadata.user.id, t.world.users[0].id);
  assert.equal(m.interaction_metadata.user.username, t.world.users[0].username);
  assert.equal('user_id' in m.interaction_metadata, false);
  assert.deepEqual(m.interaction_metadata.authorizing_integration_owners, { '0': guildId });
  assert.equal(m.interaction.id, i.id);
  assert.equal(m.interaction.name, 'ping');
  assert.equal(m.interaction.user.id, t.world.users[0].id);
  // The legacy interaction's member is a MESSAGE_CREATE field only (discord-api-types), not in REST answers.
  assert.equal(m.interaction.member, undefined);
  const success = await aliceGw.dispatch('INTERACTION_SUCCESS', (d) => d.id === i.id);
  assert.deepEqual(success, { id: i.id, nonce });
  // The bob client sees the message, but none of Alice's interaction events.
  const seen = await bobGw.dispatch('MESSAGE_CREATE', (d) => d.id === m.id);
  assert.ok(seen.interaction.member, 'the member in guilds (MESSAGE_CREATE)');
  assert.equal(seen.guild_id, guildId);
  assert.equal(
    bobGw.frames.some((f) => f.t === 'INTERACTION_SUCCESS' || (f.t === 'INTERACTION_CREATE' && f.d.id === i.id)),
    false,
  );

  // A second initial response.
  const again = await callback(i, { type: 4, data: { content: 'again' } });
  assert.equal(again.status, 400);
  assert.equal(again.body.code, 40060);
  // A 204 without with_response; GET @original returns the reply.
  const orig = await api(`/webhooks/${appId}/${i.token}/messages/@original`);
  assert.equal(orig.status, 200, orig.text);
  assert.equal(orig.body.id, m.id);
});

test('a bad token is 10062; callback types that do not fit the interaction are refused', async () => {
  const { payload: i } = await invoke({ data: slash('ping') });
  const bad = await api(`/interactions/${i.id}/not-the-token/callback`, { method: 'POST', body: { type: 4, data: { content: 'x' } } });
  assert.equal(bad.status, 404);
  assert.equal(bad.body.code, 10062);
  for (const type of [1, 6, 7, 8, 13, 3]) {
    const r = await callback(i, { type, data: { choices: [] } });
    assert.equal(r.status, 400, `type ${type}: ${r.text}`);
    assert.equal(r.body.code, 50035);
  }
  const noEmbedded = await callback(i, { type: 12 });
  assert.equal(noEmbedded.status, 400);
  // Still answerable after refused attempts.
  const ok = await callback(i, { type: 10 });
  assert.equal(ok.status, 204, ok.text);
  await aliceGw.dispatch('INTERACTION_SUCCESS', (d) => d.id === i.id);
});

test('LAUNCH_ACTIVITY needs the EMBEDDED flag and returns the activity instance', async () => {
  const { ctx } = t.server;
  const row = await ctx.repos.store.db.selectFrom('applications').select('flags').where('id', '=', appId).executeTakeFirstOrThrow();
  await ctx.repos.store.db
    .updateTable('applications')
    .set({ flags: (BigInt(row.flags) | (1n << 17n)).toString() })
    .where('id', '=', appId)
    .execute();
  try {
    const { payload: i } = await invoke({ data: slash('ping') });
    const r = await callback(i, { type: 12 }, true);
    assert.equal(r.status, 200, r.text);
    const expected = `i-${i.id}-gc-${guildId}-${channelId}`;
    assert.equal(r.body.interaction.activity_instance_id, expected);
    assert.deepEqual(r.body.resource, { type: 12, activity_instance: { id: expected } });
  } finally {
    await ctx.repos.store.db.updateTable('applications').set({ flags: row.flags }).where('id', '=', appId).execute();
  }
});

test('deferred reply: a loading message, then @original fills it and adds a poll; the first follow-up after a defer fills it too', async () => {
  const { payload: i } = await invoke({ data: slash('ping') });
  const r = await callback(i, { type: 5 }, true);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.interaction.response_message_loading, true);
  const loading = await api(`/webhooks/${appId}/${i.token}/messages/@original`);
  assert.equal(loading.body.flags & 128, 128);
  assert.equal(loading.body.content, '');
  const patch = await api(`/webhooks/${appId}/${i.token}/messages/@original`, {
    method: 'PATCH',
    body: {
      content: 'vote!',
      poll: { question: { text: 'Tea or coffee?' }, answers: [{ poll_media: { text: 'Tea' } }, { poll_media: { text: 'Coffee' } }], duration: 1 },
    },
  });
  assert.equal(patch.status, 200, patch.text);
  assert.equal(patch.body.flags & 128, 0);
  assert.equal(patch.body.content, 'vote!');
  assert.equal(patch.body.poll.question.text, 'Tea or coffee?');
  assert.equal(patch.body.poll.answers.length, 2);
  // No poll on a message that is no longer deferred.
  const late = await api(`/webhooks/${appId}/${i.token}/messages/@original`, {
    method: 'PATCH',
    body: { poll: { question: { text: 'x' }, answers: [{ poll_media: { text: 'y' } }] } },
  });
  assert.equal(late.status, 400);

  const { payload: j } = await invoke({ data: slash('ping') });
  assert.equal((await callback(j, { type: 5, data: { flags: 64 } })).status, 204);
  const f = await api(`/webhooks/${appId}/${j.token}`, { method: 'POST', body: { content: 'filled by a follow-up' } });
  assert.equal(f.status, 200, f.text);
  const original = await api(`/webhooks/${appId}/${j.token}/messages/@original`);
  assert.equal(original.body.id, f.body.id);
  assert.equal(original.body.flags, 64, 'EPHEMERAL kept from the defer, LOADING cleared');
  const second = await api(`/webhooks/${appId}/${j.token}`, { method: 'POST', body: { content: 'a real follow-up' } });
  assert.notEqual(second.body.id, f.body.id);
  assert.equal(second.body.interaction_metadata.original_response_message_id, f.body.id);
  assert.equal(second.body.type, 0);
  // Deferred may only carry EPHEMERAL.
  const { payload: k } = await invoke({ data: slash('ping') });
  const wrong = await callback(k, { type: 5, data: { flags: 4 } });
  assert.equal(wrong.status, 400);
});

test('a reply and a follow-up take a JSON-typed payload_json part with a file, as Eris sends them', async () => {
  const { payload: i } = await invoke({ data: slash('ping') });
  const file = { name: 'reply.txt', data: 'attached' };
  const reply = await sendTypedForm(
    t,
    `/interactions/${i.id}/${i.token}/callback?with_response=true`,
    typedForm(JSON.stringify({ type: 4, data: { content: 'typed reply', attachments: [{ id: 0 }] } }), file),
  );
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.body.resource.message.content, 'typed reply');
  assert.equal(reply.body.resource.message.attachments[0].filename, 'reply.txt');
  const followUp = await sendTypedForm(t, `/webhooks/${appId}/${i.token}?wait=true`, typedForm(JSON.stringify({ content: 'typed follow-up' }), file));
  assert.equal(followUp.status, 200, followUp.text);
  assert.equal(followUp.body.content, 'typed follow-up');
  assert.equal(followUp.body.attachments[0].filename, 'reply.txt');
});

test('follow-ups: create, get, edit, delete', async () => {
  const { payload: i } = await invoke({ data: slash('ping') });
  assert.equal((await callback(i, { type: 4, data: { content: 'first' } })).status, 204);
  const f = await api(`/webhooks/${appId}/${i.token}?wait=false`, { method: 'POST', body: { content: 'follow' } });
  assert.equal(f.status, 200, f.text);
  assert.equal(f.body.content, 'follow');
  assert.equal(f.body.webhook_id, appId);
  assert.equal(f.body.interaction_metadata.id, i.id);
  const got = await api(`/webhooks/${appId}/${i.token}/messages/${f.body.id}`);
  assert.equal(got.body.id, f.body.id);
  const edited = await api(`/webhooks/${appId}/${i.token}/messages/${f.body.id}`, { method: 'PATCH', body: { content: 'edited' } });
  assert.equal(edited.status, 200, edited.text);
  assert.equal(edited.body.content, 'edited');
  const del = await api(`/webhooks/${appId}/${i.token}/messages/${f.body.id}`, { method: 'DELETE' });
  assert.equal(del.status, 204);
  assert.equal((await api(`/webhooks/${appId}/${i.token}/messages/${f.body.id}`)).status, 404);
  const delOrig = await api(`/webhooks/${appId}/${i.token}/messages/@original`, { method: 'DELETE' });
  assert.equal(delOrig.status, 204);
  // Someone else's message is not reachable through the token.
  const other = await api(`/channels/${channelId}/messages`, { method: 'POST', token: alice, body: { content: 'mine' } });
  assert.equal((await api(`/webhooks/${appId}/${i.token}/messages/${other.body.id}`)).status, 404);
});

test('ephemeral responses reach only the invoker and are not readable through channel routes', async () => {
  const { payload: i } = await invoke({ data: slash('ping') });
  const r = await callback(i, { type: 4, data: { content: 'for your eyes only', flags: 64 } }, true);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.interaction.response_message_ephemeral, true);
  const id = r.body.resource.message.id;
  assert.equal(r.body.resource.message.flags & 64, 64);
  await aliceGw.dispatch('MESSAGE_CREATE', (d) => d.id === id);
  // A later public message reaches Bob; the ephemeral one never did.
  const { payload: j } = await invoke({ data: slash('ping') });
  const pub = await callback(j, { type: 4, data: { content: 'public' } }, true);
  await bobGw.dispatch('MESSAGE_CREATE', (d) => d.id === pub.body.resource.message.id);
  assert.equal(
    bobGw.frames.some((f) => f.t === 'MESSAGE_CREATE' && f.d.id === id),
    false,
  );
  assert.equal(
    events.some((e) => e.t === 'MESSAGE_CREATE' && e.d.id === id && (!e.user_ids || e.user_ids.includes(botId))),
    false,
  );

  const list = await api(`/channels/${channelId}/messages?limit=50`, { token: alice });
  assert.equal(
    list.body.some((m: any) => m.id === id),
    false,
  );
  const one = await api(`/channels/${channelId}/messages/${id}`, { token: botToken, bot: true });
  assert.equal(one.status, 404);
  // The interaction token still reaches it.
  assert.equal((await api(`/webhooks/${appId}/${i.token}/messages/@original`)).body.id, id);
});

test('components: a click delivers the message, UPDATE_MESSAGE edits it, DEFERRED_UPDATE then @original edits it', async () => {
  const { payload: i } = await invoke({ data: slash('ping') });
  const r = await callback(
    i,
    {
      type: 4,
      data: {
        content: 'pick',
        components: [
          {
            type: 1,
            components: [
              { type: 2, style: 1, label: 'Go', custom_id: 'go' },
              { type: 2, style: 2, label: 'Off', custom_id: 'off', disabled: true },
            ],
          },
          {
            type: 1,
            components: [
              {
                type: 3,
                custom_id: 'flavour',
                options: [
                  { label: 'A', value: 'a' },
                  { label: 'B', value: 'b' },
                ],
                max_values: 2,
              },
            ],
          },
        ],
      },
    },
    true,
  );
  assert.equal(r.status, 200, r.text);
  const msg = r.body.resource.message;

  const { payload: click, nonce } = await invoke({ type: 3, message_id: msg.id, data: { component_type: 2, custom_id: 'go' } });
  assert.equal(click.type, 3);
  assert.equal(click.message.id, msg.id);
  assert.deepEqual(click.data, { custom_id: 'go', component_type: 2 });
  const u = await callback(click, { type: 7, data: { content: 'gone', components: [] } }, true);
  assert.equal(u.status, 200, u.text);
  assert.equal(u.body.resource.type, 7);
  assert.equal(u.body.resource.message.id, msg.id);
  assert.equal(u.body.resource.message.content, 'gone');
  await aliceGw.dispatch('MESSAGE_UPDATE', (d) => d.id === msg.id && d.content === 'gone');
  await aliceGw.dispatch('INTERACTION_SUCCESS', (d) => d.id === click.id && d.nonce === nonce);

  // The select is gone now: clicks on it are refused.
  const stale = await api('/interactions', {
    method: 'POST',
    token: alice,
    body: {
      type: 3,
      application_id: appId,
      guild_id: guildId,
      channel_id: channelId,
      message_id: msg.id,
      session_id: 's',
      data: { component_type: 3, custom_id: 'flavour', values: ['a'] },
    },
  });
  assert.equal(stale.status, 400);

  const { payload: j } = await invoke({ data: slash('ping') });
  const m2 = (
    await callback(
      j,
      {
        type: 4,
        data: {
          content: 'choose',
          components: [
            {
              type: 1,
              components: [
                {
                  type: 3,
                  custom_id: 'flavour',
                  options: [
                    { label: 'A', value: 'a' },
                    { label: 'B', value: 'b' },
                  ],
                  max_values: 2,
                },
              ],
            },
            { type: 1, components: [{ type: 2, style: 2, label: 'Off', custom_id: 'off', disabled: true }] },
          ],
        },
      },
      true,
    )
  ).body.resource.message;
  const bad = await api('/interactions', {
    method: 'POST',
    token: alice,
    body: {
      type: 3,
      application_id: appId,
      guild_id: guildId,
      channel_id: channelId,
      message_id: m2.id,
      session_id: 's',
      data: { component_type: 3, custom_id: 'flavour', values: ['z'] },
    },
  });
  assert.equal(bad.status, 400);
  const disabled = await api('/interactions', {
    method: 'POST',
    token: alice,
    body: {
      type: 3,
      application_id: appId,
      guild_id: guildId,
      channel_id: channelId,
      message_id: m2.id,
      session_id: 's',
      data: { component_type: 2, custom_id: 'off' },
    },
  });
  assert.equal(disabled.status, 400);
  const { payload: pick } = await invoke({ type: 3, message_id: m2.id, data: { component_type: 3, custom_id: 'flavour', values: ['a', 'b'] } });
  assert.deepEqual(pick.data.values, ['a', 'b']);
  assert.equal((await callback(pick, { type: 6 })).status, 204);
  const e = await api(`/webhooks/${appId}/${pick.token}/messages/@original`, { method: 'PATCH', body: { content: 'picked a and b', components: [] } });
  assert.equal(e.status, 200, e.text);
  assert.equal(e.body.id, m2.id);

  // A message that is not the app's.
  const mine = await api(`/channels/${channelId}/messages`, { method: 'POST', token: alice, body: { content: 'x' } });
  const notApp = await api('/interactions', {
    method: 'POST',
    token: alice,
    body: {
      type: 3,
      application_id: appId,
      guild_id: guildId,
      channel_id: channelId,
      message_id: mine.body.id,
      session_id: 's',
      data: { component_type: 2, custom_id: 'go' },
    },
  });
  assert.equal(notApp.status, 400);
});

test('replies to components are type 0 with interacted_message_id', async () => {
  const { payload: i } = await invoke({ data: slash('ping') });
  const msg = (
    await callback(i, { type: 4, data: { content: 'btn', components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Hi', custom_id: 'hi' }] }] } }, true)
  ).body.resource.message;
  const { payload: c } = await invoke({ type: 3, message_id: msg.id, data: { component_type: 2, custom_id: 'hi' } });
  const r = await callback(c, { type: 4, data: { content: 'hello' } }, true);
  const m = r.body.resource.message;
  assert.equal(m.type, 0);
  assert.equal(m.interaction_metadata.type, 3);
  assert.equal(m.interaction_metadata.interacted_message_id, msg.id);
});

test('autocomplete: focused option in, choices out to the user', async () => {
  const { payload: a, nonce } = await invoke({ type: 4, data: slash('ping', [{ type: 3, name: 'q', value: 'te', focused: true }]) });
  assert.equal(a.type, 4);
  assert.equal(a.data.options[0].focused, true);
  assert.equal((await callback(a, { type: 4, data: { content: 'no' } })).status, 400);
  const r = await callback(a, {
    type: 8,
    data: {
      choices: [
        { name: 'tea', value: 'tea' },
        { name: 'tequila', value: 'tequila' },
      ],
    },
  });
  assert.equal(r.status, 204, r.text);
  const ev = await aliceGw.dispatch('APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE', (d) => d.nonce === nonce);
  assert.deepEqual(
    ev.choices.map((c: any) => c.value),
    ['tea', 'tequila'],
  );
  const { payload: b } = await invoke({ type: 4, data: slash('ping', [{ type: 3, name: 'q', value: 'x', focused: true }]) });
  const tooMany = await callback(b, { type: 8, data: { choices: Array.from({ length: 26 }, (_, n) => ({ name: `c${n}`, value: `c${n}` })) } });
  assert.equal(tooMany.status, 400);
});

test('modals: opened by a command, shown to the user, submitted with a Label-wrapped input, answered', async () => {
  const { payload: i, nonce } = await invoke({ data: slash('ping') });
  const modal = {
    custom_id: 'feedback',
    title: 'Feedback',
    components: [
      { type: 18, label: 'Your name', component: { type: 4, custom_id: 'name', style: 1, min_length: 2 } },
      { type: 10, content: 'Thanks!' },
    ],
  };
  const r = await callback(i, { type: 9, data: modal });
  assert.equal(r.status, 204, r.text);
  const shown = await aliceGw.dispatch('INTERACTION_MODAL_CREATE', (d) => d.id === i.id);
  assert.equal(shown.custom_id, 'feedback');
  assert.equal(shown.title, 'Feedback');
  assert.equal(shown.channel_id, channelId);
  assert.equal(shown.nonce, nonce);
  assert.deepEqual(shown.application, { id: appId, name: shown.application.name, icon: null });
  assert.equal(shown.components[0].type, 18);

  const submit = (value: string) => ({
    id: i.id,
    custom_id: 'feedback',
    components: [
      { type: 18, id: 1, component: { type: 4, id: 2, custom_id: 'name', value } },
      { type: 10, id: 3 },
    ],
  });
  const short = await api('/interactions', {
    method: 'POST',
    token: alice,
    body: { type: 5, application_id: appId, guild_id: guildId, channel_id: channelId, session_id: 's', data: submit('x') },
  });
  assert.equal(short.status, 400, 'min_length');
  const { payload: s } = await invoke({ type: 5, data: submit('Alice') });
  assert.equal(s.type, 5);
  assert.equal(s.data.custom_id, 'feedback');
  assert.equal(s.data.components[0].component.value, 'Alice');
  assert.equal(s.message, undefined, 'opened by a command, not a component');
  assert.equal((await callback(s, { type: 9, data: modal })).status, 400, 'no modal in answer to a modal');
  assert.equal((await callback(s, { type: 7, data: { content: 'x' } })).status, 400, 'not from a component');
  const reply = await callback(s, { type: 4, data: { content: 'got it' } }, true);
  const meta = reply.body.resource.message.interaction_metadata;
  assert.equal(meta.type, 5);
  assert.equal(meta.triggering_interaction_metadata.id, i.id);
  assert.equal(meta.triggering_interaction_metadata.type, 2);
  // The modal was consumed.
  const again = await api('/interactions', {
    method: 'POST',
    token: alice,
    body: { type: 5, application_id: appId, guild_id: guildId, channel_id: channelId, session_id: 's', data: submit('Alice') },
  });
  assert.equal(again.status, 404);
});

test('context menu commands: target user and message, type 23 replies', async () => {
  const { payload: u } = await invoke({ data: { id: cmd.Inspect.id, name: 'Inspect', type: 2, target_id: t.world.users[1].id } });
  assert.equal(u.data.target_id, t.world.users[1].id);
  assert.ok(u.data.resolved.users[t.world.users[1].id]);
  const r = await callback(u, { type: 4, data: { content: 'inspected' } }, true);
  assert.equal(r.body.resource.message.type, 23);
  assert.equal(r.body.resource.message.interaction_metadata.target_user.id, t.world.users[1].id);
  const target = await api(`/channels/${channelId}/messages`, { method: 'POST', token: alice, body: { content: 'quote me' } });
  const { payload: m } = await invoke({ data: { id: cmd.Quote.id, name: 'Quote', type: 3, target_id: target.body.id } });
  assert.equal(m.data.resolved.messages[target.body.id].content, 'quote me');
  const q = await callback(m, { type: 4, data: { content: 'quoted' } }, true);
  assert.equal(q.body.resource.message.interaction_metadata.target_message_id, target.body.id);
});

test('command permissions: default_member_permissions and USE_APPLICATION_COMMANDS', async () => {
  const body = (extra: any = {}) => ({
    type: 2,
    application_id: appId,
    guild_id: guildId,
    channel_id: channelId,
    session_id: 's',
    data: slash('admin'),
    ...extra,
  });
  const denied = await api('/interactions', { method: 'POST', token: bob, body: body() });
  assert.equal(denied.status, 403, denied.text);
  const ok = await api('/interactions', { method: 'POST', token: alice, body: body() });
  assert.equal(ok.status, 204, ok.text);
  const unknown = await api('/interactions', { method: 'POST', token: alice, body: { ...body(), data: { ...slash('admin'), id: '12345' } } });
  assert.equal(unknown.body.code, 10063);
  const botCall = await api('/interactions', { method: 'POST', token: botToken, bot: true, body: body() });
  assert.equal(botCall.status, 403);
  const badOpt = await api('/interactions', { method: 'POST', token: alice, body: { ...body(), data: slash('ping', [{ type: 4, name: 'n', value: 99 }]) } });
  assert.equal(badOpt.status, 400);
  assert.ok(badOpt.body.errors.data.options);
});

test('no answer within 3 s: INTERACTION_FAILURE (timeout) and 10062 afterwards', async () => {
  const { payload: i, nonce } = await invoke({ data: slash('ping') });
  const failure = await aliceGw.dispatch('INTERACTION_FAILURE', (d) => d.id === i.id, 6000);
  assert.deepEqual(failure, { id: i.id, nonce, reason_code: 2 });
  const late = await callback(i, { type: 4, data: { content: 'too late' } });
  assert.equal(late.status, 404);
  assert.equal(late.body.code, 10062);
});

test('tokens expire after 15 minutes of the server clock', async () => {
  const { payload: i } = await invoke({ data: slash('ping') });
  assert.equal((await callback(i, { type: 4, data: { content: 'soon stale' } })).status, 204);
  assert.equal((await api(`/webhooks/${appId}/${i.token}/messages/@original`)).status, 200);
  const moved = await fetch(`${t.server.url}/__dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...devHeaders(t) },
    body: JSON.stringify({ advance_ms: 15 * 60_000 + 1000 }),
  });
  assert.equal(moved.status, 200);
  const stale = await api(`/webhooks/${appId}/${i.token}/messages/@original`, { method: 'PATCH', body: { content: 'x' } });
  assert.equal(stale.status, 401);
  assert.equal(stale.body.code, 50027);
  const follow = await api(`/webhooks/${appId}/${i.token}`, { method: 'POST', body: { content: 'x' } });
  assert.equal(follow.body.code, 50027);
});

test('AutoMod: keyword rules, and a blocked edit of a deferred response is 400 (200000)', async () => {
  const notManager = await api(`/guilds/${guildId}/auto-moderation/rules`, {
    method: 'POST',
    token: bob,
    body: { name: 'x', event_type: 1, trigger_type: 1, trigger_metadata: { keyword_filter: ['x'] }, actions: [{ type: 1 }] },
  });
  assert.equal(notManager.status, 403);
  const rule = await api(`/guilds/${guildId}/auto-moderation/rules`, {
    method: 'POST',
    token: alice,
    body: {
      name: 'no spoilers',
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: { keyword_filter: ['spoiler*', 'darth'] },
      actions: [{ type: 1 }],
      enabled: true,
    },
  });
  assert.equal(rule.status, 200, rule.text);
  assert.equal(rule.body.trigger_type, 1);
  assert.deepEqual(rule.body.trigger_metadata.keyword_filter, ['spoiler*', 'darth']);
  const list = await api(`/guilds/${guildId}/auto-moderation/rules`, { token: alice });
  assert.equal(list.body.length, 1);

  const { payload: i } = await invoke({ data: slash('ping') });
  assert.equal((await callback(i, { type: 5 })).status, 204);
  const blocked = await api(`/webhooks/${appId}/${i.token}/messages/@original`, { method: 'PATCH', body: { content: 'SPOILERS: Darth is the father' } });
  assert.equal(blocked.status, 400, blocked.text);
  assert.equal(blocked.body.code, 200000);
  // Whole words only without a wildcard: "darthy" passes.
  const fine = await api(`/webhooks/${appId}/${i.token}/messages/@original`, { method: 'PATCH', body: { content: 'a darthy tale' } });
  assert.equal(fine.status, 200, fine.text);

  assert.equal((await api(`/guilds/${guildId}/auto-moderation/rules/${rule.body.id}`, { method: 'DELETE', token: alice })).status, 204);
  assert.equal((await api(`/guilds/${guildId}/auto-moderation/rules`, { token: alice })).body.length, 0);
});

test('a user-installed app outside its guilds: owners "1", 5 follow-ups at most, USE_EXTERNAL_APPS forces ephemeral', async () => {
  const made = await api('/applications', { method: 'POST', token: alice, body: { name: 'Pocket App' } });
  assert.equal(made.status, 200, made.text);
  const app2 = made.body.id;
  const reset = await api(`/applications/${app2}/bot/reset`, { method: 'POST', token: alice });
  const bot2Token = reset.body.token;
  const bot2 = made.body.bot?.id ?? app2;
  const c = await api(`/applications/${app2}/commands`, {
    method: 'POST',
    token: bot2Token,
    bot: true,
    body: { name: 'pocket', description: 'user app', integration_types: [1], contexts: [0, 1, 2] },
  });
  assert.equal(c.status, 201, c.text);
  const body = { type: 2, application_id: app2, guild_id: guildId, channel_id: channelId, session_id: 's', data: { id: c.body.id, name: 'pocket', type: 1 } };
  const notInstalled = await api('/interactions', { method: 'POST', token: bob, body });
  assert.equal(notInstalled.status, 404);
  await t.server.ctx.repos.store.db
    .insertInto('oauth_grants')
    .values({ application_id: app2, user_id: t.world.users[1].id, scopes: 'applications.commands', integration_type: 1, created_at: Date.now() })
    .execute();

  const { payload: i } = await invoke({ token: bob, app: app2, data: body.data });
  assert.deepEqual(i.authorizing_integration_owners, { '1': t.world.users[1].id });
  // Bob's permissions by hand: a plain member (no roles) in a channel without overwrites has exactly @everyone's.
  const everyoneRole = (await api(`/guilds/${guildId}/roles`, { token: alice })).body.find((r: any) => r.id === guildId);
  assert.deepEqual((await api(`/guilds/${guildId}/members/${t.world.users[1].id}`, { token: alice })).body.roles, []);
  const bobPerms = BigInt(everyoneRole.permissions);
  assert.equal(BigInt(i.app_permissions) & ~bobPerms, 0n, 'never more than the user may do');
  assert.ok(BigInt(i.app_permissions) & P.SEND_MESSAGES);
  const reply = await callback(i, { type: 4, data: { content: 'hi from the pocket' } }, true);
  assert.equal(reply.body.resource.message.flags & 64, 0, 'USE_EXTERNAL_APPS allowed: public');
  for (let n = 1; n <= 5; n++) {
    const f = await api(`/webhooks/${app2}/${i.token}`, { method: 'POST', body: { content: `follow ${n}` } });
    assert.equal(f.status, 200, f.text);
  }
  const sixth = await api(`/webhooks/${app2}/${i.token}`, { method: 'POST', body: { content: 'one too many' } });
  assert.equal(sixth.status, 400);
  assert.equal(sixth.body.code, 40094);

  // Deny USE_EXTERNAL_APPS to @everyone here: responses become ephemeral.
  const ow = await api(`/channels/${channelId}/permissions/${guildId}`, {
    method: 'PUT',
    token: alice,
    body: { type: 0, allow: '0', deny: String(P.USE_EXTERNAL_APPS) },
  });
  assert.equal(ow.status, 204, ow.text);
  try {
    const { payload: j } = await invoke({ token: bob, app: app2, data: body.data });
    const forced = await callback(j, { type: 4, data: { content: 'psst' } }, true);
    assert.equal(forced.body.resource.message.flags & 64, 64);
    assert.equal(forced.body.interaction.response_message_ephemeral, true);
    const fu = await api(`/webhooks/${app2}/${j.token}`, { method: 'POST', body: { content: 'psst again' } });
    assert.equal(fu.body.flags & 64, 64);
  } finally {
    await api(`/channels/${channelId}/permissions/${guildId}`, { method: 'DELETE', token: alice });
  }
  assert.equal(bot2.length > 0, true);
});

test('an Entry Point command with handler 2 is launched by the platform', async () => {
  const { ctx } = t.server;
  const row = await ctx.repos.store.db.selectFrom('applications').select('flags').where('id', '=', appId).executeTakeFirstOrThrow();
  await ctx.repos.store.db
    .updateTable('applications')
    .set({ flags: (BigInt(row.flags) | (1n << 17n)).toString() })
    .where('id', '=', appId)
    .execute();
  try {
    const made = await api(`/applications/${appId}/commands`, {
      method: 'POST',
      token: botToken,
      bot: true,
      body: { name: 'launch', description: 'Launch it', type: 4, handler: 2 },
    });
    assert.ok(made.status === 201 || made.status === 200, made.text);
    const before = events.length;
    const nonce = String(++nonceSeq);
    const r = await api('/interactions', {
      method: 'POST',
      token: alice,
      body: {
        type: 2,
        application_id: appId,
        guild_id: guildId,
        channel_id: channelId,
        session_id: 's',
        nonce,
        data: { id: made.body.id, name: 'launch', type: 4 },
      },
    });
    assert.equal(r.status, 204, r.text);
    const ok = await aliceGw.dispatch('INTERACTION_SUCCESS', (d) => d.nonce === nonce);
    const msg = await aliceGw.dispatch('MESSAGE_CREATE', (d) => d.interaction_metadata?.id === ok.id);
    assert.equal(msg.author.id, botId);
    // The bus delivers synchronously and in order: an INTERACTION_CREATE to the app would precede the response message.
    assert.equal(
      events.slice(before).some((e) => e.t === 'INTERACTION_CREATE' && e.user_ids?.includes(botId)),
      false,
      'the app is not contacted',
    );
  } finally {
    await ctx.repos.store.db.updateTable('applications').set({ flags: row.flags }).where('id', '=', appId).execute();
  }
});

test('malformed bodies never give a 5xx on the interaction routes', async () => {
  const fc = (await import('fast-check')).default;
  const garbage = fc.oneof(fc.anything(), fc.constantFrom(null, '', [], {}, 'nul\u0000', -1, 1e300, '99999999999999999999999', [{}], { type: 'x' }));
  const check = async (path: string, method: string, base: Record<string, unknown>, fields: string[], token?: string) => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(fields, { minLength: 1 }),
        fc.array(garbage, { minLength: fields.length, maxLength: fields.length }),
        async (keys, values) => {
          const body: Record<string, unknown> = { ...base };
          keys.forEach((k, n) => {
            body[k] = values[n];
          });
          const r = await api(path, { method, token, body });
          assert.ok(r.status < 500, `${method} ${path} ${JSON.stringify(body)} -> ${r.status} ${r.text}`);
          if (r.status >= 400) assert.equal(typeof r.body?.code, 'number', r.text);
        },
      ),
      { numRuns: 40 },
    );
  };
  const invokeBase = { type: 2, application_id: appId, guild_id: guildId, channel_id: channelId, session_id: 's', data: slash('ping') };
  await check('/interactions', 'POST', invokeBase, ['type', 'application_id', 'guild_id', 'channel_id', 'message_id', 'session_id', 'data', 'nonce'], alice);
  await check('/interactions', 'POST', { ...invokeBase, data: slash('ping', [{ type: 6, name: 'who', value: t.world.users[1].id }]) }, ['data'], alice);
  await check('/interactions', 'POST', { ...invokeBase, type: 5, data: { id: '1', custom_id: 'x', components: [] } }, ['data'], alice);

  const { payload: i } = await invoke({ data: slash('ping') });
  await check(`/interactions/${i.id}/${i.token}/callback`, 'POST', { type: 4, data: { content: 'x', flags: 1 << 20 } }, ['type', 'data']);
  const { payload: j } = await invoke({ data: slash('ping') });
  assert.equal((await callback(j, { type: 5 })).status, 204);
  await check(`/webhooks/${appId}/${j.token}/messages/@original`, 'PATCH', { content: 'x' }, [
    'content',
    'embeds',
    'components',
    'flags',
    'attachments',
    'poll',
    'allowed_mentions',
  ]);
  await check(`/webhooks/${appId}/${j.token}`, 'POST', { content: 'x', flags: 1 << 20 }, [
    'content',
    'embeds',
    'components',
    'flags',
    'attachments',
    'poll',
    'tts',
  ]);
  await check(
    `/guilds/${guildId}/auto-moderation/rules`,
    'POST',
    { name: 'r', event_type: 1, trigger_type: 1, trigger_metadata: { keyword_filter: ['a'] }, actions: [{ type: 1 }] },
    ['name', 'event_type', 'trigger_type', 'trigger_metadata', 'actions', 'enabled', 'exempt_roles'],
    alice,
  );
  for (const r of (await api(`/guilds/${guildId}/auto-moderation/rules`, { token: alice })).body) {
    await api(`/guilds/${guildId}/auto-moderation/rules/${r.id}`, { method: 'DELETE', token: alice });
  }
});
