import type { APIUser, Snowflake } from '../lib/api/types.js';

/** The owner's view of an application, as `GET /applications/{id}` returns it. */
export interface InstallParams {
  scopes: string[];
  permissions: string;
}
export type IntegrationTypesConfig = Partial<Record<'0' | '1', { oauth2_install_params?: InstallParams | null } | null>>;

export interface Application {
  id: Snowflake;
  name: string;
  icon: string | null;
  description: string;
  bot_public: boolean;
  bot_require_code_grant: boolean;
  verify_key: string;
  flags: number;
  redirect_uris: string[];
  interactions_endpoint_url: string | null;
  tags: string[];
  install_params?: InstallParams;
  integration_types_config: IntegrationTypesConfig;
  custom_install_url?: string;
  event_webhooks_url: string | null;
  /** 1 disabled, 2 enabled. */
  event_webhooks_status: 1 | 2;
  event_webhooks_types: string[];
  approximate_guild_count: number;
  approximate_user_install_count: number;
  owner?: APIUser;
  bot?: APIUser;
  /** Present once Activities were enabled (or configured). */
  embedded_activity_config?: EmbeddedActivityConfig;
  proxy_config?: { url_map: UrlMapping[] };
}

/** An Activity's URL mapping: requests to `prefix` on the app's proxy host go to `target` (a host and path). */
export interface UrlMapping {
  prefix: string;
  target: string;
}

/** 1 unlocked, 2 portrait, 3 landscape. */
export type OrientationLock = 1 | 2 | 3;
export interface EmbeddedActivityConfig {
  supported_platforms: string[];
  default_orientation_lock_state: OrientationLock;
  tablet_default_orientation_lock_state: OrientationLock;
  requires_age_gate: boolean;
}

export type ApplicationPatch = Partial<
  Pick<
    Application,
    | 'name'
    | 'description'
    | 'flags'
    | 'bot_public'
    | 'bot_require_code_grant'
    | 'redirect_uris'
    | 'interactions_endpoint_url'
    | 'tags'
    | 'integration_types_config'
    | 'event_webhooks_url'
    | 'event_webhooks_status'
    | 'event_webhooks_types'
  >
> & {
  icon?: string | null;
  custom_install_url?: string | null;
  embedded_activity_config?: Partial<EmbeddedActivityConfig>;
  proxy_config?: { url_map: UrlMapping[] };
};

/** An application command, as far as the portal shows it (the Activities tab's entry point). */
export interface AppCommand {
  id: Snowflake;
  type: number;
  name: string;
  description: string;
  handler?: number;
}

/** An external auth provider of the Social SDK (OIDC issuers, device ids). */
export interface ExternalAuthProvider {
  id: Snowflake;
  application_id: Snowflake;
  type: 'OIDC' | 'DEVICE_ID';
  issuer: string | null;
  client_id: string | null;
  jwks_uri: string | null;
  algorithms: string[];
  strict_validation: boolean;
  created_at: string;
  updated_at: string;
}

export interface AppEmoji {
  id: Snowflake;
  name: string;
  animated: boolean;
  available?: boolean;
  user?: APIUser;
}

/** SKU types an owner creates: 2 durable, 3 consumable, 5 subscription. */
export interface Sku {
  id: Snowflake;
  type: number;
  application_id: Snowflake;
  name: string;
  slug: string;
  flags: number;
  price?: { amount: number; currency: string };
  published?: boolean;
}

export interface Entitlement {
  id: Snowflake;
  sku_id: Snowflake;
  application_id: Snowflake;
  user_id?: Snowflake;
  guild_id?: Snowflake;
  type: number;
  deleted: boolean;
  consumed?: boolean;
  starts_at: string | null;
  ends_at: string | null;
}

export interface Delivery {
  id: Snowflake;
  event_id: Snowflake;
  event_type: string;
  attempt: number;
  url: string;
  ok: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  timestamp: string;
}

/** Application flags the portal switches (the unverified-app "limited" intents, and public client). */
export const AppFlag = {
  PUBLIC_OAUTH2_CLIENT: 1 << 8,
  EMBEDDED: 1 << 17,
  GATEWAY_PRESENCE_LIMITED: 1 << 13,
  GATEWAY_GUILD_MEMBERS_LIMITED: 1 << 15,
  GATEWAY_MESSAGE_CONTENT_LIMITED: 1 << 19,
} as const;

/** Every application webhook event type the server delivers. */
export const EVENT_TYPES = [
  'APPLICATION_AUTHORIZED',
  'APPLICATION_DEAUTHORIZED',
  'ENTITLEMENT_CREATE',
  'ENTITLEMENT_UPDATE',
  'ENTITLEMENT_DELETE',
  'QUEST_USER_ENROLLMENT',
  'LOBBY_MESSAGE_CREATE',
  'LOBBY_MESSAGE_UPDATE',
  'LOBBY_MESSAGE_DELETE',
  'GAME_DIRECT_MESSAGE_CREATE',
  'GAME_DIRECT_MESSAGE_UPDATE',
  'GAME_DIRECT_MESSAGE_DELETE',
] as const;

/** A person the owner invited to test the app: 1 invited, 2 accepted. */
export interface AppTester {
  user: APIUser;
  state: 1 | 2;
}

/** An app one tests or is invited to test. */
export interface TestedApplication {
  application: Pick<Application, 'id' | 'name' | 'icon' | 'description'>;
  state: 1 | 2;
}
