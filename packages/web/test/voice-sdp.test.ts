/**
 * The pieces of browser voice that need no browser: the voice server's op 4 SDP (from werift's answer), the client's
 * remote description built from it for each m-line, and davey's WebAssembly with its memory import made unshared.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { answerFragment, answerTransport, opusPayloadType } from '../../server/src/voice/webrtc/sdp.ts';
import { buildAnswer, parseServerTransport } from '../../social-sdk/src/voice/browser/remote-sdp.ts';
import { unshareMemoryImport } from '../../social-sdk/src/voice/browser/wasm-memory.ts';
// @ts-expect-error a plain .mjs script without type declarations
import { ensureDaveyWasm, packageDir } from '../../social-sdk/scripts/davey-wasm.mjs';

const ANSWER = [
  'v=0',
  'o=- 1 0 IN IP4 0.0.0.0',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'c=IN IP4 0.0.0.0',
  'a=candidate:a1 1 udp 2116026367 192.0.2.2 40001 typ host generation 0',
  'a=candidate:b2 1 udp 2116026367 127.0.0.1 40002 typ host generation 0',
  'a=candidate:c3 1 tcp 1516026367 127.0.0.1 40003 typ host tcptype passive',
  'a=ice-ufrag:uf01',
  'a=ice-pwd:pw0123456789abcdef0123',
  'a=fingerprint:sha-256 AA:BB:CC',
  'a=setup:active',
  'a=mid:0',
  'a=recvonly',
  'a=rtpmap:111 opus/48000/2',
  '',
].join('\r\n');

const OFFER = [
  'v=0',
  'o=- 2 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0 1 2',
  'm=audio 50000 UDP/TLS/RTP/SAVPF 111 63',
  'c=IN IP4 127.0.0.1',
  'a=mid:0',
  'a=sendonly',
  'a=rtpmap:111 opus/48000/2',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63',
  'c=IN IP4 0.0.0.0',
  'a=mid:1',
  'a=recvonly',
  'a=rtpmap:111 opus/48000/2',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63',
  'c=IN IP4 0.0.0.0',
  'a=mid:2',
  'a=recvonly',
  'a=rtpmap:111 opus/48000/2',
  '',
].join('\r\n');

/** The lines of one m-section of an SDP, by mid. */
function section(sdp: string, mid: string): string[] {
  const s = sdp.split(/\r\n(?=m=)/).find((x) => x.includes(`\r\na=mid:${mid}\r\n`));
  assert.ok(s, `m-section ${mid}`);
  return s.split('\r\n');
}

describe('browser voice: SDP and WebAssembly', () => {
  test("op 4's SDP carries the transport on the voice server's address, and the client reads it back", () => {
    const t = answerTransport(ANSWER, '127.0.0.1');
    assert.deepEqual(
      { ip: t.ip, port: t.port, setup: t.setup, candidates: t.candidates },
      { ip: '127.0.0.1', port: 40002, setup: 'active', candidates: ['candidate:b2 1 udp 2116026367 127.0.0.1 40002 typ host generation 0'] },
    );
    assert.deepEqual(parseServerTransport(answerFragment(t)), t);
    // Without a candidate on that address, every IPv4 UDP candidate is offered.
    assert.equal(answerTransport(ANSWER, '198.51.100.7').candidates.length, 2);
    assert.equal(opusPayloadType(OFFER), 111);
    assert.equal(opusPayloadType(OFFER.replace(/opus/g, 'G722')), null);
    assert.throws(() => parseServerTransport('m=audio 1 ICE/SDP\n'), /incomplete/);
  });

  test('the remote description: the microphone received, each speaker sent under its SSRC, a free m-line inactive', () => {
    const t = answerTransport(ANSWER, '127.0.0.1');
    const sdp = buildAnswer(OFFER, t, new Map([['1', { ssrc: 4242, userId: '77' }]]));
    assert.ok(sdp.includes('a=group:BUNDLE 0 1 2'));
    const mic = section(sdp, '0');
    assert.ok(mic.includes('a=recvonly') && mic.includes('a=setup:active') && mic.includes('a=ice-ufrag:uf01'));
    assert.equal(mic[0], 'm=audio 40002 UDP/TLS/RTP/SAVPF 111');
    const speaker = section(sdp, '1');
    assert.ok(speaker.includes('a=sendonly') && speaker.includes('a=ssrc:4242 cname:77'));
    const free = section(sdp, '2');
    assert.ok(free.includes('a=inactive') && !free.some((l) => l.startsWith('a=ssrc:')));
  });

  test("davey's WebAssembly compiles with its memory import unshared", () => {
    ensureDaveyWasm();
    const bytes = new Uint8Array(fs.readFileSync(`${packageDir('@snazzah/davey-wasm32-wasi')}/davey.wasm32-wasi.wasm`));
    const { bytes: patched, minPages } = unshareMemoryImport(bytes);
    assert.ok(minPages > 0);
    // This test project's types leave out WebAssembly (no DOM lib); node has it.
    const wasm = (
      globalThis as unknown as {
        WebAssembly: { Module: { new (b: Uint8Array): object; imports(m: object): { module: string; name: string; kind: string }[] } };
      }
    ).WebAssembly;
    const imports = wasm.Module.imports(new wasm.Module(patched));
    assert.ok(imports.some((i) => i.module === 'env' && i.name === 'memory' && i.kind === 'memory'));
    // One byte changed: the limits' shared flag of that import (0x03, shared with a maximum, becomes 0x01).
    const changed = [...bytes.keys()].filter((i) => bytes[i] !== patched[i]);
    assert.equal(changed.length, 1);
    assert.deepEqual([bytes[changed[0]], patched[changed[0]]], [0x03, 0x01]);
  });
});
