import type { Api } from '../../lib/api/routes.js';
import type { APIRole, APIUser, Channel, Snowflake } from '../../lib/api/types.js';

/**
 * The public API calls of the server settings, over the client's HttpClient. Kept beside the screens (not in
 * lib/api/routes.ts) because only these screens make them.
 */

export interface InviteRow {
  code: string;
  uses?: number;
  max_uses?: number;
  max_age?: number;
  created_at?: string;
  expires_at?: string | null;
  inviter?: APIUser;
  channel?: { id: Snowflake; name?: string | null } | null;
}

export interface BanRow {
  user: APIUser;
  reason: string | null;
}

export interface AuditEntry {
  id: Snowflake;
  action_type: number;
  user_id: Snowflake | null;
  target_id: Snowflake | null;
  reason?: string;
  changes?: { key: string; old_value?: unknown; new_value?: unknown }[];
  options?: Record<string, string>;
}

export interface AuditLog {
  audit_log_entries: AuditEntry[];
  users: APIUser[];
  webhooks?: unknown[];
  integrations?: unknown[];
  application_commands?: unknown[];
}

export interface GuildEmoji {
  id: Snowflake;
  name: string;
  animated?: boolean;
  user?: APIUser;
}

export interface GuildSticker {
  id: Snowflake;
  name: string;
  tags: string;
  description: string | null;
  format_type: number;
  user?: APIUser;
}

export type RoleEdit = Partial<Pick<APIRole, 'name' | 'color' | 'hoist' | 'mentionable' | 'permissions'>>;
export type ChannelEdit = Partial<Pick<Channel, 'name' | 'topic' | 'rate_limit_per_user' | 'nsfw'>>;

export function settingsApi(api: Api, guildId: Snowflake) {
  const { http } = api;
  const g = `/guilds/${guildId}`;
  return {
    editGuild: (b: { name?: string; icon?: string | null; system_channel_id?: Snowflake | null }) => http.patch<unknown>(g, b),
    deleteGuild: () => http.delete<void>(g),
    createRole: (b: RoleEdit) => http.post<APIRole>(`${g}/roles`, b),
    editRole: (id: Snowflake, b: RoleEdit) => http.patch<APIRole>(`${g}/roles/${id}`, b),
    deleteRole: (id: Snowflake) => http.delete<void>(`${g}/roles/${id}`),
    moveRoles: (positions: { id: Snowflake; position: number }[]) => http.patch<APIRole[]>(`${g}/roles`, positions),
    editChannel: (id: Snowflake, b: ChannelEdit) => http.patch<Channel>(`/channels/${id}`, b),
    putOverwrite: (channelId: Snowflake, id: Snowflake, b: { type: 0 | 1; allow: string; deny: string }) =>
      http.put<void>(`/channels/${channelId}/permissions/${id}`, b),
    deleteOverwrite: (channelId: Snowflake, id: Snowflake) => http.delete<void>(`/channels/${channelId}/permissions/${id}`),
    invites: () => http.get<InviteRow[]>(`${g}/invites`),
    revokeInvite: (code: string) => http.delete<void>(`/invites/${encodeURIComponent(code)}`),
    bans: () => http.get<BanRow[]>(`${g}/bans`, { query: { limit: 1000 } }),
    unban: (userId: Snowflake) => http.delete<void>(`${g}/bans/${userId}`),
    auditLog: (q: { user_id?: Snowflake; action_type?: number; before?: Snowflake; limit?: number }) =>
      http.get<AuditLog>(`${g}/audit-logs`, { query: { limit: 50, ...q } }),
    emojis: () => http.get<GuildEmoji[]>(`${g}/emojis`),
    createEmoji: (name: string, image: string) => http.post<GuildEmoji>(`${g}/emojis`, { name, image }),
    renameEmoji: (id: Snowflake, name: string) => http.patch<GuildEmoji>(`${g}/emojis/${id}`, { name }),
    deleteEmoji: (id: Snowflake) => http.delete<void>(`${g}/emojis/${id}`),
    stickers: () => http.get<GuildSticker[]>(`${g}/stickers`),
    /** Multipart: the file as `files[0]`, the fields in `payload_json` (the server reads either form). */
    createSticker: (b: { name: string; tags: string; description: string }, file: File) => http.post<GuildSticker>(`${g}/stickers`, b, { files: [file] }),
    renameSticker: (id: Snowflake, b: { name?: string; tags?: string; description?: string }) => http.patch<GuildSticker>(`${g}/stickers/${id}`, b),
    deleteSticker: (id: Snowflake) => http.delete<void>(`${g}/stickers/${id}`),
  };
}

export type SettingsApi = ReturnType<typeof settingsApi>;
