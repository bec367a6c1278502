import type { ApplicationRecord, UserRecord } from '../store/records.js';
import { publicUser } from './user.js';
import { dropUndefined } from './drop-undefined.js';
import type { AccordApplication, AccordPublicApplication } from './extensions.js';

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
export function application(a: ApplicationRecord, deps: { owner: UserRecord | null; bot: UserRecord | null; counts?: ApplicationCounts }): AccordApplication {
  return dropUndefined<AccordApplication>({
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
    install_params: a.extra.install_params || undefined,
    integration_types_config: a.extra.integration_types_config ?? DEFAULT_INTEGRATION_TYPES_CONFIG,
    custom_install_url: a.extra.custom_install_url || undefined,
    role_connections_verification_url: a.extra.role_connections_verification_url ?? null,
    approximate_guild_count: deps.counts?.guilds ?? a.extra.approximate_guild_count ?? 0,
    approximate_user_install_count: deps.counts?.users ?? a.extra.approximate_user_install_count ?? 0,
    approximate_user_authorization_count: deps.counts?.authorizations ?? 0,
    event_webhooks_url: a.extra.event_webhooks_url ?? null,
    event_webhooks_status: a.extra.event_webhooks_status ?? 1,
    event_webhooks_types: a.extra.event_webhooks_types ?? [],
    explicit_content_filter: a.extra.explicit_content_filter ?? 0,
    eligible_oauth2_scopes: a.extra.eligible_oauth2_scopes ?? [],
    embedded_activity_config: a.extra.embedded_activity_config ? { application_id: a.id, ...a.extra.embedded_activity_config } : undefined,
    proxy_config: a.extra.proxy_config || undefined,
    owner: deps.owner ? publicUser(deps.owner) : undefined,
    bot: deps.bot ? publicUser(deps.bot) : undefined,
    team: null,
  });
}

/**
 * What anyone may see of an app (GET /oauth2/applications/{id}/rpc, the consent screen, /oauth2/@me): no owner,
 * redirect URIs, endpoint URLs or counts.
 */
export function publicApplication(a: ApplicationRecord, bot?: UserRecord | null): AccordPublicApplication {
  return dropUndefined<AccordPublicApplication>({
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
    install_params: a.extra.install_params || undefined,
    integration_types_config: a.extra.integration_types_config ?? DEFAULT_INTEGRATION_TYPES_CONFIG,
    custom_install_url: a.extra.custom_install_url || undefined,
    rpc_origins: a.extra.rpc_origins ?? [],
    embedded_activity_config: a.extra.embedded_activity_config ? { application_id: a.id, ...a.extra.embedded_activity_config } : undefined,
    bot: bot ? publicUser(bot) : undefined,
  });
}
