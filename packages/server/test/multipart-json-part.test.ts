// engine-independent: the request body's parsing happens before any service runs
/**
 * Uploads whose `payload_json` part carries `Content-Type: application/json`, as Discord's "Uploading Files" example
 * and Eris send it, on every kind of multipart route: message create and edit, webhook execute and edit, forum posts
 * (interaction replies and follow-ups: interactions.test.ts).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { sendTypedForm, typedForm } from './helpers/fixtures.js';

let t: TestServer;
let bot: { token: string; bot: true };

const send = (path: string, form: ReturnType<typeof typedForm>, method = 'POST', auth: string | null = `Bot ${t.world.botToken}`) =>
  sendTypedForm(t, path, form, method, auth);

before(async () => {
  t = await startTestServer();
  bot = { token: t.world.botToken, bot: true };
});
after(() => t.close());

test('message create and edit take a JSON-typed payload_json part with a file', async () => {
  const ch = t.world.textChannelId;
  const created = await send(
    `/channels/${ch}/messages`,
    typedForm(JSON.stringify({ content: 'typed part', embeds: [{ title: 'E' }], attachments: [{ id: 0, description: 'notes' }] }), {
      name: 'a.txt',
      data: 'hello',
    }),
  );
  assert.equal(created.status, 200, created.text);
  assert.equal(created.body.content, 'typed part');
  assert.equal(created.body.embeds[0].title, 'E');
  assert.equal(created.body.attachments[0].description, 'notes');

  const edited = await send(`/channels/${ch}/messages/${created.body.id}`, typedForm(JSON.stringify({ content: 'edited', attachments: [] })), 'PATCH');
  assert.equal(edited.status, 200, edited.text);
  assert.equal(edited.body.content, 'edited');
  assert.deepEqual(edited.body.attachments, []);
});

test('webhook execute and webhook message edit take a JSON-typed payload_json part', async () => {
  const hook = await t.api(`/channels/${t.world.textChannelId}/webhooks`, { method: 'POST', ...bot, body: { name: 'typed' } });
  assert.equal(hook.status, 200, JSON.stringify(hook.body));
  const sent = await send(
    `/webhooks/${hook.body.id}/${hook.body.token}?wait=true`,
    typedForm(JSON.stringify({ content: 'from a hook', username: 'Hooky' }), { name: 'h.txt', data: 'x' }),
    'POST',
    null,
  );
  assert.equal(sent.status, 200, sent.text);
  assert.equal(sent.body.content, 'from a hook');
  assert.equal(sent.body.author.username, 'Hooky');
  assert.equal(sent.body.attachments.length, 1);
  const edited = await send(
    `/webhooks/${hook.body.id}/${hook.body.token}/messages/${sent.body.id}`,
    typedForm(JSON.stringify({ content: 'hook edit' })),
    'PATCH',
    null,
  );
  assert.equal(edited.status, 200, edited.text);
  assert.equal(edited.body.content, 'hook edit');
});

test('a forum post takes a JSON-typed payload_json part', async () => {
  const forum = await t.api(`/guilds/${t.world.guildId}/channels`, { method: 'POST', ...bot, body: { name: 'typed-forum', type: 15 } });
  assert.equal(forum.status, 201, JSON.stringify(forum.body));
  const post = await send(
    `/channels/${forum.body.id}/threads`,
    typedForm(JSON.stringify({ name: 'A post', message: { content: 'first words' } }), { name: 'p.txt', data: 'y' }),
  );
  assert.equal(post.status, 201, post.text);
  assert.equal(post.body.name, 'A post');
  assert.equal(post.body.message.content, 'first words');
  assert.equal(post.body.message.attachments.length, 1);
});

test('a JSON-typed part that is not JSON answers 50109', async () => {
  const bad = await send(`/channels/${t.world.textChannelId}/messages`, typedForm('{"content": '));
  assert.equal(bad.status, 400, bad.text);
  assert.equal(bad.body.code, 50109);
});
