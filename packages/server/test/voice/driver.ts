/**
 * Voice test driver: a child process running real discord.js bots with the real @discordjs/voice (and @snazzah/davey),
 * remote-controlled by the test over IPC. It exists because the voice gateway's local CA must be trusted through
 * NODE_EXTRA_CA_CERTS, which Node reads only when a process starts.
 */
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { Client, Events, GatewayIntentBits } from 'discord.js';
import {
  AudioPlayerStatus,
  EndBehaviorType,
  NoSubscriberBehavior,
  StreamType,
  VoiceConnectionStatus,
  createAudioPlayer,
  createAudioResource,
  entersState,
  joinVoiceChannel,
  type EndBehavior,
  type VoiceConnection,
} from '@discordjs/voice';

interface Bot {
  client: Client;
  conn: VoiceConnection | null;
  received: Map<string, Buffer[]>;
  /** Every sequence number the voice WebSocket(s) delivered, JSON and binary, in order. */
  seqs: number[];
  /** Every voice gateway message received: `op` (and `seq`) only. */
  ops: { op: number; seq?: number }[];
  transitions: number[];
  closeCodes: number[];
  errors: string[];
  debug: string[];
  /** `listen`: each receive stream opened on a user, in order (frames, and whether the stream ended). */
  utterances: Map<string, { frames: Buffer[]; ended: boolean }[]>;
  /** `listen`: undoes the previous `listen` on a user. */
  unlisten: Map<string, () => void>;
}

const bots = new Map<string, Bot>();
const bot = (name: string) => {
  const b = bots.get(name);
  if (!b) throw new Error(`no bot ${name}`);
  return b;
};
const conn = (name: string) => {
  const c = bot(name).conn;
  if (!c) throw new Error(`${name} is not in voice`);
  return c;
};

async function until(pred: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Records what the voice WebSocket of a connection delivers, across networking changes and resumes. */
function tap(b: Bot, c: VoiceConnection): void {
  const seen = new WeakSet<object>();
  const hook = () => {
    const st: any = c.state;
    const ws = st.networking?.state?.ws;
    if (!ws || seen.has(ws)) return;
    seen.add(ws);
    ws.on('packet', (p: any) => {
      b.ops.push({ op: p.op, seq: p.seq });
      if (p.seq) b.seqs.push(p.seq);
    });
    ws.on('binary', (m: any) => {
      b.ops.push({ op: m.op, seq: m.seq });
      b.seqs.push(m.seq);
    });
    ws.on('close', (e: any) => b.closeCodes.push(e.code));
  };
  const networkings = new WeakSet<object>();
  c.on('stateChange', (_o: any, n: any) => {
    hook();
    if (n.networking && !networkings.has(n.networking)) {
      networkings.add(n.networking);
      n.networking.on('stateChange', hook);
    }
  });
  hook();
}

const handlers: Record<string, (a: any) => Promise<unknown>> = {
  async login({ name, token, api }) {
    const client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildVoiceStates], rest: { api } });
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(token);
    await ready;
    bots.set(name, {
      client,
      conn: null,
      received: new Map(),
      seqs: [],
      ops: [],
      transitions: [],
      closeCodes: [],
      errors: [],
      debug: [],
      utterances: new Map(),
      unlisten: new Map(),
    });
    return { userId: client.user!.id };
  },

  async join({ name, guildId, channelId, dave = true, timeoutMs = 20_000 }) {
    const b = bot(name);
    const guild = b.client.guilds.cache.get(guildId);
    if (!guild) throw new Error(`${name} does not see guild ${guildId}`);
    const c = joinVoiceChannel({
      channelId,
      guildId,
      adapterCreator: guild.voiceAdapterCreator,
      selfDeaf: false,
      selfMute: false,
      group: name,
      daveEncryption: dave,
      debug: true,
    });
    b.conn = c;
    c.on('debug', (m) => b.debug.push(m));
    c.on('error', (e) => b.errors.push(String(e?.stack ?? e)));
    c.on('transitioned', (id) => b.transitions.push(id));
    tap(b, c);
    await entersState(c, VoiceConnectionStatus.Ready, timeoutMs);
    return { status: c.state.status };
  },

  async waitTransitions({ name, count, timeoutMs = 15_000 }) {
    const b = bot(name);
    await until(() => b.transitions.length >= count, timeoutMs, `${name}: ${count} transitions (have ${b.transitions.length})`);
    return b.transitions;
  },

  async dave({ name }) {
    const c: any = conn(name).state;
    const d = c.networking?.state?.dave;
    const s = d?.session;
    return {
      status: c.status,
      networking: c.networking?.state?.code,
      protocolVersion: d?.protocolVersion ?? null,
      ready: !!s?.ready,
      epoch: s?.epoch != null ? String(s.epoch) : null,
      privacyCode: s?.ready ? s.voicePrivacyCode : null,
      userIds: s?.getUserIds?.() ?? [],
      mode: c.networking?.state?.connectionData?.encryptionMode ?? null,
    };
  },

  async subscribe({ name, userId }) {
    const b = bot(name);
    const stream = conn(name).receiver.subscribe(userId, { end: { behavior: EndBehaviorType.Manual } });
    const list = b.received.get(userId) ?? [];
    b.received.set(userId, list);
    stream.on('data', (chunk: Buffer) => list.push(Buffer.from(chunk)));
    stream.on('error', (e) => b.errors.push(`receive stream: ${e}`));
    return true;
  },

  /**
   * Opens a receive stream on `userId` now and each time they start speaking and none is open (as the recorder example
   * of @discordjs/voice does; "start" comes only after 100 ms without packets): with `afterSilenceMs` it ends after that
   * much silence (EndBehaviorType.AfterSilence), else never. Replaces an earlier `listen` on the user, streams and all.
   */
  async listen({ name, userId, afterSilenceMs }) {
    const b = bot(name);
    const receiver = conn(name).receiver;
    b.unlisten.get(userId)?.();
    const old = receiver.subscriptions.get(userId);
    if (old && !old.closed) {
      old.destroy();
      await once(old, 'close');
    }
    const streams: { frames: Buffer[]; ended: boolean }[] = [];
    b.utterances.set(userId, streams);
    const end: EndBehavior =
      afterSilenceMs === undefined ? { behavior: EndBehaviorType.Manual } : { behavior: EndBehaviorType.AfterSilence, duration: afterSilenceMs };
    const onStart = (id: string) => {
      if (id !== userId || receiver.subscriptions.has(id)) return;
      const s = { frames: [] as Buffer[], ended: false };
      streams.push(s);
      const stream = receiver.subscribe(id, { end });
      stream.on('data', (chunk: Buffer) => s.frames.push(Buffer.from(chunk)));
      stream.on('end', () => (s.ended = true));
      stream.on('error', (e) => b.errors.push(`receive stream: ${e}`));
    };
    receiver.speaking.on('start', onStart);
    b.unlisten.set(userId, () => receiver.speaking.off('start', onStart));
    onStart(userId);
    return true;
  },

  /** The streams `listen` opened on `userId`: frames base64, in arrival order. */
  async utterances({ name, userId }) {
    return (bot(name).utterances.get(userId) ?? []).map((s) => ({ frames: s.frames.map((f) => f.toString('base64')), ended: s.ended }));
  },

  async received({ name, userId, clear = false }) {
    const b = bot(name);
    const list = b.received.get(userId) ?? [];
    const out = list.map((f) => f.toString('base64'));
    if (clear) list.length = 0;
    return out;
  },

  async play({ name, frames }) {
    const c = conn(name);
    const player = createAudioPlayer({ behaviors: { noSubscriber: NoSubscriberBehavior.Play } });
    const resource = createAudioResource(Readable.from((frames as string[]).map((f) => Buffer.from(f, 'base64'))), { inputType: StreamType.Opus });
    const sub = c.subscribe(player);
    player.play(resource);
    await entersState(player, AudioPlayerStatus.Playing, 5000);
    await entersState(player, AudioPlayerStatus.Idle, 30_000);
    sub?.unsubscribe();
    player.stop(true);
    return true;
  },

  async leave({ name }) {
    const b = bot(name);
    b.conn?.destroy();
    b.conn = null;
    return true;
  },

  async log({ name }) {
    const b = bot(name);
    return { seqs: b.seqs, ops: b.ops, transitions: b.transitions, closeCodes: b.closeCodes, errors: b.errors, debug: b.debug.slice(-400) };
  },

  async logout({ name }) {
    const b = bot(name);
    b.conn?.destroy();
    await b.client.destroy();
    bots.delete(name);
    return true;
  },
};

process.on('message', async (msg: { id: number; cmd: string; args: any }) => {
  try {
    const handler = handlers[msg.cmd];
    if (!handler) throw new Error(`unknown command ${msg.cmd}`);
    process.send!({ id: msg.id, result: await handler(msg.args ?? {}) });
  } catch (err) {
    process.send!({ id: msg.id, error: String((err as Error)?.stack ?? err) });
  }
});
// An uncaught exception in a voice library handler is exactly what the ordering rules prevent: report it loudly.
process.on('uncaughtException', (err) => {
  process.send?.({ id: -1, error: `uncaught: ${err?.stack ?? err}` });
  setTimeout(() => process.exit(70), 50);
});
process.send!({ id: 0, result: 'ready' });
