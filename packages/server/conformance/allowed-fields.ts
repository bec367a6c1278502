/**
 * The reviewed allow-list of undeclared fields: fields the real platform sends on an object but the spec's schema
 * omits. An undeclared field not listed here fails the operation (a renamed or invented field cannot pass). Each entry
 * names the object kind it may appear on and its source; the kind is read off the object that carries the field
 * (a user has `username` and `discriminator`, a role `permissions`, `position` and `hoist`, …), so `clan` is allowed
 * on users only, never on a guild or a message.
 *
 * Fields Accord used to send that the real platform does not were removed from the answers instead of being listed:
 * `guild_id` on REST messages (gateway only: discord-api-docs#912, #2846), `member` on a REST message's `interaction`
 * (MESSAGE_CREATE only: discord-api-types `APIMessageInteraction.member`), `newly_created` on REST thread objects
 * (THREAD_CREATE only: userdoccers `gateway/gateway-events.mdx`).
 */
type Obj = Record<string, unknown>;

export const KINDS = {
  user: (o: Obj) => 'username' in o && 'discriminator' in o,
  role: (o: Obj) => 'permissions' in o && 'position' in o && 'hoist' in o,
  overwrite: (o: Obj) => 'allow' in o && 'deny' in o && 'type' in o && !('position' in o),
  guild: (o: Obj) => 'owner_id' in o && 'features' in o,
  application: (o: Obj) => 'verify_key' in o,
  entitlement: (o: Obj) => 'sku_id' in o && 'application_id' in o && 'deleted' in o,
  reaction: (o: Obj) => 'emoji' in o && 'count' in o && 'me' in o,
} as const;
export type Kind = keyof typeof KINDS;

export interface AllowedField {
  field: string;
  on: Kind;
  source: string;
}

const USERDOCCERS = 'discord-userdoccers `pages/resources';
export const ALLOWED_FIELDS: AllowedField[] = [
  { field: 'clan', on: 'user', source: 'discord-api-docs#6836 (review): `clan` is the deprecated name of `primary_guild`, still sent beside it' },
  { field: 'display_name_styles', on: 'user', source: `${USERDOCCERS}/user.mdx\`: \`display_name_styles?\` on the user object` },
  { field: 'bio', on: 'user', source: `${USERDOCCERS}/user.mdx\`: \`bio\` on the current user` },
  { field: 'description', on: 'role', source: `${USERDOCCERS}/guild.mdx\`: role \`description ?string\` (max 90 characters)` },
  {
    field: 'permissions_new',
    on: 'role',
    source: 'seed SPEC.md (permissions): "Permission bitfields also have string forms permissions_new, allow_new, deny_new"',
  },
  { field: 'allow_new', on: 'overwrite', source: 'seed SPEC.md (permissions): string forms `allow_new`, `deny_new`' },
  { field: 'deny_new', on: 'overwrite', source: 'seed SPEC.md (permissions): string forms `allow_new`, `deny_new`' },
  { field: 'icon_hash', on: 'guild', source: 'discord-api-types `payloads/v10/guild.d.ts`: `APIGuild.icon_hash?`; docs `resources/guild` (guild object)' },
  { field: 'summary', on: 'application', source: "discord-api-types `payloads/v10/application.d.ts`: `APIApplication.summary: ''` (deprecated, always empty)" },
  { field: 'hook', on: 'application', source: `${USERDOCCERS}/application.mdx\`: \`hook\` boolean on the application object` },
  { field: 'is_monetized', on: 'application', source: `${USERDOCCERS}/application.mdx\`: \`is_monetized\`` },
  { field: 'is_verified', on: 'application', source: `${USERDOCCERS}/application.mdx\`: \`is_verified\`` },
  { field: 'is_discoverable', on: 'application', source: `${USERDOCCERS}/application.mdx\`: \`is_discoverable\`` },
  { field: 'storefront_available', on: 'application', source: `${USERDOCCERS}/application.mdx\`: \`storefront_available\`` },
  {
    field: 'promotion_id',
    on: 'entitlement',
    source: 'docs `resources/entitlement` example payloads (reference webhook-events-and-monetization.md); userdoccers entitlement.mdx',
  },
  {
    field: 'gift_code_flags',
    on: 'entitlement',
    source: 'docs `resources/entitlement` example payloads (reference webhook-events-and-monetization.md); userdoccers entitlement.mdx',
  },
  {
    field: 'subscription_id',
    on: 'entitlement',
    source: 'docs `monetization` entitlement examples (reference webhook-events-and-monetization.md); userdoccers entitlement.mdx `subscription_id?`',
  },
  {
    field: 'burst_me',
    on: 'reaction',
    source: 'recorded reaction payloads: real reaction objects carry `burst_me` beside `me_burst` (deserialized by public Go, Kotlin and Python client models)',
  },
];

type Step = { key: string } | { each: true };

/** `a.b[].c` (the validator's path format, indices collapsed) as steps; the last key is the field. */
function parsePath(path: string): Step[] {
  const steps: Step[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[]*)((?:\[\])*)$/.exec(part);
    if (!m) return [];
    if (m[1]) steps.push({ key: m[1] });
    for (let i = 0; i < m[2].length / 2; i++) steps.push({ each: true });
  }
  return steps;
}

/** The objects that carry the field at `path` in `body` (several when the path crosses lists). */
export function carriers(body: unknown, path: string): Obj[] {
  const steps = parsePath(path);
  const last = steps.pop();
  if (!last || !('key' in last)) return [];
  let here: unknown[] = [body];
  for (const s of steps) {
    const next: unknown[] = [];
    for (const v of here) {
      if ('each' in s) {
        if (Array.isArray(v)) next.push(...v);
      } else if (v && typeof v === 'object' && !Array.isArray(v) && s.key in v) next.push((v as Obj)[s.key]);
    }
    here = next;
  }
  return here.filter((v): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v) && last.key in v);
}

/** The allow-list entry that covers an undeclared field at `path`, or null: every carrier must be of the entry's kind. */
export function allowedEntry(body: unknown, path: string): AllowedField | null {
  const field = path
    .split('.')
    .pop()!
    .replace(/(\[\])+$/, '');
  const objs = carriers(body, path);
  if (!objs.length) return null;
  return ALLOWED_FIELDS.find((e) => e.field === field && objs.every((o) => KINDS[e.on](o))) ?? null;
}

/** Splits the validator's undeclared-field paths into reviewed ones (allowed) and the rest (failures). */
export function reviewUndeclared(body: unknown, paths: string[]): { allowed: string[]; unreviewed: string[] } {
  const allowed: string[] = [];
  const unreviewed: string[] = [];
  for (const p of paths) (allowedEntry(body, p) ? allowed : unreviewed).push(p);
  return { allowed, unreviewed };
}
