import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ApiError, type ErrorTree } from '../src/core/errors.js';
import {
  validateMessageComponents,
  validateModal,
  modalSubmitShape,
  submittedValues,
  type MessageComponentOpts,
} from '../src/services/apps/components/index.js';

const V2 = 1 << 15;
type P = (string | number)[];

/** The `_errors` leaf at a path of a 50035 tree. */
function leafAt(tree: ErrorTree | undefined, path: P) {
  let node: any = tree;
  for (const k of path) node = node?.[String(k)];
  return node?._errors as { code: string; message: string }[] | undefined;
}

/** Runs fn, expects 50035 with `code` at exactly `path`. */
function fails(fn: () => unknown, path: P, code: string) {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof ApiError, `expected an ApiError at ${path.join('.')} (${code}), got ${err === undefined ? 'success' : String(err)}`);
  assert.equal(err.code, 50035);
  assert.equal(err.status, 400);
  const leaves = leafAt(err.errors, path);
  assert.ok(
    leaves?.some((l) => l.code === code),
    `expected ${code} at ${path.join('.')}, got ${JSON.stringify(err.errors)}`,
  );
}

const legacy = (components: unknown, opts: Partial<MessageComponentOpts> = {}) => validateMessageComponents(components, { flags: 0, ...opts });
const v2 = (components: unknown, opts: Partial<MessageComponentOpts> = {}) => validateMessageComponents(components, { flags: V2, ...opts });
const row = (...components: unknown[]) => ({ type: 1, components });
const btn = (custom_id: string, extra: Record<string, unknown> = {}) => ({ type: 2, style: 1, label: custom_id, custom_id, ...extra });
const sel = (custom_id: string, extra: Record<string, unknown> = {}) => ({
  type: 3,
  custom_id,
  options: [
    { label: 'A', value: 'a' },
    { label: 'B', value: 'b' },
  ],
  ...extra,
});
const text = (content: string) => ({ type: 10, content });

describe('legacy message components', () => {
  test('rows of buttons and a select are accepted; ids are assigned in reading order; leaves list interactive parts', () => {
    const r = legacy([row(btn('a'), btn('b'), { type: 2, style: 5, label: 'site', url: 'https://example.com' }), row(sel('s'))]);
    assert.deepEqual(
      r.components.map((c) => c.id),
      [1, 5],
    );
    assert.deepEqual(
      (r.components[0].components as any[]).map((c) => c.id),
      [2, 3, 4],
    );
    assert.equal((r.components[1].components as any[])[0].id, 6);
    assert.deepEqual(
      r.leaves.map((l) => [l.custom_id, l.type, l.id]),
      [
        ['a', 2, 2],
        ['b', 2, 3],
        ['s', 3, 6],
      ],
    );
    assert.equal((r.components[0].components as any[])[2].url, 'https://example.com');
  });

  test('absent or null components give an empty list', () => {
    assert.deepEqual(legacy(undefined).components, []);
    assert.deepEqual(legacy(null).components, []);
  });

  test('explicit ids are kept and auto ids skip them; duplicates are refused', () => {
    const r = legacy([row(btn('a', { id: 2 }), btn('b'))]);
    assert.equal(r.components[0].id, 1);
    assert.deepEqual(
      (r.components[0].components as any[]).map((c) => c.id),
      [2, 3],
    );
    fails(() => legacy([row(btn('a', { id: 7 }), btn('b', { id: 7 }))]), ['components', 0, 'components', 1, 'id'], 'COMPONENT_ID_DUPLICATED');
    fails(() => legacy([row(btn('a', { id: -1 }))]), ['components', 0, 'components', 0, 'id'], 'NUMBER_TYPE_MIN');
  });

  test('unknown keys are dropped', () => {
    const r = legacy([row(btn('a', { bogus: 1 }))]);
    assert.equal('bogus' in (r.components[0].components as any[])[0], false);
  });

  test('at most 5 rows; only rows at the top level', () => {
    fails(() => legacy([1, 2, 3, 4, 5, 6].map((i) => row(btn(`b${i}`)))), ['components'], 'BASE_TYPE_MAX_LENGTH');
    fails(() => legacy([text('hi')]), ['components', 0], 'UNION_TYPE_CHOICES');
    fails(() => legacy([btn('a')]), ['components', 0], 'UNION_TYPE_CHOICES');
    fails(() => legacy('nope'), ['components'], 'LIST_TYPE_CONVERT');
    fails(() => legacy([{ components: [] }]), ['components', 0, 'type'], 'BASE_TYPE_REQUIRED');
  });

  test('a row holds 1-5 buttons or exactly one select; no text inputs', () => {
    fails(() => legacy([row(...[1, 2, 3, 4, 5, 6].map((i) => btn(`b${i}`)))]), ['components', 0, 'components'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => legacy([row()]), ['components', 0, 'components'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => legacy([row(sel('s'), btn('a'))]), ['components', 0, 'components'], 'COMPONENT_LAYOUT_WIDTH_EXCEEDED');
    fails(() => legacy([row({ type: 4, custom_id: 't', style: 1, label: 'x' })]), ['components', 0, 'components', 0], 'UNION_TYPE_CHOICES');
  });

  test('buttons: style, custom_id, label, emoji', () => {
    const at = ['components', 0, 'components', 0];
    fails(() => legacy([row(btn('a', { style: 7 }))]), [...at, 'style'], 'BASE_TYPE_CHOICES');
    fails(() => legacy([row({ type: 2, label: 'x', custom_id: 'a' })]), [...at, 'style'], 'BASE_TYPE_REQUIRED');
    fails(() => legacy([row({ type: 2, style: 1, label: 'x' })]), [...at, 'custom_id'], 'BASE_TYPE_REQUIRED');
    fails(() => legacy([row(btn('x'.repeat(101)))]), [...at, 'custom_id'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => legacy([row(btn('a', { custom_id: '' }))]), [...at, 'custom_id'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => legacy([row(btn('a', { label: 'x'.repeat(81) }))]), [...at, 'label'], 'BASE_TYPE_MAX_LENGTH');
    fails(() => legacy([row({ type: 2, style: 2, custom_id: 'a' })]), [...at, 'label'], 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED');
    fails(() => legacy([row(btn('a', { url: 'https://x.y' }))]), [...at, 'url'], 'BUTTON_COMPONENT_INVALID_FIELD');
    fails(() => legacy([row(btn('a', { emoji: { name: 'x'.repeat(33) } }))]), [...at, 'emoji', 'name'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => legacy([row(btn('a', { emoji: { id: 'abc' } }))]), [...at, 'emoji', 'id'], 'NUMBER_TYPE_COERCE');
    fails(() => legacy([row(btn('a', { disabled: 'yes' }))]), [...at, 'disabled'], 'BOOLEAN_TYPE_COERCE');
    const ok = legacy([row({ type: 2, style: 4, custom_id: 'e', emoji: { name: '🔥' } })]);
    assert.deepEqual((ok.components[0].components as any[])[0].emoji, { name: '🔥' });
  });

  test('link buttons: url ≤ 512 required, no custom_id', () => {
    const at = ['components', 0, 'components', 0];
    fails(() => legacy([row({ type: 2, style: 5, label: 'l' })]), [...at, 'url'], 'BASE_TYPE_REQUIRED');
    fails(() => legacy([row({ type: 2, style: 5, label: 'l', url: 'https://x.y/' + 'a'.repeat(512) })]), [...at, 'url'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => legacy([row({ type: 2, style: 5, label: 'l', url: 'https://x.y', custom_id: 'c' })]), [...at, 'custom_id'], 'BUTTON_COMPONENT_INVALID_FIELD');
    fails(() => legacy([row({ type: 2, style: 5, label: 'l', url: 'not a url' })]), [...at, 'url'], 'URL_TYPE_INVALID_URL');
    assert.equal(legacy([row({ type: 2, style: 5, label: 'l', url: 'https://x.y' })]).leaves.length, 0);
  });

  test('premium buttons: sku_id of an existing SKU, and nothing else', () => {
    const at = ['components', 0, 'components', 0];
    const skuExists = (id: string) => id === '123';
    const ok = legacy([row({ type: 2, style: 6, sku_id: '123' })], { skuExists });
    assert.equal((ok.components[0].components as any[])[0].sku_id, '123');
    fails(() => legacy([row({ type: 2, style: 6 })], { skuExists }), [...at, 'sku_id'], 'BASE_TYPE_REQUIRED');
    fails(() => legacy([row({ type: 2, style: 6, sku_id: '999' })], { skuExists }), [...at, 'sku_id'], 'BUTTON_COMPONENT_INVALID_SKU');
    fails(() => legacy([row({ type: 2, style: 6, sku_id: '123' })]), [...at, 'sku_id'], 'BUTTON_COMPONENT_INVALID_SKU');
    for (const key of ['label', 'custom_id', 'url']) {
      fails(() => legacy([row({ type: 2, style: 6, sku_id: '123', [key]: 'x' })], { skuExists }), [...at, key], 'BUTTON_COMPONENT_INVALID_FIELD');
    }
    fails(() => legacy([row({ type: 2, style: 6, sku_id: '123', emoji: { name: 'x' } })], { skuExists }), [...at, 'emoji'], 'BUTTON_COMPONENT_INVALID_FIELD');
    fails(() => legacy([row(btn('a', { sku_id: '123' }))], { skuExists }), [...at, 'sku_id'], 'BUTTON_COMPONENT_INVALID_FIELD');
  });

  test('custom_id is unique in the message', () => {
    fails(() => legacy([row(btn('a')), row(btn('a'))]), ['components', 1, 'components', 0, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED');
    fails(() => legacy([row(btn('a')), row(sel('a'))]), ['components', 1, 'components', 0, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED');
  });

  test('string selects: options 1-25, values, placeholder, min/max values', () => {
    const at = ['components', 0, 'components', 0];
    fails(() => legacy([row({ type: 3, custom_id: 's' })]), [...at, 'options'], 'BASE_TYPE_REQUIRED');
    fails(() => legacy([row(sel('s', { options: [] }))]), [...at, 'options'], 'BASE_TYPE_BAD_LENGTH');
    const many = Array.from({ length: 26 }, (_, i) => ({ label: `L${i}`, value: `v${i}` }));
    fails(() => legacy([row(sel('s', { options: many }))]), [...at, 'options'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => legacy([row(sel('s', { options: [{ value: 'a' }] }))]), [...at, 'options', 0, 'label'], 'BASE_TYPE_REQUIRED');
    fails(() => legacy([row(sel('s', { options: [{ label: 'a', value: 'x'.repeat(101) }] }))]), [...at, 'options', 0, 'value'], 'BASE_TYPE_BAD_LENGTH');
    fails(
      () => legacy([row(sel('s', { options: [{ label: 'a', value: 'a', description: 'x'.repeat(101) }] }))]),
      [...at, 'options', 0, 'description'],
      'BASE_TYPE_MAX_LENGTH',
    );
    fails(
      () =>
        legacy([
          row(
            sel('s', {
              options: [
                { label: 'a', value: 'a' },
                { label: 'b', value: 'a' },
              ],
            }),
          ),
        ]),
      [...at, 'options', 1, 'value'],
      'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED',
    );
    fails(() => legacy([row(sel('s', { placeholder: 'x'.repeat(151) }))]), [...at, 'placeholder'], 'BASE_TYPE_MAX_LENGTH');
    fails(() => legacy([row(sel('s', { min_values: 26 }))]), [...at, 'min_values'], 'NUMBER_TYPE_MAX');
    fails(() => legacy([row(sel('s', { max_values: 0 }))]), [...at, 'max_values'], 'NUMBER_TYPE_MIN');
    fails(() => legacy([row(sel('s', { max_values: 3 }))]), [...at, 'max_values'], 'NUMBER_TYPE_MAX');
    fails(() => legacy([row(sel('s', { min_values: 2, max_values: 1 }))]), [...at, 'min_values'], 'NUMBER_TYPE_MAX');
    fails(() => legacy([row({ type: 3, options: [{ label: 'a', value: 'a' }] })]), [...at, 'custom_id'], 'BASE_TYPE_REQUIRED');
    const ok = legacy([row(sel('s', { min_values: 0, max_values: 2, placeholder: 'pick', required: true }))]);
    const s = (ok.components[0].components as any[])[0];
    assert.equal(s.min_values, 0);
    assert.equal('required' in s, false, 'required is ignored in messages');
  });

  test('entity selects: default_values with the right types, within min..max', () => {
    const at = ['components', 0, 'components', 0];
    const ok = legacy([row({ type: 5, custom_id: 'u', default_values: [{ id: '1', type: 'user' }] })]);
    assert.deepEqual((ok.components[0].components as any[])[0].default_values, [{ id: '1', type: 'user' }]);
    legacy([
      row({
        type: 7,
        custom_id: 'm',
        max_values: 2,
        default_values: [
          { id: '1', type: 'user' },
          { id: '2', type: 'role' },
        ],
      }),
    ]);
    fails(
      () => legacy([row({ type: 5, custom_id: 'u', default_values: [{ id: '1', type: 'role' }] })]),
      [...at, 'default_values', 0, 'type'],
      'BASE_TYPE_CHOICES',
    );
    fails(
      () => legacy([row({ type: 6, custom_id: 'r', default_values: [{ id: 'x', type: 'role' }] })]),
      [...at, 'default_values', 0, 'id'],
      'NUMBER_TYPE_COERCE',
    );
    fails(
      () =>
        legacy([
          row({
            type: 5,
            custom_id: 'u',
            default_values: [
              { id: '1', type: 'user' },
              { id: '2', type: 'user' },
            ],
          }),
        ]),
      [...at, 'default_values'],
      'BASE_TYPE_BAD_LENGTH',
    );
    fails(() => legacy([row({ type: 8, custom_id: 'c', channel_types: [0, 99] })]), [...at, 'channel_types', 1], 'BASE_TYPE_CHOICES');
    const ch = legacy([row({ type: 8, custom_id: 'c', channel_types: [0, 2] })]);
    assert.deepEqual((ch.components[0].components as any[])[0].channel_types, [0, 2]);
  });
});

describe('Components V2 messages', () => {
  const attachments = [
    { filename: 'cat.png', id: '55', url: 'http://cdn/cat.png', proxy_url: 'http://cdn/cat.png', content_type: 'image/png', width: 10, height: 20, size: 99 },
    { filename: 'notes.txt' },
  ];

  test('a full layout is accepted; attachment references are resolved; ids cover every level', () => {
    const r = v2(
      [
        text('# Title'),
        {
          type: 17,
          accent_color: 0xff0000,
          components: [
            { type: 9, components: [text('a'), text('b')], accessory: { type: 11, media: { url: 'attachment://cat.png' }, description: 'a cat' } },
            { type: 9, components: [text('c')], accessory: btn('sec') },
            { type: 14, divider: false, spacing: 2 },
            { type: 12, items: [{ media: { url: 'https://example.com/x.png' } }, { media: { url: 'attachment://cat.png' }, spoiler: true }] },
            { type: 13, file: { url: 'attachment://notes.txt' } },
            row(btn('go')),
          ],
        },
        { type: 13, file: { url: 'attachment://cat.png' }, spoiler: true },
      ],
      { attachments },
    );
    const ids: number[] = [];
    const walk = (c: any) => {
      ids.push(c.id);
      (c.components ?? []).forEach(walk);
      if (c.accessory) walk(c.accessory);
    };
    r.components.forEach(walk);
    assert.deepEqual(
      ids,
      Array.from({ length: ids.length }, (_, i) => i + 1),
    );
    assert.equal(ids.length, 15);
    const container = r.components[1] as any;
    assert.equal(container.accent_color, 0xff0000);
    assert.equal(container.spoiler, false);
    assert.equal(container.components[0].accessory.media.url, 'http://cdn/cat.png');
    assert.equal(container.components[0].accessory.media.attachment_id, '55');
    assert.deepEqual(container.components[2], { type: 14, id: 10, divider: false, spacing: 2 });
    assert.equal(container.components[3].items[0].media.url, 'https://example.com/x.png');
    assert.equal(container.components[4].file.url, 'attachment://notes.txt', 'an unresolved reference stays as given');
    const file = r.components[2] as any;
    assert.equal(file.name, 'cat.png');
    assert.equal(file.size, 99);
    assert.equal(file.file.url, 'http://cdn/cat.png');
    assert.deepEqual(
      r.leaves.map((l) => l.custom_id),
      ['sec', 'go'],
    );
  });

  test('content, embeds, poll and stickers are refused beside the flag (paths beside components)', () => {
    fails(() => v2([text('x')], { hasContent: true }), ['content'], 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2');
    fails(() => v2([text('x')], { hasEmbeds: true }), ['embeds'], 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2');
    fails(() => v2([text('x')], { hasPoll: true }), ['poll'], 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2');
    fails(() => v2([text('x')], { hasStickers: true }), ['sticker_ids'], 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2');
    fails(
      () => validateMessageComponents([text('x')], { flags: V2, hasContent: true }, ['data', 'components']),
      ['data', 'content'],
      'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
    );
    // Without the flag they are fine.
    legacy([row(btn('a'))], { hasContent: true, hasEmbeds: true, hasPoll: true, hasStickers: true });
  });

  test('40 components in total across levels; no separate top-level limit', () => {
    v2(Array.from({ length: 40 }, (_, i) => text(`t${i}`)));
    v2([1, 2, 3, 4, 5, 6, 7].map((i) => row(btn(`b${i}`))));
    fails(() => v2(Array.from({ length: 41 }, (_, i) => text(`t${i}`))), ['components'], 'BASE_TYPE_MAX_LENGTH');
    const nested = { type: 17, components: Array.from({ length: 20 }, (_, i) => row(btn(`a${i}`))) };
    fails(() => v2([nested]), ['components'], 'COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED');
  });

  test('top-level and container types', () => {
    fails(() => v2([{ type: 11, media: { url: 'https://x.y/a.png' } }]), ['components', 0], 'UNION_TYPE_CHOICES');
    fails(() => v2([btn('a')]), ['components', 0], 'UNION_TYPE_CHOICES');
    fails(() => v2([{ type: 17, components: [{ type: 17, components: [text('x')] }] }]), ['components', 0, 'components', 0], 'UNION_TYPE_CHOICES');
    fails(() => v2([{ type: 17, components: [] }]), ['components', 0, 'components'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => v2([{ type: 17, components: [text('x')], accent_color: 0x1000000 }]), ['components', 0, 'accent_color'], 'NUMBER_TYPE_MAX');
    fails(() => v2([{ type: 17, components: [text('x')], spoiler: 'no' }]), ['components', 0, 'spoiler'], 'BOOLEAN_TYPE_COERCE');
    assert.equal((v2([{ type: 17, components: [text('x')], accent_color: null }]).components[0] as any).accent_color, null);
  });

  test('sections: 1-3 text displays and a button or thumbnail accessory', () => {
    fails(
      () => v2([{ type: 9, components: [text('a'), text('b'), text('c'), text('d')], accessory: btn('x') }]),
      ['components', 0, 'components'],
      'BASE_TYPE_BAD_LENGTH',
    );
    fails(() => v2([{ type: 9, components: [text('a')] }]), ['components', 0, 'accessory'], 'BASE_TYPE_REQUIRED');
    fails(() => v2([{ type: 9, components: [text('a')], accessory: sel('s') }]), ['components', 0, 'accessory'], 'UNION_TYPE_CHOICES');
    fails(() => v2([{ type: 9, components: [btn('q')], accessory: btn('x') }]), ['components', 0, 'components', 0], 'UNION_TYPE_CHOICES');
    fails(
      () => v2([{ type: 9, components: [text('a')], accessory: { type: 11, media: { url: 'https://x.y/a.png' }, description: 'x'.repeat(1025) } }]),
      ['components', 0, 'accessory', 'description'],
      'BASE_TYPE_MAX_LENGTH',
    );
    fails(() => v2([{ type: 9, components: [text('a')], accessory: { type: 11 } }]), ['components', 0, 'accessory', 'media'], 'BASE_TYPE_REQUIRED');
  });

  test('text display content 1-4000', () => {
    fails(() => v2([text('x'.repeat(4001))]), ['components', 0, 'content'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => v2([text('')]), ['components', 0, 'content'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => v2([{ type: 10 }]), ['components', 0, 'content'], 'BASE_TYPE_REQUIRED');
  });

  test('media gallery: 1-10 items, description ≤ 1024, urls', () => {
    const item = { media: { url: 'https://x.y/a.png' } };
    fails(() => v2([{ type: 12, items: [] }]), ['components', 0, 'items'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => v2([{ type: 12, items: Array(11).fill(item) }]), ['components', 0, 'items'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => v2([{ type: 12, items: [{ ...item, description: 'x'.repeat(1025) }] }]), ['components', 0, 'items', 0, 'description'], 'BASE_TYPE_MAX_LENGTH');
    fails(() => v2([{ type: 12, items: [{ media: { url: 'ftp://x' } }] }]), ['components', 0, 'items', 0, 'media', 'url'], 'URL_TYPE_INVALID_URL');
    fails(
      () => v2([{ type: 12, items: [{ media: { url: 'attachment://missing.png' } }] }], { attachments }),
      ['components', 0, 'items', 0, 'media', 'url'],
      'UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND',
    );
    fails(() => v2([{ type: 12, items: [{}] }]), ['components', 0, 'items', 0, 'media'], 'BASE_TYPE_REQUIRED');
  });

  test('file: attachment:// of an uploaded attachment only', () => {
    fails(() => v2([{ type: 13, file: { url: 'https://x.y/a.txt' } }]), ['components', 0, 'file', 'url'], 'UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED');
    fails(
      () => v2([{ type: 13, file: { url: 'attachment://nope.txt' } }], { attachments }),
      ['components', 0, 'file', 'url'],
      'UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND',
    );
    fails(() => v2([{ type: 13, file: { url: 'attachment://notes.txt' } }]), ['components', 0, 'file', 'url'], 'UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND');
    fails(() => v2([{ type: 13 }]), ['components', 0, 'file'], 'BASE_TYPE_REQUIRED');
    // Echoing back a stored message's component (its resolved url) still names the attachment.
    const echoed = v2([{ type: 13, file: { url: 'http://cdn/cat.png' } }], { attachments });
    assert.equal((echoed.components[0] as any).name, 'cat.png');
    assert.equal((echoed.components[0] as any).file.attachment_id, '55');
  });

  test('separator: spacing 1|2, divider boolean, defaults', () => {
    fails(() => v2([{ type: 14, spacing: 3 }]), ['components', 0, 'spacing'], 'BASE_TYPE_CHOICES');
    fails(() => v2([{ type: 14, divider: 1 }]), ['components', 0, 'divider'], 'BOOLEAN_TYPE_COERCE');
    assert.deepEqual(v2([{ type: 14 }]).components[0], { type: 14, id: 1, divider: true, spacing: 1 });
  });

  test('action rows inside V2 follow the row rules', () => {
    fails(() => v2([{ type: 17, components: [row(sel('s'), sel('t'))] }]), ['components', 0, 'components', 0, 'components'], 'COMPONENT_LAYOUT_WIDTH_EXCEEDED');
  });

  test('several errors are reported together', () => {
    let err: any;
    try {
      v2([text(''), { type: 14, spacing: 9 }]);
    } catch (e) {
      err = e;
    }
    assert.ok(leafAt(err.errors, ['components', 0, 'content']));
    assert.ok(leafAt(err.errors, ['components', 1, 'spacing']));
  });
});

describe('modals', () => {
  const label = (component: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 18, label: 'Label', component, ...extra });
  const input = (custom_id: string, extra: Record<string, unknown> = {}) => ({ type: 4, custom_id, style: 1, ...extra });
  const modal = (components: unknown[], extra: Record<string, unknown> = {}) => ({ custom_id: 'm', title: 'Title', components, ...extra });
  const D = ['data', 'components'];

  test('every allowed component is accepted and numbered', () => {
    const m = validateModal(
      modal([
        text('Intro'),
        label(input('name', { min_length: 2, max_length: 10, placeholder: 'you', value: 'Al' }), { description: 'Your name' }),
        label(sel('color')),
        label({ type: 5, custom_id: 'who', max_values: 3 }),
        label({ type: 19, custom_id: 'files', min_values: 1, max_values: 3, file_types: ['image', '.pdf'] }),
        label({
          type: 21,
          custom_id: 'radio',
          options: [
            { label: 'Yes', value: 'y' },
            { label: 'No', value: 'n', default: true },
          ],
        }),
        label({
          type: 22,
          custom_id: 'boxes',
          options: [
            { label: 'A', value: 'a' },
            { label: 'B', value: 'b' },
          ],
          min_values: 0,
          max_values: 2,
        }),
        label({ type: 23, custom_id: 'agree', default: true }),
        row(input('legacy', { label: 'Old style', style: 2 })),
      ]),
    );
    assert.equal(m.custom_id, 'm');
    assert.equal(m.title, 'Title');
    assert.equal(m.components.length, 9);
    assert.deepEqual(
      m.components.slice(0, 3).map((c) => c.id),
      [1, 2, 4],
    );
    assert.equal((m.components[1] as any).component.id, 3);
    assert.equal((m.components[1] as any).description, 'Your name');
    assert.equal((m.components[8] as any).components[0].label, 'Old style');
  });

  test('custom_id, title and components are required with their lengths', () => {
    fails(() => validateModal({ title: 'T', components: [text('x')] }), ['data', 'custom_id'], 'BASE_TYPE_REQUIRED');
    fails(() => validateModal(modal([text('x')], { custom_id: 'x'.repeat(101) })), ['data', 'custom_id'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => validateModal(modal([text('x')], { title: 'x'.repeat(46) })), ['data', 'title'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => validateModal(modal([text('x')], { title: undefined })), ['data', 'title'], 'BASE_TYPE_REQUIRED');
    fails(() => validateModal(modal([])), D, 'BASE_TYPE_BAD_LENGTH');
    fails(() => validateModal(modal(Array.from({ length: 41 }, (_, i) => text(`t${i}`)))), D, 'BASE_TYPE_BAD_LENGTH');
    fails(() => validateModal('x'), ['data'], 'DICT_TYPE_CONVERT');
    validateModal(modal(Array.from({ length: 40 }, (_, i) => text(`t${i}`))));
  });

  test('a Text Input inside a Label has no label of its own; in a legacy row it must', () => {
    fails(() => validateModal(modal([label(input('a', { label: 'Own' }))])), [...D, 0, 'component', 'label'], 'TEXT_INPUT_LABEL_NOT_ALLOWED_IN_LABEL');
    fails(() => validateModal(modal([row(input('a'))])), [...D, 0, 'components', 0, 'label'], 'BASE_TYPE_REQUIRED');
    fails(() => validateModal(modal([row(input('a', { label: 'x' }), input('b', { label: 'y' }))])), [...D, 0, 'components'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => validateModal(modal([row(btn('a'))])), [...D, 0, 'components', 0], 'UNION_TYPE_CHOICES');
  });

  test('text input limits', () => {
    const at = [...D, 0, 'component'];
    fails(() => validateModal(modal([label(input('a', { style: 3 }))])), [...at, 'style'], 'BASE_TYPE_CHOICES');
    fails(() => validateModal(modal([label({ type: 4, custom_id: 'a' })])), [...at, 'style'], 'BASE_TYPE_REQUIRED');
    fails(() => validateModal(modal([label({ type: 4, style: 1 })])), [...at, 'custom_id'], 'BASE_TYPE_REQUIRED');
    fails(() => validateModal(modal([label(input('a', { min_length: 4001 }))])), [...at, 'min_length'], 'NUMBER_TYPE_MAX');
    fails(() => validateModal(modal([label(input('a', { max_length: 0 }))])), [...at, 'max_length'], 'NUMBER_TYPE_MIN');
    fails(() => validateModal(modal([label(input('a', { min_length: 5, max_length: 2 }))])), [...at, 'min_length'], 'NUMBER_TYPE_MAX');
    fails(() => validateModal(modal([label(input('a', { value: 'x'.repeat(4001) }))])), [...at, 'value'], 'BASE_TYPE_MAX_LENGTH');
    fails(() => validateModal(modal([label(input('a', { placeholder: 'x'.repeat(101) }))])), [...at, 'placeholder'], 'BASE_TYPE_MAX_LENGTH');
  });

  test('Label: label 1-45, description ≤ 100, exactly one component of the allowed types', () => {
    fails(() => validateModal(modal([label(input('a'), { label: 'x'.repeat(46) })])), [...D, 0, 'label'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => validateModal(modal([label(input('a'), { description: 'x'.repeat(101) })])), [...D, 0, 'description'], 'BASE_TYPE_MAX_LENGTH');
    fails(() => validateModal(modal([{ type: 18, label: 'L' }])), [...D, 0, 'component'], 'BASE_TYPE_REQUIRED');
    fails(() => validateModal(modal([label(input('a'), { components: [input('b')] })])), [...D, 0, 'components'], 'LABEL_COMPONENT_SINGLE_CHILD');
    fails(() => validateModal(modal([label(btn('a'))])), [...D, 0, 'component'], 'UNION_TYPE_CHOICES');
    fails(() => validateModal(modal([label(text('a'))])), [...D, 0, 'component'], 'UNION_TYPE_CHOICES');
  });

  test('selects, radio groups, checkboxes and file uploads only inside a Label', () => {
    for (const c of [
      sel('s'),
      { type: 19, custom_id: 'f' },
      { type: 21, custom_id: 'r', options: [] },
      { type: 22, custom_id: 'g', options: [] },
      { type: 23, custom_id: 'c' },
      input('t'),
    ]) {
      fails(() => validateModal(modal([c])), [...D, 0], 'UNION_TYPE_CHOICES');
    }
  });

  test('selects in a Label: disabled is refused, required is kept', () => {
    fails(() => validateModal(modal([label(sel('s', { disabled: true }))])), [...D, 0, 'component', 'disabled'], 'COMPONENT_DISABLED_NOT_ALLOWED');
    const m = validateModal(modal([label(sel('s', { required: false, disabled: false }))]));
    assert.equal((m.components[0] as any).component.required, false);
    assert.equal('disabled' in (m.components[0] as any).component, false);
  });

  test('file upload: 0-10 files, required needs min ≥ 1, file types', () => {
    const at = [...D, 0, 'component'];
    const fu = (extra: Record<string, unknown>) => validateModal(modal([label({ type: 19, custom_id: 'f', ...extra })]));
    fails(() => fu({ max_values: 11 }), [...at, 'max_values'], 'NUMBER_TYPE_MAX');
    fails(() => fu({ min_values: 11 }), [...at, 'min_values'], 'NUMBER_TYPE_MAX');
    fails(() => fu({ min_values: 3, max_values: 2 }), [...at, 'min_values'], 'NUMBER_TYPE_MAX');
    fails(() => fu({ min_values: 0 }), [...at, 'min_values'], 'NUMBER_TYPE_MIN');
    fu({ min_values: 0, max_values: 2, required: false });
    fails(() => fu({ file_types: Array(11).fill('image') }), [...at, 'file_types'], 'BASE_TYPE_MAX_LENGTH');
    fails(() => fu({ file_types: ['exe'] }), [...at, 'file_types', 0], 'FILE_UPLOAD_INVALID_FILE_TYPE');
  });

  test('radio group: 2-10 options, one default at most', () => {
    const at = [...D, 0, 'component'];
    const opts = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `L${i}`, value: `v${i}` }));
    fails(() => validateModal(modal([label({ type: 21, custom_id: 'r', options: opts(1) })])), [...at, 'options'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => validateModal(modal([label({ type: 21, custom_id: 'r', options: opts(11) })])), [...at, 'options'], 'BASE_TYPE_BAD_LENGTH');
    fails(
      () => validateModal(modal([label({ type: 21, custom_id: 'r', options: opts(2).map((o) => ({ ...o, default: true })) })])),
      [...at, 'options'],
      'RADIO_GROUP_TOO_MANY_DEFAULTS',
    );
    fails(
      () => validateModal(modal([label({ type: 21, custom_id: 'r', options: [{ label: 'a' }, { label: 'b', value: 'b' }] })])),
      [...at, 'options', 0, 'value'],
      'BASE_TYPE_REQUIRED',
    );
  });

  test('checkbox group: 1-10 options, min/max values; checkbox: custom_id, default', () => {
    const at = [...D, 0, 'component'];
    const opts = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `L${i}`, value: `v${i}` }));
    fails(() => validateModal(modal([label({ type: 22, custom_id: 'g', options: opts(11) })])), [...at, 'options'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => validateModal(modal([label({ type: 22, custom_id: 'g', options: [] })])), [...at, 'options'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => validateModal(modal([label({ type: 22, custom_id: 'g', options: opts(2), max_values: 3 })])), [...at, 'max_values'], 'NUMBER_TYPE_MAX');
    fails(
      () => validateModal(modal([label({ type: 22, custom_id: 'g', options: opts(3), min_values: 3, max_values: 2 })])),
      [...at, 'min_values'],
      'NUMBER_TYPE_MAX',
    );
    fails(() => validateModal(modal([label({ type: 22, custom_id: 'g', options: opts(3), min_values: 11 })])), [...at, 'min_values'], 'NUMBER_TYPE_MAX');
    fails(() => validateModal(modal([label({ type: 23 })])), [...at, 'custom_id'], 'BASE_TYPE_REQUIRED');
    fails(() => validateModal(modal([label({ type: 23, custom_id: 'c', default: 'yes' })])), [...at, 'default'], 'BOOLEAN_TYPE_COERCE');
  });

  test('custom_id is unique in the modal', () => {
    fails(() => validateModal(modal([label(input('a')), label(sel('a'))])), [...D, 1, 'component', 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED');
  });
});

describe('modal submissions', () => {
  const m = validateModal({
    custom_id: 'm',
    title: 'T',
    components: [
      { type: 10, content: 'hi' },
      { type: 18, label: 'Name', component: { type: 4, custom_id: 'name', style: 1, min_length: 2, max_length: 5 } },
      { type: 18, label: 'Bio', component: { type: 4, custom_id: 'bio', style: 2, required: false } },
      {
        type: 18,
        label: 'Color',
        component: {
          type: 3,
          custom_id: 'color',
          options: [
            { label: 'Red', value: 'r' },
            { label: 'Blue', value: 'b' },
          ],
          max_values: 2,
        },
      },
      { type: 18, label: 'Who', component: { type: 5, custom_id: 'who', required: false } },
      { type: 18, label: 'Files', component: { type: 19, custom_id: 'files', max_values: 2 } },
      {
        type: 18,
        label: 'Pick',
        component: {
          type: 21,
          custom_id: 'radio',
          options: [
            { label: 'Y', value: 'y' },
            { label: 'N', value: 'n' },
          ],
        },
      },
      {
        type: 18,
        label: 'Boxes',
        component: {
          type: 22,
          custom_id: 'boxes',
          options: [
            { label: 'A', value: 'a' },
            { label: 'B', value: 'b' },
          ],
          min_values: 0,
          max_values: 1,
        },
      },
      { type: 18, label: 'Agree', component: { type: 23, custom_id: 'agree' } },
      { type: 1, components: [{ type: 4, custom_id: 'old', style: 1, label: 'Old', required: false }] },
    ],
  });
  const good = { name: 'Ann', color: ['r', 'b'], files: ['900'], radio: 'y', boxes: [], agree: true, old: 'x' };
  const D = ['data', 'components'];

  test('builds the submit shapes of every component', () => {
    const out = modalSubmitShape(m, good) as any[];
    assert.deepEqual(out[0], { type: 10, id: 1 });
    assert.deepEqual(out[1], { type: 18, id: 2, component: { type: 4, id: 3, custom_id: 'name', value: 'Ann' } });
    assert.deepEqual(out[2].component, { type: 4, id: 5, custom_id: 'bio', value: '' });
    assert.deepEqual(out[3].component, { type: 3, id: 7, custom_id: 'color', values: ['r', 'b'] });
    assert.deepEqual(out[4].component, { type: 5, id: 9, custom_id: 'who', values: [] });
    assert.deepEqual(out[5].component, { type: 19, id: 11, custom_id: 'files', values: ['900'] });
    assert.deepEqual(out[6].component, { type: 21, id: 13, custom_id: 'radio', value: 'y' });
    assert.deepEqual(out[7].component, { type: 22, id: 15, custom_id: 'boxes', values: [] });
    assert.deepEqual(out[8].component, { type: 23, id: 17, custom_id: 'agree', value: true });
    assert.deepEqual(out[9], { type: 1, id: 18, components: [{ type: 4, id: 19, custom_id: 'old', value: 'x' }] });
    const viaMap = modalSubmitShape(m, new Map(Object.entries({ ...good, agree: undefined })));
    assert.equal((viaMap[8] as any).component.value, false, 'an unchecked checkbox submits false');
  });

  test('each broken value is refused at its path', () => {
    fails(() => modalSubmitShape(m, { ...good, name: undefined }), [...D, 1, 'component', 'value'], 'BASE_TYPE_REQUIRED');
    fails(() => modalSubmitShape(m, { ...good, name: 'A' }), [...D, 1, 'component', 'value'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => modalSubmitShape(m, { ...good, name: 'Annabel' }), [...D, 1, 'component', 'value'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => modalSubmitShape(m, { ...good, name: ['x'] }), [...D, 1, 'component', 'value'], 'BASE_TYPE_STRING');
    fails(() => modalSubmitShape(m, { ...good, color: [] }), [...D, 3, 'component', 'values'], 'BASE_TYPE_REQUIRED');
    fails(() => modalSubmitShape(m, { ...good, color: ['g'] }), [...D, 3, 'component', 'values', 0], 'BASE_TYPE_CHOICES');
    fails(() => modalSubmitShape(m, { ...good, who: ['x'] }), [...D, 4, 'component', 'values', 0], 'NUMBER_TYPE_COERCE');
    fails(() => modalSubmitShape(m, { ...good, who: ['1', '2'] }), [...D, 4, 'component', 'values'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => modalSubmitShape(m, { ...good, files: [] }), [...D, 5, 'component', 'values'], 'BASE_TYPE_REQUIRED');
    fails(() => modalSubmitShape(m, { ...good, files: ['1', '2', '3'] }), [...D, 5, 'component', 'values'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => modalSubmitShape(m, { ...good, radio: null }), [...D, 6, 'component', 'value'], 'BASE_TYPE_REQUIRED');
    fails(() => modalSubmitShape(m, { ...good, radio: 'maybe' }), [...D, 6, 'component', 'value'], 'BASE_TYPE_CHOICES');
    fails(() => modalSubmitShape(m, { ...good, boxes: ['a', 'b'] }), [...D, 7, 'component', 'values'], 'BASE_TYPE_BAD_LENGTH');
    fails(() => modalSubmitShape(m, { ...good, boxes: ['z'] }), [...D, 7, 'component', 'values', 0], 'BASE_TYPE_CHOICES');
    fails(() => modalSubmitShape(m, { ...good, agree: 'yes' }), [...D, 8, 'component', 'value'], 'BOOLEAN_TYPE_COERCE');
    fails(() => modalSubmitShape(m, { ...good, old: 'x'.repeat(4001) }), [...D, 9, 'components', 0, 'value'], 'BASE_TYPE_MAX_LENGTH');
  });

  test('submittedValues reads what the official client sends', () => {
    const sent = [
      { type: 10, id: 1 },
      { type: 18, id: 2, component: { type: 4, id: 3, custom_id: 'name', value: 'Ann' } },
      { type: 18, id: 6, component: { type: 3, id: 7, custom_id: 'color', values: ['r'] } },
      { type: 18, id: 16, component: { type: 23, id: 17, custom_id: 'agree', value: true } },
      { type: 1, id: 18, components: [{ type: 4, id: 19, custom_id: 'old', value: 'o' }] },
    ];
    const v = submittedValues(sent);
    assert.deepEqual(Object.fromEntries(v), { name: 'Ann', color: ['r'], agree: true, old: 'o' });
    const out = modalSubmitShape(m, new Map([...v, ['files', ['1']], ['radio', 'n']]));
    assert.equal((out[3] as any).component.values[0], 'r');
  });
});

describe('robustness', () => {
  /** Component-ish values: mostly valid shapes with fields swapped for junk, nested a few levels. */
  const junk = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.boolean(),
    fc.constant([]),
    fc.constant({}),
    fc.constant(-1),
    fc.constant(1e20),
  );
  const { comp } = fc.letrec((tie) => ({
    comp: fc.record(
      {
        type: fc.oneof(fc.integer({ min: 0, max: 24 }), junk),
        id: fc.oneof(fc.integer({ min: -2, max: 5 }), junk),
        custom_id: fc.oneof(fc.constantFrom('a', 'b', ''), junk),
        style: fc.oneof(fc.integer({ min: 0, max: 7 }), junk),
        label: fc.oneof(fc.string(), junk),
        url: fc.oneof(fc.constantFrom('https://x.y', 'attachment://a.png', 'attachment://'), junk),
        sku_id: fc.oneof(fc.constant('1'), junk),
        content: fc.oneof(fc.string(), junk),
        options: fc.oneof(
          fc.array(
            fc.record({ label: fc.oneof(fc.string(), junk), value: fc.oneof(fc.string(), junk), default: fc.oneof(fc.boolean(), junk) }, { requiredKeys: [] }),
            { maxLength: 4 },
          ),
          junk,
        ),
        components: fc.oneof(fc.array(tie('comp'), { maxLength: 3 }), junk),
        component: fc.oneof(tie('comp'), junk),
        accessory: fc.oneof(tie('comp'), junk),
        media: fc.oneof(fc.record({ url: fc.oneof(fc.constantFrom('https://x.y/a.png', 'attachment://a.png'), junk) }), junk),
        file: fc.oneof(fc.record({ url: fc.oneof(fc.constant('attachment://a.png'), junk) }), junk),
        items: fc.oneof(fc.array(fc.record({ media: fc.oneof(fc.record({ url: fc.string() }), junk) }), { maxLength: 3 }), junk),
        min_values: fc.oneof(fc.integer({ min: -1, max: 30 }), junk),
        max_values: fc.oneof(fc.integer({ min: -1, max: 30 }), junk),
        default_values: fc.oneof(
          fc.array(fc.record({ id: fc.oneof(fc.constant('1'), junk), type: fc.oneof(fc.constantFrom('user', 'role', 'channel'), junk) }), { maxLength: 3 }),
          junk,
        ),
        emoji: fc.oneof(fc.record({ name: fc.oneof(fc.string(), junk), id: junk }, { requiredKeys: [] }), junk),
      },
      { requiredKeys: ['type'] },
    ),
  }));
  const onlyFormErrors = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 50035) throw e;
    }
  };

  test('the validators only ever answer 50035, whatever the input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(comp, { maxLength: 6 }), junk), fc.integer({ min: 0, max: 1 << 16 }), (components, flags) => {
        onlyFormErrors(() =>
          validateMessageComponents(components, { flags, attachments: [{ filename: 'a.png', url: 'http://cdn/a.png' }], skuExists: () => true }),
        );
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({
            custom_id: fc.oneof(fc.string(), junk),
            title: fc.oneof(fc.string(), junk),
            components: fc.oneof(fc.array(comp, { maxLength: 5 }), junk),
          }),
          junk,
        ),
        (data) => {
          onlyFormErrors(() => {
            const m = validateModal(data);
            const values = new Map<string, any>();
            for (const id of ['a', 'b'])
              values.set(id, fc.sample(fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 }), fc.boolean(), fc.constant(null)), 1)[0]);
            modalSubmitShape(m, values);
          });
        },
      ),
      { numRuns: 400 },
    );
  });
});
