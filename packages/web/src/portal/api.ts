import type { HttpClient } from '../lib/api/client.js';
import type { Snowflake } from '../lib/api/types.js';
import type {
  AppCommand,
  AppEmoji,
  AppTester,
  Application,
  ApplicationPatch,
  Delivery,
  Entitlement,
  ExternalAuthProvider,
  Sku,
  TestedApplication,
} from './types.js';

/** The developer portal's calls: the public API an app's owner uses, one line each. */
export function portalApi(http: HttpClient) {
  const app = (id: Snowflake) => `/applications/${id}`;
  return {
    list: () => http.get<Application[]>('/applications'),
    create: (name: string) => http.post<Application>('/applications', { name }),
    get: (id: Snowflake) => http.get<Application>(app(id)),
    update: (id: Snowflake, patch: ApplicationPatch) => http.patch<Application>(app(id), patch),
    resetBotToken: (id: Snowflake) => http.post<{ token: string }>(`${app(id)}/bot/reset`),
    resetSecret: (id: Snowflake) => http.post<{ secret: string }>(`${app(id)}/reset`),
    emojis: (id: Snowflake) => http.get<{ items: AppEmoji[] }>(`${app(id)}/emojis`),
    createEmoji: (id: Snowflake, name: string, image: string) => http.post<AppEmoji>(`${app(id)}/emojis`, { name, image }),
    renameEmoji: (id: Snowflake, emojiId: Snowflake, name: string) => http.patch<AppEmoji>(`${app(id)}/emojis/${emojiId}`, { name }),
    deleteEmoji: (id: Snowflake, emojiId: Snowflake) => http.delete<void>(`${app(id)}/emojis/${emojiId}`),
    skus: (id: Snowflake) => http.get<Sku[]>(`${app(id)}/skus`),
    createSku: (id: Snowflake, b: { name: string; type: number; price?: number; currency?: string; published?: boolean }) =>
      http.post<Sku>(`${app(id)}/skus`, b),
    updateSku: (id: Snowflake, skuId: Snowflake, b: { published?: boolean; price?: number; name?: string }) => http.patch<Sku>(`${app(id)}/skus/${skuId}`, b),
    entitlements: (id: Snowflake) => http.get<Entitlement[]>(`${app(id)}/entitlements`, { query: { limit: 100 } }),
    createTestEntitlement: (id: Snowflake, b: { sku_id: Snowflake; owner_id: Snowflake; owner_type: 1 | 2 }) =>
      http.post<Entitlement>(`${app(id)}/entitlements`, b),
    deleteTestEntitlement: (id: Snowflake, entitlementId: Snowflake) => http.delete<void>(`${app(id)}/entitlements/${entitlementId}`),
    commands: (id: Snowflake) => http.get<AppCommand[]>(`${app(id)}/commands`),
    providers: (id: Snowflake) => http.get<ExternalAuthProvider[]>(`${app(id)}/external-auth-providers`),
    createProvider: (id: Snowflake, b: { type: string; issuer?: string; client_id?: string }) =>
      http.post<ExternalAuthProvider>(`${app(id)}/external-auth-providers`, b),
    editProvider: (id: Snowflake, providerId: Snowflake, b: { issuer?: string; client_id?: string }) =>
      http.patch<ExternalAuthProvider>(`${app(id)}/external-auth-providers/${providerId}`, b),
    deleteProvider: (id: Snowflake, providerId: Snowflake) => http.delete<void>(`${app(id)}/external-auth-providers/${providerId}`),
    testers: (id: Snowflake) => http.get<AppTester[]>(`${app(id)}/testers`),
    inviteTester: (id: Snowflake, username: string) => http.post<AppTester>(`${app(id)}/testers`, { username }),
    removeTester: (id: Snowflake, userId: Snowflake) => http.delete<void>(`${app(id)}/testers/${userId}`),
    tested: () => http.get<TestedApplication[]>('/users/@me/tested-applications'),
    acceptTesting: (id: Snowflake) => http.put<void>(`/users/@me/tested-applications/${id}`),
    leaveTesting: (id: Snowflake) => http.delete<void>(`/users/@me/tested-applications/${id}`),
    deliveries: (id: Snowflake) => http.get<Delivery[]>(`${app(id)}/event-webhooks/deliveries`, { query: { limit: 50 } }),
  };
}

export type PortalApi = ReturnType<typeof portalApi>;
