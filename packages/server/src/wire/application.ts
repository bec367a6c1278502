import type { ApplicationRecord, UserRecord } from '../store/records.js';
import { publicUser } from './user.js';

/** The application object. Never carries secrets (client secret, signing key); `verify_key` is public by design. */
export function application(a: ApplicationRecord, deps: { owner: UserRecord | null; bot: UserRecord | null }) {
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
    interactions_endpoint_url: a.interactions_endpoint_url,
    tags: a.extra.tags ?? [],
    install_params: a.extra.install_params,
    integration_types_config: a.extra.integration_types_config ?? { '0': {} },
    approximate_guild_count: a.extra.approximate_guild_count ?? 0,
    approximate_user_install_count: a.extra.approximate_user_install_count ?? 0,
    approximate_user_authorization_count: 0,
    event_webhooks_url: a.extra.event_webhooks_url ?? null,
    event_webhooks_status: a.extra.event_webhooks_status ?? 1,
    event_webhooks_types: a.extra.event_webhooks_types ?? [],
    ...(deps.owner ? { owner: publicUser(deps.owner) } : {}),
    ...(deps.bot ? { bot: publicUser(deps.bot) } : {}),
    team: null,
  };
}
