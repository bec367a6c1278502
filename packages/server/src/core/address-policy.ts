import { isIP } from 'node:net';

/**
 * Which addresses the server may open a connection to (issue 14). Every address in a special-purpose range is
 * refused unless the operator's allow list (`--outgoing-allow <cidr,…>`) covers it: loopback, private, link-local
 * (with the cloud metadata address), CGNAT, multicast, unspecified, broadcast, documentation and reserved ranges, and
 * their IPv6 equivalents. IPv6 forms that carry an IPv4 address (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4
 * `2002::/16`) are judged by the IPv4 address inside.
 */

type Range = { bytes: number[]; prefix: number; name: string };

const V4_SPECIAL: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];
const V6_SPECIAL: [string, number, string][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'reserved'], // IPv4-compatible (deprecated)
  ['64:ff9b:1::', 48, 'reserved'], // local-use NAT64
  ['100::', 64, 'reserved'], // discard
  ['2001::', 32, 'reserved'], // Teredo: the far end is not the address it names
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'private'], // unique local
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'], // site-local (deprecated)
  ['ff00::', 8, 'multicast'],
];

/** The 4 or 16 bytes of an address, or null when it is not one. */
export function addressBytes(ip: string): number[] | null {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const kind = isIP(bare);
  if (kind === 4) return bare.split('.').map(Number);
  if (kind !== 6) return null;
  // A trailing dotted IPv4 part (::ffff:10.0.0.1) becomes its two hex groups.
  const head = bare.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const [l, r] = head.includes('::') ? head.split('::') : [head, null];
  const left = l
    ? l
        .split(':')
        .filter((x) => x !== '')
        .map((h) => parseInt(h, 16))
    : [];
  const right = r
    ? r
        .split(':')
        .filter((x) => x !== '')
        .map((h) => parseInt(h, 16))
    : [];
  const fill = 8 - left.length - right.length;
  const groups = r === null ? left : [...left, ...Array(Math.max(0, fill)).fill(0), ...right];
  if (groups.length !== 8) return null;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

const toRange = ([ip, prefix, name]: [string, number, string]): Range => ({ bytes: addressBytes(ip)!, prefix, name });
const V4_RANGES = V4_SPECIAL.map(toRange);
const V6_RANGES = V6_SPECIAL.map(toRange);

function inRange(bytes: number[], r: Range): boolean {
  if (bytes.length !== r.bytes.length) return false;
  let bits = r.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (r.bytes[i] & mask)) return false;
  }
  return true;
}

/** The IPv4 address an IPv6 address stands for (mapped, NAT64, 6to4), if any. */
function embeddedV4(b: number[]): number[] | null {
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return b.slice(12); // ::ffff:a.b.c.d
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return b.slice(12); // 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6); // 2002::/16
  return null;
}

/** The special-purpose class of an address ('loopback', 'private', …), or null for an ordinary public address. */
export function addressClass(ip: string): string | null {
  const bytes = addressBytes(ip);
  if (!bytes) return 'invalid';
  if (bytes.length === 16) {
    const v4 = embeddedV4(bytes);
    if (v4) return addressClass(v4.join('.'));
  }
  for (const r of bytes.length === 4 ? V4_RANGES : V6_RANGES) if (inRange(bytes, r)) return r.name;
  return null;
}

/** A parsed `<address>/<prefix>` list, as given to `--outgoing-allow`. */
export class AllowList {
  private readonly ranges: Range[];
  constructor(readonly cidrs: string[]) {
    this.ranges = cidrs.map((c) => {
      const [ip, p] = c.trim().split('/');
      const bytes = addressBytes(ip);
      const prefix = p === undefined ? (bytes?.length ?? 0) * 8 : Number(p);
      if (!bytes || !/^\d*$/.test(p ?? '') || !Number.isInteger(prefix) || prefix < 0 || prefix > bytes.length * 8)
        throw new Error(`invalid --outgoing-allow entry: ${c}`);
      return { bytes, prefix, name: c };
    });
  }

  /** Parses `a/n,b/m`; `none` or empty is the empty list. */
  static parse(text: string): AllowList {
    const items = text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s && s !== 'none');
    return new AllowList(items);
  }

  has(ip: string): boolean {
    const bytes = addressBytes(ip);
    if (!bytes) return false;
    const v4 = bytes.length === 16 ? embeddedV4(bytes) : null;
    return this.ranges.some((r) => inRange(bytes, r) || (v4 !== null && inRange(v4, r)));
  }
}

export const LOOPBACK_CIDRS = ['127.0.0.0/8', '::1/128'];

/** Whether the server may connect to `ip`: a public address, or one the operator allowed. */
export function addressAllowed(ip: string, allow: AllowList): boolean {
  const cls = addressClass(ip);
  if (cls === 'invalid') return false;
  return cls === null || allow.has(ip);
}
