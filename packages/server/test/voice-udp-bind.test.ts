// engine-independent: the UDP socket's address family, not storage
/**
 * The voice media socket binds in the server host's address family (issue 14, item 9): an IPv6 host gets a
 * dual-stack IPv6 socket on '::' (the IPv4 address clients are given still reaches it), any other host its own address.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { MediaHost, udpBinding } from '../src/voice/media/host.js';
import { startTestServer } from './helpers/server.js';

test('udpBinding: IPv6 hosts bind an IPv6 socket on ::, IPv4 hosts their own address', () => {
  assert.deepEqual(udpBinding('::1'), { type: 'udp6', address: '::' });
  assert.deepEqual(udpBinding('[::1]'), { type: 'udp6', address: '::' });
  assert.deepEqual(udpBinding('::'), { type: 'udp6', address: '::' });
  assert.deepEqual(udpBinding('2001:db8::5'), { type: 'udp6', address: '::' });
  assert.deepEqual(udpBinding('127.0.0.1'), { type: 'udp4', address: '127.0.0.1' });
  assert.deepEqual(udpBinding('localhost'), { type: 'udp4', address: '127.0.0.1' });
  assert.deepEqual(udpBinding('0.0.0.0'), { type: 'udp4', address: '0.0.0.0' });
});

test('on an IPv6 host the media socket is IPv6 and IPv4 datagrams reach the SFU with their IPv4 source', { timeout: 30_000 }, async () => {
  const host = new MediaHost(() => {});
  const port = await host.listen('::1', 0);
  const bound = host.address()!;
  assert.equal(bound.family, 'IPv6');
  assert.equal(bound.address, '::');
  const seen = new Promise<[string, number]>((resolve) => {
    (host.sfu as any).onDatagram = (_msg: Buffer, ip: string, from: number) => resolve([ip, from]);
  });
  const client = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => client.bind(0, '127.0.0.1', () => resolve()));
  client.send(Buffer.from('hello'), port, '127.0.0.1');
  const [ip, from] = await seen;
  assert.equal(ip, '127.0.0.1');
  assert.equal(from, client.address().port);
  client.close();
  host.close();
});

test('a server on ::1 starts, with voice advertising 127.0.0.1 for UDP', { timeout: 60_000 }, async () => {
  const t = await startTestServer({ host: '::1' });
  try {
    assert.match(t.server.url, /^http:\/\/\[::1\]:\d+$/);
    assert.equal((t.server.voice as any).udpIp, '127.0.0.1');
  } finally {
    await t.close();
  }
});
