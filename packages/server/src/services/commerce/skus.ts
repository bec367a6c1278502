import type { Actor, Ctx } from '../context.js';
import { Errors, fieldError } from '../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import type { ApplicationRecord } from '../../store/records.js';
import { getApplication, requireOwnedApplication } from '../identity/applications.js';
import { MonetizationErrors as ME, SkuFlags, SkuType, type SkuRecord } from './model.js';
import type { Repos } from '../../store/repos/index.js';

/** SKUs: durable and consumable one-time items, subscription SKUs and the groups that hold them. */

const KIND_FLAGS = SkuFlags.GUILD_SUBSCRIPTION | SkuFlags.USER_SUBSCRIPTION;

/**
 * The app behind an app-side monetization route: its bot, its owner (the portal), or an OAuth2 bearer token of that
 * very app (the scope guard has checked the scope). Unknown or malformed ids are 10002.
 */
export async function requireAppAccess(ctx: Ctx, actor: Actor, applicationId: string): Promise<ApplicationRecord> {
  if (!isSnowflake(applicationId)) throw Errors.unknownApplication();
  if (actor.kind === 'bearer') {
    const app = await getApplication(ctx, applicationId);
    if (!app) throw Errors.unknownApplication();
    if (actor.applicationId !== app.id) throw Errors.notAppOwner();
    return app;
  }
  return requireOwnedApplication(ctx, actor, applicationId);
}

export async function getSku(ctx: Ctx, skuId: string, repos: Repos = ctx.repos): Promise<SkuRecord | null> {
  if (!isSnowflake(skuId)) return null;
  return repos.commerce.skuById(skuId);
}

export async function requireSku(ctx: Ctx, skuId: string, applicationId?: string, repos: Repos = ctx.repos): Promise<SkuRecord> {
  const sku = await getSku(ctx, skuId, repos);
  if (!sku || (applicationId && sku.application_id !== applicationId)) throw ME.unknownSku();
  return sku;
}

export async function listSkus(ctx: Ctx, applicationId: string): Promise<SkuRecord[]> {
  return ctx.repos.commerce.skusOfApp(applicationId);
}

export const isPublished = (s: SkuRecord) => (s.flags & SkuFlags.AVAILABLE) !== 0;
export const isGuildSku = (s: SkuRecord) => (s.flags & SkuFlags.GUILD_SUBSCRIPTION) !== 0;

export function slugify(name: string): string {
  const s = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90);
  return s || 'sku';
}

export interface SkuInput {
  name: string;
  type: number;
  slug?: string;
  flags?: number;
  price?: number;
  currency?: string;
  subscription_group_id?: string;
  published?: boolean;
}

/** The subscription kind of a new SKU: exactly one of GUILD_SUBSCRIPTION / USER_SUBSCRIPTION (USER by default). */
function kindOf(flags: number | undefined): number {
  const kind = (flags ?? 0) & KIND_FLAGS;
  if (kind === KIND_FLAGS) throw fieldError('flags', 'SKU_FLAGS_INVALID', 'A SKU is either a guild or a user SKU, not both.');
  return kind || SkuFlags.USER_SUBSCRIPTION;
}

/**
 * Creates a SKU. A subscription SKU joins the group named by `subscription_group_id` (a type-6 SKU of the app, of the
 * same kind), or gets a new group of its own: the platform makes one type-6 SKU per group, and list answers show both.
 */
export async function createSku(ctx: Ctx, app: ApplicationRecord, input: SkuInput): Promise<{ sku: SkuRecord; group: SkuRecord | null }> {
  if (![SkuType.DURABLE, SkuType.CONSUMABLE, SkuType.SUBSCRIPTION].includes(input.type as 2)) {
    throw fieldError('type', 'BASE_TYPE_CHOICES', 'Value must be one of (2, 3, 5).');
  }
  const kind = kindOf(input.flags);
  const now = ctx.clock.now();
  const available = input.published ? SkuFlags.AVAILABLE : 0;
  return ctx.repos.transaction(async (tx) => {
    let group: SkuRecord | null = null;
    if (input.type === SkuType.SUBSCRIPTION) {
      if (input.subscription_group_id) {
        group = await getSku(ctx, input.subscription_group_id, tx);
        if (!group || group.application_id !== app.id || group.type !== SkuType.SUBSCRIPTION_GROUP) throw ME.invalidSku();
        if ((group.flags & KIND_FLAGS) !== kind) throw fieldError('flags', 'SKU_FLAGS_INVALID', 'A subscription group holds SKUs of one kind (guild or user).');
      } else {
        group = {
          id: ctx.ids.next(),
          application_id: app.id,
          type: SkuType.SUBSCRIPTION_GROUP,
          name: input.name,
          slug: `${input.slug ?? slugify(input.name)}-group`.slice(0, 100),
          flags: kind,
          group_id: null,
          price: 0,
          currency: input.currency ?? 'usd',
          created_at: now,
        };
        await tx.commerce.insertSku(group);
      }
    } else if (input.subscription_group_id) {
      throw fieldError('subscription_group_id', 'SKU_GROUP_INVALID', 'Only subscription SKUs belong to a group.');
    }
    const sku: SkuRecord = {
      id: ctx.ids.next(),
      application_id: app.id,
      type: input.type,
      name: input.name,
      slug: input.slug ?? slugify(input.name),
      flags: kind | available,
      group_id: group?.id ?? null,
      price: input.price ?? 499,
      currency: input.currency ?? 'usd',
      created_at: now,
    };
    await tx.commerce.insertSku(sku);
    if (group) group = await syncGroup(tx, group.id);
    return { sku, group };
  });
}

export interface SkuPatch {
  name?: string;
  slug?: string;
  price?: number;
  currency?: string;
  /** Publishing sets AVAILABLE; unpublishing clears it (existing entitlements and subscriptions stay). */
  published?: boolean;
}

export async function updateSku(ctx: Ctx, sku: SkuRecord, patch: SkuPatch): Promise<SkuRecord> {
  const values: Partial<SkuRecord> = {};
  if (patch.name !== undefined) values.name = patch.name;
  if (patch.slug !== undefined) values.slug = patch.slug;
  if (sku.type !== SkuType.SUBSCRIPTION_GROUP) {
    if (patch.price !== undefined) values.price = patch.price;
    if (patch.currency !== undefined) values.currency = patch.currency;
    if (patch.published !== undefined) values.flags = patch.published ? sku.flags | SkuFlags.AVAILABLE : sku.flags & ~SkuFlags.AVAILABLE;
  }
  return ctx.repos.transaction(async (tx) => {
    if (Object.keys(values).length) await tx.commerce.patchSku(sku.id, values);
    if (sku.group_id) await syncGroup(tx, sku.group_id);
    return (await getSku(ctx, sku.id, tx))!;
  });
}

/** A group is AVAILABLE while any of its SKUs is. */
async function syncGroup(repos: Repos, groupId: string): Promise<SkuRecord> {
  const members = await repos.commerce.skusInGroup(groupId);
  const group = await repos.commerce.skuById(groupId);
  if (!group) throw new Error(`SKU group ${groupId} not found`);
  const flags = members.some(isPublished) ? group.flags | SkuFlags.AVAILABLE : group.flags & ~SkuFlags.AVAILABLE;
  if (flags !== group.flags) await repos.commerce.patchSku(groupId, { flags });
  return { ...group, flags };
}

/** The premium-button `sku_id`s of a raw component tree (style 6 buttons, at any depth). */
function premiumSkuIds(raw: unknown, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 8 || raw == null || typeof raw !== 'object') return out;
  if (Array.isArray(raw)) {
    for (const x of raw.slice(0, 100)) premiumSkuIds(x, out, depth + 1);
    return out;
  }
  const o = raw as Record<string, unknown>;
  if (o.style === 6 && (typeof o.sku_id === 'string' || typeof o.sku_id === 'number') && isSnowflake(String(o.sku_id))) out.add(String(o.sku_id));
  for (const k of ['components', 'accessory']) if (k in o) premiumSkuIds(o[k], out, depth + 1);
  return out;
}

/**
 * The `skuExists` check of the component validator for one message: the premium buttons' SKUs must be published SKUs
 * of the app sending the message. `sender` is the app id or its bot user id; a sender that is no app (a user, a plain
 * webhook) may name any app's published SKU. Queries only when the message has premium buttons.
 */
export async function premiumSkuCheck(ctx: Ctx, components: unknown, sender: string | null): Promise<(id: string) => boolean> {
  const ids = [...premiumSkuIds(components)];
  if (!ids.length) return () => false;
  let appId: string | null = null;
  if (sender && isSnowflake(sender)) {
    appId = await ctx.repos.applications.idOfAppOrBot(sender);
  }
  const rows = await ctx.repos.commerce.skuFlagsAmong(ids, appId);
  const ok = new Set(rows.filter((r) => r.flags & SkuFlags.AVAILABLE && r.type !== SkuType.SUBSCRIPTION_GROUP).map((r) => r.id));
  return (id) => ok.has(id);
}
