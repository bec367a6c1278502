/**
 * The SDP of the voice gateway's WebRTC answer, in the shape the official client expects in op 4: not a full answer
 * but the transport's parameters (connection line, ICE credentials, DTLS fingerprint and role, candidates), from which
 * the client writes the remote description of every m-line itself. That lets the client add a receiving m-line per
 * speaker (renegotiating locally) without another round trip: the transport stays the same.
 */
export interface AnswerTransport {
  ip: string;
  port: number;
  ufrag: string;
  pwd: string;
  /** `sha-256 AB:CD:…` */
  fingerprint: string;
  /** The server's DTLS role. */
  setup: string;
  /** `candidate:…` attribute values. */
  candidates: string[];
}

/** Reads the transport parameters of werift's full SDP answer, keeping the candidates on `preferIp` when there are any. */
export function answerTransport(sdp: string, preferIp: string): AnswerTransport {
  const lines = sdp.split(/\r?\n/);
  const value = (prefix: string) =>
    lines
      .find((l) => l.startsWith(prefix))
      ?.slice(prefix.length)
      .trim() ?? '';
  const udp4 = lines
    .filter((l) => l.startsWith('a=candidate:'))
    .map((l) => ({ line: l.slice(2), parts: l.split(' ') }))
    .filter((c) => c.parts[2]?.toLowerCase() === 'udp' && /^\d+\.\d+\.\d+\.\d+$/.test(c.parts[4] ?? ''));
  const preferred = udp4.filter((c) => c.parts[4] === preferIp);
  const chosen = preferred.length ? preferred : udp4;
  if (!chosen.length) throw new Error('the WebRTC answer has no IPv4 UDP candidate');
  return {
    ip: chosen[0].parts[4],
    port: Number(chosen[0].parts[5]),
    ufrag: value('a=ice-ufrag:'),
    pwd: value('a=ice-pwd:'),
    fingerprint: value('a=fingerprint:'),
    setup: value('a=setup:') || 'passive',
    candidates: chosen.map((c) => c.line),
  };
}

/** The op 4 `sdp`: what the client needs to write its remote description. */
export function answerFragment(t: AnswerTransport): string {
  return [
    `m=audio ${t.port} ICE/SDP`,
    `a=fingerprint:${t.fingerprint}`,
    `c=IN IP4 ${t.ip}`,
    `a=rtcp:${t.port}`,
    `a=ice-ufrag:${t.ufrag}`,
    `a=ice-pwd:${t.pwd}`,
    `a=setup:${t.setup}`,
    ...t.candidates.map((c) => `a=${c}`),
    '',
  ].join('\n');
}

/** The payload type the offer gives Opus (Chromium: 111), or null when it offers no Opus. */
export function opusPayloadType(sdp: string): number | null {
  const m = /^a=rtpmap:(\d+) opus\/48000(\/2)?\s*$/im.exec(sdp);
  return m ? Number(m[1]) : null;
}
