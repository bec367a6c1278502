import { Bitmap, textWidth } from '../../core/png.js';

/**
 * widget.png, drawn as the platform's styles are laid out: `shield` is a badge with the online count; `banner1`–`banner4`
 * show the guild's icon, name and online count. The icon is drawn as the guild's initials on a disc (as clients draw a
 * guild without an icon): decoding the stored image into the PNG is not done.
 */
const BLURPLE = 0x5865f2ff;
const DARK = 0x2b2d31ff;
const DARKER = 0x1e1f22ff;
const WHITE = 0xffffffff;
const GREY = 0xb5bac1ff;
const GREEN = 0x23a55aff;

export const WIDGET_STYLES = ['shield', 'banner1', 'banner2', 'banner3', 'banner4'] as const;

/** Initials as clients draw them: the first character of each word, at most 3. */
export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => [...w][0])
    .join('')
    .slice(0, 3) || '?';

export function renderWidget(guild: { name: string; online: number }, style: (typeof WIDGET_STYLES)[number]): Buffer {
  const online = `${guild.online} ONLINE`;
  if (style === 'shield') {
    const left = 'ACCORD';
    const w = textWidth(left) + textWidth(online) + 20;
    const b = new Bitmap(w, 20, DARK);
    b.rect(0, 0, textWidth(left) + 10, 20, BLURPLE);
    b.text(5, 7, left, WHITE);
    b.circle(textWidth(left) + 14, 10, 2, GREEN);
    b.text(textWidth(left) + 18, 7, online, WHITE);
    return b.png();
  }
  const room = (style === 'banner2' ? 260 : 312) - 76;
  const scale = textWidth(guild.name, 2) <= room ? 2 : 1;
  const fit = Math.floor(room / (6 * scale));
  const name = [...guild.name].length > fit ? `${[...guild.name].slice(0, fit - 1).join('')}.` : guild.name;
  const tall = style === 'banner3' || style === 'banner4';
  const b = new Bitmap(320, tall ? 120 : 76, DARK);
  const top = style === 'banner4' ? 40 : 0;
  if (style === 'banner4') {
    b.rect(0, 0, 320, 36, BLURPLE);
    b.text(160 - textWidth('ACCORD', 2) / 2, 11, 'ACCORD', WHITE, 2);
  }
  b.circle(38, top + 38, 26, BLURPLE);
  const ini = initials(guild.name);
  b.text(38 - textWidth(ini, 2) / 2 + 1, top + 31, ini, WHITE, 2);
  b.text(76, top + (scale === 2 ? 20 : 24), name, WHITE, scale);
  b.circle(80, top + 50, 3, GREEN);
  b.text(88, top + 47, online, GREY);
  if (style === 'banner3') {
    b.rect(0, 96, 320, 24, DARKER);
    b.text(10, 105, 'ACCORD', WHITE);
    b.text(310 - textWidth('CHAT NOW'), 105, 'CHAT NOW', WHITE);
  }
  if (style === 'banner2') {
    b.rect(266, 0, 54, 76, BLURPLE);
    b.text(269, 31, 'JOIN', WHITE, 2);
  }
  return b.png();
}
