import type { Api } from '../../lib/api/routes.js';
import type { APIGuildMember, Snowflake } from '../../lib/api/types.js';

/** The audit log reason travels in a header, URI-encoded as the platform expects. */
const reasonHeader = (reason?: string) => (reason?.trim() ? { 'x-audit-log-reason': encodeURIComponent(reason.trim()) } : undefined);

/** The moderation calls of the member list and the profile popout. */
export const moderationApi = (api: Api, guildId: Snowflake) => ({
  kick: (userId: Snowflake, reason?: string) => api.http.delete<void>(`/guilds/${guildId}/members/${userId}`, { headers: reasonHeader(reason) }),
  ban: (userId: Snowflake, deleteMessageSeconds: number, reason?: string) =>
    api.http.put<void>(`/guilds/${guildId}/bans/${userId}`, { delete_message_seconds: deleteMessageSeconds }, { headers: reasonHeader(reason) }),
  timeout: (userId: Snowflake, until: string | null, reason?: string) =>
    api.http.patch<APIGuildMember>(`/guilds/${guildId}/members/${userId}`, { communication_disabled_until: until }, { headers: reasonHeader(reason) }),
  setRole: (userId: Snowflake, roleId: Snowflake, add: boolean) =>
    add
      ? api.http.put<void>(`/guilds/${guildId}/members/${userId}/roles/${roleId}`)
      : api.http.delete<void>(`/guilds/${guildId}/members/${userId}/roles/${roleId}`),
  nick: (userId: Snowflake, self: boolean, nick: string | null) =>
    api.http.patch<APIGuildMember>(`/guilds/${guildId}/members/${self ? '@me' : userId}`, { nick }),
});
