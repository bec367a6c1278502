import type { ApplicationRecord, UserRecord } from '../store/records.js';
import { publicUser } from './user.js';

export interface ApplicationCounts {
  guilds: number;
  users: number;
  authorizations: number;
}

/** Both install contexts are on for a new app, as in the portal since user installs exist. */
export const DEFAULT_INTEGRATION_TYPES_CONFIG = { '0': {}, '1': {} };

/**
 * The application object. Never carries secrets (client secret, signing key); `verify_key` is public by design.
 * `counts` are the approximate install counts (omitted: the stored values, or 0).
 */
export function application(a: ApplicationRecord, deps: { owner: UserRecord | null; bot: UserRecord | null; counts?: ApplicationCounts }) {
  return {
    id: a.id,
    name: a.name,
    icon: a.icon,
    description: a.description,
    summary: '',
    type: null,
    bot_public: a.bot_public,
    bot_require_code_grant: a.bot_require_code_grant,
    verify_key: a.verify_key,
    flags: Number(a.flags & 0x7fffffffn),
    flags_new: a.flags.toString(),
    hook: true,
    is_monetized: false,
    is_verified: false,
    is_discoverable: false,
    storefront_available: false,
    redirect_uris: a.redirect_uris,
    rpc_origins: a.extra.rpc_origins ?? [],
    interactions_endpoint_url: a.interactions_endpoint_url,
    tags: a.extra.tags ?? [],
    ...(a.extra.install_params ? { install_params: a.extra.install_params } : {}),
    integration_types_config: a.extra.integration_types_config ?? DEFAULT_INTEGRATION_TYPES_CONFIG,
    ...(a.extra.custom_install_url ? { custom_install_url: a.extra.custom_install_url } : {}),
    role_connections_verification_url: a.extra.role_connections_verification_url ?? null,
    approximate_guild_count: deps.counts?.guilds ?? a.extra.approximate_guild_count ?? 0,
    approximate_user_install_count: deps.counts?.users ?? a.extra.approximate_user_install_count ?? 0,
    approximate_user_authorization_count: deps.counts?.authorizations ?? 0,
    event_webhooks_url: a.extra.event_webhooks_url ?? null,
    event_webhooks_status: a.extra.event_webhooks_status ?? 1,
    event_webhooks_types: a.extra.event_webhooks_types ?? [],
    explicit_content_filter: a.extra.explicit_content_filter ?? 0,
    eligible_oauth2_scopes: a.extra.eligible_oauth2_scopes ?? [],
    ...(a.extra.embedded_activity_config ? { embedded_activity_config: { application_id: a.id, ...a.extra.embedded_activity_config } } : {}),
    ...(a.extra.proxy_config ? { proxy_config: a.extra.proxy_config } : {}),
    ...(deps.owner ? { owner: publicUser(deps.owner) } : {}),
    ...(deps.bot ? { bot: publicUser(deps.bot) } : {}),
    team: null,
  };
}

/**
 * What anyone may see of an app (GET /oauth2/applications/{id}/rpc, the consent screen, /oauth2/@me): no owner,
 * redirect URIs, endpoint URLs or counts.
 */
export function publicApplication(a: ApplicationRecord, bot?: UserRecord | null) {
  return {
    id: a.id,
    name: a.name,
    icon: a.icon,
    description: a.description,
    summary: '',
    type: null,
    hook: true,
    bot_public: a.bot_public,
    bot_require_code_grant: a.bot_require_code_grant,
    verify_key: a.verify_key,
    flags: Number(a.flags & 0x7fffffffn),
    flags_new: a.flags.toString(),
    tags: a.extra.tags ?? [],
    ...(a.extra.install_params ? { install_params: a.extra.install_params } : {}),
    integration_types_config: a.extra.integration_types_config ?? DEFAULT_INTEGRATION_TYPES_CONFIG,
    ...(a.extra.custom_install_url ? { custom_install_url: a.extra.custom_install_url } : {}),
    rpc_origins: a.extra.rpc_origins ?? [],
    ...(a.extra.embedded_activity_config ? { embedded_activity_config: { application_id: a.id, ...a.extra.embedded_activity_config } } : {}),
    ...(bot ? { bot: publicUser(bot) } : {}),
  };
}
