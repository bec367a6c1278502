/**
 * Unicode emoji drawn from the bundled Twemoji set (@twemoji/svg), copied into dist/assets/twemoji/ at build
 * (vite.config.ts). Twemoji names a file by the emoji's code points in lowercase hex joined by "-", without the
 * variation selector U+FE0F unless the sequence has a zero-width joiner.
 */
export function twemojiCode(emoji: string): string {
  const points = Array.from(emoji, (c) => c.codePointAt(0)!);
  const zwj = points.includes(0x200d);
  return points
    .filter((p) => zwj || p !== 0xfe0f)
    .map((p) => p.toString(16))
    .join('-');
}

export const twemojiUrl = (emoji: string) => `/assets/twemoji/${twemojiCode(emoji)}.svg`;
