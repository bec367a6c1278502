import { request } from './api.js';
import type { Duration } from './duration.js';
import { PersonGateway, type Dispatch } from './gateway.js';
import { commandOptions } from './command-options.js';
import { VoiceCall, type VoiceDriver } from './voice/voice.js';

type Id = string | { id: string };
const idOf = (x: Id) => (typeof x === 'string' ? x : x.id);

/** An app as a person reaches it: by id, or the world's app handle. Its bot user, when it has one, authors its messages. */
export interface AppRef {
  id: string;
  botUserId?: string | null;
}

export interface MessageInput {
  content?: string;
  embeds?: unknown[];
  files?: { name: string; data: Buffer | string; contentType?: string }[];
  [field: string]: unknown;
}

export interface MessageWait {
  channel?: Id;
  /** A person, an app (its bot) or a user id. */
  from?: Id | AppRef;
  /** Only messages the platform shows to this person alone (ephemeral interaction answers). */
  ephemeral?: boolean;
  /** A text the content contains, a pattern it matches, or a test of the whole message. */
  match?: string | RegExp | ((message: any) => boolean);
  timeout?: Duration;
}

let nonces = 0;
const nonce = () => `${Date.now()}${String(++nonces).padStart(6, '0')}`.slice(0, 19);

/**
 * A person with an account and a live Gateway session, doing what people do in the official client, each action the
 * same HTTP call that client makes. What the platform sends back (messages, ephemeral answers, modals) is waited for
 * with `nextMessage`, `nextModal` and `nextEvent`.
 */
export class Person {
  readonly gateway: PersonGateway;
  /** @internal The deployment's voice process, given by the Accord that made this person. */
  voiceDriver: (() => VoiceDriver) | null = null;
  private readonly channels = new Map<string, Promise<{ id: string; guild_id?: string }>>();

  constructor(
    readonly api: string,
    readonly id: string,
    readonly username: string,
    readonly token: string,
    private readonly gatewayUrl: string,
  ) {
    this.gateway = new PersonGateway(gatewayUrl, token);
  }

  /** The API as this person (`alice.call('/users/@me')`). */
  call<T = any>(path: string, method = 'GET', body?: unknown): Promise<T> {
    return request<T>(this.api, path, { method, body, auth: this.token });
  }

  send(channel: Id, message: string | MessageInput): Promise<any> {
    const input: MessageInput = typeof message === 'string' ? { content: message } : message;
    const { files, ...json } = input;
    if (!files?.length) return this.call(`/channels/${idOf(channel)}/messages`, 'POST', json);
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ ...json, attachments: files.map((f, i) => ({ id: i, filename: f.name })) }));
    files.forEach((f, i) =>
      form.append(
        `files[${i}]`,
        new Blob([typeof f.data === 'string' ? f.data : new Uint8Array(f.data)], { type: f.contentType ?? 'application/octet-stream' }),
        f.name,
      ),
    );
    return this.call(`/channels/${idOf(channel)}/messages`, 'POST', form);
  }

  reply(message: { id: string; channel_id: string }, text: string | MessageInput): Promise<any> {
    const input: MessageInput = typeof text === 'string' ? { content: text } : text;
    return this.send(message.channel_id, { ...input, message_reference: { message_id: message.id, channel_id: message.channel_id } });
  }

  async react(message: { id: string; channel_id: string }, emoji: string): Promise<void> {
    await this.call(`/channels/${message.channel_id}/messages/${message.id}/reactions/${encodeURIComponent(emoji)}/@me`, 'PUT');
  }

  /** The DM channel with someone (created the first time). */
  openDM(user: Id): Promise<any> {
    return this.call('/users/@me/channels', 'POST', { recipient_id: idOf(user) });
  }

  /**
   * Runs a slash command in a channel: `alice.runCommand(app, 'remind', { when: '30m' }, { channel })`. The command is
   * found in the channel's command index as the official client finds it (name, id, version); a name with spaces
   * names a subcommand (`'tag add'`). Options are given by name and typed from the command's definition.
   * Resolves with the interaction's nonce once the platform accepted it; the answer arrives on the Gateway.
   */
  async runCommand(app: AppRef | string, name: string, options: Record<string, unknown> = {}, where: { channel: Id }): Promise<string> {
    const channelId = idOf(where.channel);
    const appId = typeof app === 'string' ? app : app.id;
    const [root, ...path] = name.trim().split(/\s+/);
    const command = await this.findCommand(channelId, appId, root);
    return this.interact(appId, channelId, 2, {
      id: command.id,
      name: command.name,
      type: 1,
      version: command.version,
      options: commandOptions(command, path, options),
    });
  }

  /**
   * Asks the app for choices while typing an option, as the official client does on each keystroke:
   * `await alice.autocomplete(app, 'remind', { when: '3' }, 'when', { channel })` resolves with the app's choices.
   */
  async autocomplete(
    app: AppRef | string,
    name: string,
    options: Record<string, unknown>,
    focused: string,
    where: { channel: Id },
    timeout?: Duration,
  ): Promise<{ name: string; value: unknown }[]> {
    const channelId = idOf(where.channel);
    const appId = typeof app === 'string' ? app : app.id;
    const [root, ...path] = name.trim().split(/\s+/);
    const command = await this.findCommand(channelId, appId, root);
    const tree = commandOptions(command, path, options, focused);
    const n = await this.interact(appId, channelId, 4, { id: command.id, name: command.name, type: 1, version: command.version, options: tree });
    return (await this.nextEvent('APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE', (d) => d.nonce === n, timeout)).choices;
  }

  /** Buys a SKU in the store (test mode: nothing is charged); resolves with the entitlements it grants. */
  async buy(sku: Id, opts: { guild?: Id } = {}): Promise<any[]> {
    const r = await this.call<{ entitlements: any[] }>(`/store/skus/${idOf(sku)}/purchase`, 'POST', {
      ...(opts.guild ? { guild_id: idOf(opts.guild) } : {}),
      test_mode: true,
    });
    return r.entitlements;
  }

  /**
   * Joins a voice channel of a guild (its own Gateway session and voice connection, DAVE on): `speak(wav)`,
   * `listen(bob)` then `heard(bob)` as a WAV, `leave()`.
   */
  async joinVoice(channel: Id): Promise<VoiceCall> {
    if (!this.voiceDriver) throw new Error('joinVoice needs a person from accord.world()');
    const ch = await this.channel(idOf(channel));
    if (!ch.guild_id) throw new Error('joinVoice joins guild voice channels (DM calls are not in the toolkit yet)');
    return new VoiceCall(this.voiceDriver()).join(this.gatewayUrl, this.token, ch.guild_id, ch.id);
  }

  /** Clicks a button of an app's message. */
  click(message: any, customId: string): Promise<string> {
    const component = findComponent(message, customId);
    return this.interact(
      message.application_id ?? message.author.id,
      message.channel_id,
      3,
      { component_type: component.type, custom_id: customId },
      { message_id: message.id, message_flags: message.flags ?? 0 },
    );
  }

  /** Chooses values in a select menu of an app's message. */
  select(message: any, customId: string, values: string[]): Promise<string> {
    const component = findComponent(message, customId);
    return this.interact(
      message.application_id ?? message.author.id,
      message.channel_id,
      3,
      { component_type: component.type, custom_id: customId, values },
      { message_id: message.id, message_flags: message.flags ?? 0 },
    );
  }

  /** Submits a modal the app opened for this person (from `nextModal()`), with text by input custom_id. */
  submitModal(modal: any, values: Record<string, string>): Promise<string> {
    const fill = (c: any): any => {
      if (c.type === 4) return { type: 4, custom_id: c.custom_id, value: values[c.custom_id] ?? '' };
      if (c.type === 18) return { type: 18, component: fill(c.component) };
      if (c.type === 1) return { type: 1, components: c.components.map(fill) };
      return { type: c.type, custom_id: c.custom_id };
    };
    const unknown = Object.keys(values).filter((k) => !JSON.stringify(modal.components).includes(`"custom_id":"${k}"`));
    if (unknown.length) throw new Error(`the modal "${modal.title}" has no input ${unknown.join(', ')}`);
    return this.interact(modal.application.id, modal.channel_id, 5, { id: modal.id, custom_id: modal.custom_id, components: modal.components.map(fill) });
  }

  /** The next message this person sees that matches; the timeout error lists what they saw instead. */
  async nextMessage(wait: MessageWait = {}): Promise<any> {
    const from =
      wait.from === undefined
        ? undefined
        : typeof wait.from === 'string'
          ? wait.from
          : 'botUserId' in wait.from && wait.from.botUserId
            ? wait.from.botUserId
            : wait.from.id;
    const channel = wait.channel === undefined ? undefined : idOf(wait.channel);
    const m = wait.match;
    const test = (d: any) =>
      (channel === undefined || d.channel_id === channel) &&
      (from === undefined || d.author?.id === from || d.application_id === from) &&
      (wait.ephemeral === undefined || Boolean(d.flags & 64) === wait.ephemeral) &&
      (m === undefined || (typeof m === 'string' ? String(d.content).includes(m) : m instanceof RegExp ? m.test(String(d.content)) : m(d)));
    const what = `MESSAGE_CREATE${channel ? ` in ${channel}` : ''}${from ? ` from ${from}` : ''}${wait.ephemeral ? ' (ephemeral)' : ''}${m ? ` matching ${String(m)}` : ''}`;
    return (await this.gateway.events.next(what, (e) => e.t === 'MESSAGE_CREATE' && test(e.d), wait.timeout)).d;
  }

  /** The next modal an app opens for this person. */
  async nextModal(timeout?: Duration): Promise<any> {
    return (await this.gateway.events.next('INTERACTION_MODAL_CREATE', (e) => e.t === 'INTERACTION_MODAL_CREATE', timeout)).d;
  }

  /** The next dispatch of a type to this person's session. */
  async nextEvent(t: string, match: (d: any) => boolean = () => true, timeout?: Duration): Promise<Dispatch['d']> {
    return (await this.gateway.events.next(t, (e) => e.t === t && match(e.d), timeout)).d;
  }

  /** A slash command as the channel's command index lists it to this person. */
  private async findCommand(channelId: string, appId: string, name: string): Promise<any> {
    const index = await this.call<{ application_commands: any[] }>(`/channels/${channelId}/application-command-index`);
    const command = index.application_commands.find((c) => c.application_id === appId && c.name === name && (c.type ?? 1) === 1);
    if (!command) {
      const names = index.application_commands.filter((c) => c.application_id === appId).map((c) => `/${c.name}`);
      throw new Error(`no /${name} of app ${appId} in this channel's command index; the app has: ${names.join(', ') || 'none here'}`);
    }
    return command;
  }

  /** A channel's id and guild, read once: every interaction names its guild. */
  private channel(id: string): Promise<{ id: string; guild_id?: string }> {
    let known = this.channels.get(id);
    if (!known) {
      known = this.call<{ id: string; guild_id?: string }>(`/channels/${id}`);
      known.catch(() => this.channels.delete(id));
      this.channels.set(id, known);
    }
    return known;
  }

  private async interact(
    applicationId: string,
    channelId: string,
    type: number,
    data: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const n = nonce();
    const channel = await this.channel(channelId);
    await this.call('/interactions', 'POST', {
      type,
      application_id: applicationId,
      channel_id: channelId,
      ...(channel.guild_id ? { guild_id: channel.guild_id } : {}),
      session_id: this.gateway.sessionId,
      nonce: n,
      data,
      ...extra,
    });
    return n;
  }
}

function findComponent(message: any, customId: string): { type: number; custom_id: string } {
  const walk = (list: any[] | undefined): any => {
    for (const c of list ?? []) {
      if (c.custom_id === customId) return c;
      const inner = walk(c.components) ?? (c.component ? walk([c.component]) : undefined) ?? (c.accessory ? walk([c.accessory]) : undefined);
      if (inner) return inner;
    }
    return undefined;
  };
  const found = walk(message.components);
  if (!found) throw new Error(`message ${message.id} has no component "${customId}"`);
  return found;
}
