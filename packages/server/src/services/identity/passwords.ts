import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { randomBytes } from '../../core/random.js';

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>;
/** scrypt's parameters for cost N (a power of two); it needs about 128 * N * r bytes of memory. */
const params = (N: number): crypto.ScryptOptions => ({ N, r: 8, p: 1, maxmem: 256 * N * 8 });

/** A new hash with scrypt's cost N = 2^cost (`--password-hash-cost`), which the hash records. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** cost;
  const key = await scrypt(password, salt, 32, params(N));
  return `scrypt$${N}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Password checks run so far (scrypt derivations): lets a test see that every login attempt does the same work. */
export const passwordWork = { checks: 0 };

/** Per cost, a hash of nothing anyone knows, made once: checked when there is no account (or no password). */
const dummies = new Map<number, Promise<string>>();
function dummyHash(cost: number): Promise<string> {
  let dummy = dummies.get(cost);
  if (!dummy) dummies.set(cost, (dummy = hashPassword(crypto.randomBytes(24).toString('base64'), cost)));
  return dummy;
}

/**
 * Whether `password` matches `stored`. Always runs one scrypt derivation, at the stored hash's cost, or against a dummy
 * hash of the current cost when `stored` is missing or unusable, so an unknown account takes as long as a wrong password.
 */
export async function verifyPassword(password: string, stored: string | null, cost: number): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  const usable = parts.length === 4 && parts[0] === 'scrypt' && /^\d+$/.test(parts[1]);
  const [, n, salt, key] = usable ? parts : (await dummyHash(cost)).split('$');
  const expected = Buffer.from(key, 'base64');
  passwordWork.checks++;
  const got = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, params(Number(n)));
  return crypto.timingSafeEqual(expected, got) && usable;
}
