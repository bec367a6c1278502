/**
 * What the parent needs from the client around it. The protocol (parent.ts) and the commands know nothing of React,
 * the DOM or the store: the browser client implements this (activity/browser-host.ts), and tests can drive the same
 * code from Node against a real server.
 */

export type Id = string;

/** A user as the API serializes one (the fields the SDK's shapes need). */
export interface WireUser {
  id: Id;
  username: string;
  discriminator?: string;
  global_name?: string | null;
  avatar?: string | null;
  public_flags?: number;
  flags?: number;
  bot?: boolean;
  premium_type?: number | null;
  locale?: string;
}

/** Where and how this frame was launched: the SDK's query parameters. */
export interface LaunchContext {
  applicationId: Id;
  instanceId: string;
  launchId: Id;
  channelId: Id;
  guildId: Id | null;
  locationId: string;
  frameId: string;
  platform: 'desktop' | 'mobile';
  customId?: string | null;
  referrerId?: Id | null;
}

export interface ApiFailure {
  status: number;
  code: number;
  message: string;
}

/** The public API, as the signed-in person; `bearer` calls with an OAuth2 access token instead. */
export interface HostApi {
  request<T = any>(
    method: string,
    path: string,
    opts?: { body?: unknown; query?: Record<string, string | undefined>; bearer?: string; files?: File[] },
  ): Promise<T>;
}

/** The person's answers, asked by the client's own UI. Each resolves when the person has chosen. */
export interface HostUi {
  /** OAuth2 consent for the Activity's app; false: denied. */
  authorize(req: { application: { id: Id; name: string; icon?: string | null; description?: string }; scopes: string[] }): Promise<boolean>;
  /** "You are leaving": false keeps the person here. */
  confirmExternalLink(url: string): Promise<boolean>;
  /** Share a link: 'send' it to the channel (the caller sends), 'copied' (the dialog copied it), or null (cancelled). */
  shareLink(req: { message: string; url: string }): Promise<'send' | 'copied' | null>;
  /** Shows an invite to the Activity's channel. */
  showInvite(url: string): Promise<void>;
  /** Confirm a purchase of this SKU; false: cancelled. */
  confirmPurchase(sku: { id: Id; name: string; price: { amount: number; currency: string } }): Promise<boolean>;
  /** An image file chosen by the person; null: cancelled. */
  pickImage(): Promise<File | null>;
  /** Share media (a moment) to the channel; false: cancelled. */
  shareMoment(mediaUrl: string): Promise<boolean>;
}

export interface VoiceStateInfo {
  user: WireUser;
  nick: string | null;
  mute: boolean;
  deaf: boolean;
  self_mute: boolean;
  self_deaf: boolean;
  suppress: boolean;
}

export interface ActivityHost {
  launch: LaunchContext;
  /** READY's config: where the platform's API and CDN are. */
  config: { api_endpoint: string; cdn_host?: string; environment: string };
  api: HostApi;
  ui: HostUi;
  me(): WireUser;
  /** The person's Gateway session id (interactions carry it). */
  sessionId(): string | null;
  /** The app's name (presence) and public fields (AUTHENTICATE falls back to the token's own view). */
  application(): { id: Id; name: string; description: string; icon: string | null };
  /** Users in the instance right now, in joining order. */
  participants(): WireUser[];
  /** The person's permissions in the Activity's channel (null: a private channel). */
  channelPermissions(): bigint | null;
  /** Voice states of a channel, as far as the client knows them. */
  voiceStates(channelId: Id): VoiceStateInfo[];
  /** A known user's presence, for relationships. */
  presence(userId: Id): { status: string; activities: any[] } | null;
  /** Sets (or clears, with null) the person's activity on their Gateway session. */
  setPresence(activity: Record<string, unknown> | null): void;
  locale(): string;
  /** A fresh proxy ticket for this instance, stored by the bridge (REQUEST_PROXY_TICKET_REFRESH). */
  refreshProxyTicket(): Promise<string>;
  /** The Activity's own console output (CAPTURE_LOG), already rate-limited. */
  log(level: string, message: string): void;
  /** The frame asked to be locked to an orientation (1 unlocked, 2 portrait, 3 landscape). */
  lockOrientation(lock: { lock_state: number; picture_in_picture_lock_state?: number | null; grid_lock_state?: number | null }): void;
  /** Opens a URL outside the client (after the person confirmed). */
  openUrl(url: string): void;
  /** 0 focused (in the channel), 1 picture-in-picture, 2 grid. */
  layoutMode(): number;
  /** The frame's orientation (ORIENTATION_UPDATE: 0 portrait, 1 landscape). */
  orientation(): 'portrait' | 'landscape';
  /** The URL the client serves share links and page paths from. */
  origin: string;
}
