import type { Actor, Ctx } from '../context.js';
import { formError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { checkGuildChannels, guildRoles, requireGuildPerms } from './lookup.js';
import { getSetting, putSetting, type OnboardingSettings } from './settings.js';

/** Guild onboarding: the prompts new members answer and the default channels they get. */

const onboardingWire = (guildId: string, o: OnboardingSettings) => ({
  guild_id: guildId,
  prompts: o.prompts,
  default_channel_ids: o.default_channel_ids,
  enabled: o.enabled,
  mode: o.mode,
});

/** GET /guilds/{id}/onboarding: any member. */
export async function getOnboarding(ctx: Ctx, actor: Actor, guildId: string) {
  await requireGuildPerms(ctx, actor, guildId);
  const o = await getSetting(ctx, guildId, 'onboarding');
  return onboardingWire(guildId, o ?? { prompts: [], default_channel_ids: [], enabled: false, mode: 0 });
}

export interface OnboardingInput {
  prompts?:
    | {
        id?: string | null;
        type?: number | null;
        title: string;
        single_select?: boolean | null;
        required?: boolean | null;
        in_onboarding?: boolean | null;
        options: {
          id?: string | null;
          title: string;
          description?: string | null;
          emoji_id?: string | null;
          emoji_name?: string | null;
          emoji_animated?: boolean | null;
          role_ids?: string[] | null;
          channel_ids?: string[] | null;
        }[];
      }[]
    | null;
  default_channel_ids?: string[] | null;
  enabled?: boolean | null;
  mode?: number | null;
}

/**
 * PUT /guilds/{id}/onboarding: MANAGE_GUILD and MANAGE_ROLES. Channel and role ids must be the guild's; prompt and
 * option ids that are not snowflakes (clients send placeholders for new ones) get fresh ids.
 */
export async function putOnboarding(ctx: Ctx, actor: Actor, guildId: string, input: OnboardingInput) {
  await requireGuildPerms(ctx, actor, guildId, P.MANAGE_GUILD | P.MANAGE_ROLES);
  const cur = (await getSetting(ctx, guildId, 'onboarding')) ?? { prompts: [], default_channel_ids: [], enabled: false, mode: 0 };
  const chanRefs: { path: (string | number)[]; id: string }[] = [];
  const roleRefs: { path: (string | number)[]; id: string }[] = [];
  (input.default_channel_ids ?? []).forEach((id, i) => chanRefs.push({ path: ['default_channel_ids', i], id }));
  (input.prompts ?? []).forEach((p, i) =>
    p.options.forEach((o, j) => {
      (o.channel_ids ?? []).forEach((id, k) => chanRefs.push({ path: ['prompts', i, 'options', j, 'channel_ids', k], id }));
      (o.role_ids ?? []).forEach((id, k) => roleRefs.push({ path: ['prompts', i, 'options', j, 'role_ids', k], id }));
    }),
  );
  await checkGuildChannels(ctx, guildId, chanRefs);
  if (roleRefs.length) {
    const roles = new Set((await guildRoles(ctx, guildId)).map((r) => r.id));
    const bad = roleRefs.filter((r) => !roles.has(r.id) || r.id === guildId);
    if (bad.length) throw formError(bad.map((r) => ({ path: r.path, code: 'ROLE_INVALID', message: 'Invalid role.' })));
  }
  const freshId = (v: string | null | undefined) => (v && /^\d{17,20}$/.test(v) ? v : ctx.ids.next());
  const next: OnboardingSettings = {
    prompts:
      input.prompts === undefined
        ? cur.prompts
        : (input.prompts ?? []).map((p) => ({
            id: freshId(p.id),
            type: p.type ?? 0,
            title: p.title,
            single_select: !!p.single_select,
            required: !!p.required,
            in_onboarding: p.in_onboarding ?? true,
            options: p.options.map((o) => ({
              id: freshId(o.id),
              title: o.title,
              description: o.description ?? '',
              emoji: { id: o.emoji_id ?? null, name: o.emoji_name ?? null, animated: !!o.emoji_animated },
              role_ids: [...new Set(o.role_ids ?? [])],
              channel_ids: [...new Set(o.channel_ids ?? [])],
            })),
          })),
    default_channel_ids: input.default_channel_ids === undefined ? cur.default_channel_ids : [...new Set(input.default_channel_ids ?? [])],
    enabled: input.enabled ?? cur.enabled,
    mode: input.mode ?? cur.mode,
  };
  await putSetting(ctx, guildId, 'onboarding', next);
  const out = onboardingWire(guildId, next);
  ctx.bus.publish({ t: 'GUILD_ONBOARDING_UPDATE', d: out, guild_id: guildId });
  return out;
}
