import type { Actor, Ctx } from '../context.js';
import type { UserRecord } from '../../store/records.js';
import { Errors, fieldError } from '../../core/errors.js';
import { verifyPassword } from './passwords.js';
import { changePassword } from './password-change.js';
import { updateUser, type UserPatch } from './users.js';
import { dropUserImage, storeUserImage } from './user-images.js';

/**
 * Modify Current User (`PATCH /users/@me`) as the platform does it for a person: the current `password` is required to
 * change the username, the email or the password (50035 `password` BASE_TYPE_REQUIRED when missing,
 * PASSWORD_DOES_NOT_MATCH when wrong); usernames and emails stay unique; avatars and banners are stored for the CDN.
 * Bots have no password or email: they may change their name and images only.
 */
export interface ProfileEdit {
  username?: string;
  email?: string;
  global_name?: string | null;
  avatar?: string | null;
  banner?: string | null;
  bio?: string;
  accent_color?: number | null;
  password?: string;
  new_password?: string;
}

export async function editProfile(ctx: Ctx, actor: Actor, edit: ProfileEdit): Promise<{ user: UserRecord; token?: string }> {
  const me = actor.user;
  const human = actor.kind === 'user' && !me.bot;
  const username = edit.username === undefined ? undefined : me.bot ? edit.username : edit.username.toLowerCase();
  const email = edit.email?.toLowerCase();
  if (!human && (email !== undefined || edit.new_password !== undefined)) throw Errors.botsCannotUse();

  const renamed = username !== undefined && username !== me.username;
  const emailChanged = email !== undefined && email !== me.email;
  if (human && (renamed || emailChanged || edit.new_password !== undefined)) await requirePassword(ctx, me, edit.password);
  // People's usernames follow the registration rule (bots keep their legacy names, spaces included).
  if (renamed && !me.bot && !/^[a-z0-9_.]+$/.test(username))
    throw fieldError('username', 'REGEX_VALIDATE', 'Username can only use letters, numbers, underscores and periods.');
  if (renamed && !me.bot && (await ctx.repos.users.humanUsernameTaken(username)))
    throw fieldError('username', 'USERNAME_ALREADY_TAKEN', 'Username is unavailable. Try adding numbers, letters, underscores _ , or periods.');
  if (emailChanged && (await ctx.repos.users.emailTaken(email))) throw fieldError('email', 'EMAIL_ALREADY_REGISTERED', 'Email is already registered.');

  const patch: UserPatch = { global_name: edit.global_name, bio: edit.bio, accent_color: edit.accent_color };
  if (renamed) patch.username = username;
  if (emailChanged) patch.email = email;
  for (const kind of ['avatar', 'banner'] as const) {
    const v = edit[kind];
    if (v === undefined) continue;
    if (v === null) await dropUserImage(ctx, me.id, kind);
    patch[kind] = v === null ? null : await storeUserImage(ctx, me.id, kind, v);
  }
  // The password last: a change revokes every token, so nothing may fail after it.
  const token = edit.new_password === undefined ? undefined : await changePassword(ctx, me, edit.password, edit.new_password);
  return { user: await updateUser(ctx, me, patch), token };
}

async function requirePassword(ctx: Ctx, user: UserRecord, password: string | undefined): Promise<void> {
  if (!password) throw fieldError('password', 'BASE_TYPE_REQUIRED', 'This field is required');
  if (!(await verifyPassword(password, await ctx.repos.auth.passwordHash(user.id), ctx.config.passwordHashCost)))
    throw fieldError('password', 'PASSWORD_DOES_NOT_MATCH', 'Password does not match.');
}
