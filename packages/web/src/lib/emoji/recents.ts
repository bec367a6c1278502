/** Recently used emoji (Unicode characters or `name:id` for custom ones), newest first, kept in localStorage. */
const KEY = 'accord.emoji.recent';
const MAX = 24;

export function recentEmoji(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x) => typeof x === 'string').slice(0, MAX) : [];
  } catch {
    return [];
  }
}

export function rememberEmoji(value: string): void {
  const next = [value, ...recentEmoji().filter((x) => x !== value)].slice(0, MAX);
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or disabled: recents are a convenience.
  }
}

const TONE_KEY = 'accord.emoji.tone';
export const skinTone = () => Math.max(0, Math.min(5, Number(localStorage.getItem(TONE_KEY)) || 0));
export const setSkinTone = (t: number) => localStorage.setItem(TONE_KEY, String(t));
