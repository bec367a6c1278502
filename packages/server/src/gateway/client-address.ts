import net from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * The client's address of an upgrade request, read as Fastify reads it for HTTP (--trust-proxy): the socket's address,
 * or with trusted proxies the nearest X-Forwarded-For entry they did not add. IPv4-mapped IPv6 is folded to IPv4.
 */
export function clientAddress(req: IncomingMessage, trust: boolean | number | string): string {
  const socket = fold(req.socket.remoteAddress ?? '');
  if (trust === false) return socket;
  const forwarded = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((s) => fold(s.trim()))
    .filter(Boolean);
  const chain = [socket, ...forwarded.reverse()]; // nearest hop first
  if (trust === true) return chain[chain.length - 1];
  if (typeof trust === 'number') return chain[Math.min(trust, chain.length - 1)];
  const trusted = proxyList(trust);
  let i = 0;
  while (i < chain.length - 1 && matches(trusted, chain[i])) i++;
  return chain[i];
}

const fold = (a: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(a) ? a.slice(7) : a);

const lists = new Map<string, net.BlockList>();
function proxyList(spec: string): net.BlockList {
  let list = lists.get(spec);
  if (list) return list;
  list = new net.BlockList();
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [addr, bits] = part.split('/');
    const kind = net.isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (!net.isIP(addr)) continue;
    if (bits === undefined) list.addAddress(addr, kind);
    else list.addSubnet(addr, Number(bits), kind);
  }
  lists.set(spec, list);
  return list;
}

function matches(list: net.BlockList, address: string): boolean {
  const kind = net.isIP(address);
  return kind !== 0 && list.check(address, kind === 6 ? 'ipv6' : 'ipv4');
}
