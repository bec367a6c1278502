/**
 * SearchFriendsByUsername's matching: the Levenshtein distance between the search and the closest part of a name
 * (approximate substring matching, so "nov" finds "Captain Nova" and "novq" still does), case-insensitive, over the
 * username and the display name. Typos allowed grow with the search: none up to 2 characters, 1 up to 5, then 2.
 */
export function substringDistance(search: string, text: string): number {
  // Sellers' variant of the edit distance: a match may start anywhere in `text` (row 0 is all zeros).
  let prev = new Array<number>(text.length + 1).fill(0);
  for (let i = 1; i <= search.length; i++) {
    const row = [i];
    for (let j = 1; j <= text.length; j++) {
      const cost = search[i - 1] === text[j - 1] ? 0 : 1;
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
    }
    prev = row;
  }
  return Math.min(...prev);
}

export const allowedTypos = (search: string) => (search.length <= 2 ? 0 : search.length <= 5 ? 1 : 2);

/** The best distance of `search` to any of the names; Infinity for an empty search. */
export function nameDistance(search: string, names: string[]): number {
  const s = search.trim().toLowerCase();
  if (!s) return Infinity;
  return Math.min(...names.filter(Boolean).map((n) => substringDistance(s, n.toLowerCase())));
}
