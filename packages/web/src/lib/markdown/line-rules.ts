import { rulesExtended } from 'discord-markdown-parser';

/** The parser's rule type (the package exports it only from an internal path). */
export type ParserRule = (typeof rulesExtended)[string];

/**
 * Rules that only apply at the start of a line: headings and subtext. The parser's own versions look at the last group
 * of the previous match, which is not a line break after a quote, so `> quote` followed by `-# small` stayed text.
 * These look at the text before instead, as its quote rule does.
 */
export const atLineStart = (prevSource: string | undefined) => !prevSource || /\n *$/.test(prevSource);

function startOfLine(rule: ParserRule, re: RegExp): ParserRule {
  return { ...rule, match: (source, _state, prevSource) => (atLineStart(prevSource) ? re.exec(source) : null) };
}

export const heading = startOfLine(rulesExtended.heading, /^(#{1,3}) +([^\n]+?)(\n|$)/);
export const subtext = startOfLine(rulesExtended.subtext, /^-# +([^\n]+?)(\n|$)/);
