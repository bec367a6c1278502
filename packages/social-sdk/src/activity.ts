import { ActivityPartyPrivacy, ActivityTypes, PLATFORM_NAMES, StatusDisplayTypes } from './enums.js';
import { invalid } from './result.js';
import type { Snowflake } from './snowflake.js';

/** Rich presence, as UpdateRichPresence takes it (plain objects in place of the C++ builder types). */
export interface Activity {
  name?: string;
  type?: ActivityTypes;
  state?: string;
  stateUrl?: string;
  details?: string;
  detailsUrl?: string;
  statusDisplayType?: StatusDisplayTypes;
  applicationId?: Snowflake;
  parentApplicationId?: Snowflake;
  assets?: {
    largeImage?: string;
    largeText?: string;
    largeUrl?: string;
    smallImage?: string;
    smallText?: string;
    smallUrl?: string;
    inviteCoverImage?: string;
  };
  timestamps?: { start?: number; end?: number };
  party?: { id: string; currentSize: number; maxSize: number; privacy?: ActivityPartyPrivacy };
  secrets?: { join?: string };
  /** ActivityGamePlatforms bits. */
  supportedPlatforms?: number;
  buttons?: { label: string; url: string }[];
}

const isUrl = (v: string) => /^https?:\/\/\S+$/i.test(v) && v.length <= 256;

/** Rich presence activity types (SET_ACTIVITY's): Playing, Listening, Watching, Competing. */
const RICH_TYPES = new Set<number>([ActivityTypes.Playing, ActivityTypes.Listening, ActivityTypes.Watching, ActivityTypes.Competing]);

/** Checks an activity as the SDK does before sending it (ValidationError), and builds the wire object. */
export function activityToWire(a: Activity, applicationName: string): Record<string, unknown> {
  const type = a.type ?? ActivityTypes.Playing;
  if (!RICH_TYPES.has(type)) throw invalid(`Activity type ${type} cannot be set as rich presence (Playing 0, Listening 2, Watching 3, Competing 5)`);
  for (const [k, v] of [
    ['stateUrl', a.stateUrl],
    ['detailsUrl', a.detailsUrl],
    ['assets.largeUrl', a.assets?.largeUrl],
    ['assets.smallUrl', a.assets?.smallUrl],
  ] as const) {
    if (v !== undefined && !isUrl(v)) throw invalid(`${k} must be an http(s) URL of at most 256 characters`);
  }
  for (const [k, v, max] of [
    ['state', a.state, 128],
    ['details', a.details, 128],
    ['name', a.name, 128],
  ] as const) {
    if (v !== undefined && (v.length < 1 || v.length > max)) throw invalid(`${k} must be 1 to ${max} characters`);
  }
  if (a.party && (a.party.currentSize < 0 || a.party.maxSize < 1 || a.party.currentSize > a.party.maxSize))
    throw invalid('party sizes must satisfy 0 <= currentSize <= maxSize');
  const platforms = a.supportedPlatforms !== undefined ? PLATFORM_NAMES.filter(([bit]) => a.supportedPlatforms! & bit).map(([, n]) => n) : undefined;
  const assets = a.assets && {
    large_image: a.assets.largeImage,
    large_text: a.assets.largeText,
    large_url: a.assets.largeUrl,
    small_image: a.assets.smallImage,
    small_text: a.assets.smallText,
    small_url: a.assets.smallUrl,
    invite_cover_image: a.assets.inviteCoverImage,
  };
  return strip({
    name: a.name ?? applicationName,
    type,
    state: a.state,
    state_url: a.stateUrl,
    details: a.details,
    details_url: a.detailsUrl,
    status_display_type: a.statusDisplayType,
    application_id: a.applicationId,
    assets,
    timestamps: a.timestamps,
    party: a.party && { id: a.party.id, size: [a.party.currentSize, a.party.maxSize], privacy: a.party.privacy ?? ActivityPartyPrivacy.Private },
    secrets: a.secrets,
    supported_platforms: platforms,
    buttons: a.buttons,
  });
}

/** A wire activity (someone's presence) as an Activity. */
export function activityFromWire(w: any): Activity {
  return strip({
    name: w.name,
    type: w.type,
    state: w.state,
    stateUrl: w.state_url,
    details: w.details,
    detailsUrl: w.details_url,
    statusDisplayType: w.status_display_type,
    applicationId: w.application_id,
    assets:
      w.assets &&
      strip({
        largeImage: w.assets.large_image,
        largeText: w.assets.large_text,
        largeUrl: w.assets.large_url,
        smallImage: w.assets.small_image,
        smallText: w.assets.small_text,
        smallUrl: w.assets.small_url,
        inviteCoverImage: w.assets.invite_cover_image,
      }),
    timestamps: w.timestamps,
    party: w.party && { id: w.party.id, currentSize: w.party.size?.[0] ?? 0, maxSize: w.party.size?.[1] ?? 0, privacy: w.party.privacy ?? 0 },
    supportedPlatforms: Array.isArray(w.supported_platforms)
      ? PLATFORM_NAMES.filter(([, n]) => w.supported_platforms.includes(n)).reduce((m, [b]) => m | b, 0)
      : undefined,
    buttons: Array.isArray(w.buttons)
      ? w.buttons.map((label: unknown, i: number) => (typeof label === 'string' ? { label, url: w.metadata?.button_urls?.[i] ?? '' } : label))
      : undefined,
  }) as Activity;
}

function strip<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v === undefined) delete o[k];
    else if (v && typeof v === 'object' && !Array.isArray(v)) strip(v as Record<string, unknown>);
  }
  return o;
}
