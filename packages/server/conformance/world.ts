/**
 * The seeded world the conformance run calls every operation against: `seedWorld` (two users, a guild with a text
 * and a voice channel, an app whose bot holds every permission but ADMINISTRATOR) extended with more users, channels
 * of every kind an operation needs, a role, a thread, a webhook with its token, invites, messages with reactions and
 * pins, a poll, application commands, spare guilds for the operations that take the bot out of a guild, and OAuth2
 * bearer tokens minted with the scopes each operation needs.
 *
 * Users and spare guilds are made through services (there is no public route for either from a bot's point of
 * view); everything else goes through the HTTP API like a client would, so the setup also works for resources
 * whose routes land later. A setup step that fails is recorded, and the operations that need its output fail with
 * that reason instead of aborting the run.
 */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { Actor } from '../src/services/context.js';
import type { RunningServer } from '../src/server.js';
import { seedWorld } from '../src/dev/seed.js';
import { register } from '../src/services/identity/users.js';
import { createGuild } from '../src/services/guilds/create.js';
import { installBot } from '../src/services/identity/bot-install.js';
import { addMember } from '../src/services/guilds/membership.js';
import { issueToken } from '../src/services/identity/tokens.js';
import { ALL_PERMISSIONS, P } from '@accord/protocol';
import { RawGateway } from '../test/helpers/gateway-client.js';
import { startOidcProvider, type OidcProvider } from '../test/helpers/oidc-provider.js';

export type Auth = { kind: 'none' } | { kind: 'bot' } | { kind: 'user'; user: UserKey } | { kind: 'bearer'; user: UserKey; scopes: string[] };

export const BOT: Auth = { kind: 'bot' };
export const NONE: Auth = { kind: 'none' };
export const asUser = (user: UserKey): Auth => ({ kind: 'user', user });
export const bearer = (user: UserKey, ...scopes: string[]): Auth => ({ kind: 'bearer', user, scopes });

export type UserKey = 'alice' | 'bob' | 'carol' | 'dave' | 'erin' | 'frank' | 'gina' | 'hank';

export interface CallOptions {
  auth?: Auth;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON unless it is a FormData. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Response {
  status: number;
  contentType: string;
  text: string;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  json: unknown;
  isJson: boolean;
}

/** Thrown by setup steps; the operation is then classified as failed with this reason. */
export class SetupError extends Error {}

export class Harness {
  /** Named ids produced by the setup and by earlier operations (created resources). */
  readonly ids: Record<string, string | undefined> = {};
  readonly users = {} as Record<UserKey, { id: string; token: string }>;
  readonly setupProblems: string[] = [];
  /** Events published on the server's bus (interaction tokens are only ever given out this way). */
  readonly events: { t: string; d: any }[] = [];
  private bearers = new Map<string, string>();
  private gateways: RawGateway[] = [];
  /** Open gateway sessions by who holds them (voice states live as long as these). */
  readonly sessions: Partial<Record<'bot' | UserKey, RawGateway>> = {};
  botToken = '';

  constructor(readonly server: RunningServer) {
    server.ctx.bus.subscribe((e) => {
      if (e.t === 'INTERACTION_CREATE' && e.d && typeof e.d === 'object' && 'token' in e.d) this.events.push({ t: e.t, d: e.d });
    });
  }

  get ctx() {
    return this.server.ctx;
  }

  /** A gateway session (bot or user) kept open for the run: voice states need a connected session. */
  async gateway(token: string, intents: number): Promise<RawGateway> {
    const gw = await RawGateway.connect(this.server.url);
    this.gateways.push(gw);
    await gw.identify(token, { intents });
    return gw;
  }

  /** Joins (or moves to) a voice or stage channel of the world's guild through Gateway opcode 4. */
  async joinVoice(who: 'bot' | UserKey, channelId: string): Promise<void> {
    const GUILDS = 1 << 0;
    const GUILD_VOICE_STATES = 1 << 7;
    let gw = this.sessions[who];
    if (!gw) this.sessions[who] = gw = await this.gateway(who === 'bot' ? this.botToken : this.users[who].token, GUILDS | GUILD_VOICE_STATES);
    const userId = who === 'bot' ? this.need('bot') : this.users[who].id;
    const since = gw.frames.length;
    gw.send(4, { guild_id: this.need('guild'), channel_id: channelId, self_mute: false, self_deaf: false });
    await gw
      .wait(
        (f) => gw.frames.indexOf(f) >= since && f.op === 0 && f.t === 'VOICE_STATE_UPDATE' && f.d?.user_id === userId && f.d?.channel_id === channelId,
        1500,
      )
      .catch(() => {
        throw new SetupError(`no VOICE_STATE_UPDATE for ${who} after opcode 4 (voice states over the Gateway not implemented)`);
      });
  }

  /** Local services started for the run (an OIDC provider), stopped by close(). */
  readonly cleanups: (() => Promise<void>)[] = [];
  oidc: OidcProvider | null = null;

  async close(): Promise<void> {
    for (const gw of this.gateways) gw.close();
    for (const c of this.cleanups) await c().catch(() => {});
  }

  /**
   * Merges the provisional account of an external identity into `who` through the OAuth2 code grant with
   * `external_auth_type` / `external_auth_token` (what the Social SDK's GetTokenFromProvisionalMerge does).
   */
  async mergeInto(who: UserKey, externalAuthType: string, externalAuthToken: string): Promise<void> {
    const q = new URLSearchParams({ client_id: this.need('app'), response_type: 'code', scope: 'identify' });
    const consent = await this.must('post', `/oauth2/authorize?${q}`, { auth: asUser(who), body: { authorize: true } });
    const code = new URL(consent.location).searchParams.get('code');
    if (!code) throw new SetupError(`no code in ${consent.location}`);
    await this.must('post', '/oauth2/token', {
      auth: NONE,
      body: {
        grant_type: 'authorization_code',
        code,
        client_id: this.need('app'),
        external_auth_type: externalAuthType,
        external_auth_token: externalAuthToken,
      },
    });
  }

  /** An id that must exist; a missing one means the step that makes it failed. */
  need(name: string): string {
    const v = this.ids[name];
    if (!v) throw new SetupError(`no ${name} in the world (${this.why[name] ?? 'the step that creates it did not run'})`);
    return v;
  }

  /** Why an id is missing, for the report. */
  readonly why: Record<string, string> = {};

  async token(auth: Auth): Promise<string | null> {
    switch (auth.kind) {
      case 'none':
        return null;
      case 'bot':
        return `Bot ${this.botToken}`;
      case 'user':
        return this.users[auth.user].token;
      case 'bearer': {
        const key = `${auth.user}:${[...auth.scopes].sort().join(' ')}`;
        let t = this.bearers.get(key);
        if (!t) {
          t = await issueToken(this.ctx, this.users[auth.user].id, 'bearer', {
            applicationId: this.need('app'),
            scopes: auth.scopes,
            expiresAt: this.ctx.clock.now() + 7 * 86400_000,
          });
          this.bearers.set(key, t);
        }
        return `Bearer ${t}`;
      }
    }
  }

  async call(method: string, path: string, opts: CallOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { 'user-agent': 'DiscordBot (https://accord.local, 1.0) accord-conformance', ...opts.headers };
    const token = await this.token(opts.auth ?? BOT);
    if (token) headers.authorization = token;
    let body: FormData | string | undefined;
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) qs.set(k, String(v));
    const url = `${this.server.url}/api/v10${path}${qs.size ? `?${qs}` : ''}`;
    const res = await fetch(url, { method: method.toUpperCase(), headers, body });
    const buf = Buffer.from(await res.arrayBuffer());
    const contentType = res.headers.get('content-type') ?? '';
    const text = /^(image|audio|video)\//.test(contentType) ? `<${buf.length} bytes of ${contentType}>` : buf.toString('utf8');
    let json: unknown;
    let isJson = false;
    if (text && contentType.includes('json')) {
      try {
        json = JSON.parse(text);
        isJson = true;
      } catch {
        /* not JSON after all */
      }
    }
    return { status: res.status, contentType, text, json, isJson };
  }

  /** A setup call that must succeed (2xx); otherwise a SetupError naming the call and the answer. */
  async must(method: string, path: string, opts: CallOptions = {}): Promise<any> {
    const r = await this.call(method, path, opts);
    if (r.status < 200 || r.status > 299) throw new SetupError(`setup ${method.toUpperCase()} ${path} → ${r.status} ${short(r.text)}`);
    return r.json;
  }

  /** Runs one named setup step; failures are recorded (and explain later failures) instead of stopping the run. */
  async step(name: string, produces: string[], fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      const msg = `${name}: ${e instanceof Error ? e.message : String(e)}`;
      this.setupProblems.push(msg);
      for (const p of produces) if (!this.ids[p]) this.why[p] = msg;
    }
  }

  /** Alice runs the guild command `/conformance` (POST /interactions); resolves with the bot's id and token. */
  async interaction(): Promise<{ id: string; token: string }> {
    const since = this.events.length;
    await this.must('post', '/interactions', {
      auth: asUser('alice'),
      body: {
        type: 2,
        application_id: this.need('app'),
        guild_id: this.need('guild'),
        channel_id: this.need('text'),
        session_id: 'conformance',
        nonce: String(Date.now()),
        data: { id: this.need('guildCommand'), name: 'conformance', type: 1, version: this.need('guildCommand') },
      },
    });
    return this.nextInteraction(since);
  }

  /** Waits for the bot's copy of an interaction (published on the bus with its token). */
  async nextInteraction(since: number, timeoutMs = 3000): Promise<{ id: string; token: string; application_id: string }> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const e = this.events.slice(since).find((x) => x.t === 'INTERACTION_CREATE');
      if (e) return e.d;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new SetupError('no INTERACTION_CREATE reached the bot after POST /interactions');
  }
}

export function short(s: string, n = 160): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n)}…` : t;
}

// ---------------------------------------------------------------------------------------------------------------
// Media fixtures, generated here (no binary files in the repo).

/** A solid-colour RGBA PNG of the given size. */
export function png(size = 128): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 4, Buffer.from([0x58, 0x65, 0xf2, 0xff]))]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const pngDataUri = (size = 128) => `data:image/png;base64,${png(size).toString('base64')}`;

/** Two Ogg pages: an OpusHead header, then a last page whose granule position makes one second of 48 kHz audio. */
export function ogg(): Buffer {
  const serial = crypto.randomInt(1, 2 ** 31);
  const page = (type: number, granule: bigint, seq: number, packet: Buffer) => {
    const header = Buffer.alloc(27);
    header.write('OggS', 0, 'ascii');
    header[5] = type;
    header.writeBigUInt64LE(granule, 6);
    header.writeUInt32LE(serial, 14);
    header.writeUInt32LE(seq, 18);
    header[26] = 1;
    return Buffer.concat([header, Buffer.from([packet.length]), packet]);
  };
  const preSkip = 312;
  const head = Buffer.concat([Buffer.from('OpusHead'), Buffer.from([1, 1, preSkip & 0xff, preSkip >> 8, 0x80, 0xbb, 0, 0, 0, 0, 0])]);
  return Buffer.concat([page(2, 0n, 0, head), page(4, BigInt(48000 + preSkip), 1, Buffer.from([0xf8, 0xff, 0xfe]))]);
}

export const oggDataUri = () => `data:audio/ogg;base64,${ogg().toString('base64')}`;

// ---------------------------------------------------------------------------------------------------------------
// The world.

const USER_KEYS: UserKey[] = ['carol', 'dave', 'erin', 'frank', 'gina', 'hank'];

export async function buildWorld(server: RunningServer): Promise<Harness> {
  const h = new Harness(server);
  const ctx = server.ctx;
  const seed = await seedWorld(ctx);
  h.botToken = seed.botToken;
  h.users.alice = { id: seed.users[0].id, token: seed.users[0].token };
  h.users.bob = { id: seed.users[1].id, token: seed.users[1].token };
  Object.assign(h.ids, {
    app: seed.applicationId,
    bot: seed.botUserId,
    guild: seed.guildId,
    text: seed.textChannelId,
    voice: seed.voiceChannelId,
    alice: h.users.alice.id,
    bob: h.users.bob.id,
  });
  const suffix = crypto.randomBytes(2).toString('hex');
  for (const name of USER_KEYS) {
    const username = `${name}_${suffix}`;
    const { token, user } = await register(ctx, { username, globalName: name, email: `${username}@accord.local`, password: `password-${name}` });
    h.users[name] = { id: user.id, token };
    h.ids[name] = user.id;
  }
  // dave (kicked), erin (banned) and hank (bulk-banned) are members; carol, frank and gina are not.
  for (const name of ['dave', 'erin', 'hank'] as const) await addMember(ctx, seed.guildId, h.users[name].id);

  // Spare guilds owned by alice with the bot installed: one loses the bot's integration, one sees the bot leave.
  const aliceRecord = (await ctx.repos.store.db.selectFrom('users').selectAll().where('id', '=', h.users.alice.id).executeTakeFirstOrThrow()) as any;
  const { toUser } = await import('../src/store/repos/mappers.js');
  const alice: Actor = { user: toUser(aliceRecord), kind: 'user', applicationId: null, scopes: [] };
  for (const key of ['guildIntegration', 'guildLeave']) {
    await h.step(`spare guild ${key}`, [key], async () => {
      const id = await createGuild(ctx, alice.user, { name: `Conformance ${key}` });
      await installBot(ctx, alice, { clientId: seed.applicationId, guildId: id, permissions: ALL_PERMISSIONS & ~P.ADMINISTRATOR });
      h.ids[key] = id;
    });
  }

  const G = seed.guildId;
  await h.step('role', ['role'], async () => {
    h.ids.role = (await h.must('post', `/guilds/${G}/roles`, { body: { name: 'conformance' } })).id;
  });
  await h.step('bob has the role', [], async () => {
    await h.must('put', `/guilds/${G}/members/${h.users.bob.id}/roles/${h.need('role')}`);
  });
  for (const [key, type, name] of [
    ['news', 5, 'announcements'],
    ['stage', 13, 'stage'],
    ['forum', 15, 'forum'],
    ['category', 4, 'category'],
  ] as const) {
    await h.step(`channel ${key}`, [key], async () => {
      h.ids[key] = (await h.must('post', `/guilds/${G}/channels`, { body: { name, type } })).id;
    });
  }
  const T = seed.textChannelId;
  await h.step('message', ['message'], async () => {
    h.ids.message = (await h.must('post', `/channels/${T}/messages`, { body: { content: 'conformance: a message with reactions' } })).id;
  });
  await h.step('reactions', [], async () => {
    await h.must('put', `/channels/${T}/messages/${h.need('message')}/reactions/${encodeURIComponent('👍')}/@me`);
    await h.must('put', `/channels/${T}/messages/${h.need('message')}/reactions/${encodeURIComponent('👍')}/@me`, { auth: asUser('alice') });
  });
  await h.step('pinned message', ['pinned'], async () => {
    const m = await h.must('post', `/channels/${T}/messages`, { body: { content: 'conformance: pinned' } });
    await h.must('put', `/channels/${T}/messages/pins/${m.id}`);
    h.ids.pinned = m.id;
  });
  await h.step('poll', ['poll'], async () => {
    const poll = {
      question: { text: 'Which?' },
      answers: [{ poll_media: { text: 'A' } }, { poll_media: { text: 'B' } }],
      duration: 24,
      allow_multiselect: false,
    };
    h.ids.poll = (await h.must('post', `/channels/${T}/messages`, { body: { poll } })).id;
    h.ids.pollToExpire = (await h.must('post', `/channels/${T}/messages`, { body: { poll } })).id;
  });
  await h.step('poll vote', [], async () => {
    await h.must('put', `/channels/${T}/polls/${h.need('poll')}/answers/@me`, { auth: asUser('alice'), body: { answer_ids: ['1'] } });
  });
  await h.step('news message', ['newsMessage'], async () => {
    h.ids.newsMessage = (await h.must('post', `/channels/${h.need('news')}/messages`, { body: { content: 'conformance: news' } })).id;
  });
  await h.step('thread', ['thread'], async () => {
    h.ids.thread = (await h.must('post', `/channels/${T}/threads`, { body: { name: 'conformance thread', type: 11 } })).id;
  });
  await h.step('thread member bob', [], async () => {
    await h.must('put', `/channels/${h.need('thread')}/thread-members/${h.users.bob.id}`);
  });
  await h.step('webhook', ['webhook', 'webhookToken'], async () => {
    const w = await h.must('post', `/channels/${T}/webhooks`, { body: { name: 'conformance' } });
    h.ids.webhook = w.id;
    h.ids.webhookToken = w.token;
  });
  await h.step('webhook message', ['webhookMessage'], async () => {
    h.ids.webhookMessage = (
      await h.must('post', `/webhooks/${h.need('webhook')}/${h.need('webhookToken')}`, {
        auth: NONE,
        query: { wait: true },
        body: { content: 'conformance: webhook' },
      })
    ).id;
  });
  await h.step('invite', ['invite'], async () => {
    h.ids.invite = (await h.must('post', `/channels/${T}/invites`, { body: { max_age: 86400, unique: true } })).code;
  });
  await h.step('global command', ['globalCommand'], async () => {
    h.ids.globalCommand = (
      await h.must('post', `/applications/${seed.applicationId}/commands`, {
        body: { name: 'conformance', description: 'Conformance global command', type: 1 },
      })
    ).id;
  });
  await h.step('guild command', ['guildCommand'], async () => {
    h.ids.guildCommand = (
      await h.must('post', `/applications/${seed.applicationId}/guilds/${G}/commands`, {
        body: { name: 'conformance', description: 'Conformance guild command', type: 1 },
      })
    ).id;
  });
  await h.step('dm channel', ['dm'], async () => {
    h.ids.dm = (await h.must('post', '/users/@me/channels', { body: { recipient_id: h.users.alice.id } })).id;
  });
  // Made by the bot with its users' gdm.join tokens: bots add and remove recipients of the group DMs they manage.
  await h.step('group dm', ['groupDm'], async () => {
    const tokens = [];
    for (const who of ['alice', 'bob'] as const) tokens.push((await h.token(bearer(who, 'identify', 'gdm.join')))!.replace(/^Bearer /, ''));
    h.ids.groupDm = (await h.must('post', '/users/@me/channels', { body: { access_tokens: tokens, nicks: { [h.users.alice.id]: 'Alice' } } })).id;
  });
  // SKUs are made by the app's owner (a durable one for test entitlements, a consumable one, a subscription).
  for (const [key, type, extra] of [
    ['sku', 2, {}],
    ['consumableSku', 3, {}],
    ['subscriptionSku', 5, { flags: 1 << 8 }],
  ] as const) {
    await h.step(`sku ${key}`, [key], async () => {
      const sku = await h.must('post', `/applications/${seed.applicationId}/skus`, {
        auth: asUser('alice'),
        body: { name: `Conformance ${key}`, type, price: 199, currency: 'usd', published: true, ...extra },
      });
      h.ids[key] = sku.id;
    });
  }
  return h;
}

/**
 * The parts of the world that need a gateway session or resources owned by other areas: the bot and alice join voice
 * (the bot a voice channel, alice the stage) through Gateway opcode 4, a DM message for the partner-SDK moderation
 * route, and a subscription when the app has a SKU. Each step may fail on its own.
 */
export async function extendWorld(h: Harness): Promise<void> {
  await h.step('frank applies to join the guild (member verification)', ['joinRequest'], async () => {
    const G = h.need('guild');
    const g = await h.must('get', `/guilds/${G}`, { auth: asUser('alice') });
    await h.must('patch', `/guilds/${G}`, { auth: asUser('alice'), body: { features: [...g.features, 'MEMBER_VERIFICATION_GATE_ENABLED'] } });
    const terms = { field_type: 'TERMS', label: 'Read the rules', required: true, values: ['Be kind'], response: true };
    h.ids.joinRequest = (await h.must('put', `/guilds/${G}/requests/@me`, { auth: asUser('frank'), body: { form_responses: [terms] } })).id;
  });
  await h.step('bot joins the voice channel', ['botVoice'], async () => {
    await h.joinVoice('bot', h.need('voice'));
    h.ids.botVoice = h.need('voice');
  });
  await h.step('alice joins the stage', ['aliceVoice'], async () => {
    await h.joinVoice('alice', h.need('stage'));
    h.ids.aliceVoice = h.need('stage');
  });
  await h.step('connection', [], async () => {
    // Third-party accounts are linked through the dev API (the providers' OAuth is out of scope).
    const r = await fetch(`${h.server.url}/__dev/users/${h.users.alice.id}/connections`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-accord-dev-token': h.server.ctx.config.devToken ?? '' },
      body: JSON.stringify({ type: 'github', id: '583231', name: 'alice-gh', verified: true, visibility: 1 }),
    });
    if (!r.ok) throw new SetupError(`POST /__dev/users/{id}/connections → ${r.status} ${short(await r.text())}`);
  });
  await h.step('dm message', ['dmMessage'], async () => {
    h.ids.dmMessage = (await h.must('post', `/channels/${h.need('dm')}/messages`, { body: { content: 'conformance: a DM' } })).id;
  });
  await h.step('game dm message', ['gameDmMessage'], async () => {
    // Moderation metadata is the app's to set on its own game DMs only (ownership before existence).
    await h.must('post', '/users/@me/channels', { auth: asUser('alice'), body: { recipient_id: h.users.bob.id } }); // they DM already
    const m = await h.must('post', `/users/@me/dms/${h.users.bob.id}/messages`, {
      auth: bearer('alice', 'dm_channels.messages.write'),
      body: { content: 'conformance: a game DM' },
    });
    h.ids.gameDmMessage = m.id;
  });
  await h.step('subscription', ['subscription'], async () => {
    await h.must('post', `/store/skus/${h.need('subscriptionSku')}/purchase`, { auth: asUser('alice'), body: { test_mode: true } });
    const subs = await h.must('get', `/skus/${h.need('subscriptionSku')}/subscriptions`, { query: { user_id: h.need('alice') } });
    const id = Array.isArray(subs) ? subs[0]?.id : undefined;
    if (!id) throw new SetupError('no subscription for alice after the purchase');
    h.ids.subscription = id;
  });
  // An Activity instance: the app gets Activities (EMBEDDED, a platform-managed flag, set in the store) and answers
  // an interaction with LAUNCH_ACTIVITY.
  await h.step('activity instance', ['activityInstance'], async () => {
    const app = await h.ctx.repos.store.db.selectFrom('applications').select('flags').where('id', '=', h.need('app')).executeTakeFirstOrThrow();
    await h.ctx.repos.store.db
      .updateTable('applications')
      .set({ flags: (BigInt(app.flags as any) | (1n << 17n)).toString() })
      .where('id', '=', h.need('app'))
      .execute();
    const i = await h.interaction();
    const r = await h.must('post', `/interactions/${i.id}/${i.token}/callback`, { auth: NONE, query: { with_response: true }, body: { type: 12 } });
    const id = r?.interaction?.activity_instance_id ?? r?.resource?.activity_instance?.id;
    if (typeof id !== 'string') throw new SetupError('the LAUNCH_ACTIVITY callback returned no activity_instance_id');
    h.ids.activityInstance = id;
  });
  // Social SDK provisional accounts: a local OpenID provider on 127.0.0.1 (a dev server accepts loopback issuers) is
  // configured for the app, which becomes a public client so the SDK's public routes take it without a secret.
  await h.step('OIDC provider', ['oidcToken'], async () => {
    const provider = await startOidcProvider('conformance-game');
    h.cleanups.push(() => provider.close());
    h.oidc = provider;
    const app = await h.must('get', `/applications/${h.need('app')}`, { auth: asUser('alice') });
    await h.must('patch', `/applications/${h.need('app')}`, { auth: asUser('alice'), body: { flags: Number(app.flags) | (1 << 8) } });
    await h.must('post', `/applications/${h.need('app')}/external-auth-providers`, {
      auth: asUser('alice'),
      body: { type: 'OIDC', issuer: provider.issuer, client_id: provider.clientId },
    });
    h.ids.oidcToken = await provider.idToken('conformance-player-1', { preferred_username: 'conformance' }, { now: h.ctx.clock.now() });
  });
  h.why.joinRequest ??= 'no pending join request (member verification applications)';
}
