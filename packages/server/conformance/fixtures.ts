/**
 * How to call each operation: the caller, path parameters beyond the defaults, query and a minimal valid body
 * (hand-written: the request schemas of the spec are used only to sanity-check these), and which ids a successful
 * answer adds to the world. The table's order is the run order; `late` operations run after all the others, in
 * table order, because they destroy or take away something (the bot's membership, a channel, a ban…). Destructive
 * operations work on throwaway resources made by their own setup.
 */
import { BOT, NONE, SetupError, asUser, bearer, oggDataUri, png, pngDataUri, type Auth, type Harness, type Response } from './world.js';

export interface Request {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  auth?: Auth;
  headers?: Record<string, string>;
}

export interface Fixture {
  late?: boolean;
  build?: (h: Harness) => Request | Promise<Request>;
  /** Records what the call created (after any 2xx, even when the answer's shape fails). */
  after?: (h: Harness, res: Response) => void;
}

/** Path parameters that are not given by a fixture: the world id of this name. */
export const DEFAULT_PARAMS: Record<string, string> = {
  application_id: 'app',
  guild_id: 'guild',
  channel_id: 'text',
  message_id: 'message',
  user_id: 'bob',
  role_id: 'role',
  webhook_id: 'webhook',
  webhook_token: 'webhookToken',
  code: 'invite',
};

const THUMBS = '👍';
const future = (days: number) => new Date(Date.now() + days * 86400_000).toISOString();
const json = (r: Response): any => (r.isJson ? r.json : undefined);
const keep =
  (name: string, field = 'id') =>
  (h: Harness, r: Response) => {
    const v = json(r)?.[field];
    if (typeof v === 'string') h.ids[name] = v;
  };

function form(payload: Record<string, unknown>, files: { field: string; name: string; type: string; data: Buffer }[]): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(payload)) f.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  for (const file of files) f.append(file.field, new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  return f;
}

/** A throwaway message in a channel (bot-authored unless said otherwise). */
async function message(h: Harness, channel: string, content: string, auth: Auth = BOT): Promise<string> {
  return (await h.must('post', `/channels/${channel}/messages`, { auth, body: { content } })).id;
}

/** The first id of a list answer, or a SetupError. */
async function firstOf(h: Harness, path: string, what: string, auth: Auth = BOT, pick: (x: any) => string | undefined = (x) => x?.id): Promise<string> {
  const list = await h.must('get', path, { auth });
  const arr = Array.isArray(list) ? list : Array.isArray(list?.[what]) ? list[what] : [];
  const id = arr.map(pick).find(Boolean);
  if (!id) throw new SetupError(`GET ${path} returned no ${what}`);
  return id;
}

const scheduledEvent = (name: string) => ({
  name,
  privacy_level: 2,
  entity_type: 3,
  scheduled_start_time: future(2),
  scheduled_end_time: future(3),
  entity_metadata: { location: 'Online' },
  description: 'Conformance event',
});

const automodRule = (name: string) => ({
  name,
  event_type: 1,
  trigger_type: 1,
  trigger_metadata: { keyword_filter: ['conformance-forbidden'] },
  actions: [{ type: 1, metadata: { custom_message: 'Blocked by the conformance rule' } }],
  enabled: true,
});

export const FIXTURES: Record<string, Fixture> = {
  // ------------------------------------------------------------------------------------------- gateway, users, oauth2
  get_gateway: { build: () => ({ auth: NONE }) },
  get_bot_gateway: {},
  get_my_user: {},
  update_my_user: { build: () => ({ body: { username: 'conformance_bot', avatar: null } }) },
  get_user: {},
  list_my_guilds: {},
  list_my_connections: { build: () => ({ auth: bearer('alice', 'connections') }) },
  get_my_guild_member: { build: () => ({ auth: bearer('alice', 'guilds.members.read') }) },
  create_dm: { build: (h) => ({ body: { recipient_id: h.need('alice') } }) },
  get_my_oauth2_authorization: { build: () => ({ auth: bearer('alice', 'identify') }) },
  get_my_oauth2_application: {},
  get_public_keys: { build: () => ({ auth: NONE }) },
  get_openid_connect_userinfo: { build: () => ({ auth: bearer('alice', 'openid', 'identify', 'email') }) },

  // --------------------------------------------------------------------------------------------------- applications
  get_my_application: {},
  update_my_application: { build: () => ({ body: { tags: ['conformance', 'accord'] } }) },
  get_application: {},
  update_application: { build: () => ({ body: { tags: ['conformance', 'accord'] } }) },
  upload_application_attachment: {
    build: () => ({ body: form({}, [{ field: 'file', name: 'conformance.png', type: 'image/png', data: png(16) }]) }),
  },
  get_application_role_connections_metadata: {},
  update_application_role_connections_metadata: {
    build: () => ({ body: [{ type: 2, key: 'level', name: 'Level', description: 'Level at least' }] }),
  },
  update_application_user_role_connection: {
    build: () => ({ auth: bearer('alice', 'role_connections.write'), body: { platform_name: 'Accord', platform_username: 'alice', metadata: { level: '3' } } }),
  },
  get_application_user_role_connection: { build: () => ({ auth: bearer('alice', 'role_connections.write') }) },
  applications_get_activity_instance: { build: (h) => ({ params: { instance_id: h.need('activityInstance') } }) },

  // ------------------------------------------------------------------------------------------ application commands
  list_application_commands: {},
  create_application_command: {
    build: () => ({ body: { name: 'conformance-created', description: 'Made by create_application_command', type: 1 } }),
    after: keep('createdCommand'),
  },
  bulk_set_application_commands: {
    // Keeps the world's command (same name) and the one just created.
    build: () => ({
      body: [
        { name: 'conformance', description: 'Conformance global command', type: 1 },
        { name: 'conformance-created', description: 'Made by create_application_command', type: 1 },
      ],
    }),
    after: (h, r) => {
      for (const c of (json(r) ?? []) as any[]) {
        if (c.name === 'conformance') h.ids.globalCommand = c.id;
        if (c.name === 'conformance-created') h.ids.createdCommand = c.id;
      }
    },
  },
  get_application_command: { build: (h) => ({ params: { command_id: h.need('globalCommand') } }) },
  update_application_command: {
    build: (h) => ({ params: { command_id: h.need('globalCommand') }, body: { description: 'Conformance global command (edited)' } }),
  },
  list_guild_application_commands: {},
  create_guild_application_command: {
    build: () => ({ body: { name: 'conformance-created', description: 'Made by create_guild_application_command', type: 1 } }),
    after: keep('createdGuildCommand'),
  },
  bulk_set_guild_application_commands: {
    build: () => ({
      body: [
        { name: 'conformance', description: 'Conformance guild command', type: 1 },
        { name: 'conformance-created', description: 'Made by create_guild_application_command', type: 1 },
      ],
    }),
    after: (h, r) => {
      for (const c of (json(r) ?? []) as any[]) {
        if (c.name === 'conformance') h.ids.guildCommand = c.id;
        if (c.name === 'conformance-created') h.ids.createdGuildCommand = c.id;
      }
    },
  },
  get_guild_application_command: { build: (h) => ({ params: { command_id: h.need('guildCommand') } }) },
  update_guild_application_command: {
    build: (h) => ({ params: { command_id: h.need('guildCommand') }, body: { description: 'Conformance guild command (edited)' } }),
  },
  set_guild_application_command_permissions: {
    build: (h) => ({
      auth: bearer('alice', 'applications.commands.permissions.update'),
      params: { command_id: h.need('guildCommand') },
      body: { permissions: [{ id: h.need('role'), type: 1, permission: true }] },
    }),
  },
  get_guild_application_command_permissions: { build: (h) => ({ params: { command_id: h.need('guildCommand') } }) },
  list_guild_application_command_permissions: {},

  // ------------------------------------------------------------------------------------------------- interactions
  create_interaction_response: {
    build: async (h) => {
      const i = await h.interaction();
      h.ids.interactionToken = i.token;
      return {
        auth: NONE,
        params: { interaction_id: i.id, interaction_token: i.token },
        query: { with_response: true },
        body: { type: 4, data: { content: 'conformance: interaction response' } },
      };
    },
  },
  get_original_webhook_message: { build: (h) => ({ auth: NONE, params: { webhook_id: h.need('app'), webhook_token: h.need('interactionToken') } }) },
  update_original_webhook_message: {
    build: (h) => ({
      auth: NONE,
      params: { webhook_id: h.need('app'), webhook_token: h.need('interactionToken') },
      body: { content: 'conformance: edited response' },
    }),
  },

  // ------------------------------------------------------------------------------------------------------- emojis
  create_application_emoji: { build: () => ({ body: { name: 'conformance_app', image: pngDataUri(64) } }), after: keep('appEmoji') },
  list_application_emojis: {},
  get_application_emoji: { build: (h) => ({ params: { emoji_id: h.need('appEmoji') } }) },
  update_application_emoji: { build: (h) => ({ params: { emoji_id: h.need('appEmoji') }, body: { name: 'conformance_app2' } }) },
  create_guild_emoji: { build: () => ({ body: { name: 'conformance', image: pngDataUri(64) } }), after: keep('emoji') },
  list_guild_emojis: {},
  get_guild_emoji: { build: (h) => ({ params: { emoji_id: h.need('emoji') } }) },
  update_guild_emoji: { build: (h) => ({ params: { emoji_id: h.need('emoji') }, body: { name: 'conformance2' } }) },

  // ------------------------------------------------------------------------------------------- stickers, soundboard
  list_sticker_packs: {
    build: () => ({ auth: NONE }),
    after: (h, r) => {
      const p = json(r)?.sticker_packs?.[0];
      if (p?.id) h.ids.stickerPack = p.id;
    },
  },
  get_sticker_pack: { build: (h) => ({ params: { pack_id: h.need('stickerPack') } }) },
  create_guild_sticker: {
    build: () => ({
      body: form({ name: 'conformance', tags: 'white_check_mark', description: 'Conformance sticker' }, [
        { field: 'file', name: 'sticker.png', type: 'image/png', data: png(320) },
      ]),
    }),
    after: keep('sticker'),
  },
  list_guild_stickers: {},
  get_guild_sticker: { build: (h) => ({ params: { sticker_id: h.need('sticker') } }) },
  update_guild_sticker: { build: (h) => ({ params: { sticker_id: h.need('sticker') }, body: { name: 'conformance2' } }) },
  get_sticker: { build: (h) => ({ params: { sticker_id: h.need('sticker') } }) },
  get_soundboard_default_sounds: {
    after: (h, r) => {
      const s = (json(r) as any[])?.[0];
      if (s?.sound_id) h.ids.defaultSound = s.sound_id;
    },
  },
  create_guild_soundboard_sound: {
    build: () => ({ body: { name: 'conformance', sound: oggDataUri(), volume: 1, emoji_name: THUMBS } }),
    after: keep('sound', 'sound_id'),
  },
  list_guild_soundboard_sounds: {},
  get_guild_soundboard_sound: { build: (h) => ({ params: { sound_id: h.need('sound') } }) },
  update_guild_soundboard_sound: { build: (h) => ({ params: { sound_id: h.need('sound') }, body: { name: 'conformance2', volume: 0.5 } }) },

  // ------------------------------------------------------------------------------------------------------- guilds
  get_guild: { build: () => ({ query: { with_counts: true } }) },
  update_guild: { build: () => ({ body: { description: 'Accord conformance guild' } }) },
  get_guild_preview: {},
  list_guild_voice_regions: {},
  list_voice_regions: {},
  get_guild_vanity_url: {},
  update_guild_incident_actions: { build: () => ({ body: { invites_disabled_until: null, dms_disabled_until: null } }) },
  get_guild_new_member_welcome: {},
  get_guilds_onboarding: {},
  put_guilds_onboarding: {
    build: (h) => ({
      body: {
        default_channel_ids: [h.need('text')],
        enabled: false,
        mode: 0,
        prompts: [
          {
            id: '1',
            title: 'What brings you here?',
            single_select: true,
            required: false,
            in_onboarding: true,
            type: 0,
            options: [{ title: 'Testing', channel_ids: [h.need('text')] }],
          },
        ],
      },
    }),
  },
  get_guild_welcome_screen: {},
  update_guild_welcome_screen: {
    build: (h) => ({
      body: {
        enabled: false,
        description: 'Welcome to the conformance guild',
        welcome_channels: [{ channel_id: h.need('text'), description: 'Say hi', emoji_name: THUMBS }],
      },
    }),
  },
  update_guild_widget_settings: { build: (h) => ({ body: { enabled: true, channel_id: h.need('text') } }) },
  get_guild_widget_settings: {},
  get_guild_widget: { build: () => ({ auth: NONE }) },
  get_guild_widget_png: { build: () => ({ auth: NONE, query: { style: 'shield' } }) },
  preview_prune_guild: { build: () => ({ query: { days: 30 } }) },
  get_guild_join_requests: {
    after: (h, r) => {
      const j = json(r)?.guild_join_requests?.[0] ?? (json(r) as any)?.[0];
      if (j?.id ?? j?.join_request_id) h.ids.joinRequest = j.id ?? j.join_request_id;
    },
  },
  action_guild_join_request: { build: (h) => ({ params: { request_id: h.need('joinRequest') }, body: { action: 'APPROVED' } }) },
  list_guild_audit_log_entries: { build: () => ({ query: { limit: 50 } }) },
  list_guild_integrations: {},
  list_guild_invites: {},
  get_guild_webhooks: {},
  get_active_guild_threads: {},
  guild_search: {
    // Indexing is asynchronous (202 with retry_after until then, which the spec also allows): wait for the index so
    // the measured call checks the 200 shape with hits.
    build: async (h) => {
      const until = Date.now() + 5000;
      while (Date.now() < until) {
        const r = await h.call('get', `/guilds/${h.need('guild')}/messages/search`, { query: { content: 'conformance' } });
        if (r.status !== 202) break;
        await new Promise((res) => setTimeout(res, Math.min(1000, Math.max(100, Number((r.json as any)?.retry_after ?? 0) * 1000))));
      }
      return { query: { content: 'conformance', limit: 10 } };
    },
  },

  // ---------------------------------------------------------------------------------------------- templates
  create_guild_template: {
    build: () => ({ body: { name: 'Conformance template', description: 'made by the conformance run' } }),
    after: keep('template', 'code'),
  },
  list_guild_templates: {},
  get_guild_template: { build: (h) => ({ auth: NONE, params: { code: h.need('template') } }) },
  sync_guild_template: { build: (h) => ({ params: { code: h.need('template') } }) },
  update_guild_template: { build: (h) => ({ params: { code: h.need('template') }, body: { name: 'Conformance template (edited)' } }) },

  // ---------------------------------------------------------------------------------------------- roles, members
  list_guild_roles: {},
  create_guild_role: {
    build: () => ({ body: { name: 'conformance-created', permissions: 0, color: 0x5865f2, hoist: false, mentionable: false } }),
    after: keep('createdRole'),
  },
  get_guild_role: {},
  update_guild_role: { build: () => ({ body: { name: 'conformance (edited)' } }) },
  bulk_update_guild_roles: { build: (h) => ({ body: [{ id: h.need('role'), position: 1 }] }) },
  guild_role_member_counts: {},
  list_guild_members: { build: () => ({ query: { limit: 100 } }) },
  search_guild_members: { build: () => ({ query: { query: 'bob', limit: 10 } }) },
  get_guild_member: {},
  update_guild_member: { build: () => ({ body: { nick: 'Bobby' } }) },
  update_my_guild_member: { build: () => ({ body: { nick: 'Conformance Bot' } }) },
  add_guild_member: {
    build: async (h) => {
      const token = (await h.token(bearer('gina', 'identify', 'guilds.join')))!.replace(/^Bearer /, '');
      return { params: { user_id: h.need('gina') }, body: { access_token: token, nick: 'Gina' } };
    },
  },
  add_guild_member_role: { build: (h) => ({ params: { user_id: h.need('dave') } }) },

  // ------------------------------------------------------------------------------------------------------- bans
  ban_user_from_guild: { build: (h) => ({ params: { user_id: h.need('erin') }, body: { delete_message_seconds: 0 } }) },
  get_guild_ban: { build: (h) => ({ params: { user_id: h.need('erin') } }) },
  list_guild_bans: {},
  bulk_ban_users_from_guild: { build: (h) => ({ body: { user_ids: [h.need('hank'), h.need('frank')], delete_message_seconds: 0 } }) },

  // -------------------------------------------------------------------------------------------------- auto mod
  create_auto_moderation_rule: { build: () => ({ body: automodRule('conformance') }), after: keep('automodRule') },
  list_auto_moderation_rules: {},
  get_auto_moderation_rule: { build: (h) => ({ params: { rule_id: h.need('automodRule') } }) },
  update_auto_moderation_rule: { build: (h) => ({ params: { rule_id: h.need('automodRule') }, body: { name: 'conformance (edited)' } }) },

  // ------------------------------------------------------------------------------------------ scheduled events
  create_guild_scheduled_event: { build: () => ({ body: scheduledEvent('Conformance event') }), after: keep('event') },
  list_guild_scheduled_events: { build: () => ({ query: { with_user_count: true } }) },
  get_guild_scheduled_event: { build: (h) => ({ params: { guild_scheduled_event_id: h.need('event') }, query: { with_user_count: true } }) },
  update_guild_scheduled_event: { build: (h) => ({ params: { guild_scheduled_event_id: h.need('event') }, body: { name: 'Conformance event (edited)' } }) },
  list_guild_scheduled_event_users: {
    build: async (h) => {
      await h.must('put', `/guilds/${h.need('guild')}/scheduled-events/${h.need('event')}/users/@me`, { auth: asUser('alice') });
      return { params: { guild_scheduled_event_id: h.need('event') }, query: { limit: 10, with_member: true } };
    },
  },
  count_guild_scheduled_event_users: { build: (h) => ({ params: { guild_scheduled_event_id: h.need('event') } }) },
  create_guild_scheduled_event_exception: {
    build: async (h) => {
      // Exceptions belong to recurring events: a weekly one.
      const start = new Date(Date.now() + 7 * 86400_000);
      start.setUTCHours(18, 0, 0, 0);
      const ev = await h.must('post', `/guilds/${h.need('guild')}/scheduled-events`, {
        body: {
          ...scheduledEvent('Conformance weekly'),
          scheduled_start_time: start.toISOString(),
          scheduled_end_time: new Date(start.getTime() + 3600_000).toISOString(),
          recurrence_rule: { start: start.toISOString(), frequency: 2, interval: 1, by_weekday: [(start.getUTCDay() + 6) % 7] },
        },
      });
      h.ids.recurringEvent = ev.id;
      return {
        params: { guild_scheduled_event_id: ev.id },
        body: { original_scheduled_start_time: new Date(start.getTime() + 7 * 86400_000).toISOString(), is_canceled: true },
      };
    },
    after: (h, r) => {
      const v = json(r);
      const id = v?.event_exception_id ?? v?.id;
      if (typeof id === 'string') h.ids.eventException = id;
    },
  },
  update_guild_scheduled_event_exception: {
    build: (h) => ({ params: { guild_scheduled_event_id: h.need('recurringEvent'), exception_id: h.need('eventException') }, body: { is_canceled: false } }),
  },
  list_guild_scheduled_event_exception_users: {
    build: (h) => ({ params: { guild_scheduled_event_id: h.need('recurringEvent'), guild_scheduled_event_exception_id: h.need('eventException') } }),
  },

  // ------------------------------------------------------------------------------------------------------ channels
  list_guild_channels: {},
  create_guild_channel: {
    build: () => ({ body: { name: 'conformance-created', type: 0, topic: 'made by create_guild_channel' } }),
    after: keep('createdChannel'),
  },
  bulk_update_guild_channels: { build: (h) => ({ body: [{ id: h.need('text'), position: 0 }] }) },
  get_channel: {},
  update_channel: { build: () => ({ body: { topic: 'Accord conformance channel' } }) },
  set_channel_permission_overwrite: { build: (h) => ({ params: { overwrite_id: h.need('role') }, body: { type: 0, allow: 1024, deny: 0 } }) },
  follow_channel: { build: (h) => ({ params: { channel_id: h.need('news') }, body: { webhook_channel_id: h.need('text') } }) },
  update_voice_channel_status: { build: (h) => ({ params: { channel_id: h.need('voice') }, body: { status: 'Conformance in progress' } }) },
  trigger_typing_indicator: {},
  list_channel_webhooks: {},
  create_webhook: { build: () => ({ body: { name: 'conformance-created' } }), after: keep('createdWebhook') },
  list_channel_invites: {},
  create_channel_invite: { build: () => ({ body: { max_age: 3600, max_uses: 5, unique: true } }), after: keep('createdInvite', 'code') },

  // ------------------------------------------------------------------------------------------------------ messages
  list_messages: { build: () => ({ query: { limit: 50 } }) },
  create_message: {
    build: () => ({ body: { content: 'conformance: create_message', embeds: [{ title: 'Conformance', description: 'An embed' }] } }),
    after: keep('createdMessage'),
  },
  get_message: {},
  update_message: { build: () => ({ body: { content: 'conformance: a message with reactions (edited)' } }) },
  crosspost_message: { build: (h) => ({ params: { channel_id: h.need('news'), message_id: h.need('newsMessage') } }) },
  add_my_message_reaction: { build: () => ({ params: { emoji_name: '✅' } }) },
  list_message_reactions_by_emoji: { build: () => ({ params: { emoji_name: THUMBS }, query: { limit: 25 } }) },
  list_pins: {},
  deprecated_list_pins: {},
  create_pin: { build: async (h) => ({ params: { message_id: await message(h, h.need('text'), 'conformance: to pin') } }) },
  deprecated_create_pin: { build: async (h) => ({ params: { message_id: await message(h, h.need('text'), 'conformance: to pin (deprecated route)') } }) },
  get_answer_voters: { build: (h) => ({ params: { message_id: h.need('poll'), answer_id: '1' }, query: { limit: 25 } }) },
  poll_expire: { build: (h) => ({ params: { message_id: h.need('pollToExpire') } }) },

  // ------------------------------------------------------------------------------------------------------- threads
  create_thread: { build: () => ({ body: { name: 'conformance created thread', type: 11, auto_archive_duration: 1440 } }), after: keep('createdThread') },
  create_thread_from_message: {
    build: async (h) => ({
      params: { message_id: await message(h, h.need('text'), 'conformance: thread starter') },
      body: { name: 'conformance thread from message', auto_archive_duration: 1440 },
    }),
  },
  list_thread_members: { build: (h) => ({ params: { channel_id: h.need('thread') }, query: { with_member: true } }) },
  join_thread: { build: (h) => ({ params: { channel_id: h.need('thread') } }) },
  add_thread_member: { build: (h) => ({ params: { channel_id: h.need('thread'), user_id: h.need('alice') } }) },
  get_thread_member: { build: (h) => ({ params: { channel_id: h.need('thread'), user_id: h.need('bob') } }) },
  list_public_archived_threads: {},
  list_private_archived_threads: {},
  list_my_private_archived_threads: {},
  thread_search: { build: () => ({ query: { name: 'conformance', limit: 10 } }) },

  // ------------------------------------------------------------------------------------------------------ invites
  invite_resolve: { build: () => ({ auth: NONE, query: { with_counts: true, with_expiration: true } }) },
  update_invite_target_users: {
    build: (h) => ({
      body: form({}, [
        { field: 'target_users_file', name: 'users.csv', type: 'text/csv', data: Buffer.from(`user_id\n${h.need('bob')}\n${h.need('carol')}\n`) },
      ]),
    }),
  },
  get_invite_target_users: {},
  get_invite_target_users_job_status: {},
  add_invite_target_user: { build: (h) => ({ params: { user_id: h.need('dave') } }) },
  bulk_add_invite_target_users: { build: (h) => ({ body: { user_ids: [h.need('frank'), h.need('gina')] } }) },

  // ------------------------------------------------------------------------------------------------------ webhooks
  get_webhook: {},
  update_webhook: { build: () => ({ body: { name: 'conformance (edited)' } }) },
  get_webhook_by_token: { build: () => ({ auth: NONE }) },
  update_webhook_by_token: { build: () => ({ auth: NONE, body: { name: 'conformance (edited by token)' } }) },
  execute_webhook: { build: () => ({ auth: NONE, query: { wait: true }, body: { content: 'conformance: execute_webhook', username: 'Conformance' } }) },
  get_webhook_message: { build: (h) => ({ auth: NONE, params: { message_id: h.need('webhookMessage') } }) },
  update_webhook_message: {
    build: (h) => ({ auth: NONE, params: { message_id: h.need('webhookMessage') }, body: { content: 'conformance: webhook (edited)' } }),
  },
  execute_slack_compatible_webhook: { build: () => ({ auth: NONE, query: { wait: true }, body: { text: 'conformance: slack', username: 'Slack' } }) },
  execute_github_compatible_webhook: {
    build: () => ({
      auth: NONE,
      headers: { 'x-github-event': 'star' },
      body: {
        action: 'created',
        repository: { id: 1, html_url: 'https://github.com/accord/accord', name: 'accord', full_name: 'accord/accord' },
        sender: { id: 1, login: 'octocat', html_url: 'https://github.com/octocat', avatar_url: 'https://github.com/images/error/octocat_happy.gif' },
      },
    }),
  },

  // ------------------------------------------------------------------------------------------------- stage, voice
  create_stage_instance: { build: (h) => ({ body: { channel_id: h.need('stage'), topic: 'Conformance stage', privacy_level: 2 } }) },
  get_stage_instance: { build: (h) => ({ params: { channel_id: h.need('stage') } }) },
  update_stage_instance: { build: (h) => ({ params: { channel_id: h.need('stage') }, body: { topic: 'Conformance stage (edited)' } }) },
  get_self_voice_state: {},
  get_voice_state: { build: (h) => ({ params: { user_id: h.need('alice') } }) },
  update_voice_state: { build: (h) => ({ params: { user_id: h.need('alice') }, body: { channel_id: h.need('stage'), suppress: true } }) },
  // The bot plays the sound in the voice channel it joined, then moves to the stage for its own stage state.
  send_soundboard_sound: {
    build: (h) => ({
      params: { channel_id: h.need('botVoice') },
      body: { sound_id: h.ids.sound ?? h.need('defaultSound'), source_guild_id: h.ids.sound ? h.need('guild') : undefined },
    }),
  },
  update_self_voice_state: {
    build: async (h) => {
      await h.joinVoice('bot', h.need('stage'));
      return { body: { channel_id: h.need('stage'), suppress: false } };
    },
  },

  // ------------------------------------------------------------------------------------------------- monetization
  get_entitlements: { build: () => ({ query: { limit: 10 } }) },
  create_entitlement: { build: (h) => ({ body: { sku_id: h.need('sku'), owner_id: h.need('alice'), owner_type: 2 } }), after: keep('entitlement') },
  get_entitlement: { build: (h) => ({ params: { entitlement_id: h.need('entitlement') } }) },
  consume_entitlement: {
    build: async (h) => {
      const e = await h.must('post', `/applications/${h.need('app')}/entitlements`, {
        body: { sku_id: h.need('consumableSku'), owner_id: h.need('bob'), owner_type: 2 },
      });
      return { params: { entitlement_id: e.id } };
    },
  },
  get_current_user_application_entitlements: { build: () => ({ auth: bearer('alice', 'identify', 'applications.entitlements') }) },
  get_sku_subscriptions: { build: (h) => ({ params: { sku_id: h.need('subscriptionSku') }, query: { user_id: h.need('alice') } }) },
  get_sku_subscription: { build: (h) => ({ params: { sku_id: h.need('subscriptionSku'), subscription_id: h.need('subscription') } }) },

  // ------------------------------------------------------------------------------------------------------ lobbies
  create_lobby: {
    // alice may link a channel (CAN_LINK_LOBBY): edit_lobby_channel_link runs with her token.
    build: (h) => ({
      body: { members: [{ id: h.need('alice'), flags: 1 }, { id: h.need('bob') }], metadata: { mode: 'conformance' }, idle_timeout_seconds: 300 },
    }),
    after: keep('lobby'),
  },
  create_or_join_lobby: {
    build: () => ({ auth: bearer('carol', 'lobbies.write', 'sdk.social_layer'), body: { secret: 'conformance-secret', lobby_metadata: { mode: 'joined' } } }),
    after: keep('secretLobby'),
  },
  get_lobby: { build: (h) => ({ params: { lobby_id: h.need('lobby') } }) },
  edit_lobby: { build: (h) => ({ params: { lobby_id: h.need('lobby') }, body: { metadata: { mode: 'edited' } } }) },
  add_lobby_member: { build: (h) => ({ params: { lobby_id: h.need('lobby'), user_id: h.need('carol') }, body: { metadata: { role: 'guest' } } }) },
  bulk_update_lobby_members: { build: (h) => ({ params: { lobby_id: h.need('lobby') }, body: [{ id: h.need('dave'), metadata: { role: 'bulk' } }] }) },
  edit_lobby_channel_link: {
    build: (h) => ({
      auth: bearer('alice', 'lobbies.write', 'sdk.social_layer', 'guilds'),
      params: { lobby_id: h.need('lobby') },
      body: { channel_id: h.need('text') },
    }),
  },
  create_linked_lobby_guild_invite_for_self: {
    build: (h) => ({ auth: bearer('alice', 'lobbies.write', 'sdk.social_layer'), params: { lobby_id: h.need('lobby') } }),
  },
  create_linked_lobby_guild_invite_for_user: { build: (h) => ({ params: { lobby_id: h.need('lobby'), user_id: h.need('alice') } }) },
  create_lobby_message: {
    build: (h) => ({ params: { lobby_id: h.need('lobby') }, body: { content: 'conformance: lobby message' } }),
    after: keep('lobbyMessage'),
  },
  get_lobby_messages: { build: (h) => ({ params: { lobby_id: h.need('lobby') }, query: { limit: 10 } }) },
  update_lobby_message_external_moderation_metadata: {
    build: (h) => ({ params: { lobby_id: h.need('lobby'), message_id: h.need('lobbyMessage') }, body: { verdict: 'allowed' } }),
  },

  // -------------------------------------------------------------------------------------------------- partner SDK
  bot_partner_sdk_token: { build: () => ({ body: { external_user_id: 'conformance-external-1', preferred_global_name: 'External One' } }) },
  partner_sdk_token: {
    build: (h) => ({ auth: NONE, body: { client_id: h.need('app'), external_auth_type: 'OIDC', external_auth_token: h.need('oidcToken') } }),
  },
  update_user_message_external_moderation_metadata: {
    build: (h) => ({ params: { user_id_1: h.need('alice'), user_id_2: h.need('bob'), message_id: h.need('gameDmMessage') }, body: { verdict: 'allowed' } }),
  },

  // ============================================================================================ late (destructive)
  delete_original_webhook_message: {
    late: true,
    build: (h) => ({ auth: NONE, params: { webhook_id: h.need('app'), webhook_token: h.need('interactionToken') } }),
  },
  delete_webhook_message: {
    late: true,
    build: async (h) => {
      const m = await h.must('post', `/webhooks/${h.need('webhook')}/${h.need('webhookToken')}`, {
        auth: NONE,
        query: { wait: true },
        body: { content: 'conformance: to delete' },
      });
      return { auth: NONE, params: { message_id: m.id } };
    },
  },
  delete_message: { late: true, build: async (h) => ({ params: { message_id: await message(h, h.need('text'), 'conformance: to delete') } }) },
  bulk_delete_messages: {
    late: true,
    build: async (h) => ({
      body: { messages: [await message(h, h.need('text'), 'conformance: bulk 1'), await message(h, h.need('text'), 'conformance: bulk 2')] },
    }),
  },
  delete_pin: {
    late: true,
    build: async (h) => {
      const id = await message(h, h.need('text'), 'conformance: pinned then unpinned');
      await h.must('put', `/channels/${h.need('text')}/messages/pins/${id}`);
      return { params: { message_id: id } };
    },
  },
  deprecated_delete_pin: {
    late: true,
    build: async (h) => {
      const id = await message(h, h.need('text'), 'conformance: pinned then unpinned (deprecated route)');
      await h.must('put', `/channels/${h.need('text')}/pins/${id}`);
      return { params: { message_id: id } };
    },
  },
  delete_my_message_reaction: {
    late: true,
    build: async (h) => {
      const id = await message(h, h.need('text'), 'conformance: my reaction');
      await h.must('put', `/channels/${h.need('text')}/messages/${id}/reactions/${encodeURIComponent(THUMBS)}/@me`);
      return { params: { message_id: id, emoji_name: THUMBS } };
    },
  },
  delete_user_message_reaction: {
    late: true,
    build: async (h) => {
      const id = await message(h, h.need('text'), 'conformance: a user reaction');
      await h.must('put', `/channels/${h.need('text')}/messages/${id}/reactions/${encodeURIComponent(THUMBS)}/@me`, { auth: asUser('alice') });
      return { params: { message_id: id, emoji_name: THUMBS, user_id: h.need('alice') } };
    },
  },
  delete_all_message_reactions_by_emoji: {
    late: true,
    build: async (h) => {
      const id = await message(h, h.need('text'), 'conformance: reactions by emoji');
      await h.must('put', `/channels/${h.need('text')}/messages/${id}/reactions/${encodeURIComponent(THUMBS)}/@me`);
      return { params: { message_id: id, emoji_name: THUMBS } };
    },
  },
  delete_all_message_reactions: {
    late: true,
    build: async (h) => {
      const id = await message(h, h.need('text'), 'conformance: all reactions');
      await h.must('put', `/channels/${h.need('text')}/messages/${id}/reactions/${encodeURIComponent(THUMBS)}/@me`);
      return { params: { message_id: id } };
    },
  },
  delete_channel_permission_overwrite: {
    late: true,
    build: async (h) => {
      await h.must('put', `/channels/${h.need('text')}/permissions/${h.need('bob')}`, { body: { type: 1, allow: 0, deny: 2048 } });
      return { params: { overwrite_id: h.need('bob') } };
    },
  },
  delete_thread_member: { late: true, build: (h) => ({ params: { channel_id: h.need('thread'), user_id: h.need('bob') } }) },
  leave_thread: { late: true, build: (h) => ({ params: { channel_id: h.need('thread') } }) },
  delete_guild_member_role: { late: true, build: (h) => ({ params: { user_id: h.need('bob') } }) },
  delete_guild_member: { late: true, build: (h) => ({ params: { user_id: h.need('dave') } }) },
  unban_user_from_guild: { late: true, build: (h) => ({ params: { user_id: h.need('erin') } }) },
  prune_guild: { late: true, build: () => ({ body: { days: 30, compute_prune_count: true } }) },
  delete_guild_role: {
    late: true,
    build: async (h) => ({
      params: { role_id: h.ids.createdRole ?? (await h.must('post', `/guilds/${h.need('guild')}/roles`, { body: { name: 'to delete' } })).id },
    }),
  },
  delete_auto_moderation_rule: {
    late: true,
    build: async (h) => ({
      params: {
        rule_id: h.ids.automodRule ?? (await h.must('post', `/guilds/${h.need('guild')}/auto-moderation/rules`, { body: automodRule('to delete') })).id,
      },
    }),
  },
  delete_guild_scheduled_event_exception: {
    late: true,
    build: (h) => ({ params: { guild_scheduled_event_id: h.need('recurringEvent'), exception_id: h.need('eventException') } }),
  },
  delete_guild_scheduled_event: { late: true, build: (h) => ({ params: { guild_scheduled_event_id: h.need('event') } }) },
  delete_stage_instance: { late: true, build: (h) => ({ params: { channel_id: h.need('stage') } }) },
  delete_guild_emoji: { late: true, build: (h) => ({ params: { emoji_id: h.need('emoji') } }) },
  delete_application_emoji: { late: true, build: (h) => ({ params: { emoji_id: h.need('appEmoji') } }) },
  delete_guild_sticker: { late: true, build: (h) => ({ params: { sticker_id: h.need('sticker') } }) },
  delete_guild_soundboard_sound: { late: true, build: (h) => ({ params: { sound_id: h.need('sound') } }) },
  delete_guild_template: { late: true, build: (h) => ({ params: { code: h.need('template') } }) },
  delete_application_command: { late: true, build: (h) => ({ params: { command_id: h.need('createdCommand') } }) },
  delete_guild_application_command: { late: true, build: (h) => ({ params: { command_id: h.need('createdGuildCommand') } }) },
  delete_application_user_role_connection: { late: true, build: () => ({ auth: bearer('alice', 'role_connections.write') }) },
  delete_entitlement: { late: true, build: (h) => ({ params: { entitlement_id: h.need('entitlement') } }) },
  remove_invite_target_user: { late: true, build: (h) => ({ params: { user_id: h.need('dave') } }) },
  bulk_remove_invite_target_users: { late: true, build: (h) => ({ body: { user_ids: [h.need('frank')] } }) },
  invite_revoke: {
    late: true,
    build: async (h) => ({
      params: { code: h.ids.createdInvite ?? (await h.must('post', `/channels/${h.need('text')}/invites`, { body: { unique: true } })).code },
    }),
  },
  add_group_dm_user: {
    late: true,
    build: async (h) => {
      const token = (await h.token(bearer('dave', 'identify', 'gdm.join')))!.replace(/^Bearer /, '');
      return { params: { channel_id: h.need('groupDm'), user_id: h.need('dave') }, body: { access_token: token, nick: 'Dave' } };
    },
  },
  delete_group_dm_user: { late: true, build: (h) => ({ params: { channel_id: h.need('groupDm'), user_id: h.need('dave') } }) },
  delete_lobby_member: { late: true, build: (h) => ({ params: { lobby_id: h.need('lobby'), user_id: h.need('bob') } }) },
  // Players leave lobbies made by create-or-join (a POST /lobbies lobby is the app's to manage).
  leave_lobby: { late: true, build: (h) => ({ auth: bearer('carol', 'lobbies.write', 'sdk.social_layer'), params: { lobby_id: h.need('secretLobby') } }) },
  delete_lobby: { late: true, build: (h) => ({ params: { lobby_id: h.need('lobby') } }) },
  // Unmerge needs a merged identity: the game backend's player (by its access token) merges into frank, a second
  // OIDC player into erin, each through the OAuth2 code grant.
  bot_partner_sdk_unmerge_provisional_account: {
    late: true,
    build: async (h) => {
      const t = await h.must('post', '/partner-sdk/token/bot', { body: { external_user_id: 'conformance-external-1' } });
      await h.mergeInto('frank', 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', t.access_token);
      return { body: { external_user_id: 'conformance-external-1' } };
    },
  },
  partner_sdk_unmerge_provisional_account: {
    late: true,
    build: async (h) => {
      h.need('oidcToken');
      const token = await h.oidc!.idToken('conformance-player-2', {}, { now: h.ctx.clock.now() });
      await h.must('post', '/partner-sdk/token', { auth: NONE, body: { client_id: h.need('app'), external_auth_type: 'OIDC', external_auth_token: token } });
      await h.mergeInto('erin', 'OIDC', token);
      return { auth: NONE, body: { client_id: h.need('app'), external_auth_type: 'OIDC', external_auth_token: token } };
    },
  },
  delete_webhook_by_token: {
    late: true,
    build: async (h) => {
      const w = await h.must('post', `/channels/${h.need('text')}/webhooks`, { body: { name: 'to delete by token' } });
      return { auth: NONE, params: { webhook_id: w.id, webhook_token: w.token } };
    },
  },
  delete_webhook: { late: true, build: (h) => ({ params: { webhook_id: h.need('createdWebhook') } }) },
  delete_channel: {
    late: true,
    build: async (h) => ({
      params: { channel_id: h.ids.createdChannel ?? (await h.must('post', `/guilds/${h.need('guild')}/channels`, { body: { name: 'to-delete' } })).id },
    }),
  },
  delete_guild_integration: {
    late: true,
    build: async (h) => {
      const g = h.need('guildIntegration');
      const id = await firstOf(h, `/guilds/${g}/integrations`, 'integrations');
      return { params: { guild_id: g, integration_id: id } };
    },
  },
  leave_guild: { late: true, build: (h) => ({ params: { guild_id: h.need('guildLeave') } }) },
};

/** Auth when neither the fixture nor the spec says otherwise: Bot when the spec allows it, else none, else bearer. */
export function defaultAuth(security: ({ kind: 'none' } | { kind: 'bot' } | { kind: 'bearer'; scopes: string[] })[]): Auth {
  if (security.some((s) => s.kind === 'bot')) return BOT;
  if (security.some((s) => s.kind === 'none') || security.length === 0) return NONE;
  const b = security.find((s): s is { kind: 'bearer'; scopes: string[] } => s.kind === 'bearer');
  return bearer('alice', ...(b?.scopes.slice(0, 1) ?? []));
}
