/**
 * The Slack- and GitHub-compatible webhook executes, and an Activity's application attachment upload: each posts or
 * stores something real, checked by reading it back (the channel's messages, the CDN's bytes).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { PNG } from './helpers/fixtures.js';
import { issueToken } from '../src/services/identity/tokens.js';

let t: TestServer;
let hook: { id: string; token: string };
before(async () => {
  t = await startTestServer();
  const r = await t.api(`/channels/${t.world.textChannelId}/webhooks`, { method: 'POST', token: t.world.users[0].token, body: { name: 'compat' } });
  assert.equal(r.status, 200, r.text);
  hook = r.body;
});
after(async () => t?.close());

const latest = async () => (await t.api(`/channels/${t.world.textChannelId}/messages?limit=1`, { token: t.world.users[0].token })).body[0];
const count = async () => (await t.api(`/channels/${t.world.textChannelId}/messages?limit=100`, { token: t.world.users[0].token })).body.length;

test('Slack-compatible: text, username, icon and attachments become a message with embeds; answers ok', async () => {
  const r = await t.api(`/webhooks/${hook.id}/${hook.token}/slack`, {
    method: 'POST',
    body: {
      text: 'Deploy finished',
      username: 'CI',
      icon_url: 'https://ci.example/icon.png',
      channel: '#ignored',
      mrkdwn: true,
      attachments: [
        {
          title: 'build 42',
          title_link: 'https://ci.example/42',
          text: 'all green',
          pretext: 'Build report',
          color: 'good',
          ts: 1700000000,
          footer: 'ci',
          footer_icon: 'https://ci.example/f.png',
          author_name: 'robot',
          author_link: 'https://ci.example/robot',
          image_url: 'https://ci.example/i.png',
          thumb_url: 'https://ci.example/t.png',
          fields: [
            { title: 'duration', value: '3m', short: true },
            { title: 'commit', value: 'abc123' },
          ],
        },
      ],
    },
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.text, 'ok');
  const m = await latest();
  assert.equal(m.content, 'Deploy finished');
  assert.equal(m.author.username, 'CI');
  assert.equal(m.webhook_id, hook.id);
  const e = m.embeds[0];
  assert.equal(e.title, 'build 42');
  assert.equal(e.url, 'https://ci.example/42');
  assert.equal(e.description, 'Build report\nall green');
  assert.equal(e.color, 0x2eb886);
  assert.equal(e.timestamp.startsWith('2023-11-14T22:13:20'), true, e.timestamp);
  assert.equal(e.footer.text, 'ci');
  assert.equal(e.author.name, 'robot');
  assert.equal(e.image.url, 'https://ci.example/i.png');
  assert.equal(e.thumbnail.url, 'https://ci.example/t.png');
  assert.deepEqual(e.fields, [
    { name: 'duration', value: '3m', inline: true },
    { name: 'commit', value: 'abc123', inline: false },
  ]);

  // Nothing to post: an error with wait (the default), silence with wait=false; a bad token always fails.
  const before = await count();
  const empty = await t.api(`/webhooks/${hook.id}/${hook.token}/slack`, { method: 'POST', body: {} });
  assert.equal(empty.status, 400, empty.text);
  assert.equal(empty.body.code, 50006);
  const quiet = await t.api(`/webhooks/${hook.id}/${hook.token}/slack?wait=false`, { method: 'POST', body: {} });
  assert.equal(quiet.status, 200, quiet.text);
  assert.equal(await count(), before);
  const bad = await t.api(`/webhooks/${hook.id}/not-the-token/slack`, { method: 'POST', body: { text: 'x' } });
  assert.equal(bad.status, 401, bad.text);
  assert.equal(bad.body.code, 50027);
});

test('GitHub-compatible: a push posts one embed as GitHub with the sender as author; other events post nothing', async () => {
  const sender = { id: 1, login: 'octocat', html_url: 'https://github.com/octocat', avatar_url: 'https://github.com/octocat.png' };
  const repository = { id: 1, name: 'accord', full_name: 'accord/accord', html_url: 'https://github.com/accord/accord' };
  const push = await t.api(`/webhooks/${hook.id}/${hook.token}/github`, {
    method: 'POST',
    headers: { 'x-github-event': 'push' },
    body: {
      ref: 'refs/heads/main',
      compare: 'https://github.com/accord/accord/compare/a...b',
      repository,
      sender,
      forced: false,
      commits: [
        {
          id: '1111111aaaaaaa',
          url: 'https://github.com/accord/accord/commit/1111111',
          message: 'Fix the thing\n\nlong body',
          author: { name: 'Octo Cat', username: 'octocat' },
        },
        { id: '2222222bbbbbbb', url: 'https://github.com/accord/accord/commit/2222222', message: 'Add tests', author: { name: 'Octo Cat' } },
      ],
    },
  });
  assert.equal(push.status, 204, push.text);
  const m = await latest();
  assert.equal(m.author.username, 'GitHub');
  assert.equal(m.embeds.length, 1);
  const e = m.embeds[0];
  assert.equal(e.title, '[accord/accord:main] 2 new commits');
  assert.equal(e.url, 'https://github.com/accord/accord/compare/a...b');
  assert.equal(
    e.description,
    '[`1111111`](https://github.com/accord/accord/commit/1111111) Fix the thing - octocat\n[`2222222`](https://github.com/accord/accord/commit/2222222) Add tests - Octo Cat',
  );
  assert.deepEqual([e.author.name, e.author.url, e.author.icon_url], ['octocat', 'https://github.com/octocat', 'https://github.com/octocat.png']);

  const issue = await t.api(`/webhooks/${hook.id}/${hook.token}/github`, {
    method: 'POST',
    headers: { 'x-github-event': 'issues' },
    body: {
      action: 'opened',
      repository,
      sender,
      issue: { id: 9, number: 7, html_url: 'https://github.com/accord/accord/issues/7', title: 'It breaks', body: 'Steps…', user: sender },
    },
  });
  assert.equal(issue.status, 204);
  assert.equal((await latest()).embeds[0].title, '[accord/accord] Issue opened: #7 It breaks');

  // Unsupported events and actions answer 204 and post nothing (the call is synchronous: no wait needed).
  const before = await count();
  for (const [event, body] of [
    ['workflow_run', { action: 'completed', repository, sender }],
    ['issues', { action: 'labeled', repository, sender, issue: { number: 7 } }],
    ['ping', { zen: 'hi', sender }],
  ] as const) {
    const r = await t.api(`/webhooks/${hook.id}/${hook.token}/github`, { method: 'POST', headers: { 'x-github-event': event }, body });
    assert.equal(r.status, 204, `${event}: ${r.text}`);
  }
  assert.equal(await count(), before);
  const bad = await t.api(`/webhooks/${hook.id}/wrong/github`, { method: 'POST', headers: { 'x-github-event': 'push' }, body: { sender } });
  assert.equal(bad.status, 401);
});

test('application attachment upload: the app stores a file and the CDN serves its bytes', async () => {
  const app = t.world.applicationId;
  const upload = (auth: { token: string; bot?: boolean }, field = 'file') => {
    const form = new FormData();
    form.append(field, new Blob([PNG], { type: 'image/png' }), 'moment.png');
    return t.api(`/applications/${app}/attachment`, { method: 'POST', ...auth, body: form });
  };
  const r = await upload({ token: t.world.botToken, bot: true });
  assert.equal(r.status, 200, r.text);
  const a = r.body.attachment;
  assert.equal(a.filename, 'moment.png');
  assert.equal(a.size, PNG.length);
  assert.equal(a.content_type, 'image/png');
  assert.equal(a.ephemeral, true);
  assert.deepEqual([a.width, a.height], [1, 1]);
  assert.match(a.url, new RegExp(`/ephemeral-attachments/${app}/${a.id}/moment\\.png$`));
  const bytes = Buffer.from(await (await fetch(a.url)).arrayBuffer());
  assert.deepEqual(bytes, PNG);

  // A bearer token of the same app may upload; a user token, another app's bot, or no file may not.
  const bearer = await issueToken(t.server.ctx, t.world.users[0].id, 'bearer', { applicationId: app, scopes: ['identify'] });
  assert.equal((await upload({ token: `Bearer ${bearer}` })).status, 200);
  assert.equal((await upload({ token: t.world.users[0].token })).status, 403);
  const missing = await upload({ token: t.world.botToken, bot: true }, 'other');
  assert.equal(missing.status, 400, missing.text);
  assert.equal(missing.body.code, 50035);
  assert.equal((await t.api('/applications/123/attachment', { method: 'POST', token: t.world.botToken, bot: true, body: new FormData() })).status, 404);
});
