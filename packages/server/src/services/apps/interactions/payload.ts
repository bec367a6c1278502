import type { Ctx } from '../../context.js';
import type { ChannelRecord } from '../../../store/records.js';
import { channel as channelWire } from '../../../wire/channel.js';
import { member as memberWire } from '../../../wire/member.js';
import { publicUser } from '../../../wire/user.js';
import type { AccordChannel, AccordGuildMember } from '../../../wire/extensions.js';
import { getUsers } from '../../identity/users.js';
import { interactionEntitlements } from '../../commerce/entitlements.js';
import { entitlementWire } from '../../../wire/commerce.js';
import { DEFAULT_ATTACHMENT_SIZE_LIMIT, type Place } from './where.js';

/** The interaction object an app receives (interactions.md §1), built without channel obfuscation. */

const USER_LOCALE = 'en-US';

/** The partial channel of an interaction: the channel as the API returns it plus the invoker's `permissions`. */
export async function interactionChannel(ctx: Ctx, ch: ChannelRecord, userPerms: bigint): Promise<AccordChannel & { permissions: string }> {
  let base: AccordChannel;
  if (ch.guild_id) base = channelWire(ch);
  else {
    const users = await getUsers(ctx, ch.recipients ?? []);
    base = channelWire(ch, [...users.values()]);
  }
  return { ...base, permissions: userPerms.toString() };
}

/** The invoker as `member` (guilds: with `user` and channel `permissions`) or `user` (DMs). */
export function invokerFields(place: Place, now: number): Record<string, unknown> {
  if (place.guild && place.member) {
    return { member: memberWire(place.member, place.user, { permissions: place.userPerms, now }) };
  }
  return { user: publicUser(place.user) };
}

/** The invoker's member without `user`, for the deprecated `interaction` field of response messages. */
export function partialInvokerMember(place: Place): Omit<AccordGuildMember, 'deaf' | 'mute' | 'permissions'> | null {
  if (!place.guild || !place.member) return null;
  const { deaf: _d, mute: _m, permissions: _p, ...rest } = memberWire(place.member, null);
  return rest;
}

export interface PayloadParts {
  id: string;
  type: number;
  token: string;
  data?: Record<string, unknown>;
  message?: Record<string, unknown>;
  owners: Record<string, string>;
}

export async function buildPayload(ctx: Ctx, place: Place, parts: PayloadParts): Promise<Record<string, unknown>> {
  const p: Record<string, unknown> = {
    app_permissions: place.appPerms.toString(),
    application_id: place.app.id,
    attachment_size_limit: DEFAULT_ATTACHMENT_SIZE_LIMIT,
    authorizing_integration_owners: parts.owners,
    channel: await interactionChannel(ctx, place.channel, place.userPerms),
    channel_id: place.channel.id,
    context: place.context,
    ...(parts.data ? { data: parts.data } : {}),
    entitlements: (await interactionEntitlements(ctx, place.app.id, place.user.id, place.guild?.id ?? null)).map((e) => entitlementWire(e)),
    id: parts.id,
    locale: USER_LOCALE,
    token: parts.token,
    type: parts.type,
    version: 1,
  };
  if (place.guild) {
    p.guild = { id: place.guild.id, locale: place.guild.preferred_locale, features: place.guild.features };
    p.guild_id = place.guild.id;
    p.guild_locale = place.guild.preferred_locale;
  }
  Object.assign(p, invokerFields(place, ctx.clock.now()));
  if (parts.message) p.message = parts.message;
  return p;
}
