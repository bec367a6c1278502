import { HttpClient } from './client.js';
import type {
  APIGuildMember,
  APIInvite,
  APIUser,
  Channel,
  CommandIndex,
  Entitlement,
  GuildCreate,
  Message,
  PurchaseResult,
  StoreSku,
  Subscription,
  Snowflake,
} from './types.js';

/** Typed calls of the public API that the client makes. One line each: the paths are the documentation. */
export function apiRoutes(http: HttpClient) {
  const enc = encodeURIComponent;
  return {
    http,
    auth: {
      register: (b: { username: string; password: string; global_name?: string; email?: string }) =>
        http.post<{ token: string }>('/auth/register', b, { anonymous: true }),
      login: (b: { login: string; password: string }) => http.post<{ token: string; user_id?: string }>('/auth/login', b, { anonymous: true }),
    },
    gatewayUrl: () => http.get<{ url: string }>('/gateway', { anonymous: true }),
    me: () => http.get<APIUser>('/users/@me'),
    users: {
      get: (id: Snowflake) => http.get<APIUser>(`/users/${id}`),
      openDm: (recipientId: Snowflake) => http.post<Channel>('/users/@me/channels', { recipient_id: recipientId }),
      openGroupDm: (recipientIds: Snowflake[]) => http.post<Channel>('/users/@me/channels', { recipients: recipientIds }),
      leaveGuild: (guildId: Snowflake) => http.delete<void>(`/users/@me/guilds/${guildId}`),
    },
    guilds: {
      create: (name: string) => http.post<GuildCreate>('/guilds', { name }),
      searchMessages: (guildId: Snowflake, content: string) =>
        http.get<{ messages: Message[][]; total_results: number }>(`/guilds/${guildId}/messages/search`, { query: { content } }),
      members: (guildId: Snowflake, limit = 1000) => http.get<APIGuildMember[]>(`/guilds/${guildId}/members`, { query: { limit } }),
      createChannel: (guildId: Snowflake, b: { name: string; type: number; parent_id?: Snowflake | null }) =>
        http.post<Channel>(`/guilds/${guildId}/channels`, b),
      commandIndex: (guildId: Snowflake) => http.get<CommandIndex>(`/guilds/${guildId}/application-command-index`),
      activeThreads: (guildId: Snowflake) => http.get<{ threads: Channel[] }>(`/guilds/${guildId}/threads/active`),
    },
    channels: {
      get: (id: Snowflake) => http.get<Channel>(`/channels/${id}`),
      messages: (id: Snowflake, q: { before?: Snowflake; after?: Snowflake; around?: Snowflake; limit?: number } = {}) =>
        http.get<Message[]>(`/channels/${id}/messages`, { query: { limit: 50, ...q } }),
      send: (id: Snowflake, b: Record<string, unknown>, files?: File[]) => http.post<Message>(`/channels/${id}/messages`, b, { files }),
      edit: (id: Snowflake, messageId: Snowflake, b: Record<string, unknown>) => http.patch<Message>(`/channels/${id}/messages/${messageId}`, b),
      remove: (id: Snowflake, messageId: Snowflake) => http.delete<void>(`/channels/${id}/messages/${messageId}`),
      ack: (id: Snowflake, messageId: Snowflake, b: { manual?: boolean; mention_count?: number } = {}) =>
        http.post<{ token: null }>(`/channels/${id}/messages/${messageId}/ack`, { token: null, ...b }),
      typing: (id: Snowflake) => http.post<void>(`/channels/${id}/typing`),
      react: (id: Snowflake, messageId: Snowflake, emoji: string) => http.put<void>(`/channels/${id}/messages/${messageId}/reactions/${enc(emoji)}/@me`),
      unreact: (id: Snowflake, messageId: Snowflake, emoji: string) => http.delete<void>(`/channels/${id}/messages/${messageId}/reactions/${enc(emoji)}/@me`),
      pins: (id: Snowflake) => http.get<{ items: { pinned_at: string; message: Message }[]; has_more: boolean }>(`/channels/${id}/messages/pins`),
      pin: (id: Snowflake, messageId: Snowflake) => http.put<void>(`/channels/${id}/messages/pins/${messageId}`),
      unpin: (id: Snowflake, messageId: Snowflake) => http.delete<void>(`/channels/${id}/messages/pins/${messageId}`),
      vote: (id: Snowflake, messageId: Snowflake, answerIds: number[]) =>
        http.put<void>(`/channels/${id}/polls/${messageId}/answers/@me`, { answer_ids: answerIds }),
      threadFromMessage: (id: Snowflake, messageId: Snowflake, name: string) => http.post<Channel>(`/channels/${id}/messages/${messageId}/threads`, { name }),
      createThread: (id: Snowflake, b: Record<string, unknown>, files?: File[]) =>
        http.post<Channel & { message?: Message }>(`/channels/${id}/threads`, b, { files }),
      archivedThreads: (id: Snowflake) => http.get<{ threads: Channel[]; has_more: boolean }>(`/channels/${id}/threads/archived/public`),
      createInvite: (id: Snowflake) => http.post<APIInvite>(`/channels/${id}/invites`, { max_age: 604800 }),
      commandIndex: (id: Snowflake) => http.get<CommandIndex>(`/channels/${id}/application-command-index`),
      joinThread: (id: Snowflake) => http.put<void>(`/channels/${id}/thread-members/@me`),
    },
    invites: {
      get: (code: string) =>
        http.get<APIInvite & { approximate_member_count?: number; approximate_presence_count?: number }>(`/invites/${enc(code)}`, {
          query: { with_counts: true },
        }),
      accept: (code: string) => http.post<APIInvite & { guild?: { id: Snowflake } }>(`/invites/${enc(code)}`, {}),
    },
    commands: {
      userIndex: () => http.get<CommandIndex>('/users/@me/application-command-index'),
    },
    interactions: {
      /** POST /interactions: the person's side of every interaction (commands, autocomplete, components, modals). */
      create: (b: Record<string, unknown>, files?: File[]) => http.post<void>('/interactions', b, { files }),
    },
    applications: {
      /** The public card of an app (name, icon, description): what invites and the store show. */
      publicInfo: (appId: Snowflake) =>
        http.get<{ id: Snowflake; name: string; icon: string | null; description: string }>(`/oauth2/applications/${appId}/rpc`, { anonymous: true }),
    },
    store: {
      skus: (appId: Snowflake) => http.get<StoreSku[]>(`/store/applications/${appId}/skus`),
      purchase: (skuId: Snowflake, b: { guild_id?: Snowflake } = {}) => http.post<PurchaseResult>(`/store/skus/${skuId}/purchase`, b),
      entitlements: (appId?: Snowflake) => http.get<Entitlement[]>('/users/@me/entitlements', { query: { application_id: appId, exclude_ended: true } }),
      subscriptions: (appId?: Snowflake) => http.get<Subscription[]>('/users/@me/subscriptions', { query: { application_id: appId } }),
      cancel: (subId: Snowflake) => http.post<Subscription>(`/users/@me/subscriptions/${subId}/cancel`),
      resume: (subId: Snowflake) => http.post<Subscription>(`/users/@me/subscriptions/${subId}/resume`),
    },
  };
}

export type Api = ReturnType<typeof apiRoutes>;
