import type { Api } from '../../lib/api/routes.js';
import type { APIGuildMember, APIUser, Snowflake } from '../../lib/api/types.js';

/** The person's own user as PATCH /users/@me returns it (with `token` after a password change). */
export type SelfUser = APIUser & { bio?: string; email?: string | null; token?: string };

export interface ProfileChanges {
  global_name?: string | null;
  bio?: string;
  accent_color?: number | null;
  /** A data URI, or null to remove. */
  avatar?: string | null;
}

/** The user settings' calls: Modify Current User and Modify Current Member (the per-server nickname). */
export const userSettingsApi = (api: Api) => ({
  me: () => api.http.get<SelfUser>('/users/@me'),
  editProfile: (b: ProfileChanges) => api.http.patch<SelfUser>('/users/@me', b),
  editAccount: (b: { username?: string; email?: string; password: string }) => api.http.patch<SelfUser>('/users/@me', b),
  changePassword: (password: string, newPassword: string) => api.http.patch<SelfUser>('/users/@me', { password, new_password: newPassword }),
  setNick: (guildId: Snowflake, nick: string | null) => api.http.patch<APIGuildMember>(`/guilds/${guildId}/members/@me`, { nick }),
});

/** Reads a picked file as a data URI (what the API takes for images). */
export function fileToDataUri(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error('Cannot read the file.'));
    r.readAsDataURL(file);
  });
}
