/**
 * The voice side of people, in a child process: the voice gateway's certificate comes from the server's local CA, which
 * Node trusts only through NODE_EXTRA_CA_CERTS at start. Each person here has a Gateway session of their own for op 4
 * and the real @discordjs/voice (DAVE on) for the media; the parent drives it over IPC (voice.ts).
 */
import { Readable } from 'node:stream';
import OpusScript from 'opusscript';
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
  type DiscordGatewayAdapterLibraryMethods,
  type VoiceConnection,
} from '@discordjs/voice';
import { PersonGateway } from '../gateway.js';
import { FRAME_BYTES, FRAME_SAMPLES, RATE } from './pcm.js';

interface Call {
  gateway: PersonGateway;
  connection: VoiceConnection;
  heard: Map<string, Buffer[]>;
}

const calls = new Map<string, Call>();
const call = (key: string) => {
  const c = calls.get(key);
  if (!c) throw new Error('not in voice');
  return c;
};

const handlers: Record<string, (a: any) => Promise<unknown>> = {
  async join({ key, gatewayUrl, token, guildId, channelId, timeoutMs }) {
    const gateway = new PersonGateway(gatewayUrl, token);
    await gateway.open();
    const me = (await gateway.events.next('READY', (e) => e.t === 'READY')).d.user.id as string;
    let methods: DiscordGatewayAdapterLibraryMethods | null = null;
    gateway.onDispatch((e) => {
      if (e.t === 'VOICE_SERVER_UPDATE' && e.d.guild_id === guildId) methods?.onVoiceServerUpdate(e.d);
      if (e.t === 'VOICE_STATE_UPDATE' && e.d.user_id === me && e.d.guild_id === guildId) methods?.onVoiceStateUpdate(e.d);
    });
    const connection = joinVoiceChannel({
      guildId,
      channelId,
      group: key,
      selfDeaf: false,
      selfMute: false,
      daveEncryption: true,
      adapterCreator: (m) => {
        methods = m;
        return {
          sendPayload: (payload) => gateway.send(payload as { op: number; d: unknown }),
          destroy: () => {
            methods = null;
          },
        };
      },
    });
    calls.set(key, { gateway, connection, heard: new Map() });
    await entersState(connection, VoiceConnectionStatus.Ready, timeoutMs);
    return { userId: me };
  },

  /** Starts keeping what one user says, as Opus packets decoded later. */
  async listen({ key, userId }) {
    const c = call(key);
    const packets: Buffer[] = [];
    c.heard.set(userId, packets);
    c.connection.receiver.subscribe(userId, { end: { behavior: EndBehaviorType.Manual } }).on('data', (p: Buffer) => packets.push(Buffer.from(p)));
    return true;
  },

  /** What one user said since `listen`, as 48 kHz stereo PCM (base64). */
  async heard({ key, userId }) {
    const decoder = new OpusScript(RATE, 2, OpusScript.Application.AUDIO);
    try {
      const pcm = (call(key).heard.get(userId) ?? []).map((p) => Buffer.from(decoder.decode(p)));
      return Buffer.concat(pcm).toString('base64');
    } finally {
      decoder.delete();
    }
  },

  /** Speaks 48 kHz stereo PCM (base64) and resolves when it has been sent. */
  async speak({ key, pcm }) {
    const c = call(key);
    const raw = Buffer.from(pcm, 'base64');
    const encoder = new OpusScript(RATE, 2, OpusScript.Application.AUDIO);
    const frames: Buffer[] = [];
    for (let at = 0; at < raw.length; at += FRAME_BYTES) {
      const frame = Buffer.alloc(FRAME_BYTES);
      raw.copy(frame, 0, at, Math.min(raw.length, at + FRAME_BYTES));
      frames.push(Buffer.from(encoder.encode(frame, FRAME_SAMPLES)));
    }
    encoder.delete();
    const player = createAudioPlayer({ behaviors: { noSubscriber: NoSubscriberBehavior.Play } });
    const subscription = c.connection.subscribe(player);
    player.play(createAudioResource(Readable.from(frames), { inputType: StreamType.Opus }));
    await entersState(player, AudioPlayerStatus.Playing, 5000);
    await entersState(player, AudioPlayerStatus.Idle, 10_000 + frames.length * 40);
    subscription?.unsubscribe();
    player.stop(true);
    return true;
  },

  async leave({ key }) {
    const c = calls.get(key);
    if (!c) return true;
    c.connection.destroy();
    c.gateway.close();
    calls.delete(key);
    return true;
  },
};

process.on('message', async (msg: { id: number; cmd: string; args: any }) => {
  try {
    const handler = handlers[msg.cmd];
    if (!handler) throw new Error(`unknown voice command ${msg.cmd}`);
    process.send!({ id: msg.id, result: await handler(msg.args ?? {}) });
  } catch (err) {
    process.send!({ id: msg.id, error: String((err as Error)?.message ?? err) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send!({ id: 0, result: 'ready' });
