import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useStore } from '../../lib/session.js';
import { Spinner } from '../../lib/ui/index.js';
import { customEmojiUrl, Twemoji } from '../../lib/emoji/Emoji.js';
import { loadEmoji, searchEmoji, withSkin, type EmojiCatalogue, type EmojiEntry } from '../../lib/emoji/data.js';
import { recentEmoji, rememberEmoji, setSkinTone, skinTone } from '../../lib/emoji/recents.js';
import '../../styles/emoji-picker.css';

/** One choice: `value` is what the reaction route wants, `text` what goes into a message. */
interface Choice {
  key: string;
  value: string;
  text: string;
  name: string;
  unicode?: string;
  custom?: { id: string; animated?: boolean };
}

const TONES = ['👏', '👏🏻', '👏🏼', '👏🏽', '👏🏾', '👏🏿'];
/** An emoji standing for each emojibase group on the category bar. */
const GROUP_ICON: Record<number, string> = { 0: '😀', 1: '👋', 3: '🐱', 4: '🍕', 5: '🚗', 6: '⚽', 7: '💡', 8: '💟', 9: '🏁' };

const unicodeChoice = (e: EmojiEntry, tone: number): Choice => {
  const u = withSkin(e, tone);
  return { key: u, value: u, text: u, name: e.shortcodes[0], unicode: u };
};

/**
 * The emoji picker: search by name, shortcode or tag; recents; the server's own emoji; every Unicode category with
 * skin tones. `onPick` gets the reaction form (`👍` or `name:id`) and the message form (`👍` or `<:name:id>`).
 */
export function EmojiPicker({
  x,
  y,
  guildId,
  onPick,
  onClose,
}: {
  x: number;
  y: number;
  guildId?: string;
  onPick: (value: string, text: string) => void;
  onClose: () => void;
}) {
  const custom = useStore((s) => (guildId ? s.guilds.get(guildId)?.emojis : undefined));
  const [catalogue, setCatalogue] = useState<EmojiCatalogue | null>(null);
  const [query, setQuery] = useState('');
  const [tone, setTone] = useState(skinTone);
  const [toning, setToning] = useState(false);
  const [hover, setHover] = useState<Choice | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    void loadEmoji().then((c) => live && setCatalogue(c));
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    const out = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('mousedown', out);
    window.addEventListener('keydown', esc);
    return () => {
      window.removeEventListener('mousedown', out);
      window.removeEventListener('keydown', esc);
    };
  }, [onClose]);

  const customChoices = useMemo<Choice[]>(
    () =>
      (custom ?? []).map((e) => ({
        key: e.id,
        value: `${e.name}:${e.id}`,
        text: `<${e.animated ? 'a' : ''}:${e.name}:${e.id}>`,
        name: e.name,
        custom: { id: e.id, animated: e.animated },
      })),
    [custom],
  );

  const sections = useMemo(() => {
    if (!catalogue) return [];
    const q = query.trim().toLowerCase();
    if (q) {
      const own = customChoices.filter((c) => c.name.toLowerCase().includes(q));
      return [{ id: 'results', name: 'Search results', items: [...own, ...searchEmoji(catalogue.list, q, 120).map((e) => unicodeChoice(e, tone))] }];
    }
    const byUnicode = new Map(catalogue.list.map((e) => [e.unicode, e]));
    const recents = recentEmoji()
      .map((v) => customChoices.find((c) => c.value === v) ?? (byUnicode.get(v) ? unicodeChoice(byUnicode.get(v)!, 0) : null))
      .filter((c): c is Choice => !!c);
    const out: { id: string; name: string; items: Choice[] }[] = [];
    if (recents.length) out.push({ id: 'recent', name: 'Frequently used', items: recents });
    if (customChoices.length) out.push({ id: 'server', name: 'This server', items: customChoices });
    for (const g of catalogue.groups)
      out.push({ id: `g${g.id}`, name: g.name, items: catalogue.list.filter((e) => e.group === g.id).map((e) => unicodeChoice(e, tone)) });
    return out;
  }, [catalogue, query, tone, customChoices]);

  const pickRef = useRef(onPick);
  pickRef.current = onPick;
  const pick = useCallback(
    (c: Choice) => {
      // Recents keep the base emoji, so a later skin tone applies to them too.
      rememberEmoji(c.custom ? c.value : (catalogue?.list.find((e) => e.unicode === c.unicode || e.skins?.includes(c.unicode!))?.unicode ?? c.value));
      pickRef.current(c.value, c.text);
    },
    [catalogue],
  );
  const jump = (id: string) => body.current?.querySelector(`[data-section="${id}"]`)?.scrollIntoView({ block: 'start' });
  const first = sections[0]?.items[0];

  return createPortal(
    <div
      className="emojipicker"
      ref={ref}
      style={{ left: Math.max(8, Math.min(x, window.innerWidth - 368)), top: Math.max(8, Math.min(y, window.innerHeight - 440)) }}
      role="dialog"
      aria-label="Emoji picker"
    >
      <div className="emojipicker__top">
        <input
          className="emojipicker__search"
          placeholder="Find the perfect emoji"
          aria-label="Search emoji"
          autoFocus
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && first) {
              e.preventDefault();
              pick(first);
            }
          }}
        />
        <div className="emojipicker__tones">
          <button type="button" className="emojipicker__tone" aria-label="Skin tone" aria-expanded={toning} onClick={() => setToning((t) => !t)}>
            <Twemoji emoji={TONES[tone]} />
          </button>
          {toning ? (
            <div className="emojipicker__tonelist" role="listbox" aria-label="Skin tones">
              {TONES.map((t, i) => (
                <button
                  key={t}
                  type="button"
                  role="option"
                  aria-selected={i === tone}
                  aria-label={i === 0 ? 'Default skin tone' : `Skin tone ${i}`}
                  className="emojipicker__tone"
                  onClick={() => {
                    setTone(i);
                    setSkinTone(i);
                    setToning(false);
                  }}
                >
                  <Twemoji emoji={t} />
                </button>
              ))}
            </div>
          ) : null}
        </div>
      </div>
      <div className="emojipicker__main">
        {!query ? (
          <nav className="emojipicker__cats" aria-label="Emoji categories">
            {sections.map((s) => (
              <button key={s.id} type="button" className="emojipicker__cat" aria-label={s.name} title={s.name} onClick={() => jump(s.id)}>
                {s.id === 'recent' ? (
                  <Twemoji emoji="🕘" />
                ) : s.id === 'server' ? (
                  <img className="emoji" src={customEmojiUrl(s.items[0].custom!.id, s.items[0].custom!.animated, 32)} alt="" />
                ) : (
                  <Twemoji emoji={GROUP_ICON[Number(s.id.slice(1))] ?? '❔'} />
                )}
              </button>
            ))}
          </nav>
        ) : null}
        <div className="emojipicker__body" ref={body}>
          {!catalogue ? (
            <div className="emojipicker__empty">
              <Spinner small /> Loading emoji…
            </div>
          ) : null}
          {catalogue && query && !sections[0]?.items.length ? <div className="emojipicker__empty">No emoji match “{query}”.</div> : null}
          <Sections sections={sections} onHover={setHover} onPick={pick} />
        </div>
      </div>
      <div className="emojipicker__foot" aria-live="polite">
        {hover ? (
          <>
            {hover.custom ? (
              <img className="emoji" src={customEmojiUrl(hover.custom.id, hover.custom.animated, 32)} alt="" />
            ) : (
              <Twemoji emoji={hover.unicode!} />
            )}
            <span className="ellipsis">:{hover.name}:</span>
          </>
        ) : (
          <span className="muted">Pick an emoji</span>
        )}
      </div>
    </div>,
    document.body,
  );
}

/** The grid, apart from the picker so that hovering (which changes the footer) does not redraw every emoji. */
const Sections = memo(function Sections({
  sections,
  onHover,
  onPick,
}: {
  sections: { id: string; name: string; items: Choice[] }[];
  onHover: (c: Choice) => void;
  onPick: (c: Choice) => void;
}) {
  return (
    <>
      {sections.map((s) =>
        s.items.length ? (
          <section key={s.id} data-section={s.id} aria-label={s.name}>
            <h3 className="emojipicker__head">{s.name}</h3>
            <div className="emojipicker__grid">
              {s.items.map((c) => (
                <button
                  key={c.key}
                  type="button"
                  className="emojipicker__e"
                  aria-label={`:${c.name}:`}
                  onMouseEnter={() => onHover(c)}
                  onFocus={() => onHover(c)}
                  onClick={() => onPick(c)}
                >
                  {c.custom ? (
                    <img className="emoji" src={customEmojiUrl(c.custom.id, c.custom.animated, 32)} alt={c.name} loading="lazy" />
                  ) : (
                    <Twemoji emoji={c.unicode!} />
                  )}
                </button>
              ))}
            </div>
          </section>
        ) : null,
      )}
    </>
  );
});
