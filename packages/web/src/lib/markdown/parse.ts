import { rulesExtended, SimpleMarkdown } from 'discord-markdown-parser';
import { listRule } from './list-rule.js';
import { heading, subtext } from './line-rules.js';
import type { MdNode } from './node.js';

/**
 * Markdown of the official flavour, parsed by discord-markdown-parser (simple-markdown with the platform's
 * rules: mentions, custom emoji, timestamps, spoilers, subtext, headings, slash-command mentions). We only render
 * its tree. The "extended" rule set adds masked links, which the official client renders in every message now, and
 * lists, headings and subtext come from our own rules (list-rule.ts, line-rules.ts).
 */

export type { MdNode } from './node.js';

const parser = SimpleMarkdown.parserFor({ ...rulesExtended, heading, subtext, list: listRule });
const cache = new Map<string, MdNode[]>();
const CACHE_MAX = 4000;

/** Parses once per distinct text: a virtualized list mounts the same messages again and again while scrolling. */
export function parseMarkdown(text: string): MdNode[] {
  let tree = cache.get(text);
  if (tree) return tree;
  tree = parser(text, { inline: true }) as MdNode[];
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(text, tree);
  return tree;
}

/** A message made only of emoji (up to 30) shows them large, as the official client does. */
export function isEmojiOnly(tree: MdNode[]): boolean {
  let count = 0;
  for (const n of tree) {
    if (n.type === 'emoji' || n.type === 'twemoji') count++;
    else if (n.type === 'text' && typeof n.content === 'string' && n.content.trim() === '') continue;
    else return false;
  }
  return count > 0 && count <= 30;
}
