/**
 * Rich presence activities as a session sets them (op 3, the SDK's UpdateRichPresence), validated and rebuilt field by
 * field: nothing unknown reaches other users, bad values drop the field (or the activity when `name` or `type` is
 * bad), and secrets never leave the server. The spec's fields: `state_url` / `details_url`, `assets.large_url` /
 * `small_url`, `status_display_type` (which of name 0, state 1 or details 2 shows in the status text), party privacy
 * (private 0, public 1) and `assets.invite_cover_image` (a URL or an asset key).
 */
export const MAX_ACTIVITIES = 5;
const PLATFORMS = new Set(['desktop', 'xbox', 'samsung', 'ios', 'android', 'embedded', 'ps4', 'ps5']);

const str = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.length >= 1 && v.length <= max ? v : undefined);
const url = (v: unknown): string | undefined => (typeof v === 'string' && v.length <= 256 && /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v) ? v : undefined);
const int = (v: unknown, min: number, max: number): number | undefined =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? (v as number) : undefined;
const defined = <T extends Record<string, unknown>>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export interface ActivityContext {
  /** A Bearer (SDK) session's app: its activities are that app's, whatever they claim. */
  applicationId: string | null;
  now: number;
}

export function normalizeActivity(raw: unknown, c: ActivityContext): Record<string, unknown> | null {
  if (!raw || typeof raw !== 'object') return null;
  const a = raw as Record<string, any>;
  const name = str(a.name, 128);
  const type = int(a.type, 0, 6);
  if (name === undefined || type === undefined) return null;
  const assets =
    a.assets && typeof a.assets === 'object'
      ? defined({
          large_image: str(a.assets.large_image, 256),
          large_text: str(a.assets.large_text, 128),
          large_url: url(a.assets.large_url),
          small_image: str(a.assets.small_image, 256),
          small_text: str(a.assets.small_text, 128),
          small_url: url(a.assets.small_url),
          invite_cover_image: url(a.assets.invite_cover_image) ?? str(a.assets.invite_cover_image, 256),
        })
      : undefined;
  let party: Record<string, unknown> | undefined;
  if (a.party && typeof a.party === 'object') {
    const size =
      Array.isArray(a.party.size) &&
      a.party.size.length === 2 &&
      int(a.party.size[0], 0, 1 << 30) !== undefined &&
      int(a.party.size[1], 1, 1 << 30) !== undefined &&
      a.party.size[0] <= a.party.size[1]
        ? [a.party.size[0], a.party.size[1]]
        : undefined;
    party = defined({ id: str(a.party.id, 128), size, privacy: int(a.party.privacy, 0, 1) });
  }
  const timestamps =
    a.timestamps && typeof a.timestamps === 'object'
      ? defined({ start: int(a.timestamps.start, 0, Number.MAX_SAFE_INTEGER), end: int(a.timestamps.end, 0, Number.MAX_SAFE_INTEGER) })
      : undefined;
  // Buttons as the platform shows them to others: labels, with their URLs in `metadata.button_urls`. Clients send
  // either that form (the desktop client) or `{label, url}` pairs (bots, the SDK).
  let buttons: string[] | undefined;
  let buttonUrls: string[] | undefined;
  if (Array.isArray(a.buttons) && a.buttons.length) {
    const pairs = a.buttons
      .slice(0, 2)
      .map((b: any, i: number) =>
        typeof b === 'string' ? { label: str(b, 32), url: url(a.metadata?.button_urls?.[i]) } : { label: str(b?.label, 32), url: url(b?.url) },
      );
    if (pairs.every((p: { label?: string; url?: string }) => p.label && p.url)) {
      buttons = pairs.map((p: { label?: string }) => p.label!);
      buttonUrls = pairs.map((p: { url?: string }) => p.url!);
    }
  }
  const platforms = Array.isArray(a.supported_platforms) ? a.supported_platforms.filter((p: unknown) => typeof p === 'string' && PLATFORMS.has(p)) : undefined;
  const applicationId = c.applicationId ?? (typeof a.application_id === 'string' && /^\d{1,20}$/.test(a.application_id) ? a.application_id : undefined);
  const emoji =
    type === 4 && a.emoji && typeof a.emoji === 'object'
      ? defined({ name: str(a.emoji.name, 64), id: str(a.emoji.id, 20), animated: typeof a.emoji.animated === 'boolean' ? a.emoji.animated : undefined })
      : undefined;
  return defined({
    name,
    type,
    url: url(a.url),
    created_at: c.now,
    application_id: applicationId,
    state: str(a.state, 128),
    state_url: url(a.state_url),
    details: str(a.details, 128),
    details_url: url(a.details_url),
    status_display_type: int(a.status_display_type, 0, 2),
    timestamps: timestamps && Object.keys(timestamps).length ? timestamps : undefined,
    assets: assets && Object.keys(assets).length ? assets : undefined,
    party: party && Object.keys(party).length ? party : undefined,
    buttons,
    metadata: buttonUrls ? { button_urls: buttonUrls } : undefined,
    supported_platforms: platforms?.length ? platforms : undefined,
    emoji,
    instance: typeof a.instance === 'boolean' ? a.instance : undefined,
    flags: int(a.flags, 0, 0xffff),
  });
}

/** The activities of a presence update, normalized; at most five. */
export function normalizeActivities(raw: unknown, c: ActivityContext): Record<string, unknown>[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .slice(0, MAX_ACTIVITIES)
    .map((a) => normalizeActivity(a, c))
    .filter((a): a is Record<string, unknown> => a !== null);
}
