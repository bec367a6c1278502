import { type Harness, asUser } from './world.js';

/**
 * Items for the lists an operation answers with, so their items' shape is checked rather than passing empty: role
 * connection metadata, archived threads (public and private, the bot a member), alice's roles, the app's list fields
 * (redirect URIs, RPC origins, tags, event types), the welcome screen's channels and an onboarding prompt. Runs after
 * the world is built; each step may fail on its own (reported with the world's setup problems).
 */
export async function seedLists(h: Harness): Promise<void> {
  const G = h.need('guild');
  const T = h.need('text');
  const app = h.need('app');
  await h.step('role connection metadata', [], async () => {
    await h.must('put', `/applications/${app}/role-connections/metadata`, { body: [{ type: 2, key: 'level', name: 'Level', description: 'Level at least' }] });
  });
  await h.step('alice has the role', [], async () => {
    await h.must('put', `/guilds/${G}/members/${h.need('alice')}/roles/${h.need('role')}`);
  });
  for (const [key, type] of [
    ['archivedThread', 11],
    ['archivedPrivateThread', 12],
  ] as const) {
    await h.step(`thread ${key}`, [key], async () => {
      const thread = await h.must('post', `/channels/${T}/threads`, { body: { name: `conformance ${key}`, type, auto_archive_duration: 60 } });
      await h.must('patch', `/channels/${thread.id}`, { body: { archived: true } });
      h.ids[key] = thread.id;
    });
  }
  await h.step('application list fields', [], async () => {
    await h.must('patch', `/applications/${app}`, {
      auth: asUser('alice'),
      body: {
        redirect_uris: ['https://accord.example/callback'],
        rpc_origins: ['https://accord.example'],
        tags: ['conformance'],
        event_webhooks_types: ['ENTITLEMENT_CREATE'],
      },
    });
  });
  await h.step('welcome screen channels', [], async () => {
    await h.must('patch', `/guilds/${G}/welcome-screen`, {
      body: { enabled: false, description: 'Welcome', welcome_channels: [{ channel_id: T, description: 'Say hi', emoji_name: '👋' }] },
    });
  });
  await h.step('onboarding prompt', [], async () => {
    await h.must('put', `/guilds/${G}/onboarding`, {
      body: {
        enabled: false,
        mode: 0,
        default_channel_ids: [T],
        prompts: [
          {
            id: '1',
            title: 'What brings you here?',
            single_select: true,
            required: false,
            in_onboarding: true,
            type: 0,
            options: [{ title: 'Testing', channel_ids: [T], role_ids: [h.need('role')] }],
          },
        ],
      },
    });
  });
}
