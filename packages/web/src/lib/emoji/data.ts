/**
 * The Unicode emoji catalogue (emojibase-data: labels, tags, groups, skin tones, GitHub-style shortcodes), loaded
 * on first use as a chunk of its own so the initial JavaScript stays small.
 */
export interface EmojiEntry {
  unicode: string;
  label: string;
  group: number;
  /** Shortcodes without colons, the first is the name shown (`smile`, `+1`). */
  shortcodes: string[];
  tags: string[];
  /** The five skin-tone variants, light to dark, when the emoji has them. */
  skins?: string[];
}

export interface EmojiCatalogue {
  list: EmojiEntry[];
  groups: { id: number; name: string }[];
}

let loading: Promise<EmojiCatalogue> | null = null;
let loaded: EmojiCatalogue | null = null;

/** The groups the picker shows (emojibase's "components" group holds bare skin-tone swatches). */
const COMPONENT_GROUP = 2;

export function loadEmoji(): Promise<EmojiCatalogue> {
  loading ??= Promise.all([
    import('emojibase-data/en/compact.json'),
    import('emojibase-data/en/shortcodes/github.json'),
    import('emojibase-data/en/messages.json'),
  ]).then(([compact, codes, messages]) => {
    const byHex = codes.default as Record<string, string | string[]>;
    const list: EmojiEntry[] = [];
    for (const e of compact.default as any[]) {
      if (e.group === undefined || e.group === COMPONENT_GROUP) continue;
      const sc = byHex[e.hexcode];
      const shortcodes = sc === undefined ? [e.label.replace(/[^\w]+/g, '_').toLowerCase()] : Array.isArray(sc) ? sc : [sc];
      list.push({
        unicode: e.unicode,
        label: e.label,
        group: e.group,
        shortcodes,
        tags: e.tags ?? [],
        skins: e.skins?.length === 5 ? e.skins.map((s: any) => s.unicode) : undefined,
      });
    }
    const groups = (messages.default.groups as { key: string; message: string; order: number }[])
      .filter((g) => g.order !== COMPONENT_GROUP)
      .map((g) => ({ id: g.order, name: g.message }));
    loaded = { list, groups };
    return loaded;
  });
  return loading;
}

/** The catalogue if it has been loaded already (for synchronous lookups while rendering). */
export const emojiCatalogue = () => loaded;

/** Emoji whose shortcode is the query first, then those whose shortcode starts with it, then those whose shortcode, name or tags contain it. */
export function searchEmoji(list: EmojiEntry[], query: string, limit = 50): EmojiEntry[] {
  const q = query.trim().toLowerCase().replace(/^:|:$/g, '');
  if (!q) return list.slice(0, limit);
  const exact: EmojiEntry[] = [];
  const starts: EmojiEntry[] = [];
  const contains: EmojiEntry[] = [];
  for (const e of list) {
    if (e.shortcodes.includes(q)) exact.push(e);
    else if (e.shortcodes.some((s) => s.startsWith(q))) starts.push(e);
    else if (e.shortcodes.some((s) => s.includes(q)) || e.label.includes(q) || e.tags.some((t) => t.startsWith(q))) contains.push(e);
  }
  return [...exact, ...starts, ...contains].slice(0, limit);
}

/** A skin tone 0 (none) to 5 picks that variant when the emoji has one. */
export const withSkin = (e: EmojiEntry, tone: number) => (tone > 0 && e.skins ? e.skins[tone - 1] : e.unicode);
