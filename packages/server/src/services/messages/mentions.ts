import type { Ctx } from '../context.js';
import type { AllowedMentionsInput } from './schema.js';
import { isId } from '../../core/ids.js';

export interface MentionInput {
  content: string;
  /** The request's allowed_mentions; absent means "parse everything". */
  allowed: AllowedMentionsInput | null | undefined;
  guildId: string | null;
  /** MENTION_EVERYONE: needed for @everyone/@here and for roles that are not mentionable. */
  canMentionEveryone: boolean;
  /** Author of the message replied to, mentioned unless allowed_mentions says otherwise. */
  repliedUserId?: string | null;
}

export interface Mentions {
  users: string[];
  roles: string[];
  everyone: boolean;
}

const USER_RE = /<@!?(\d{1,20})>/g;
const ROLE_RE = /<@&(\d{1,20})>/g;

const unique = (ids: string[]) => [...new Set(ids)];

/**
 * What a message mentions: users that exist, roles of the guild, @everyone/@here, each filtered by allowed_mentions
 * (a `parse` kind allows all of that kind; `users`/`roles` lists allow those ids only).
 */
export async function resolveMentions(ctx: Ctx, input: MentionInput): Promise<Mentions> {
  const { content, allowed } = input;
  // Most messages mention no one: every kind of mention below needs an @.
  if (!input.repliedUserId && !content.includes('@')) return { users: [], roles: [], everyone: false };
  const parseAll = allowed == null;
  const parse = new Set(allowed?.parse ?? []);
  const userAllowed = (id: string) => parseAll || parse.has('users') || !!allowed?.users?.includes(id);
  const roleAllowed = (id: string) => parseAll || parse.has('roles') || !!allowed?.roles?.includes(id);

  const userIds = unique([...content.matchAll(USER_RE)].map((m) => m[1]).filter((id) => isId(id) && userAllowed(id)));
  const replied = input.repliedUserId && (parseAll || allowed?.replied_user) ? input.repliedUserId : null;
  if (replied && !userIds.includes(replied)) userIds.push(replied);
  let users: string[] = [];
  if (userIds.length) {
    const found = await ctx.repos.users.existingIds(userIds);
    users = userIds.filter((id) => found.has(id));
  }

  let roles: string[] = [];
  const roleIds = input.guildId ? unique([...content.matchAll(ROLE_RE)].map((m) => m[1]).filter((id) => isId(id) && roleAllowed(id))) : [];
  if (roleIds.length) {
    const found = await ctx.repos.roles.mentionableOf(input.guildId!, roleIds);
    // A role that is not mentionable only pings when the author may mention everyone.
    const ok = new Set([...found].filter(([, mentionable]) => input.canMentionEveryone || mentionable).map(([id]) => id));
    roles = roleIds.filter((id) => ok.has(id) && id !== input.guildId);
  }

  const everyone = !!input.guildId && input.canMentionEveryone && (parseAll || parse.has('everyone')) && /@(everyone|here)\b/.test(content);
  return { users, roles, everyone };
}
