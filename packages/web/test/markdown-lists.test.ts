/** Lists in the official markdown flavour, parsed as the client renders them (the DOM check is in rendering.test.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMarkdown, type MdNode } from '../src/lib/markdown/parse.ts';

const text = (nodes: MdNode[]): string =>
  nodes.map((n) => (typeof n.content === 'string' ? n.content : Array.isArray(n.content) ? text(n.content) : '')).join('');

test('bulleted and numbered lists start a line; the line after the last item is not part of the list', () => {
  const tree = parseMarkdown('Plan:\n- read **3** chapters\n* discuss\nafter the list');
  const list = tree.find((n) => n.type === 'list')!;
  assert.equal(list.ordered, false);
  assert.deepEqual((list.items as MdNode[][]).map(text), ['read 3 chapters', 'discuss']);
  assert.ok(
    (list.items as MdNode[][])[0].some((n) => n.type === 'strong'),
    'items carry inline markdown',
  );
  assert.equal(text(tree.slice(tree.indexOf(list) + 1)), 'after the list');

  const numbered = parseMarkdown('3. third\n4. fourth')[0];
  assert.equal(numbered.type, 'list');
  assert.equal(numbered.ordered, true);
  assert.equal(numbered.start, 3, 'an ordered list starts at its first number');
});

test('indented items nest; a change of marker kind starts another list', () => {
  const [outer] = parseMarkdown('- fruit\n  - apple\n  1. first\n- veg');
  const items = outer.items as MdNode[][];
  assert.equal(items.length, 2);
  const nested = items[0].filter((n) => n.type === 'list');
  assert.deepEqual(
    nested.map((n) => n.ordered),
    [false, true],
  );
  assert.equal(text((nested[0].items as MdNode[][])[0]), 'apple');
});

test('a dash or a number inside a line, bold stars and subtext are not lists', () => {
  for (const s of ['a - b', '**bold** - x', '2.5 apples', '-no space', '1.no space']) {
    assert.ok(!parseMarkdown(s).some((n) => n.type === 'list'), s);
  }
  assert.equal(parseMarkdown('-# small print')[0].type, 'subtext');
});

test('headings and subtext start any line, also the line after a quote', () => {
  const tree = parseMarkdown('> Fear is the mind-killer.\n-# quotes are fine\n## Next');
  assert.deepEqual(
    tree.filter((n) => n.type !== 'br').map((n) => n.type),
    ['blockQuote', 'subtext', 'heading'],
  );
  assert.ok(!parseMarkdown('not -# at the start').some((n) => n.type === 'subtext'));
  assert.ok(!parseMarkdown('a # b').some((n) => n.type === 'heading'));
});
