import { z } from 'zod';
import type { Ctx } from '../context.js';
import type { ApplicationRecord } from '../../store/records.js';
import { APP_FLAGS, updateApplication, type ApplicationPatch } from '../identity/applications.js';
import { ensureEntryPoint } from '../apps/commands/index.js';
import { validateUrlMap, type UrlMapping } from './url-map.js';
import { snowflake } from '../../core/validation.js';
import { outgoingFor } from '../../core/outgoing.js';

/**
 * An app's Activity settings: the EMBEDDED flag (Enable Activities), the embedded activity config (platforms,
 * orientation, age gate) and the proxy's URL mappings. Stored in `applications.extra`; set through
 * `PATCH /applications/{id}` or the portal's own routes (`/embedded-activity-config`, `/proxy-config`).
 */

export const PLATFORMS = ['web', 'android', 'ios'] as const;
/** 1 UNLOCKED, 2 PORTRAIT, 3 LANDSCAPE. */
const ORIENTATION = z.literal([1, 2, 3]);

export const EmbeddedConfigPatch = z.object({
  supported_platforms: z.array(z.enum(PLATFORMS)).max(PLATFORMS.length).nullable().optional(),
  default_orientation_lock_state: ORIENTATION.optional(),
  tablet_default_orientation_lock_state: ORIENTATION.optional(),
  requires_age_gate: z.boolean().optional(),
  activity_preview_video_asset_id: snowflake.nullable().optional(),
  shelf_rank: z.number().int().min(0).max(1_000_000).optional(),
});
export type EmbeddedConfigPatch = z.infer<typeof EmbeddedConfigPatch>;

export const ProxyConfigPatch = z.object({
  url_map: z.array(z.object({ prefix: z.string().min(1).max(256), target: z.string().min(1).max(256) })).max(50),
});
export type ProxyConfigPatch = z.infer<typeof ProxyConfigPatch>;

export interface StoredEmbeddedConfig {
  supported_platforms: string[];
  default_orientation_lock_state: number;
  tablet_default_orientation_lock_state: number;
  requires_age_gate: boolean;
  activity_preview_video_asset_id: string | null;
  shelf_rank: number;
}

const DEFAULT_CONFIG: StoredEmbeddedConfig = {
  supported_platforms: ['web'],
  default_orientation_lock_state: 1,
  tablet_default_orientation_lock_state: 1,
  requires_age_gate: false,
  activity_preview_video_asset_id: null,
  shelf_rank: 0,
};

export const isEmbedded = (app: ApplicationRecord) => (app.flags & APP_FLAGS.EMBEDDED) !== 0n;

export function embeddedConfig(app: ApplicationRecord): StoredEmbeddedConfig {
  return { ...DEFAULT_CONFIG, ...(app.extra.embedded_activity_config ?? {}) };
}

export function urlMap(app: ApplicationRecord): UrlMapping[] {
  return app.extra.proxy_config?.url_map ?? [];
}

/** The embedded activity config object as the platform serializes it. */
export function embeddedConfigWire(app: ApplicationRecord) {
  const c = embeddedConfig(app);
  const phase = { label_type: 0, label_until: null, release_phase: 'global_launch' };
  return {
    application_id: app.id,
    activity_preview_video_asset_id: c.activity_preview_video_asset_id,
    supported_platforms: c.supported_platforms,
    default_orientation_lock_state: c.default_orientation_lock_state,
    tablet_default_orientation_lock_state: c.tablet_default_orientation_lock_state,
    requires_age_gate: c.requires_age_gate,
    legacy_responsive_aspect_ratio: false,
    premium_tier_requirement: null,
    free_period_starts_at: null,
    free_period_ends_at: null,
    client_platform_config: Object.fromEntries(c.supported_platforms.map((p) => [p, phase])),
    shelf_rank: c.shelf_rank,
    has_csp_exception: false,
    displays_advertisements: false,
  };
}

export const proxyConfigWire = (app: ApplicationRecord) => ({ url_map: urlMap(app) });

/** What PATCH /applications/{id} may carry beyond the identity fields. */
export interface ActivityPatch {
  embedded_activity_config?: EmbeddedConfigPatch;
  proxy_config?: ProxyConfigPatch;
}

/**
 * Applies an application PATCH with its Activity parts, validating everything before writing anything. Turning
 * EMBEDDED on gives the app its default Entry Point command ("Launch", handler 2) unless it has one.
 */
export async function updateApplicationWithActivities(ctx: Ctx, app: ApplicationRecord, patch: ApplicationPatch & ActivityPatch): Promise<ApplicationRecord> {
  const { embedded_activity_config: config, proxy_config: proxy, ...identity } = patch;
  const extra: Record<string, unknown> = { ...identity.extra };
  if (config) extra.embedded_activity_config = mergeConfig(app, config);
  if (proxy) extra.proxy_config = { url_map: validateUrlMap(proxy.url_map, ['proxy_config', 'url_map'], outgoingFor(ctx)) };
  const was = isEmbedded(app);
  const enabling = !was && patch.flags !== undefined && (BigInt(patch.flags) & APP_FLAGS.EMBEDDED) !== 0n;
  // The config is stored once Activities are on, so the application object shows it from then on.
  if (enabling && !extra.embedded_activity_config && !app.extra.embedded_activity_config) extra.embedded_activity_config = { ...DEFAULT_CONFIG };
  const updated = await updateApplication(ctx, app, Object.keys(extra).length ? { ...identity, extra } : identity);
  if (!was && isEmbedded(updated)) await ensureEntryPoint(ctx, updated);
  return updated;
}

function mergeConfig(app: ApplicationRecord, patch: EmbeddedConfigPatch): StoredEmbeddedConfig {
  const next = { ...embeddedConfig(app) };
  for (const [k, v] of Object.entries(patch)) if (v !== undefined) (next as any)[k] = v;
  if (patch.supported_platforms === null) next.supported_platforms = DEFAULT_CONFIG.supported_platforms;
  next.supported_platforms = [...new Set(next.supported_platforms)];
  return next;
}

/** PATCH /applications/{id}/embedded-activity-config. */
export async function patchEmbeddedConfig(ctx: Ctx, app: ApplicationRecord, patch: EmbeddedConfigPatch): Promise<ApplicationRecord> {
  return updateApplicationWithActivities(ctx, app, { embedded_activity_config: patch });
}

/** PATCH /applications/{id}/proxy-config. */
export async function patchProxyConfig(ctx: Ctx, app: ApplicationRecord, patch: ProxyConfigPatch): Promise<ApplicationRecord> {
  return updateApplicationWithActivities(ctx, app, { proxy_config: patch });
}
