/**
 * Known defects of the official spec (and of its zod translation), patched in the oracle rather than by weakening
 * the check: each patch rewrites one declaration of `discord-api-spec/zod` to what the platform really sends, and
 * must match exactly once (or the stated number of times) so a package update that moves things fails loudly.
 * Sources: ../shared/reference/http-routes.md "Known spec defects", errors-and-limits.md §2 and §4.
 */
export interface SpecPatch {
  id: string;
  why: string;
  find: string | RegExp;
  replace: string;
  /** How many occurrences must match (default 1). */
  count?: number;
}

export const SPEC_PATCHES: SpecPatch[] = [
  {
    id: 'strict-objects',
    why: "Objects are checked strictly: an undeclared field becomes an `unrecognized_keys` issue, which the validator reports as a warning. The package's own `setStrictObject(true)` cannot do it: every schema is built while the module is evaluated, before any caller can flip the switch.",
    find: 'let zObject = z.object;',
    replace: 'let zObject = z.strictObject;',
  },
  {
    id: 'inner-error-code-string',
    why: 'Nested `errors…._errors[].code` is a string such as "BASE_TYPE_REQUIRED" (docs, discord-api-types); the spec reuses the top-level Error object, whose `code` is an integer.',
    find: '_errors: /* @__PURE__ */ z.array(/* @__PURE__ */ z.lazy(() => ErrorSchema)),',
    replace: '_errors: z.array(zObject({ code: z.string(), message: z.string() })),',
  },
  {
    id: 'ratelimit-code-optional',
    why: 'The 429 body is `{message, retry_after, global, code?}`: `code` is optional (docs, discord-api-types); the spec requires it through Error.',
    find: /export const RatelimitedResponseSchema = [^;]*;/,
    replace:
      'export const RatelimitedResponseSchema = zObject({ code: z.optional(z.number()), message: z.string(), retry_after: z.number(), global: z.boolean() });',
  },
  {
    id: 'entitlement-types',
    why: 'EntitlementTypes lists only 8 and 10; the documented types are 1 PURCHASE … 8 APPLICATION_SUBSCRIPTION (and 10).',
    find: 'export const EntitlementTypesSchema = /* @__PURE__ */ z.literal([8, 10]);',
    replace: 'export const EntitlementTypesSchema = z.literal([1, 2, 3, 4, 5, 6, 7, 8, 10]);',
  },
  {
    id: 'message-reference-type',
    why: 'MessageReferenceType lists only 0 DEFAULT; 1 FORWARD is documented and sent for forwarded messages.',
    find: 'export const MessageReferenceTypeSchema = /* @__PURE__ */ z.literal(0);',
    replace: 'export const MessageReferenceTypeSchema = z.literal([0, 1]);',
  },
  {
    id: 'channel-types-media',
    why: 'ChannelTypes lacks 16 GUILD_MEDIA (only the preview spec has it).',
    find: /export const ChannelTypesSchema = \/\* @__PURE__ \*\/ z\.literal\(\[\s*1, 3, 0, 2, 4, 5, 10, 11, 12, 13, 14, 15,\s*\]\);/,
    replace: 'export const ChannelTypesSchema = z.literal([1, 3, 0, 2, 4, 5, 10, 11, 12, 13, 14, 15, 16]);',
  },
  {
    id: 'interaction-callback-types',
    why: 'InteractionCallbackTypes lacks 10 PREMIUM_REQUIRED (deprecated but still accepted and echoed).',
    find: /export const InteractionCallbackTypesSchema = \/\* @__PURE__ \*\/ z\.literal\(\[\s*1, 4, 5, 6, 7, 8, 9, 12, 13,\s*\]\);/,
    replace: 'export const InteractionCallbackTypesSchema = z.literal([1, 4, 5, 6, 7, 8, 9, 10, 12, 13]);',
  },
  {
    id: 'message-content-2000',
    why: 'Message `content` is at most 2000 characters (docs); the spec says 4000 on create/edit requests. Request-side only: the harness uses request schemas to sanity-check its own fixtures.',
    find: /(export const (?:BaseCreateMessageCreateRequest|MessageCreateRequest|MessageEditRequestPartial)Schema = \/\* @__PURE__ \*\/ zObject\(\{\n {2}content: \/\* @__PURE__ \*\/ z\.nullish\(\n {4}\/\* @__PURE__ \*\/ z\.string\(\)\.check\(\/\* @__PURE__ \*\/ z\.maxLength\()4000\)/g,
    replace: '$12000)',
    count: 3,
  },
  {
    id: 'date-time-offsets',
    why: 'OpenAPI `format: date-time` is RFC 3339, which allows a numeric offset (the platform itself writes `+00:00`); the zod translation uses `z.iso.datetime()`, which only accepts `Z`.',
    find: /z\.iso\.datetime\(\)/g,
    replace: 'z.iso.datetime({ offset: true })',
    count: -1,
  },
];

export function applyPatches(source: string, patches: SpecPatch[]): string {
  let out = source;
  for (const p of patches) {
    const re =
      typeof p.find === 'string'
        ? new RegExp(escapeRe(p.find), 'g')
        : new RegExp(p.find.source, p.find.flags.includes('g') ? p.find.flags : `${p.find.flags}g`);
    const n = out.match(re)?.length ?? 0;
    const want = p.count ?? 1;
    if (want === -1 ? n === 0 : n !== want)
      throw new Error(`spec patch ${p.id}: expected ${want === -1 ? 'at least one match' : `${want} match(es)`}, found ${n}`);
    out = out.replace(re, p.replace);
  }
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
