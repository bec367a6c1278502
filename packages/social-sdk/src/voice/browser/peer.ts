import { buildAnswer, parseServerTransport, type RemoteStream, type ServerTransport } from './remote-sdp.js';

/** Chromium's encoded streams (RTCPeerConnection `encodedInsertableStreams: true`). */
interface EncodedStreams {
  readable: ReadableStream<{ data: ArrayBuffer }>;
  writable: WritableStream<{ data: ArrayBuffer }>;
}
type WithEncodedStreams<T> = T & { createEncodedStreams?: () => EncodedStreams };

/** What the peer asks of end-to-end encryption for each frame (null drops the frame). */
export interface FrameCrypto {
  encrypt(frame: Uint8Array): Uint8Array | null;
  decrypt(userId: string, frame: Uint8Array): Uint8Array | null;
}

/** Whether this browser can transform encoded frames (what DAVE needs). */
export function supportsEncodedTransforms(): boolean {
  return typeof RTCRtpSender !== 'undefined' && 'createEncodedStreams' in RTCRtpSender.prototype;
}

/**
 * The browser's WebRTC connection to the voice server: one sending m-line for the microphone, and one receiving m-line
 * per speaker, added by renegotiating locally (the server's transport does not change, so it is not asked again). Every
 * frame passes through DAVE on its way out and in.
 */
export class VoicePeer {
  readonly pc: RTCPeerConnection;
  private readonly mic: RTCRtpTransceiver;
  private transport: ServerTransport | null = null;
  /** Speaker streams by mid, and the receiving transceivers by speaker. */
  private readonly streams = new Map<string, RemoteStream>();
  private readonly receivers = new Map<string, RTCRtpTransceiver>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly crypto: FrameCrypto,
    private readonly onTrack: (userId: string, track: MediaStreamTrack) => void,
  ) {
    this.pc = new RTCPeerConnection({ bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require', encodedInsertableStreams: true } as RTCConfiguration);
    this.mic = this.pc.addTransceiver('audio', { direction: 'sendonly' });
    const sender = this.mic.sender as WithEncodedStreams<RTCRtpSender>;
    this.pipe(sender.createEncodedStreams?.bind(sender), (frame) => this.crypto.encrypt(frame));
  }

  /** Frames through `transform`; a browser without encoded streams sends them as they are (and has no DAVE). */
  private pipe(open: (() => EncodedStreams) | undefined, transform: (frame: Uint8Array) => Uint8Array | null): void {
    if (!open || !supportsEncodedTransforms()) return;
    const streams = open();
    void streams.readable
      .pipeThrough(
        new TransformStream({
          transform: (frame, controller) => {
            const out = transform(new Uint8Array(frame.data));
            if (!out) return;
            frame.data = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? (out.buffer as ArrayBuffer) : (out.slice().buffer as ArrayBuffer);
            controller.enqueue(frame);
          },
        }),
      )
      .pipeTo(streams.writable)
      .catch(() => {});
  }

  /** The offer for op 1, once candidates are gathered (the server reads them from it). */
  async offer(track: MediaStreamTrack | null): Promise<string> {
    if (track) await this.mic.sender.replaceTrack(track);
    await this.pc.setLocalDescription(await this.pc.createOffer());
    await gathered(this.pc);
    return this.pc.localDescription!.sdp;
  }

  /** Op 4's transport: the first remote description. */
  async answer(sdp: string): Promise<void> {
    this.transport = parseServerTransport(sdp);
    await this.run(() => this.applyAnswer());
  }

  async setMicrophone(track: MediaStreamTrack | null): Promise<void> {
    await this.mic.sender.replaceTrack(track);
  }

  /** A speaker's SSRC (op 5): a receiving m-line for it, reusing one a departed speaker left. */
  addSpeaker(userId: string, ssrc: number): Promise<void> {
    const known = [...this.streams.values()].find((s) => s.userId === userId);
    if (known?.ssrc === ssrc) return this.queue;
    return this.run(async () => {
      let t = this.receivers.get(userId);
      if (!t) {
        t = [...this.pc.getTransceivers()].find((x) => x !== this.mic && x.mid && !this.streams.has(x.mid) && x.currentDirection !== 'stopped');
        if (!t) {
          t = this.pc.addTransceiver('audio', { direction: 'recvonly' });
          const receiver = t.receiver as WithEncodedStreams<RTCRtpReceiver>;
          const tr = t;
          this.pipe(receiver.createEncodedStreams?.bind(receiver), (frame) => {
            const who = tr.mid ? this.streams.get(tr.mid) : undefined;
            return who ? this.crypto.decrypt(who.userId, frame) : null;
          });
        }
        this.receivers.set(userId, t);
      }
      await this.pc.setLocalDescription(await this.pc.createOffer());
      this.streams.set(t.mid!, { userId, ssrc });
      await this.applyAnswer();
      this.onTrack(userId, t.receiver.track);
    });
  }

  /** A speaker left (op 13): their m-line goes inactive until someone else needs one. */
  removeSpeaker(userId: string): Promise<void> {
    const t = this.receivers.get(userId);
    if (!t) return this.queue;
    this.receivers.delete(userId);
    return this.run(async () => {
      if (t.mid) this.streams.delete(t.mid);
      await this.pc.setLocalDescription(await this.pc.createOffer());
      await this.applyAnswer();
    });
  }

  private async applyAnswer(): Promise<void> {
    if (!this.transport || !this.pc.localDescription) return;
    await this.pc.setRemoteDescription({ type: 'answer', sdp: buildAnswer(this.pc.localDescription.sdp, this.transport, this.streams) });
  }

  /** Negotiations one at a time (each offer must be answered before the next). */
  private run(step: () => Promise<void>): Promise<void> {
    const next = this.queue.then(step, step);
    this.queue = next.catch((err) => console.error('voice: renegotiation failed', err));
    return next;
  }

  close(): void {
    this.pc.close();
  }
}

/** Op 1 for a WebRTC client: the offer's SDP (in `data` and `sdp`, as the official clients send it) and Opus. */
export function selectWebrtcProtocol(sdp: string): Record<string, unknown> {
  return {
    protocol: 'webrtc',
    data: sdp,
    sdp,
    codecs: [{ name: 'opus', type: 'audio', priority: 1000, payload_type: 111, rtx_payload_type: null }],
    rtc_connection_id: crypto.randomUUID(),
  };
}

/** Resolves when ICE gathering completes (or after a second: host candidates come first). */
function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      pc.removeEventListener('icegatheringstatechange', check);
      clearTimeout(timer);
      resolve();
    };
    const check = () => pc.iceGatheringState === 'complete' && done();
    const timer = setTimeout(done, 1000);
    pc.addEventListener('icegatheringstatechange', check);
  });
}
