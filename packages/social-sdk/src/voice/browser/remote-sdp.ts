/**
 * The voice server answers op 1 with its transport only (ICE credentials, DTLS fingerprint and role, candidates), the
 * way Discord's servers do; the client writes the remote description itself. Each m-line of the local offer gets an
 * answer on that one bundled transport: the microphone's m-line is received by the server, and each speaker's m-line
 * is sent by it under the speaker's SSRC, which is how the browser tells speakers apart.
 */
/** The server's transport as op 4 carries it (the voice server's webrtc/sdp.ts writes it). */
export interface ServerTransport {
  ip: string;
  port: number;
  ufrag: string;
  pwd: string;
  fingerprint: string;
  setup: string;
  candidates: string[];
}

export function parseServerTransport(sdp: string): ServerTransport {
  const lines = sdp.split(/\r?\n/).map((l) => l.trim());
  const value = (prefix: string) => lines.find((l) => l.startsWith(prefix))?.slice(prefix.length) ?? '';
  const media = /^m=audio (\d+)/.exec(lines.find((l) => l.startsWith('m=')) ?? '');
  const t: ServerTransport = {
    ip: value('c=IN IP4 '),
    port: Number(media?.[1] ?? 0),
    ufrag: value('a=ice-ufrag:'),
    pwd: value('a=ice-pwd:'),
    fingerprint: value('a=fingerprint:'),
    setup: value('a=setup:') || 'passive',
    candidates: lines.filter((l) => l.startsWith('a=candidate:')).map((l) => l.slice(2)),
  };
  if (!t.ip || !t.port || !t.ufrag || !t.pwd || !t.fingerprint) throw new Error('The voice server sent an incomplete session description.');
  return t;
}

/** Who a receiving m-line carries: the speaker's SSRC and user id. */
export interface RemoteStream {
  ssrc: number;
  userId: string;
}

const REVERSE: Record<string, string> = { sendonly: 'recvonly', recvonly: 'sendonly', sendrecv: 'sendrecv', inactive: 'inactive' };

/** The answer to `offer` (the local description), on the server's transport, with `streams` by mid. */
export function buildAnswer(offer: string, t: ServerTransport, streams: Map<string, RemoteStream>): string {
  const sections = offer.split(/\r?\n(?=m=)/);
  const mids: string[] = [];
  const body: string[] = [];
  for (const section of sections.slice(1)) {
    const lines = section.split(/\r?\n/);
    const mid = lines.find((l) => l.startsWith('a=mid:'))?.slice(6) ?? String(mids.length);
    const rejected = / 0 /.test(lines[0].slice(0, lines[0].indexOf('/')));
    const opus = /^a=rtpmap:(\d+) opus\/48000/i.exec(lines.find((l) => /^a=rtpmap:\d+ opus\/48000/i.test(l)) ?? '')?.[1] ?? '111';
    if (rejected) {
      body.push(`m=audio 0 UDP/TLS/RTP/SAVPF ${opus}`, `c=IN IP4 0.0.0.0`, `a=mid:${mid}`, 'a=inactive');
      continue;
    }
    mids.push(mid);
    const offered = ['sendonly', 'recvonly', 'sendrecv', 'inactive'].find((d) => lines.includes(`a=${d}`)) ?? 'sendrecv';
    const stream = streams.get(mid);
    let direction = REVERSE[offered];
    // A speaker's m-line sends only while we know whose it is; a free one (the speaker left) is inactive.
    if (direction === 'sendonly' && !stream) direction = 'inactive';
    body.push(
      `m=audio ${t.port} UDP/TLS/RTP/SAVPF ${opus}`,
      `c=IN IP4 ${t.ip}`,
      `a=rtcp:${t.port} IN IP4 ${t.ip}`,
      `a=ice-ufrag:${t.ufrag}`,
      `a=ice-pwd:${t.pwd}`,
      `a=fingerprint:${t.fingerprint}`,
      `a=setup:${t.setup}`,
      `a=mid:${mid}`,
      `a=${direction}`,
      'a=rtcp-mux',
      `a=rtpmap:${opus} opus/48000/2`,
      `a=fmtp:${opus} minptime=10;useinbandfec=1`,
    );
    if (stream && direction === 'sendonly') {
      body.push(`a=msid:${stream.userId} ${stream.userId}-${stream.ssrc}`, `a=ssrc:${stream.ssrc} cname:${stream.userId}`);
    }
    body.push(...t.candidates.map((c) => `a=${c}`), 'a=end-of-candidates');
  }
  const head = ['v=0', `o=- ${Date.now()} 2 IN IP4 127.0.0.1`, 's=-', 't=0 0', `a=group:BUNDLE ${mids.join(' ')}`, 'a=msid-semantic: WMS *'];
  return [...head, ...body, ''].join('\r\n');
}
