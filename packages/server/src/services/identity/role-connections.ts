import { z } from 'zod';
import type { Actor, Ctx } from '../context.js';
import { isId } from '../../core/ids.js';
import { Errors, formError } from '../../core/errors.js';
import { parseBody } from '../../core/validation.js';
import { parseJson } from '../../store/json.js';
import { getApplication, requireOwnedApplication } from './applications.js';
import { LOCALES } from '../apps/commands/types.js';

/**
 * Linked roles. An app describes up to 5 metadata records (`PUT /applications/{id}/role-connections/metadata`, by its
 * bot or owner); each user's connection to the app (`/users/@me/applications/{id}/role-connection`, OAuth2
 * `role_connections.write`) carries a platform name and username and one value per record key, checked against the
 * record's type: integers for types 1–4, ISO 8601 date-times for 5–6, "0" / "1" for the booleans 7–8.
 */

export const MetadataType = {
  INTEGER_LESS_THAN_OR_EQUAL: 1,
  INTEGER_GREATER_THAN_OR_EQUAL: 2,
  INTEGER_EQUAL: 3,
  INTEGER_NOT_EQUAL: 4,
  DATETIME_LESS_THAN_OR_EQUAL: 5,
  DATETIME_GREATER_THAN_OR_EQUAL: 6,
  BOOLEAN_EQUAL: 7,
  BOOLEAN_NOT_EQUAL: 8,
} as const;

const MAX_RECORDS = 5;

type Localizations = Record<string, string>;

export interface MetadataRecord {
  type: number;
  key: string;
  name: string;
  name_localizations?: Localizations;
  description: string;
  description_localizations?: Localizations;
}

/** Locale maps: known locales only; null values drop the locale. */
const localizations = (max: number) =>
  z
    .record(z.string(), z.string().min(1).max(max).nullable())
    .superRefine((m, c) => {
      for (const locale of Object.keys(m)) {
        if (!LOCALES.includes(locale))
          c.addIssue({ code: 'custom', path: [locale], message: `Value must be one of (${LOCALES.join(', ')}).`, params: { code: 'BASE_TYPE_CHOICES' } });
      }
    })
    .nullable()
    .optional();

const RecordInput = z.object({
  type: z.literal([1, 2, 3, 4, 5, 6, 7, 8]),
  key: z
    .string()
    .min(1)
    .max(50)
    .regex(/^[a-z0-9_]+$/, { message: 'Keys may only contain a-z, 0-9 and _.' }),
  name: z.string().min(1).max(100),
  name_localizations: localizations(100),
  description: z.string().min(1).max(200),
  description_localizations: localizations(200),
});

const RecordsInput = z
  .array(RecordInput)
  .max(MAX_RECORDS)
  .superRefine((records, c) => {
    const seen = new Set<string>();
    records.forEach((r, i) => {
      if (seen.has(r.key))
        c.addIssue({
          code: 'custom',
          path: [i, 'key'],
          message: 'Keys must be unique.',
          params: { code: 'APPLICATION_ROLE_CONNECTION_METADATA_DUPLICATE_KEY' },
        });
      seen.add(r.key);
    });
  });

const UserConnectionInput = z.object({
  platform_name: z.string().max(50).nullable().optional(),
  platform_username: z.string().max(100).nullable().optional(),
  metadata: z.record(z.string(), z.string().min(1).max(100)).nullable().optional(),
});

const cleanLocalizations = (m: Record<string, string | null> | null | undefined): Localizations | undefined => {
  if (!m) return undefined;
  const out = Object.fromEntries(Object.entries(m).filter((e): e is [string, string] => e[1] !== null));
  return Object.keys(out).length ? out : undefined;
};

async function appRecords(ctx: Ctx, applicationId: string): Promise<MetadataRecord[]> {
  const records = await ctx.repos.applications.roleConnectionMetadata(applicationId);
  return records !== null ? parseJson<MetadataRecord[]>(records, []) : [];
}

async function ownedApp(ctx: Ctx, actor: Actor, applicationId: string) {
  if (!isId(applicationId)) throw Errors.unknownApplication();
  return requireOwnedApplication(ctx, actor, applicationId);
}

/** GET /applications/{id}/role-connections/metadata: the app's bot or owner. */
export async function getMetadataRecords(ctx: Ctx, actor: Actor, applicationId: string): Promise<MetadataRecord[]> {
  const app = await ownedApp(ctx, actor, applicationId);
  return appRecords(ctx, app.id);
}

/** PUT /applications/{id}/role-connections/metadata: replaces the records (at most 5, unique keys). */
export async function putMetadataRecords(ctx: Ctx, actor: Actor, applicationId: string, body: unknown): Promise<MetadataRecord[]> {
  const app = await ownedApp(ctx, actor, applicationId);
  const input = parseBody(RecordsInput, body ?? []);
  const records: MetadataRecord[] = input.map((r) => {
    const name_localizations = cleanLocalizations(r.name_localizations);
    const description_localizations = cleanLocalizations(r.description_localizations);
    return {
      type: r.type,
      key: r.key,
      name: r.name,
      ...(name_localizations ? { name_localizations } : {}),
      description: r.description,
      ...(description_localizations ? { description_localizations } : {}),
    };
  });
  const json = JSON.stringify(records);
  const now = ctx.clock.now();
  await ctx.repos.applications.putRoleConnectionMetadata(app.id, json, now);
  return records;
}

// ------------------------------------------------------------------------------------------------------ user side

/** Bearer tokens act on their own app's connection only; a user token (the person themself) on any. */
async function connectionApp(ctx: Ctx, actor: Actor, applicationId: string) {
  const app = isId(applicationId) ? await getApplication(ctx, applicationId) : null;
  if (!app) throw Errors.unknownApplication();
  if (actor.kind === 'bearer' && actor.applicationId !== app.id) throw Errors.missingAccess();
  return app;
}

interface UserConnection {
  platform_name: string | null;
  platform_username: string | null;
  metadata: Record<string, string>;
}

async function loadConnection(ctx: Ctx, userId: string, applicationId: string): Promise<UserConnection | null> {
  const row = await ctx.repos.applications.userRoleConnection(userId, applicationId);
  return row
    ? { platform_name: row.platform_name, platform_username: row.platform_username, metadata: parseJson<Record<string, string>>(row.metadata, {}) }
    : null;
}

/** The connection object; values of keys the app no longer describes are not shown. `platform_name` only when set. */
function connectionWire(c: UserConnection | null, records: MetadataRecord[]) {
  const keys = new Set(records.map((r) => r.key));
  const metadata = Object.fromEntries(Object.entries(c?.metadata ?? {}).filter(([k]) => keys.has(k)));
  return { ...(c?.platform_name != null ? { platform_name: c.platform_name } : {}), platform_username: c?.platform_username ?? null, metadata };
}

/** A value fits its record's type; the error names the key. */
function checkValues(metadata: Record<string, string>, records: MetadataRecord[]): void {
  const byKey = new Map(records.map((r) => [r.key, r]));
  const leaves: { path: (string | number)[]; code: string; message: string }[] = [];
  for (const [key, value] of Object.entries(metadata)) {
    const path = ['metadata', key];
    const r = byKey.get(key);
    if (!r) {
      leaves.push({
        path,
        code: 'APPLICATION_ROLE_CONNECTION_METADATA_UNKNOWN_KEY',
        message: "This key is not one of the application's role connection metadata records.",
      });
    } else if (r.type <= 4) {
      if (!/^-?\d{1,19}$/.test(value) || BigInt(value) > 2n ** 63n - 1n || BigInt(value) < -(2n ** 63n))
        leaves.push({ path, code: 'NUMBER_TYPE_COERCE', message: `Value "${value}" is not int.` });
    } else if (r.type <= 6) {
      if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) || Number.isNaN(Date.parse(value))) {
        leaves.push({ path, code: 'DATE_TIME_TYPE_PARSE', message: `Could not parse ${value}. Should be ISO8601.` });
      }
    } else if (value !== '0' && value !== '1') {
      leaves.push({ path, code: 'BOOLEAN_TYPE_COERCE', message: `Value "${value}" is not a valid boolean (use "0" or "1").` });
    }
  }
  if (Object.keys(metadata).length > MAX_RECORDS)
    leaves.push({ path: ['metadata'], code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_RECORDS} or fewer in length.` });
  if (leaves.length) throw formError(leaves);
}

/** GET /users/@me/applications/{id}/role-connection. */
export async function getUserConnection(ctx: Ctx, actor: Actor, applicationId: string) {
  const app = await connectionApp(ctx, actor, applicationId);
  return connectionWire(await loadConnection(ctx, actor.user.id, app.id), await appRecords(ctx, app.id));
}

/** PUT /users/@me/applications/{id}/role-connection: given fields replace the stored ones (metadata as a whole). */
export async function putUserConnection(ctx: Ctx, actor: Actor, applicationId: string, body: unknown) {
  const app = await connectionApp(ctx, actor, applicationId);
  const b = parseBody(UserConnectionInput, body ?? {});
  const records = await appRecords(ctx, app.id);
  if (b.metadata) checkValues(b.metadata, records);
  const before = await loadConnection(ctx, actor.user.id, app.id);
  const next: UserConnection = {
    platform_name: b.platform_name !== undefined ? b.platform_name : (before?.platform_name ?? null),
    platform_username: b.platform_username !== undefined ? b.platform_username : (before?.platform_username ?? null),
    metadata: b.metadata !== undefined ? (b.metadata ?? {}) : (before?.metadata ?? {}),
  };
  const row = {
    platform_name: next.platform_name,
    platform_username: next.platform_username,
    metadata: JSON.stringify(next.metadata),
    updated_at: ctx.clock.now(),
  };
  await ctx.repos.applications.putUserRoleConnection(actor.user.id, app.id, row);
  return connectionWire(next, records);
}

/** DELETE /users/@me/applications/{id}/role-connection: idempotent. */
export async function deleteUserConnection(ctx: Ctx, actor: Actor, applicationId: string): Promise<void> {
  const app = await connectionApp(ctx, actor, applicationId);
  await ctx.repos.applications.deleteUserRoleConnection(actor.user.id, app.id);
}
