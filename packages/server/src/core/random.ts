import crypto from 'node:crypto';

/**
 * Where persisted secrets and codes come from: the system's CSPRNG, or, with `--deterministic` (dev mode only), a fixed
 * sequence (HMAC-SHA256 in counter mode over a seed) so two runs of the same script make the same world. Process-wide:
 * a deterministic server runs in a process of its own (the toolkit starts each server as a child process).
 */
let seeded: { key: Buffer; counter: bigint } | null = null;

export function useDeterministicRandom(seed: string): void {
  seeded = { key: crypto.createHash('sha256').update(seed).digest(), counter: 0n };
}

export function randomBytes(n: number): Buffer {
  if (!seeded) return crypto.randomBytes(n);
  const out: Buffer[] = [];
  for (let len = 0; len < n; len += 32) {
    const block = Buffer.alloc(8);
    block.writeBigUInt64BE(seeded.counter++);
    out.push(crypto.createHmac('sha256', seeded.key).update(block).digest());
  }
  return Buffer.concat(out).subarray(0, n);
}

/** A uniform integer in [0, max), by rejection so no value is likelier than another. */
export function randomInt(max: number): number {
  if (!seeded) return crypto.randomInt(max);
  const limit = Math.floor(0x1_0000_0000 / max) * max;
  for (;;) {
    const v = randomBytes(4).readUInt32BE();
    if (v < limit) return v % max;
  }
}

/** DER prefix of a PKCS#8 Ed25519 private key; the 32-byte seed follows. */
const ED25519_PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** An Ed25519 key pair, from the same source. */
export function ed25519KeyPair(): { publicKey: crypto.KeyObject; privateKey: crypto.KeyObject } {
  if (!seeded) return crypto.generateKeyPairSync('ed25519');
  const privateKey = crypto.createPrivateKey({ key: Buffer.concat([ED25519_PKCS8, randomBytes(32)]), format: 'der', type: 'pkcs8' });
  return { privateKey, publicKey: crypto.createPublicKey(privateKey) };
}
