import type { Ctx } from '../context.js';
import type { UserRecord } from '../../store/records.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import { isAccountBanned } from './account-bans.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { issueToken } from './tokens.js';
import { loginGuard } from './login-guard.js';
import { randomInt } from '../../core/random.js';
import { selfUser } from '../../wire/user.js';
import { member as memberWire } from '../../wire/member.js';

export async function getUser(ctx: Ctx, id: string): Promise<UserRecord | null> {
  return ctx.repos.users.byId(id);
}

export async function getUsers(ctx: Ctx, ids: Iterable<string>): Promise<Map<string, UserRecord>> {
  return ctx.repos.users.byIds(ids);
}

export async function requireUser(ctx: Ctx, id: string): Promise<UserRecord> {
  const u = await getUser(ctx, id);
  if (!u) throw Errors.unknownUser();
  return u;
}

export interface NewUser {
  username: string;
  globalName?: string | null;
  email?: string | null;
  password?: string | null;
  dateOfBirth?: string | null;
  bot?: boolean;
}

/** Creates a user. Usernames are unique among humans (discriminator "0"); bots get a 4-digit discriminator. */
export async function createUser(ctx: Ctx, input: NewUser): Promise<UserRecord> {
  const username = input.bot ? input.username : input.username.toLowerCase();
  if (!input.bot) {
    if (await ctx.repos.users.humanUsernameTaken(username))
      throw fieldError('username', 'USERNAME_ALREADY_TAKEN', 'Username is unavailable. Try adding numbers, letters, underscores _ , or periods.');
  }
  if (input.email) {
    if (await ctx.repos.users.emailTaken(input.email.toLowerCase())) throw fieldError('email', 'EMAIL_ALREADY_REGISTERED', 'Email is already registered.');
  }
  const id = ctx.ids.next();
  const user: UserRecord = {
    id,
    username,
    discriminator: input.bot ? String(1000 + randomInt(9000)) : '0',
    global_name: input.globalName ?? null,
    avatar: null,
    banner: null,
    accent_color: null,
    bio: '',
    email: input.email?.toLowerCase() ?? null,
    verified: true,
    bot: !!input.bot,
    system: false,
    flags: 0,
    premium_type: 0,
    primary_guild: null,
    created_at: ctx.clock.now(),
  };
  await ctx.repos.users.insert(user, {
    password_hash: input.password ? await hashPassword(input.password, ctx.config.passwordHashCost) : null,
    date_of_birth: input.dateOfBirth ?? null,
  });
  return user;
}

export async function register(ctx: Ctx, input: NewUser): Promise<{ token: string; user: UserRecord }> {
  const user = await createUser(ctx, input);
  return { token: await issueToken(ctx, user.id, 'user'), user };
}

/** Logs in by email or username. A wrong login and a wrong password give the same error, as the platform does. */
/**
 * Unknown logins run the same password check (against a dummy hash) as wrong passwords, and both count toward the
 * brute-force limits of the client IP and the account (login-guard.ts).
 */
export async function login(ctx: Ctx, login: string, password: string, ip = ''): Promise<{ token: string; user_id: string }> {
  const key = login.toLowerCase();
  const found = await ctx.repos.auth.loginCandidate(key);
  const row = found ? { id: found.user.id, password_hash: found.passwordHash } : null;
  // Keyed by account when there is one (its email and username are one key), else by the name tried.
  const account = row ? `user:${row.id}` : `login:${key}`;
  const guard = loginGuard(ctx);
  await guard.check(ip, account);
  const ok = await verifyPassword(password, row?.password_hash ?? null, ctx.config.passwordHashCost);
  if (!row || !ok) {
    await guard.failed(ip, account);
    throw fieldError('login', 'INVALID_LOGIN', 'Login or password is invalid.');
  }
  await guard.succeeded(account);
  if (await isAccountBanned(ctx, String(row.id))) throw new ApiError(403, 40002, 'This account is banned from the platform.');
  return { token: await issueToken(ctx, String(row.id), 'user'), user_id: String(row.id) };
}

export interface UserPatch {
  username?: string;
  global_name?: string | null;
  avatar?: string | null;
  banner?: string | null;
  bio?: string;
  accent_color?: number | null;
  email?: string;
}

/** What others see of a user: a change to one of these reaches the people who share a guild with them. */
const PUBLIC_FIELDS = ['username', 'global_name', 'avatar', 'banner', 'accent_color'] as const;

/**
 * Writes a profile partial. The person's sessions get USER_UPDATE with their own user object; as on the platform, the
 * guilds they belong to get GUILD_MEMBER_UPDATE with the new user, which is how everyone else sees a new name or avatar.
 */
export async function updateUser(ctx: Ctx, user: UserRecord, patch: UserPatch): Promise<UserRecord> {
  const values: UserPatch = {};
  for (const k of ['username', 'global_name', 'avatar', 'banner', 'bio', 'accent_color', 'email'] as const)
    if (patch[k] !== undefined) (values as Record<string, unknown>)[k] = patch[k];
  if (!Object.keys(values).length) return user;
  await ctx.repos.users.updateProfile(user.id, values);
  const updated = (await getUser(ctx, user.id))!;
  ctx.bus.publish({ t: 'USER_UPDATE', d: selfUser(updated, { email: true, premium: true }), user_ids: [user.id] });
  ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: user.id } }); // cached actors carry the user record
  if (PUBLIC_FIELDS.some((k) => k in values)) {
    const now = ctx.clock.now();
    for (const guildId of await ctx.repos.members.guildIdsOf(user.id)) {
      const m = await ctx.repos.members.get(guildId, user.id);
      if (m) ctx.bus.publish({ t: 'GUILD_MEMBER_UPDATE', d: { guild_id: guildId, ...memberWire(m, updated, { now }) }, guild_id: guildId });
    }
  }
  return updated;
}
