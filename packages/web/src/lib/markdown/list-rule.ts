import { SimpleMarkdown } from 'discord-markdown-parser';
import type { MdNode } from './node.js';
import { atLineStart, type ParserRule } from './line-rules.js';

/**
 * Lists as the official client draws them: lines starting with `- `, `* ` or `1. ` at the start of a line, nested by
 * indentation, an ordered list starting at its first number. simple-markdown's own list rule only runs in block scope
 * and lets a list swallow the lines after it; messages are parsed inline and a list ends at its last item line.
 */
const LIST_LINE = /^( *)([*-]|(\d{1,9})\.) +(\S[^\n]*)$/;
const LIST_BLOCK = /^(?: *(?:[*-]|\d{1,9}\.) +\S[^\n]*(?:\n|$))+/;

interface Line {
  indent: number;
  ordered: boolean;
  start: number;
  text: string;
}

type NestedParse = (source: string, state: Record<string, unknown>) => MdNode[];

function build(lines: Line[], parse: NestedParse, state: Record<string, unknown>): MdNode[] {
  const base = lines[0].indent;
  const lists: MdNode[] = [];
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    let j = i + 1;
    while (j < lines.length && lines[j].indent > base) j++;
    const item = [...parse(line.text, { ...state, inline: true }), ...(j > i + 1 ? build(lines.slice(i + 1, j), parse, state) : [])];
    const last = lists.at(-1);
    if (last && last.ordered === line.ordered) (last.items as MdNode[][]).push(item);
    else lists.push({ type: 'list', ordered: line.ordered, start: line.ordered ? line.start : undefined, items: [item] });
    i = j;
  }
  return lists;
}

export const listRule: ParserRule = {
  order: SimpleMarkdown.defaultRules.list.order,
  match(source, _state, prevSource) {
    if (!atLineStart(prevSource)) return null;
    const block = LIST_BLOCK.exec(source);
    if (!block) return null;
    // The line break after the last item stays for the rule that draws line breaks.
    const text = block[0].endsWith('\n') ? block[0].slice(0, -1) : block[0];
    return Object.assign([text], { index: 0, input: source }) as unknown as RegExpExecArray;
  },
  parse(capture, parse, state) {
    const lines = capture[0].split('\n').map((l): Line => {
      const m = LIST_LINE.exec(l)!;
      return { indent: m[1].length, ordered: m[3] !== undefined, start: Number(m[3] ?? 1), text: m[4] };
    });
    // A rule's parse returns one node; several (a marker change) come back wrapped, unwrapped by the renderer.
    const lists = build(lines, parse as unknown as NestedParse, state as Record<string, unknown>);
    return lists.length === 1 ? lists[0] : { type: 'lists', content: lists };
  },
};
