/** The composer's completion rules and the Twemoji file names, without a browser (the browser side is composer.test.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { applySuggestion, findTrigger, type Suggestion } from '../src/chat/composer/completion.ts';
import { twemojiCode } from '../src/lib/emoji/twemoji.ts';

test('the word before the caret is completed: @ and # from their first character, : from its third', () => {
  assert.deepEqual(findTrigger('hi @bo', 6), { kind: '@', query: 'bo', start: 3, end: 6 });
  assert.deepEqual(findTrigger('@', 1), { kind: '@', query: '', start: 0, end: 1 });
  assert.deepEqual(findTrigger('see #gen and', 8), { kind: '#', query: 'gen', start: 4, end: 8 });
  assert.equal(findTrigger('a :s', 4), null, 'one letter after ":" is too little (":D" stays text)');
  assert.deepEqual(findTrigger('a :sm', 5), { kind: ':', query: 'sm', start: 2, end: 5 });
  assert.equal(findTrigger('mail me@example', 15), null, 'an @ inside a word is not a mention');
  assert.equal(findTrigger('12:30', 5), null);
  assert.equal(findTrigger('hi @bo there', 12), null, 'the caret is past the word');
});

test('picking replaces the word with the mention syntax and one space, keeping what follows', () => {
  const bob: Suggestion = { key: 'u1', kind: 'member', label: 'Bob', insert: '<@1>' };
  const t = findTrigger('hi @bo, how', 6)!;
  assert.deepEqual(applySuggestion('hi @bo, how', t, bob), { text: 'hi <@1> , how', caret: 8 });
  const end = findTrigger('hi @bo', 6)!;
  assert.deepEqual(applySuggestion('hi @bo', end, bob), { text: 'hi <@1> ', caret: 8 });
});

test('Twemoji file names: no U+FE0F unless the sequence has a joiner, and each name is a file of the package', () => {
  const dir = path.dirname(createRequire(import.meta.url).resolve('@twemoji/svg/package.json'));
  for (const [emoji, code] of [
    ['😄', '1f604'],
    ['❤️', '2764'],
    ['👍🏽', '1f44d-1f3fd'],
    ['👨‍👩‍👧', '1f468-200d-1f469-200d-1f467'],
    ['#️⃣', '23-20e3'],
    ['🏳️‍🌈', '1f3f3-fe0f-200d-1f308'],
  ]) {
    assert.equal(twemojiCode(emoji), code, emoji);
    assert.ok(fs.existsSync(path.join(dir, `${code}.svg`)), `${code}.svg`);
  }
});
