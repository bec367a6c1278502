import type { HttpClient } from '../lib/api/client.js';
import type { APIUser } from '../lib/api/types.js';

/** The consent screen's two calls: the preview of an authorize request, and the person's answer. */

export interface ConsentGuild {
  id: string;
  name: string;
  icon: string | null;
  mfa_level: number;
  permissions: string;
}

export interface ConsentPreview {
  application: {
    id: string;
    name: string;
    icon: string | null;
    description: string;
    bot_public?: boolean;
    bot_require_code_grant?: boolean;
    integration_types_config?: Partial<Record<'0' | '1', { oauth2_install_params?: { scopes: string[]; permissions: string } } | null>>;
  };
  user: APIUser;
  /** The person already granted every scope asked (a `prompt=none` request may skip the screen). */
  authorized: boolean;
  integration_type: 0 | 1;
  redirect_uri: string | null;
  bot?: APIUser;
  /** The servers the person may install into (Manage Server), when the request installs into a server. */
  guilds?: ConsentGuild[];
}

export interface ConsentAnswer {
  authorize: boolean;
  guild_id?: string;
  permissions?: string;
  integration_type?: 0 | 1;
}

export const consentApi = (http: HttpClient) => ({
  /** GET /oauth2/authorize?{the page's query}: what to show. */
  preview: (query: string) => http.get<ConsentPreview>(`/oauth2/authorize${query}`),
  /** POST /oauth2/authorize?{the page's query}: where to go next. */
  answer: (query: string, body: ConsentAnswer) => http.post<{ location: string }>(`/oauth2/authorize${query}`, body),
});

/** What a device's user code asks for (POST /oauth2/device/verify). */
export interface DeviceRequest {
  scopes: string[];
  client_id: string;
  type: 'pending' | 'granted' | 'denied';
  application: { id: string; name: string; icon: string | null };
}

/** The device flow's two calls from the person's side: what the code asks, and the answer. */
export const deviceApi = (http: HttpClient) => ({
  verify: (userCode: string) => http.post<DeviceRequest>('/oauth2/device/verify', { user_code: userCode }),
  finish: (userCode: string, result: 'granted' | 'denied') => http.post<void>('/oauth2/device/finish', { user_code: userCode, result }),
});
