import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { startTestServer, type TestServer } from './server.js';
import { RawGateway } from './gateway-client.js';
import { sleep, until } from './wait.js';

/**
 * The shared half of the compatibility suites (docs/compatibility.md): a person who acts on the bot the way the
 * official client does, the command set every library registers, and the server-side levers for a 429 and a RESUME.
 * Each suite drives its own library; these helpers only provoke and observe from the other side of the wire.
 */

/** A 1x1 PNG, the file every library uploads. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
export const THUMBS_UP = '👍';

/** The commands every suite registers through its library, and answers as `answers` describes. */
export const COMMANDS = [
  { name: 'hello', description: 'Say hello', options: [{ type: 3, name: 'name', description: 'who', required: true }] },
  { name: 'slow', description: 'Defer, edit, follow up' },
  { name: 'panel', description: 'A message with a button' },
  { name: 'form', description: 'Open a modal' },
];

/** What the bot answers: the texts the person then checks. */
export const answers = {
  hello: (name: string) => `Hello, ${name}!`,
  edited: 'Done thinking.',
  followUp: 'And one more thing.',
  panel: 'Counter: 0',
  bumped: 'Counter: 1',
  nice: (nick: string) => `Nice to meet you, ${nick}.`,
  /** The modal: an action row holding one short text input (the form every library can build). */
  modal: {
    custom_id: 'profile',
    title: 'Your profile',
    components: [{ type: 1, components: [{ type: 4, custom_id: 'nick', label: 'Nickname', style: 1, min_length: 2 }] }],
  },
  button: { type: 1, components: [{ type: 2, style: 1, custom_id: 'bump', label: 'Bump' }] },
};

/** Alice, the guild owner, with her own gateway session: she posts, reacts and uses the app's commands. */
export class Person {
  private nonce = 7000;
  private constructor(
    private readonly t: TestServer,
    readonly gw: RawGateway,
  ) {}

  static async join(t: TestServer): Promise<Person> {
    const gw = await RawGateway.connect(t.server.url);
    await gw.identify(t.world.users[0].token);
    return new Person(t, gw);
  }

  get id(): string {
    return this.t.world.users[0].id;
  }
  private get token(): string {
    return this.t.world.users[0].token;
  }

  async post(content: string, channelId = this.t.world.textChannelId): Promise<{ id: string; content: string }> {
    const r = await this.t.api(`/channels/${channelId}/messages`, { method: 'POST', token: this.token, body: { content } });
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  async react(channelId: string, messageId: string, emoji = THUMBS_UP): Promise<void> {
    const r = await this.t.api(`/channels/${channelId}/messages/${messageId}/reactions/${encodeURIComponent(emoji)}/@me`, { method: 'PUT', token: this.token });
    assert.equal(r.status, 204, r.text);
  }

  /** A message as she reads it over REST. */
  async read(channelId: string, messageId: string): Promise<any> {
    const r = await this.t.api(`/channels/${channelId}/messages/${messageId}`, { token: this.token });
    assert.equal(r.status, 200, r.text);
    return r.body;
  }

  /** Checks the message every library sends with an embed titled 'Card' and dot.png, downloading the file. */
  async expectCard(channelId: string, messageId: string): Promise<void> {
    const read = await this.read(channelId, messageId);
    assert.equal(read.embeds[0].title, 'Card');
    assert.equal(read.attachments[0].filename, 'dot.png');
    assert.deepEqual(Buffer.from(await (await fetch(read.attachments[0].url)).arrayBuffer()), PNG, 'the file downloads byte for byte');
  }

  /** The emoji on a message as she reads it, sorted. */
  async reactions(channelId: string, messageId: string): Promise<string[]> {
    return (await this.read(channelId, messageId)).reactions.map((r: { emoji: { name: string } }) => r.emoji.name).sort();
  }

  /** The starter message of a forum post, which has the post's id. */
  async starter(postId: string): Promise<string> {
    return (await this.read(postId, postId)).content;
  }

  /** POST /interactions as the official client does; resolves with the nonce that INTERACTION_* events echo. */
  async act(type: number, data: unknown, extra: Record<string, unknown> = {}): Promise<string> {
    const n = String(++this.nonce);
    const { guildId, textChannelId, applicationId } = this.t.world;
    const r = await this.t.api('/interactions', {
      method: 'POST',
      token: this.token,
      body: { type, application_id: applicationId, guild_id: guildId, channel_id: textChannelId, session_id: 'compat', nonce: n, data, ...extra },
    });
    assert.equal(r.status, 204, r.text);
    return n;
  }

  seen(event: string, pred: (d: any) => boolean): Promise<any> {
    return this.gw.dispatch(event, pred, 10_000);
  }

  close(): void {
    this.gw.close();
  }
}

/**
 * The interaction round: reply, defer + edit + follow-up, a button the bot updates, and a modal the bot answers.
 * `ids` are the command ids the library registered. The library's handler must answer as `answers` says.
 */
export async function interactionRound(p: Person, ids: Record<string, string>, channelId: string): Promise<void> {
  const n = await p.act(2, { id: ids.hello, name: 'hello', type: 1, options: [{ type: 3, name: 'name', value: 'Alice' }] });
  const hello = await p.seen('MESSAGE_CREATE', (d) => d.content === answers.hello('Alice'));
  assert.equal(hello.type, 20, 'a chat input command reply');
  assert.equal(hello.interaction_metadata.user.id, p.id);
  await p.seen('INTERACTION_SUCCESS', (d) => d.nonce === n);

  await p.act(2, { id: ids.slow, name: 'slow', type: 1 });
  const loading = await p.seen('MESSAGE_CREATE', (d) => d.interaction_metadata?.type === 2 && (d.flags & 128) === 128);
  await p.seen('MESSAGE_UPDATE', (d) => d.id === loading.id && d.content === answers.edited);
  const follow = await p.seen('MESSAGE_CREATE', (d) => d.content === answers.followUp);
  assert.equal(follow.interaction_metadata.original_response_message_id, loading.id);

  await p.act(2, { id: ids.panel, name: 'panel', type: 1 });
  const panel = await p.seen('MESSAGE_CREATE', (d) => d.content === answers.panel);
  assert.equal(panel.components[0].components[0].custom_id, 'bump');
  await p.act(3, { component_type: 2, custom_id: 'bump' }, { message_id: panel.id });
  await p.seen('MESSAGE_UPDATE', (d) => d.id === panel.id && d.content === answers.bumped);
  assert.equal((await p.read(channelId, panel.id)).content, answers.bumped);

  const f = await p.act(2, { id: ids.form, name: 'form', type: 1 });
  const modal = await p.seen('INTERACTION_MODAL_CREATE', (d) => d.nonce === f);
  assert.equal(modal.custom_id, 'profile');
  const input = modal.components[0].components[0];
  assert.equal(input.custom_id, 'nick');
  await p.act(5, { id: modal.id, custom_id: 'profile', components: [{ type: 1, components: [{ type: 4, custom_id: 'nick', value: 'Ally' }] }] });
  const nice = await p.seen('MESSAGE_CREATE', (d) => d.content === answers.nice('Ally'));
  assert.equal(nice.interaction_metadata.type, 5);
}

/**
 * Turns the platform's rate limits on, spends the message's reactions bucket with raw PUTs under the bot's token, then
 * lets the library react (`libraryReact`) and asks `met429` whether the library saw a 429 on the way. The window can
 * roll over between the two, so it tries a few times. Limits are off again afterwards.
 */
export async function throughA429(
  t: TestServer,
  channelId: string,
  messageId: string,
  libraryReact: () => Promise<unknown>,
  met429: () => boolean,
): Promise<void> {
  const config = t.server.ctx.config;
  const was = config.rateLimits;
  config.rateLimits = 'real';
  try {
    for (let attempt = 0; ; attempt++) {
      let limited = false;
      for (let i = 0; i < 60 && !limited; i++) {
        const r = await t.api(`/channels/${channelId}/messages/${messageId}/reactions/${encodeURIComponent(THUMBS_UP)}/@me`, {
          method: 'PUT',
          token: t.world.botToken,
          bot: true,
        });
        limited = r.status === 429;
        if (!limited) assert.equal(r.status, 204, r.text);
      }
      assert.ok(limited, 'the reactions bucket ran out');
      await libraryReact();
      if (met429()) return;
      assert.ok(attempt < 3, 'the library never met the 429 in four attempts');
      await sleep(1100);
    }
  } finally {
    config.rateLimits = was;
  }
}

/** The bot's current gateway connection on the server. */
export function botConnection(t: TestServer) {
  return [...t.server.gateway.connections].find((c) => c.session?.userId === t.world.botUserId);
}

/**
 * Drops the bot's socket from the server side with 4000 (resumable), runs `meanwhile` (events the bot misses), and
 * resolves once a new connection carries the same session: the library resumed rather than identified again.
 */
export async function dropAndResume(t: TestServer, meanwhile: () => Promise<void>): Promise<void> {
  const conn = botConnection(t);
  assert.ok(conn?.session, 'the bot has a gateway session');
  const sessionId = conn.session.id;
  conn.close(4000, 'dropped by the compatibility suite');
  await meanwhile();
  const now = await until(
    () => {
      const c = botConnection(t);
      return c && c !== conn ? c : null;
    },
    20_000,
    'the bot to reconnect',
  );
  assert.equal(now.session!.id, sessionId, 'the same session: resumed, not identified anew');
}

/** What a suite shares with its library: the server, the person, the handler errors and the dispatch names seen. */
export interface CompatRun {
  t: TestServer;
  person: Person;
  errors: unknown[];
  dispatched: string[];
}

/**
 * One server and one person for a suite, started in `before` (register the library's own `before` after this call)
 * and closed in `after`, once `stop` has stopped the library.
 */
export function compatRun(stop: () => unknown): CompatRun {
  const run = { errors: [], dispatched: [] } as unknown as CompatRun;
  before(async () => {
    run.t = await startTestServer();
    run.person = await Person.join(run.t);
  });
  after(async () => {
    await stop();
    run.person?.close();
    await run.t?.close();
  });
  return run;
}
