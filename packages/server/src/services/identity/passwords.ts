import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { randomBytes } from '../../core/random.js';

const scrypt = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>;
const PARAMS = { N: 16384, r: 8, p: 1 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, PARAMS);
  return `scrypt$${PARAMS.N}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Password checks run so far (scrypt derivations): lets a test see that every login attempt does the same work. */
export const passwordWork = { checks: 0 };

/** A hash of nothing anyone knows, made once: checked when there is no account (or no password) so it costs the same. */
let dummy: Promise<string> | null = null;
const dummyHash = () => (dummy ??= hashPassword(crypto.randomBytes(24).toString('base64')));

/**
 * Whether `password` matches `stored`. Always runs one scrypt derivation with the current parameters, against a
 * dummy hash when `stored` is missing or unusable, so an unknown account takes as long as a wrong password.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  const usable = parts.length === 4 && parts[0] === 'scrypt' && /^\d+$/.test(parts[1]);
  const [, n, salt, key] = usable ? parts : (await dummyHash()).split('$');
  const expected = Buffer.from(key, 'base64');
  passwordWork.checks++;
  const got = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { ...PARAMS, N: Number(n) });
  return crypto.timingSafeEqual(expected, got) && usable;
}
